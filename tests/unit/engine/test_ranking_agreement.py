"""Every game ranks hands as pokerkit does (HS9), on tens of thousands of deals.

The engine ranks high hands with phevaluator and picks the best low hand itself;
pokerkit is the reference. Two checks per game:

* *pokerkit's own hand classes*: for a few hundred hands, pokerkit's
  ``from_game`` (``StandardHighHand``, ``OmahaHoldemHand``, ``RegularLowHand``…) is
  asked directly;
* *tens of thousands of hands*: pokerkit ranks every five-card hand the game allows
  (its lookup classes, memoised on the ranks and the flush as pokerkit's lookup
  keys them) and the best of them is the reference, so that the deal count fits in
  the test run. ``CARDROOM_AGREEMENT_SCALE=10`` multiplies the deals.

Agreement means the engine's keys and pokerkit's order every pair of hands in the
sample the same way, ties included: sorted by pokerkit, the keys rise exactly
where pokerkit's hands do.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

import pytest
from pokerkit import (
    Card,
    EightOrBetterLowHand,
    Hand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
)

from cardroom.domain.cards import CARD_NAMES
from cardroom.domain.games import GAMES, Game
from cardroom.domain.soko import soko_category

SCALE = int(os.environ.get("CARDROOM_AGREEMENT_SCALE", "1"))
PK_CARDS = tuple(next(iter(Card.parse(name))) for name in CARD_NAMES)

# game code → (players a deal, hole cards, board cards)
DEALS = {
    "NLHE": (9, 2, 5),
    "PLO": (9, 4, 5),
    "PLO5": (9, 5, 5),
    "COURCHEVEL": (9, 5, 5),
    "PLO8": (9, 4, 5),
    "STUD": (7, 7, 0),
    "STUD8": (7, 7, 0),
    "RAZZ": (7, 7, 0),
    "SOKO": (10, 5, 0),
}
# Deals a game gets in the big check: hands = deals x players.
BIG_DEALS = {
    "NLHE": 3000,
    "PLO": 1500,
    "PLO5": 700,
    "COURCHEVEL": 700,
    "PLO8": 1000,
    "STUD": 3000,
    "STUD8": 2000,
    "RAZZ": 3000,
    "SOKO": 5000,
}
HIGH_CLASS = {"any": StandardHighHand, "omaha": OmahaHoldemHand}
LOW_CLASS = {"any": EightOrBetterLowHand, "omaha": OmahaEightOrBetterLowHand}

Deal = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def deals(code: str, count: int, seed: int) -> list[Deal]:
    """Return ``count`` random deals of a game: every seat's cards and the board."""
    players, hole, board = DEALS[code]
    rng = random.Random(f"{code}-{seed}")
    out = []
    for _ in range(count):
        deck = rng.sample(range(52), players * hole + board)
        seats = tuple(tuple(deck[i * hole : (i + 1) * hole]) for i in range(players))
        out.append((seats, tuple(deck[players * hole :])))
    return out


def assert_same_order(
    samples: Sequence[tuple[Any, int | None, object]],
) -> None:
    """Assert that the keys order the hands as the reference does, ties included.

    ``samples`` are ``(reference, key, cards)``; a reference of None (no hand in
    this half, e.g. no low) must come with a key of None.
    """
    for ref, key, cards in samples:
        assert (ref is None) == (key is None), (ref, key, cards)
    ranked = sorted(
        ((ref, key, cards) for ref, key, cards in samples if ref is not None),
        key=lambda s: (s[0], s[1]),
    )
    for (r1, k1, c1), (r2, k2, c2) in pairwise(ranked):
        if r1 == r2:
            assert k1 == k2, f"pokerkit ties {c1} and {c2}, the engine doesn't"
        else:
            assert k1 is not None and k2 is not None and k1 < k2, (
                f"pokerkit ranks {c2} above {c1}, the engine doesn't ({k1}, {k2})"
            )


_five_memo: dict[tuple[Any, ...], int | None] = {}


