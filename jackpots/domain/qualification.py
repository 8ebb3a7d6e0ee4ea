"""Hands tabled at a showdown, and which of them win a jackpot (BB1–BB3, HM1).

The hand's ranking is the engine's (:meth:`cardroom.domain.games.Game.rank`): its
``key`` orders hands (bigger is better, equal is a tie) and its five cards say which
hole cards play, so the card-use rules of BB2 are answered from it. Omaha's rule
(exactly two hole cards and three board cards) is part of the game's ranking.

Worked example, Category 1: aces full of tens beaten by four tens, both pocket pairs,
with four players dealt in and present.

>>> from jackpots.domain.rules import CategoryRules, DEFAULT_CATEGORIES
>>> rules = CategoryRules.from_config(DEFAULT_CATEGORIES["1"])
>>> hand = HandFacts(
...     game="NLHE", streets=4, board=("Ac", "Th", "Td", "5s", "2c"),
...     seats=(
...         SeatFacts(1, "P-1", True, False, ("As", "Ad")),
...         SeatFacts(2, "P-2", True, False, ("Ts", "Tc")),
...         SeatFacts(3, "P-3", True, True, None),
...         SeatFacts(4, "P-4", True, True, None),
...     ),
... )
>>> verdict = bad_beat(rules, hand)
>>> [s.description for s in verdict.bad_beat.losers]
['full house, aces full of tens']
>>> [s.description for s in verdict.bad_beat.winners], verdict.bad_beat.table
(['four of a kind, tens'], (3, 4))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardroom.domain.cards import parse_cards
from cardroom.domain.games import GAMES
from jackpots.domain.rules import CardUse, CategoryRules

# Why a hand is not a bad beat (Verdict.miss), in the order they are checked.
GAME_NOT_COVERED = "game_not_covered"
NOT_DEALT_TO_THE_END = "not_dealt_to_the_end"
NO_SHOWDOWN = "no_showdown"
TOO_FEW_PARTICIPANTS = "too_few_participants"
POT_TOO_SMALL = "pot_too_small"
NO_LOSER = "no_loser"
LOSING_HAND_TOO_LOW = "losing_hand_too_low"
LOSER_ABSENT = "loser_absent"
LOSER_HOLE_CARDS = "loser_hole_cards"
LOSER_POCKET_PAIR = "loser_pocket_pair"
WINNER_ABSENT = "winner_absent"
WINNER_HOLE_CARDS = "winner_hole_cards"
WINNER_POCKET_PAIR = "winner_pocket_pair"

HOLE_CARDS = "hole_cards"
POCKET_PAIR = "pocket_pair"


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """A seat dealt in, as the hand record says (API.md "Hand record")."""

    seat: int
    player: str
    present: bool
    folded: bool
    cards: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What qualification needs to know of a booked hand."""

    game: str
    streets: int
    board: tuple[str, ...]
    seats: tuple[SeatFacts, ...]
    pot_cents: int = 0

    @property
    def participants(self) -> tuple[SeatFacts, ...]:
        """Seats dealt in *and* present at the table (JD1)."""
        return tuple(s for s in self.seats if s.present)


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand tabled at the showdown, ranked by the game's high half."""

    seat: int
    player: str
    present: bool
    key: int
    description: str
    category: str
    cards: tuple[str, ...]
    hole: tuple[str, ...]
    hole_cards_used: tuple[str, ...]


def showdown(hand: HandFacts) -> tuple[list[Shown] | None, str | None]:
    """Return the hands tabled at a showdown, or None and why there was none.

    A showdown needs the hand dealt to the end (river, seventh street: BB1) and at
    least two seats still in and showing their cards. Hi-lo games are ranked on the
    high hand only (BB2).
    """
    game = GAMES.get(hand.game)
    if game is None or hand.streets != game.streets:
        return None, NOT_DEALT_TO_THE_END
    contenders = [s for s in hand.seats if not s.folded]
    tabled = [s for s in contenders if s.cards]
    if len(contenders) < 2 or len(tabled) < 2:
        return None, NO_SHOWDOWN
    board = parse_cards(hand.board)
    shown = []
    for s in tabled:
        assert s.cards is not None
        ranking = game.rank(parse_cards(s.cards), board)
        shown.append(
            Shown(
                seat=s.seat,
                player=s.player,
                present=s.present,
                key=ranking.key,
                description=ranking.description,
                category=ranking.category,
                cards=ranking.cards,
                hole=s.cards,
                hole_cards_used=ranking.hole_cards_used,
            )
        )
    return shown, None


