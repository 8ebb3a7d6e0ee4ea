"""Seating, balancing and breaking a tournament's tables (RULES.md TO11, TDA R11, R12).

Pure decisions over the tables as the floor knows them at one moment: which seats
are taken, where the big blind was, which seats opened last. The services lock the
event's rows, turn them into these values, call these functions and record every
move (the player moved takes the seat assigned, with his stack).

- **The draw** (TO2, TO11): every seat is drawn at random, from a generator seeded
  with a value the service records, so anyone can replay the draw from the record.
  It is a two-step draw, a table then a seat (TDA R11's illustration): the table
  among those with the fewest players, so the tables stay balanced, then any empty
  seat there, blinds and button included.
- **Breaking** (TDA R11): tables break in the order the event states, the first
  listed first, as soon as the players at the next table to break fit in the empty
  seats of the others. Its players are drawn to new tables and seats as above.
- **Balancing** (TDA R12): the table with the most players gives a player to the
  table with the fewest, until no two tables differ by more than the tolerance
  (one by default). In flop games the player moved is the one who will be big
  blind next, and he goes to the worst position at the short table: the empty seat
  the big blind reaches first, even if that makes it a big blind twice; that is
  never the small blind. In stud games he takes the seat that opened last, and the
  player moved is the one sitting in that seat number at his table, or the next one
  after it. Ties between tables go by the event's order: the table that breaks
  first gives, the one that breaks last receives.

>>> tables = [
...     TableSeats("T1", 9, {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"}, big_blind=2),
...     TableSeats("T2", 9, {1: "F", 5: "G", 8: "H"}, big_blind=5),
... ]
>>> [(m.player, m.to_table, m.to_seat) for m in balance(tables, order=["T1", "T2"])]
[('C', 'T2', 6)]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tournaments.errors import Code, invalid

RULE = "TO11"


class Game(StrEnum):
    FLOP = "flop"  # hold'em, Omaha and other button games, mixed games
    STUD = "stud"  # stud-only events: players move by position


class Reason(StrEnum):
    DRAW = "draw"  # a new entrant's random seat (TO2)
    BREAK = "break"  # his table broke (TDA R11)
    BALANCE = "balance"  # the tables were balanced (TDA R12)


@dataclass(frozen=True, slots=True)
class TableSeats:
    """One of the event's tables at a moment.

    ``occupied`` maps seat numbers (1 to ``seats``) to player codes. ``big_blind``
    is the seat that posted the big blind in the last hand (None before the first
    hand: the seats count from seat 1). ``opened`` lists empty seats in the order
    they opened, the last opened last (stud balancing).
    """

    code: str
    seats: int
    occupied: Mapping[int, str]
    big_blind: int | None = None
    opened: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.occupied)

    @property
    def empty(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if s not in self.occupied]


@dataclass(frozen=True, slots=True)
class Move:
    """A player's seat: ``from_table`` None for a new entrant's draw."""

    player: str
    to_table: str
    to_seat: int
    reason: Reason
    from_table: str | None = None
    from_seat: int | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """What the floor does now: the tables broken, in order, and every move."""

    broken: tuple[str, ...] = ()
    moves: tuple[Move, ...] = field(default_factory=tuple)


def _check(tables: Sequence[TableSeats], order: Sequence[str]) -> None:
    codes = [t.code for t in tables]
    if len(set(codes)) != len(codes):
        raise invalid(Code.DUPLICATE_TABLE, rule=RULE)
    if sorted(order) != sorted(codes):
        raise invalid(
            Code.BAD_BREAKING_ORDER,
            rule=RULE,
            allowed={"tables": sorted(codes)},
        )
    seen: set[str] = set()
    for table in tables:
        if table.seats < 2:
            raise invalid(Code.BAD_TABLE, rule=RULE, table=table.code)
        for seat, player in table.occupied.items():
            if not 1 <= seat <= table.seats:
                raise invalid(
                    Code.BAD_SEAT,
                    rule=RULE,
                    allowed={"min": 1, "max": table.seats},
                    table=table.code,
                    seat=seat,
                )
            if player in seen:
                raise invalid(Code.SEATED_TWICE, rule=RULE, player=player)
            seen.add(player)


def _clockwise(table: TableSeats, after: int | None) -> list[int]:
    """The table's seat numbers clockwise, starting with the seat after ``after``."""
    start = 0 if after is None else after
    return [(start + i) % table.seats + 1 for i in range(table.seats)]


