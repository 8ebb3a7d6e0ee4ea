"""Who is called to an open seat, which table a player goes to, and the draw.

Pure decisions over what the floor knows at the moment of a call (RULES.md WL2–WL10):
the services lock the rows, turn them into these values, and record what is decided.

>>> from datetime import datetime
>>> t = datetime(2026, 11, 29, 21, 0)
>>> ann = Candidate(1, "P-1", Kind.LIST, t)
>>> bob = Candidate(2, "P-2", Kind.LIST, t.replace(minute=1))
>>> opening = Opening("T01", frozenset({"T01"}), frozenset({3}), frozenset({"P-9"}))
>>> pick([bob, ann], opening).chosen.player
'P-1'
>>> apart = frozenset({frozenset({"P-1", "P-9"})})
>>> pick([bob, ann], opening, apart=apart).chosen.player
'P-2'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

CALL_WINDOW = timedelta(minutes=5)
"""WL2: a called player not at the table within 5 minutes leaves the list."""

MUST_MOVE_BAR = timedelta(minutes=60)
"""WL7: refusing a must-move bars the game, playing or listing, for 60 minutes."""

NEW_GAME_LOCKUP = timedelta(minutes=5)
"""WL8: with a waiting list, a new game's lockup is released after 5 minutes."""

SEAT_LOCKUP = timedelta(minutes=10)
"""WL8: with a waiting list, no seat is held longer than 10 minutes."""


class Kind(StrEnum):
    """Why a player waits for a seat in a game; the order is the call priority."""

    CLOSED_TABLE = "closed_table"  # WL3: his table closed; before the list
    MUST_MOVE = "must_move"  # WL7: in the must-move game, to the main game
    SEAT_CHANGE = "seat_change"  # WL10: already in the game, before new players
    LIST = "list"  # WL1: the waiting list


PRIORITY = {kind: rank for rank, kind in enumerate(Kind)}


class Skipped(StrEnum):
    """Why a candidate ahead in the queue was passed over for this seat."""

    SEATED_IN_GAME = "seated_in_game"  # WL6: he sat down in this game meanwhile
    CALLED_ELSEWHERE = "called_elsewhere"  # WL6: one seat at a time
    KEPT_APART = "kept_apart"  # WL9: a named player sits at (or comes to) the table


