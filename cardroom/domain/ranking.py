"""Hand ranking for every game of API.md (HS9).

Each game ranks a hand by one or two *halves*: ``high`` (every game but razz), ``low``
(eight or better, the second half of PLO8 and STUD8) or ``razz`` (ace-to-five, the
only half of RAZZ). A half turns a seat's cards into a *key*, an ``int`` where a
bigger key is a better hand and equal keys are exactly a tie, so pots can be split
by comparing keys alone.

Where the keys come from:

* Standard high hands are ranked by phevaluator's native evaluator, which is fast
  enough for the settlement targets of DESIGN.md; its 7,462 hand classes are the
  classes of pokerkit's ``StandardHighHand`` (the tests check it, deal by deal).
* Low hands are ranked by pokerkit's own lookups (``EightOrBetterLookup`` and
  ``RegularLookup``), read once into tables on first use; only picking the best
  five cards is done here, because pokerkit's ``from_game`` is too slow for a
  settlement hot loop.
* Sökö's four-card flush and straight are ranked in :mod:`cardroom.domain.soko`.

A :class:`Ranking` also says which five cards made the hand and which of them were
hole cards, so the jackpot rules of BB2 ("both hole cards play", "four of a kind needs
a pocket pair") can be answered from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Literal

from phevaluator import _pheval

from cardroom.domain.cards import RANK_NAMES, RANK_PLURALS, card_name

Selection = Literal["any", "omaha"]
"""How five cards are picked: any five of all cards, or exactly two hole cards and
three board cards (Omaha, Courchevel; HS9)."""

# phevaluator ranks 7,462 hand classes 1 (royal flush) … 7462 (7-5-4-3-2); a key is
# 7463 - rank so that bigger is better.
HIGH_CLASSES = 7462

CATEGORIES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

# The native functions themselves: phevaluator's Python wrappers convert every card
# on each call, which would cost more than the evaluation.
_evaluate_5: Callable[..., int] = _pheval.evaluate_5cards
_evaluate_6: Callable[..., int] = _pheval.evaluate_6cards
_evaluate_7: Callable[..., int] = _pheval.evaluate_7cards
_evaluate_omaha: Callable[..., int] = _pheval.evaluate_omaha_cards
NATIVE_SEVEN = _evaluate_7
"""phevaluator's seven-card evaluator: ``HIGH_CLASSES + 1 - NATIVE_SEVEN(*cards)``
is :func:`high_any`'s key of seven cards, for callers that rank in a loop."""
NATIVE_OMAHA = _evaluate_omaha
"""phevaluator's Omaha evaluator: ``HIGH_CLASSES + 1 - NATIVE_OMAHA(*board, *hole)``
is :func:`high_omaha`'s key of four hole cards and five board cards."""


def _straight_top(distinct_desc: Sequence[int]) -> int | None:
    """Return the top rank of five distinct ranks that form a straight, else None."""
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if tuple(distinct_desc) == (12, 3, 2, 1, 0):  # the wheel, A-2-3-4-5
        return 3
    return None


def describe_ranks(
    ranks: Sequence[int],
    suited: bool,
    names: Sequence[str] = RANK_NAMES,
    plurals: Sequence[str] = RANK_PLURALS,
) -> tuple[int, str]:
    """Return the category index and the description of five cards' ranks.

    ``ranks`` are 0 (deuce) … 12 (ace), or another order with its ``names`` and
    ``plurals``; ``suited`` says whether all five share a suit. The descriptions
    read as in API.md: ``"four of a kind, aces"``, ``"full house, kings full of
    aces"``.
    """
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Most copies first, then higher rank: the order the hand is read in.
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = tuple(c for _, c in groups)
    top = groups[0][0]
    if shape == (1, 1, 1, 1, 1):
        desc = sorted(ranks, reverse=True)
        straight = _straight_top(desc)
        if straight is not None and suited:
            if straight == 12:
                return 8, "royal flush"
            return 8, f"straight flush, {names[straight]} high"
        if suited:
            return 5, f"flush, {names[top]} high"
        if straight is not None:
            return 4, f"straight, {names[straight]} high"
        return 0, f"high card, {names[top]}"
    second = groups[1][0]
    if shape == (4, 1):
        return 7, f"four of a kind, {plurals[top]}"
    if shape == (3, 2):
        return 6, f"full house, {plurals[top]} full of {plurals[second]}"
    if shape == (3, 1, 1):
        return 3, f"three of a kind, {plurals[top]}"
    if shape == (2, 2, 1):
        return 2, f"two pair, {plurals[top]} and {plurals[second]}"
    return 1, f"one pair, {plurals[top]}"