def card_use_breach(shown: Shown, rule: CardUse) -> str | None:
    """Return which card-use rule of BB2 the hand breaks, or None if it counts.

    ``hole_cards``: fewer hole cards play in its best five than the rule asks
    (Hold'em: both). ``pocket_pair``: four of a kind without two of the four in
    the seat's hole cards.

    >>> s = Shown(1, "P-1", True, 0, "", "four of a kind",
    ...           ("As", "Kd", "Ac", "Ah", "Ad"), ("As", "Kd"), ("As", "Kd"))
    >>> card_use_breach(s, CardUse(hole_cards=2, quads_pocket_pair=True))
    'pocket_pair'
    """
    if len(shown.hole_cards_used) < rule.hole_cards:
        return HOLE_CARDS
    if rule.quads_pocket_pair and shown.category == "four of a kind":
        ranks = [c[0] for c in shown.cards]
        quads = max(set(ranks), key=ranks.count)
        if sum(1 for c in shown.hole if c[0] == quads) < 2:
            return POCKET_PAIR
    return None


@dataclass(frozen=True, slots=True)
class BadBeat:
    """Who a bad beat pays (BB3).

    ``losers``: the best qualifying losing hand (several on an exact tie, who share
    the loser's part); ``winners``: the winning hand, several on a split pot, who
    share the winner's part; ``table``: the seats of the other participants, the
    other qualifying losers (``other_losers``) among them.
    """

    losers: tuple[Shown, ...]
    winners: tuple[Shown, ...]
    other_losers: tuple[Shown, ...]
    table: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A bad beat, or why the hand is not one (``miss``, one of the codes above)."""

    bad_beat: BadBeat | None
    miss: str | None = None

    @property
    def hit(self) -> bool:
        return self.bad_beat is not None


def bad_beat(rules: CategoryRules, hand: HandFacts) -> Verdict:
    """Decide whether ``hand`` is a bad beat under a category (BB1–BB3).

    A qualifying hand (at least the minimum losing hand, its player present, its
    cards used as the category says) loses at showdown to a better hand that also
    uses its cards as the category says, in a covered game, dealt to the end, with
    enough participants and pot. The best qualifying losing hand is the loser; the
    other qualifying losers take table shares; split winners share (BB3).
    """
    if hand.game not in rules.games:
        return Verdict(None, GAME_NOT_COVERED)
    shown, why = showdown(hand)
    if shown is None:
        return Verdict(None, why)
    if len(hand.participants) < rules.min_participants:
        return Verdict(None, TOO_FEW_PARTICIPANTS)
    if hand.pot_cents < rules.min_pot_cents:
        return Verdict(None, POT_TOO_SMALL)
    top = max(s.key for s in shown)
    losing = [s for s in shown if s.key < top]
    if not losing:
        return Verdict(None, NO_LOSER)
    candidates = sorted(
        (s for s in losing if s.key >= rules.min_losing_key),
        key=lambda s: -s.key,
    )
    if not candidates:
        return Verdict(None, LOSING_HAND_TOO_LOW)
    present = [s for s in candidates if s.present]
    if not present:
        return Verdict(None, LOSER_ABSENT)
    qualified = [s for s in present if card_use_breach(s, rules.loser) is None]
    if not qualified:
        breach = card_use_breach(present[0], rules.loser)
        return Verdict(
            None, LOSER_HOLE_CARDS if breach == HOLE_CARDS else LOSER_POCKET_PAIR
        )
    best = [s for s in shown if s.key == top]
    winners = [
        s for s in best if s.present and card_use_breach(s, rules.winner) is None
    ]
    if not winners:
        breach = next(
            (card_use_breach(s, rules.winner) for s in best if s.present), None
        )
        if breach is None:
            return Verdict(None, WINNER_ABSENT)
        return Verdict(
            None, WINNER_HOLE_CARDS if breach == HOLE_CARDS else WINNER_POCKET_PAIR
        )
    losers = [s for s in qualified if s.key == qualified[0].key]
    paid = {s.seat for s in losers} | {s.seat for s in winners}
    return Verdict(
        BadBeat(
            losers=tuple(sorted(losers, key=lambda s: s.seat)),
            winners=tuple(sorted(winners, key=lambda s: s.seat)),
            other_losers=tuple(
                sorted(qualified[len(losers) :], key=lambda s: (-s.key, s.seat))
            ),
            table=tuple(s.seat for s in hand.participants if s.seat not in paid),
        )
    )


def month_hands(hand: HandFacts, card_use: Mapping[str, CardUse]) -> list[Shown]:
    """Return the hands of ``hand`` that count for the hand of the month (HM1).

    Hands tabled at a showdown in a covered game (a key of ``card_use``), using
    their cards as that game's rule says (BB2: both hole cards in Hold'em, a pocket
    pair for four of a kind).
    """
    rule = card_use.get(hand.game)
    if rule is None:
        return []
    shown, _why = showdown(hand)
    return [s for s in shown or [] if card_use_breach(s, rule) is None]