def next_big_blind(table: TableSeats) -> int:
    """Return the seat of the player who will be big blind next (TDA R12)."""
    for seat in _clockwise(table, table.big_blind):
        if seat in table.occupied:
            return seat
    raise invalid(Code.EMPTY_TABLE, rule=RULE, table=table.code)


def worst_position(table: TableSeats) -> int:
    """Return the empty seat the big blind reaches first (TDA R12).

    Going clockwise from last hand's big blind, the first empty seat has the fewest
    players between it and the big blind, so it pays the big blind soonest: in the
    very next hand if it sits right after the big blind, even if that seat was the
    big blind a hand ago. It is never the small blind, which is last hand's big
    blind itself.
    """
    for seat in _clockwise(table, table.big_blind):
        if seat not in table.occupied:
            return seat
    raise invalid(Code.TABLE_FULL, rule=RULE, table=table.code)


def _stud_move(source: TableSeats, target: TableSeats) -> tuple[int, int]:
    opened = [s for s in target.opened if s not in target.occupied]
    to_seat = opened[-1] if opened else target.empty[-1]
    for seat in _clockwise(source, to_seat - 1):
        if seat in source.occupied:
            return seat, to_seat
    raise invalid(Code.EMPTY_TABLE, rule=RULE, table=source.code)


def _seated(table: TableSeats, seat: int, player: str) -> TableSeats:
    occupied = dict(table.occupied)
    occupied[seat] = player
    return replace(
        table, occupied=occupied, opened=tuple(s for s in table.opened if s != seat)
    )


def _unseated(table: TableSeats, seat: int) -> TableSeats:
    occupied = dict(table.occupied)
    del occupied[seat]
    return replace(table, occupied=occupied, opened=(*table.opened, seat))


def _rank(order: Sequence[str]) -> dict[str, int]:
    return {code: i for i, code in enumerate(order)}


def _draw_into(
    players: Sequence[tuple[str, str | None, int | None]],
    tables: dict[str, TableSeats],
    rank: Mapping[str, int],
    rng: random.Random,
    reason: Reason,
) -> list[Move]:
    moves = []
    for player, from_table, from_seat in players:
        open_tables = [t for t in tables.values() if t.empty]
        if not open_tables:
            raise invalid(
                Code.NO_SEAT_LEFT,
                text="taken",
                rule=RULE,
                allowed={"seats": sum(t.seats for t in tables.values())},
            )
        fewest = min(t.players for t in open_tables)
        candidates = sorted(
            (t for t in open_tables if t.players == fewest), key=lambda t: rank[t.code]
        )
        table = rng.choice(candidates)
        seat = rng.choice(table.empty)
        tables[table.code] = _seated(table, seat, player)
        moves.append(Move(player, table.code, seat, reason, from_table, from_seat))
    return moves


def draw_seats(
    players: Sequence[str],
    tables: Sequence[TableSeats],
    *,
    order: Sequence[str],
    seed: str,
) -> list[Move]:
    """Draw a random seat for each new entrant, alternate or re-entry (TO2, TO11).

    Two steps per player, in the order given: a table among those with the fewest
    players, then any of its empty seats. The same seed, players, tables and order
    give the same draw, so the service records the seed to make it auditable.

    Raises :class:`Invalid` (TO11) when the tables or the order don't fit together,
    a player is already seated or listed twice, or the seats run out.
    """
    _check(tables, order)
    seated = {p for t in tables for p in t.occupied.values()}
    if len(set(players)) != len(players) or seated & set(players):
        raise invalid(Code.SEATED_TWICE, text="draw", rule=RULE)
    state = {t.code: t for t in tables}
    return _draw_into(
        [(p, None, None) for p in players],
        state,
        _rank(order),
        random.Random(seed),
        Reason.DRAW,
    )


def _fits(table: TableSeats, others: Sequence[TableSeats]) -> bool:
    return table.players <= sum(len(t.empty) for t in others)