def _rank_multisets() -> Iterator[tuple[int, ...]]:
    """Yield every multiset of five ranks a deck can deal (no five of a kind).

    Ranks come low to high in whatever order the caller counts them.
    """
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] != ranks[4]:
            yield ranks


def _representative(ranks: Sequence[int], suited: bool) -> tuple[int, ...]:
    """Return five distinct cards with ``ranks``, all one suit or not a flush."""
    if suited:
        return tuple(r * 4 for r in ranks)
    # Equal ranks sit side by side, so cycling the suits never repeats a card, and
    # the first and fifth clubs never make five of a suit.
    return tuple(r * 4 + i % 4 for i, r in enumerate(ranks))


@cache
def _high_classes() -> tuple[tuple[tuple[int, ...], bool], ...]:
    """Return the ranks and suitedness of every high key's hand class (index = key).

    Evaluating one representative of each class is cheap; naming them all is not
    (a batch of a few thousand hands meets a few hundred), so :func:`_high_name`
    names a class the first time it is asked.
    """
    classes: list[tuple[tuple[int, ...], bool]] = [((), False)] * (HIGH_CLASSES + 1)
    for ranks in _rank_multisets():
        distinct = len(set(ranks)) == 5
        for suited in (False, True) if distinct else (False,):
            key = HIGH_CLASSES + 1 - _evaluate_5(*_representative(ranks, suited))
            classes[key] = (ranks, suited)
    return tuple(classes)


_HIGH_NAMES: dict[int, tuple[int, str]] = {}
"""Category index and description of the high keys named so far."""
HIGH_TEXTS: dict[int, str] = {}
"""The description of each high key named so far: :func:`describe_high` of a key
seen before is one dictionary look-up, which the settlement does inline."""


def _high_name(key: int) -> tuple[int, str]:
    """Return the category index and the description of a high key."""
    named = _HIGH_NAMES.get(key)
    if named is None:
        named = _HIGH_NAMES[key] = _name_class(key)
        HIGH_TEXTS[key] = named[1]
    return named


def _name_class(key: int) -> tuple[int, str]:
    """Return :func:`describe_ranks` of a high key's class, read off its ranks.

    phevaluator numbers its classes category by category, best first (1-10
    straight flushes, 11-166 four of a kind, … 6186-7462 high cards), so the
    category comes from the class's number; in the class's five ranks, low to
    high, the ranks a description names sit at fixed places (the middle card of
    four or three of a kind, the second and fourth of two pair). A test checks
    every class against :func:`describe_ranks`.
    """
    a, b, c, d, e = _high_classes()[key][0]
    rank = HIGH_CLASSES + 1 - key
    if rank > 6185:
        return 0, f"high card, {RANK_NAMES[e]}"
    if rank > 3325:
        return 1, f"one pair, {RANK_PLURALS[b if a == b or b == c else d]}"
    if rank > 2467:
        return 2, f"two pair, {RANK_PLURALS[d]} and {RANK_PLURALS[b]}"
    if rank > 1609:
        return 3, f"three of a kind, {RANK_PLURALS[c]}"
    top = 3 if e == 12 and d == 3 else e  # the wheel, A-2-3-4-5, is five high
    if rank > 1599:
        return 4, f"straight, {RANK_NAMES[top]} high"
    if rank > 322:
        return 5, f"flush, {RANK_NAMES[e]} high"
    if rank > 166:
        return (
            6,
            f"full house, {RANK_PLURALS[c]} full of {RANK_PLURALS[e if a == c else a]}",
        )
    if rank > 10:
        return 7, f"four of a kind, {RANK_PLURALS[c]}"
    if top == 12:
        return 8, "royal flush"
    return 8, f"straight flush, {RANK_NAMES[top]} high"


