"""Cards as small integers, as the table terminals spell them and phevaluator counts.

A card is ``rank * 4 + suit`` with ranks ``2`` = 0 … ``A`` = 12 and suits ``c`` = 0,
``d`` = 1, ``h`` = 2, ``s`` = 3: the numbering of phevaluator, so a card goes to the
native evaluator as it is. It also orders cards by rank, then by suit ♠ > ♥ > ♦ > ♣,
which is the order HS5 uses to give a stud odd chip.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.domain.errors import Code, refuse

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ACE = 12

CARD_IDS: dict[str, int] = {
    rank + suit: r * 4 + s
    for r, rank in enumerate(RANKS)
    for s, suit in enumerate(SUITS)
}
CARD_NAMES: tuple[str, ...] = tuple(sorted(CARD_IDS, key=CARD_IDS.__getitem__))

RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)  # fmt: skip


def parse_card(text: object) -> int:
    """Return the card id of a two-character card such as ``"Ah"`` or ``"Tc"``.

    Raises :class:`HandError` ``malformed_card`` for anything else (``"10h"``,
    ``"ah"``, ``"Ax"``, a number).
    """
    try:
        return CARD_IDS[text]  # type: ignore[index]
    except (KeyError, TypeError):
        raise refuse(
            Code.MALFORMED_CARD,
            allowed={"ranks": RANKS, "suits": SUITS},
            card=text,
            ranks=RANKS,
            suits=SUITS,
        ) from None


def parse_cards(texts: Sequence[object]) -> tuple[int, ...]:
    """Return the card ids of ``texts``; raise :class:`HandError` on a bad card."""
    ids = CARD_IDS
    try:
        return tuple([ids[t] for t in texts])  # type: ignore[index]
    except (KeyError, TypeError):
        # Find the offending card again for the message; the happy path stays fast.
        for t in texts:
            parse_card(t)
        raise  # pragma: no cover - every failure above names its card


def card_name(card: int) -> str:
    """Return the two-character name of a card id: ``card_name(51) == "As"``."""
    return CARD_NAMES[card]


def rank_of(card: int) -> int:
    """Return the rank of a card, 0 for a deuce … 12 for an ace."""
    return card >> 2


def suit_of(card: int) -> int:
    """Return the suit of a card, 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3