SKIP_RULE = {
    Skipped.SEATED_IN_GAME: "WL6",
    Skipped.CALLED_ELSEWHERE: "WL6",
    Skipped.KEPT_APART: "WL9",
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player waiting for a seat in a game.

    ``table`` is the table a seat change or a must-move is for (None: any table of
    the game), ``seat`` the seat a seat change asks for, ``seated_at`` the table he
    sits at now, if any.
    """

    id: int
    player: str
    kind: Kind
    joined_at: datetime
    draw_no: int | None = None
    table: str | None = None
    seat: int | None = None
    seated_at: str | None = None


@dataclass(frozen=True, slots=True)
class Opening:
    """An open seat being called: the table, its free seats and who is there.

    ``free_seats`` are the seat numbers neither taken, nor held by a call or a
    lockup; ``seat`` is the one seat called, or None for any of them.
    """

    table: str
    game_tables: frozenset[str]
    free_seats: frozenset[int]
    seated: frozenset[str]
    coming: frozenset[str] = frozenset()
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Skip:
    candidate: Candidate
    reason: Skipped
    remove: bool = False

    @property
    def rule(self) -> str:
        return SKIP_RULE[self.reason]


@dataclass(frozen=True, slots=True)
class Pick:
    """The candidate called (None: nobody) with his seat, and who was passed over."""

    chosen: Candidate | None
    seat: int | None = None
    skipped: list[Skip] = field(default_factory=list)


def queue_order(candidate: Candidate) -> tuple[int, datetime, int, int]:
    """Order a game's queue: priority (WL3, WL7, WL10, WL1), then arrival.

    Players of one closed table share its closing time and follow their draw (WL3).
    """
    return (
        PRIORITY[candidate.kind],
        candidate.joined_at,
        candidate.draw_no or 0,
        candidate.id,
    )


def kept_apart(
    player: str, others: Iterable[str], apart: frozenset[frozenset[str]]
) -> bool:
    """Return whether ``player`` is kept out of a game with one of ``others`` (WL9)."""
    return any(frozenset((player, other)) in apart for other in others)


def _meant_for(candidate: Candidate, opening: Opening) -> bool:
    """Return whether the candidate waits for this table (and this seat) at all."""
    moves_to_a_table = candidate.kind in (Kind.SEAT_CHANGE, Kind.MUST_MOVE)
    if moves_to_a_table and candidate.table != opening.table:
        return False
    if candidate.kind is Kind.CLOSED_TABLE and candidate.seated_at == opening.table:
        return False
    if candidate.kind is Kind.SEAT_CHANGE and candidate.seat is not None:
        if opening.seat not in (None, candidate.seat):
            return False
        if candidate.seat not in opening.free_seats:
            return False
    return True


def pick(
    candidates: Iterable[Candidate],
    opening: Opening,
    *,
    apart: frozenset[frozenset[str]] = frozenset(),
    busy: frozenset[str] = frozenset(),
) -> Pick:
    """Choose whom to call for ``opening`` (WL2), first in the queue's order.

    Closed-table players come first (WL3), then must-move players to their main
    game (WL7), then players of the game asking for this table or seat (WL10), then
    the list (WL1). Passed over, keeping their place: a player called to another
    table (WL6), one kept apart from a player at the table (WL9). A listed player
    who sat down in this game meanwhile leaves the list (WL6). ``busy`` are the
    players with a call pending elsewhere.
    """
    skipped: list[Skip] = []
    if not opening.free_seats or (
        opening.seat is not None and opening.seat not in opening.free_seats
    ):
        return Pick(None)
    for candidate in sorted(candidates, key=queue_order):
        if not _meant_for(candidate, opening):
            continue
        if candidate.kind is Kind.LIST and candidate.seated_at in opening.game_tables:
            skipped.append(Skip(candidate, Skipped.SEATED_IN_GAME, remove=True))
            continue
        if candidate.player in busy:
            skipped.append(Skip(candidate, Skipped.CALLED_ELSEWHERE))
            continue
        if kept_apart(candidate.player, opening.seated | opening.coming, apart):
            skipped.append(Skip(candidate, Skipped.KEPT_APART))
            continue
        seat = opening.seat
        if seat is None and candidate.kind is Kind.SEAT_CHANGE:
            seat = candidate.seat
        return Pick(candidate, seat, skipped)
    return Pick(None, None, skipped)


@dataclass(frozen=True, slots=True)
class TableLoad:
    """An open table of a game: its players (seated and called) and free seats."""

    table: str
    opened_at: datetime
    players: int
    free: int


def table_order(tables: Iterable[TableLoad]) -> list[TableLoad]:
    """Order the tables with a free seat for a new player (WL4).

    The table with the fewest players first, so games stay balanced; at equal
    counts the one that opened first.
    """
    return sorted(
        (t for t in tables if t.free > 0),
        key=lambda t: (t.players, t.opened_at, t.table),
    )


def draw(players: Sequence[str], seed: int) -> list[str]:
    """Draw the order of a closed table's players for the seats there are (WL3).

    The result depends only on the players and ``seed``: recording the seed with
    the order lets anyone repeat the draw.

    >>> draw(["P-3", "P-1", "P-2"], 7) == draw(["P-1", "P-2", "P-3"], 7)
    True
    """
    order = sorted(players)
    random.Random(seed).shuffle(order)
    return order


def call_deadline(called_at: datetime) -> datetime:
    """Return the moment after which a called player leaves the list (WL2).

    He has the whole 5 minutes: at the deadline itself he is still in time.
    """
    return called_at + CALL_WINDOW


def lockup_limit(new_game: bool) -> timedelta:
    """Return how long a lockup may hold a seat while a list waits (WL8)."""
    return NEW_GAME_LOCKUP if new_game else SEAT_LOCKUP


def lockup_due(
    *, new_game: bool, locked_at: datetime, now: datetime, list_waits: bool
) -> bool:
    """Return whether a lockup must be released now (WL8).

    Only while players wait on the game's list: a new game's lockup after 5
    minutes, any other seat after 10. With nobody waiting the floor holds it as long
    as it likes.
    """
    return list_waits and now >= locked_at + lockup_limit(new_game)


def bar_until(refused_at: datetime) -> datetime:
    """Return when a player who refused a must-move may play or list again (WL7)."""
    return refused_at + MUST_MOVE_BAR