# -- high ------------------------------------------------------------------------


def high_five(cards: Sequence[int]) -> int:
    """Return the high key of exactly five cards."""
    return HIGH_CLASSES + 1 - _evaluate_5(*cards)


def high_any(hole: Sequence[int], board: Sequence[int] = ()) -> int:
    """Return the high key of the best five of five to seven cards (Hold'em, stud)."""
    cards = (*hole, *board)
    n = len(cards)
    if n == 7:
        return HIGH_CLASSES + 1 - _evaluate_7(*cards)
    if n == 6:
        return HIGH_CLASSES + 1 - _evaluate_6(*cards)
    return HIGH_CLASSES + 1 - _evaluate_5(*cards)


def high_omaha(hole: Sequence[int], board: Sequence[int]) -> int:
    """Return the high key of exactly two of ``hole`` and three of ``board`` (HS9).

    Four hole cards and five board cards go to phevaluator's Omaha evaluator as they
    are; five hole cards (PLO5, Courchevel) are the best of their five four-card
    subsets, since any two hole cards lie in one of them.
    """
    if len(board) == 5:
        if len(hole) == 4:
            return HIGH_CLASSES + 1 - _evaluate_omaha(*board, *hole)
        best = min(_evaluate_omaha(*board, *four) for four in combinations(hole, 4))
        return HIGH_CLASSES + 1 - best
    return max(
        high_five((*two, *three))
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
    )


def describe_high(key: int) -> str:
    """Return the description of a high key: ``"full house, kings full of aces"``."""
    return HIGH_TEXTS.get(key) or _high_name(key)[1]


def high_category_index(key: int) -> int:
    """Return the index in :data:`CATEGORIES` of a high key."""
    return _high_name(key)[0]


def high_category(key: int) -> str:
    """Return the category of a high key, e.g. ``"full house"``."""
    return CATEGORIES[_high_name(key)[0]]


# -- low -------------------------------------------------------------------------

LOW_RANKS = "A23456789TJQK"
"""Ranks in ace-to-five order: the ace is the lowest card (RULES.md HS9, razz)."""
_LOW_NAMES = tuple(RANK_NAMES[(r - 1) % 13] for r in range(13))
_LOW_PLURALS = tuple(RANK_PLURALS[(r - 1) % 13] for r in range(13))


def _low_rank(card: int) -> int:
    """Return the ace-to-five rank of a card: ace 0, deuce 1 … king 12."""
    return ((card >> 2) + 1) % 13


def _pokerkit_cards(low_ranks: Sequence[int]) -> str:
    """Spell five ace-to-five ranks as pokerkit cards that are not a flush."""
    return "".join(LOW_RANKS[r] + "cdhs"[i % 4] for i, r in enumerate(low_ranks))


@cache
def _eight_or_better_table() -> tuple[dict[int, int], dict[int, int]]:
    """Return pokerkit's eight-or-better ranking as ``{rank mask: key}`` and back.

    A mask has bit ``r`` set for ace-to-five rank ``r``; only five distinct ranks
    from ace to eight qualify (HS4). pokerkit gives stronger low hands a smaller
    entry index; the key turns it round so that bigger is better.
    """
    # pokerkit builds all its lookups when imported (a third of a second here):
    # only games with a low hand pay for it, once.
    from pokerkit.lookups import EightOrBetterLookup

    lookup = EightOrBetterLookup()
    index = {
        sum(1 << r for r in ranks): lookup.get_entry(_pokerkit_cards(ranks)).index
        for ranks in combinations(range(8), 5)
    }
    size = max(index.values()) + 1
    by_mask = {mask: size - i for mask, i in index.items()}
    return by_mask, {key: mask for mask, key in by_mask.items()}


