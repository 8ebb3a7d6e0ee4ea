"""Where a broken table's players go, in the draw's order (RULES.md WL3, WL4, WL9, BI7).

Pure: the service draws the order, reads the game's other tables and the pairs kept
apart, calls :func:`break_plan`, and books each move or queue place it returns.

>>> from datetime import datetime
>>> t = datetime(2026, 11, 29, 21, 0)
>>> tables = [Seats("T01", t, 1, frozenset({2}), frozenset({"P-1"}))]
>>> [(s.player, s.table, s.seat) for s in break_plan(["P-7", "P-8"], stacks={
...     "P-7": 500, "P-8": 900}, tables=tables)]
[('P-7', 'T01', 2), ('P-8', None, None)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from waitlist.domain.seating import TableLoad, kept_apart, table_order


@dataclass(frozen=True, slots=True)
class Seats:
    """A table of the game that takes players: its load and who is there.

    ``players`` counts the seated players and the calls on their way (WL4 counts
    both); ``present`` names them, for the pairs kept apart (WL9); ``free_seats`` are
    neither taken, nor called, nor held by a lockup.
    """

    table: str
    opened_at: datetime
    players: int
    free_seats: frozenset[int]
    present: frozenset[str]

    @property
    def load(self) -> TableLoad:
        return TableLoad(self.table, self.opened_at, self.players, len(self.free_seats))


@dataclass(frozen=True, slots=True)
class Step:
    """One player of the broken table, ``draw_no``-th in the draw: the seat he moves
    to, or no table (he waits ahead of the list, WL3)."""

    player: str
    draw_no: int
    table: str | None = None
    seat: int | None = None


def break_plan(
    order: Sequence[str],
    *,
    stacks: Mapping[str, int],
    tables: Iterable[Seats],
    apart: frozenset[frozenset[str]] = frozenset(),
) -> list[Step]:
    """Place a broken table's players, in the draw's ``order``, at the game's tables.

    Each in turn goes to the lowest free seat of the table a new player would get
    (WL4: fewest players, then the first opened), passing over a table where someone
    he is kept apart from sits or is coming (WL9); each move fills its seat before
    the next player's turn. A player with no chips (``stacks``) has nothing to move
    (BI7), and one for whom no seat is left waits, both in the draw's order (WL3).
    """
    state = {t.table: t for t in tables}
    steps = []
    for draw_no, player in enumerate(order, 1):
        target = None
        if stacks.get(player, 0) > 0:
            for load in table_order(t.load for t in state.values()):
                there = state[load.table]
                if not kept_apart(player, there.present, apart):
                    target = there
                    break
        if target is None:
            steps.append(Step(player, draw_no))
            continue
        seat = min(target.free_seats)
        state[target.table] = replace(
            target,
            players=target.players + 1,
            free_seats=target.free_seats - {seat},
            present=target.present | {player},
        )
        steps.append(Step(player, draw_no, target.table, seat))
    return steps
