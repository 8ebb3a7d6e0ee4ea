"""Sökö, the Finnish five-card stud: its two extra hands (RULES.md HS9).

Besides the usual hands, a four-card straight and a four-card flush rank between one
pair and two pairs: two pairs > four flush > four straight > one pair. There is no
four-card straight flush (four suited cards in a row are a four flush). Ties compare
all five cards: the four cards of the flush from the highest down, then the fifth
card; the top card of the four straight (an ace below a deuce counts low, so A-2-3-4
is four high), then the fifth card.

Every other Sökö hand is a standard five-card high hand, ranked by
:mod:`cardroom.domain.ranking`.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.domain.cards import RANK_NAMES
from cardroom.domain.errors import Code, refuse
from cardroom.domain.ranking import (
    Half,
    describe_high,
    high_category,
    high_category_index,
    high_five,
)

TIER = 1_000_000
"""A Sökö key is ``tier * TIER + value``; the tier decides before the value."""

FOUR_STRAIGHT = 2
FOUR_FLUSH = 3
# Standard categories (index in ranking.CATEGORIES) → Sökö tier: one pair stays
# below the two new hands, two pair and up move above them.
_TIERS = (0, 1, 4, 5, 6, 7, 8, 9, 10)
_TWO_PAIR_TIER = 4

# The four-card straights from ace-high down to A-2-3-4 (four high), as (top, ranks).
_FOUR_STRAIGHTS = (
    *((top, frozenset(range(top - 3, top + 1))) for top in range(12, 2, -1)),
    (2, frozenset((12, 0, 1, 2))),
)


def _four_flush(cards: Sequence[int]) -> int | None:
    """Return the value of a four flush among five cards, or None."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c & 3, []).append(c >> 2)
    for suit, ranks in by_suit.items():
        if len(ranks) == 4:
            (kicker,) = [c >> 2 for c in cards if c & 3 != suit]
            value = 0
            for r in sorted(ranks, reverse=True):
                value = value * 13 + r
            return value * 13 + kicker
    return None


def _four_straight(cards: Sequence[int]) -> int | None:
    """Return the value of the highest four straight among five cards, or None."""
    ranks = [c >> 2 for c in cards]
    present = set(ranks)
    for top, window in _FOUR_STRAIGHTS:
        if window <= present:
            rest = list(ranks)
            for r in window:
                rest.remove(r)
            return top * 13 + rest[0]
    return None


def soko_five(cards: Sequence[int]) -> int:
    """Return the Sökö key of five cards (HS9); bigger is better."""
    high = high_five(cards)
    tier = _TIERS[high_category_index(high)]
    if tier < _TWO_PAIR_TIER:
        flush = _four_flush(cards)
        if flush is not None:
            return FOUR_FLUSH * TIER + flush
        straight = _four_straight(cards)
        if straight is not None:
            return FOUR_STRAIGHT * TIER + straight
    return tier * TIER + high


def soko_best(hole: Sequence[int], board: Sequence[int] = ()) -> int:
    """Return the Sökö key of a seat's five cards; Sökö has no board.

    Raises :class:`HandError` ``wrong_card_count`` (HS9) for other than five cards.
    """
    cards = (*hole, *board)
    if len(cards) != 5:
        raise refuse(
            Code.WRONG_CARD_COUNT,
            text="soko",
            rule="HS9",
            allowed={"cards": 5},
            count=len(cards),
        )
    return soko_five(cards)


def describe_soko(key: int) -> str:
    """Return a Sökö hand as people say it: ``"four flush, king high"``."""
    tier, value = divmod(key, TIER)
    if tier == FOUR_FLUSH:
        return f"four flush, {RANK_NAMES[value // 13**4]} high"
    if tier == FOUR_STRAIGHT:
        return f"four straight, {RANK_NAMES[value // 13]} high"
    return describe_high(value)


def soko_category(key: int) -> str:
    """Return the category of a Sökö key, e.g. ``"four flush"``, ``"two pair"``."""
    tier, value = divmod(key, TIER)
    if tier == FOUR_FLUSH:
        return "four flush"
    if tier == FOUR_STRAIGHT:
        return "four straight"
    return high_category(value)


SOKO = Half("high", soko_best, soko_five, describe_soko, soko_category)