@cache
def _razz_table() -> tuple[dict[tuple[int, ...], int], dict[int, tuple[int, ...]]]:
    """Return pokerkit's ace-to-five ranking as ``{ranks high to low: key}`` and back.

    pokerkit's ``RegularLookup`` ignores straights and flushes and counts pairs, as
    razz does (HS9).
    """
    from pokerkit.lookups import RegularLookup

    lookup = RegularLookup()
    index: dict[tuple[int, ...], int] = {}
    for ranks in _rank_multisets():
        index[ranks[::-1]] = lookup.get_entry(_pokerkit_cards(ranks)).index
    size = max(index.values()) + 1
    by_ranks = {ranks: size - i for ranks, i in index.items()}
    return by_ranks, {key: ranks for ranks, key in by_ranks.items()}


def _lowest_bits(mask: int, count: int) -> int:
    """Return the ``count`` lowest set bits of ``mask`` (0 if it has fewer)."""
    picked = 0
    for _ in range(count):
        if not mask:
            return 0
        bit = mask & -mask
        picked |= bit
        mask ^= bit
    return picked


def low_five(cards: Sequence[int]) -> int | None:
    """Return the eight-or-better key of exactly five cards, None if no low."""
    mask = 0
    for c in cards:
        mask |= 1 << _low_rank(c)
    return _eight_or_better_table()[0].get(mask)


def low_any(hole: Sequence[int], board: Sequence[int] = ()) -> int | None:
    """Return the best eight-or-better key of any five cards (stud hi-lo), or None.

    The best low is the five lowest distinct ranks from ace to eight: a lower card
    in place of any of them can only make the hand better (HS4).
    """
    mask = 0
    for c in (*hole, *board):
        mask |= 1 << _low_rank(c)
    best = _lowest_bits(mask & 0xFF, 5)
    return _eight_or_better_table()[0].get(best) if best else None