def pokerkit_five(hand_class: type[Hand], five: Sequence[int]) -> int | None:
    """Return pokerkit's strength of five cards (bigger is better), None if none.

    Memoised on what pokerkit's lookup keys a hand by: its ranks and whether it is
    suited.
    """
    memo_key = (
        hand_class,
        tuple(sorted(c >> 2 for c in five)),
        len({c & 3 for c in five}) == 1,
    )
    if memo_key not in _five_memo:
        try:
            made = hand_class(pk(five))
        except ValueError:
            _five_memo[memo_key] = None
        else:
            index = made.entry.index
            _five_memo[memo_key] = -index if hand_class.low else index
    return _five_memo[memo_key]


def reference(
    hand_class: type[Hand], hole: Sequence[int], board: Sequence[int], omaha: bool
) -> int | None:
    """Return the best pokerkit strength among the fives the game allows."""
    if omaha:
        fives = (a + b for a in combinations(hole, 2) for b in combinations(board, 3))
    else:
        fives = combinations((*hole, *board), 5)
    best = None
    for five in fives:
        strength = pokerkit_five(hand_class, five)
        if strength is not None and (best is None or strength > best):
            best = strength
    return best


def pk(cards: Sequence[int]) -> list[Card]:
    """Return pokerkit's cards for card ids."""
    return [PK_CARDS[c] for c in cards]


def soko_is_standard(key: int) -> bool:
    """Return whether a Sökö key is one of the standard hands (not an extra)."""
    return soko_category(key) not in ("four flush", "four straight")


BOARD_GAMES = ["NLHE", "PLO", "PLO5", "COURCHEVEL", "PLO8"]
STUD_GAMES = ["STUD", "STUD8", "RAZZ"]


def five_classes(game: Game) -> list[tuple[str, type[Hand]]]:
    """Return (half, pokerkit five-card class) for each half of a game."""
    if game.code == "RAZZ":
        return [("high", RegularLowHand)]
    halves: list[tuple[str, type[Hand]]] = [("high", StandardHighHand)]
    if game.low is not None:
        halves.append(("low", EightOrBetterLowHand))
    return halves


@pytest.mark.parametrize("code", BOARD_GAMES + STUD_GAMES)
def test_agrees_with_pokerkit_on_many_deals(code: str) -> None:
    """The engine orders every pair of hands as pokerkit does, over all deals."""
    game = GAMES[code]
    omaha = game.selection == "omaha"
    for half, hand_class in five_classes(game):
        rank: Callable[..., int | None] = (
            game.high.best if half == "high" else game.low.best  # type: ignore[union-attr]
        )
        samples = []
        for seats, board in deals(code, BIG_DEALS[code] * SCALE, seed=1):
            for hole in seats:
                ref = reference(hand_class, hole, board, omaha)
                samples.append((ref, rank(hole, board), (hole, board)))
        assert len(samples) >= 4_900
        assert_same_order(samples)


def test_soko_agrees_with_pokerkit_on_standard_hands() -> None:
    """Sökö hands that aren't a four flush or straight rank as pokerkit's do."""
    game = GAMES["SOKO"]
    samples = []
    for seats, _ in deals("SOKO", BIG_DEALS["SOKO"] * SCALE, seed=1):
        for cards in seats:
            key = game.high.best(cards, ())
            assert key is not None
            if soko_is_standard(key):
                samples.append((pokerkit_five(StandardHighHand, cards), key, cards))
    assert len(samples) > 30_000
    assert_same_order(samples)


@pytest.mark.parametrize("code", BOARD_GAMES + STUD_GAMES)
def test_agrees_with_pokerkit_from_game(code: str) -> None:
    """pokerkit's own ``from_game`` orders a few hundred hands as the engine does."""
    game = GAMES[code]
    halves: list[tuple[str, type[Hand]]]
    if code == "RAZZ":
        halves = [("high", RegularLowHand)]
    else:
        halves = [("high", HIGH_CLASS[game.selection])]
        if game.low is not None:
            halves.append(("low", LOW_CLASS[game.selection]))
    count = 40 if DEALS[code][1] >= 4 else 60
    for half, hand_class in halves:
        rank = game.high.best if half == "high" else game.low.best  # type: ignore[union-attr]
        samples = []
        for seats, board in deals(code, count * SCALE, seed=2):
            for hole in seats:
                made = hand_class.from_game_or_none(pk(hole), pk(board))
                samples.append((made, rank(hole, board), (hole, board)))
        assert_same_order(samples)