def plan(
    tables: Sequence[TableSeats],
    *,
    order: Sequence[str],
    seed: str,
    game: Game = Game.FLOP,
    tolerance: int = 1,
) -> Plan:
    """Break the tables that can break, then balance the rest (TDA R11, R12).

    ``order`` lists every table, the first to break first (the final table last).
    Tables with no players left break first whatever the order. Afterwards no two
    of the remaining tables differ by more than ``tolerance`` players, every player
    has exactly one seat, and no table holds more players than seats.

    Raises :class:`Invalid` (TO11) for a bad tolerance, tables that don't match
    the order, a seat that doesn't exist or a player seated twice.
    """
    if tolerance < 1:
        raise invalid(
            Code.BAD_TOLERANCE,
            rule=RULE,
            allowed={"min": 1},
        )
    _check(tables, order)
    rank = _rank(order)
    state = {t.code: t for t in sorted(tables, key=lambda t: rank[t.code])}
    rng = random.Random(seed)
    broken: list[str] = []
    moves: list[Move] = []
    while len(state) > 1:
        empty = [c for c, t in state.items() if not t.occupied]
        code = empty[0] if empty else next(iter(state))
        table = state[code]
        others = [t for c, t in state.items() if c != code]
        if not _fits(table, others):
            break
        del state[code]
        broken.append(code)
        leaving = [(p, code, s) for s, p in sorted(table.occupied.items())]
        moves += _draw_into(leaving, state, rank, rng, Reason.BREAK)
    moves += _balance(state, rank, game, tolerance)
    return Plan(tuple(broken), tuple(moves))


def _balance(
    state: dict[str, TableSeats], rank: Mapping[str, int], game: Game, tolerance: int
) -> list[Move]:
    moves = []
    while len(state) > 1:
        tables = list(state.values())
        most = max(t.players for t in tables)
        roomy = [t for t in tables if t.empty]
        if not roomy:
            break
        fewest = min(t.players for t in roomy)
        if most - fewest <= tolerance:
            break
        source = min(
            (t for t in tables if t.players == most), key=lambda t: rank[t.code]
        )
        target = max(
            (t for t in roomy if t.players == fewest), key=lambda t: rank[t.code]
        )
        if game is Game.STUD:
            from_seat, to_seat = _stud_move(source, target)
        else:
            from_seat, to_seat = next_big_blind(source), worst_position(target)
        player = source.occupied[from_seat]
        state[source.code] = _unseated(source, from_seat)
        state[target.code] = _seated(target, to_seat, player)
        moves.append(
            Move(player, target.code, to_seat, Reason.BALANCE, source.code, from_seat)
        )
    return moves


def balance(
    tables: Sequence[TableSeats],
    *,
    order: Sequence[str],
    game: Game = Game.FLOP,
    tolerance: int = 1,
) -> list[Move]:
    """Return the moves that balance the tables without breaking any (TDA R12).

    Raises :class:`Invalid` (TO11) as :func:`plan` does.
    """
    if tolerance < 1:
        raise invalid(
            Code.BAD_TOLERANCE,
            rule=RULE,
            allowed={"min": 1},
        )
    _check(tables, order)
    rank = _rank(order)
    return _balance({t.code: t for t in tables}, rank, game, tolerance)


def halted(tables: Sequence[TableSeats], *, short_by: int = 3) -> list[str]:
    """Return the tables where play halts until balanced (TDA R12 D).

    Full-table play halts at tables ``short_by`` (3) or more players short of the
    table with the most players.
    """
    if not tables:
        return []
    most = max(t.players for t in tables)
    return [t.code for t in tables if most - t.players >= short_by]


def apply(tables: Sequence[TableSeats], moves: Sequence[Move]) -> list[TableSeats]:
    """Return the tables after the moves (the broken ones still listed, empty)."""
    state = {t.code: t for t in tables}
    for move in moves:
        if move.from_table is not None and move.from_seat is not None:
            state[move.from_table] = _unseated(state[move.from_table], move.from_seat)
        state[move.to_table] = _seated(state[move.to_table], move.to_seat, move.player)
    return list(state.values())