def low_omaha(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Return the best eight-or-better key of two hole and three board cards (HS4).

    For each pair of hole cards the best three board cards are the three lowest
    ranks from ace to eight that the pair does not already hold.
    """
    table = _eight_or_better_table()[0]
    board_mask = 0
    for c in board:
        board_mask |= 1 << _low_rank(c)
    board_mask &= 0xFF
    best: int | None = None
    lows = {_low_rank(c) for c in hole if _low_rank(c) < 8}
    for a, b in combinations(sorted(lows), 2):
        pair = (1 << a) | (1 << b)
        three = _lowest_bits(board_mask & ~pair, 3)
        if three:
            key = table[pair | three]
            if best is None or key > best:
                best = key
    return best


def describe_low(key: int) -> str:
    """Return the description of an eight-or-better key: ``"low, 8-6-4-2-A"``."""
    mask = _eight_or_better_table()[1][key]
    ranks = [r for r in range(7, -1, -1) if mask >> r & 1]
    return "low, " + "-".join(LOW_RANKS[r] for r in ranks)


def low_category(key: int) -> str:
    """Return the category of an eight-or-better key: always ``"low"``."""
    return "low"


def razz_five(cards: Sequence[int]) -> int:
    """Return the ace-to-five key of exactly five cards."""
    ranks = tuple(sorted((_low_rank(c) for c in cards), reverse=True))
    return _razz_table()[0][ranks]


def razz_any(hole: Sequence[int], board: Sequence[int] = ()) -> int:
    """Return the best ace-to-five key of any five of five to seven cards (razz)."""
    table = _razz_table()[0]
    ranks = sorted((_low_rank(c) for c in (*hole, *board)), reverse=True)
    # combinations() keeps the input order, so every five comes out high to low.
    return max(table[five] for five in combinations(ranks, 5))


def describe_razz(key: int) -> str:
    """Return the description of an ace-to-five key: ``"low, 7-5-4-3-A"``.

    A hand with a pair is read as a high hand would be, ``"one pair, kings"``.
    """
    ranks = _razz_table()[1][key]
    if len(set(ranks)) == 5:
        return "low, " + "-".join(LOW_RANKS[r] for r in ranks)
    return describe_ranks(ranks, False, _LOW_NAMES, _LOW_PLURALS)[1]


def razz_category(key: int) -> str:
    """Return the category of an ace-to-five key: ``"low"`` or the pairing."""
    ranks = _razz_table()[1][key]
    if len(set(ranks)) == 5:
        return "low"
    return CATEGORIES[describe_ranks(ranks, False, _LOW_NAMES, _LOW_PLURALS)[0]]


# -- games -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Half:
    """One way a game ranks hands: high, eight-or-better low, or razz.

    ``best`` ranks a seat's cards as the game deals them (fast path, None when
    the seat has no qualifying hand in this half); ``five`` ranks exactly five
    cards and is what :attr:`Ranking.cards` searches with.
    """

    name: Literal["high", "low", "razz"]
    best: Callable[[Sequence[int], Sequence[int]], int | None]
    five: Callable[[Sequence[int]], int | None]
    describe: Callable[[int], str]
    category: Callable[[int], str]


HIGH_ANY = Half("high", high_any, high_five, describe_high, high_category)
HIGH_OMAHA = Half("high", high_omaha, high_five, describe_high, high_category)
LOW_ANY = Half("low", low_any, low_five, describe_low, low_category)
LOW_OMAHA = Half("low", low_omaha, low_five, describe_low, low_category)
RAZZ = Half("razz", razz_any, razz_five, describe_razz, razz_category)


def candidate_fives(
    hole: Sequence[int], board: Sequence[int], selection: Selection
) -> Iterator[tuple[int, ...]]:
    """Yield every five-card hand the game lets a player make (HS9)."""
    if selection == "omaha":
        for two in combinations(hole, 2):
            for three in combinations(board, 3):
                yield (*two, *three)
    else:
        yield from combinations((*hole, *board), 5)


@dataclass(frozen=True, slots=True)
class Ranking:
    """A seat's hand in one half of a game: its key, its name and its cards.

    ``key`` orders hands of the same game and half (bigger is better, equal is a
    tie). :attr:`cards` are the five cards that make the hand and
    :attr:`hole_cards_used` those of them that came from the seat's hole (BB2).
    """

    half: Half
    selection: Selection
    key: int
    hole: tuple[int, ...]
    board: tuple[int, ...]

    @property
    def description(self) -> str:
        """Return the hand as people say it: ``"four of a kind, aces"``."""
        return self.half.describe(self.key)

    @property
    def cards(self) -> tuple[str, ...]:
        """Return the five cards that make the hand, hole cards first.

        Where several sets of five make the same hand (the board plays, a kicker
        that both hole and board hold), prefer the one with the most hole cards, so
        that "both hole cards play" (BB2) is answered as the seat's cards allow.
        """
        hole = set(self.hole)
        best: tuple[int, ...] = ()
        used = -1
        for five in candidate_fives(self.hole, self.board, self.selection):
            if self.half.five(five) == self.key:
                n = sum(1 for c in five if c in hole)
                if n > used:
                    best, used = five, n
        return tuple(card_name(c) for c in best)

    @property
    def hole_cards_used(self) -> tuple[str, ...]:
        """Return the hole cards among :attr:`cards` (BB2 card-use rules)."""
        hole = {card_name(c) for c in self.hole}
        return tuple(c for c in self.cards if c in hole)

    @property
    def category(self) -> str:
        """Return the hand's category, e.g. ``"full house"``, ``"low"``."""
        return self.half.category(self.key)
