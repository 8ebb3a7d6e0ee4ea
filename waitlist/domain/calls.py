"""A call for an open seat: the tables tried, in order, and what one table's call
decides (RULES.md WL2, WL4, WL6, WL9).

Pure: the service locks the list, reads the game's tables and each table's queue,
and books what :func:`call_plan` decides.

>>> from datetime import datetime
>>> from waitlist.domain.seating import Kind
>>> t = datetime(2026, 11, 29, 21, 0)
>>> loads = [TableLoad("T01", t, 3, 1), TableLoad("T02", t, 2, 0)]
>>> tables_to_call(loads), tables_to_call(loads, named="T02")
(['T01'], ['T02'])
>>> ann = Candidate(1, "P-1", Kind.LIST, t, seated_at="T01")
>>> bob = Candidate(2, "P-2", Kind.LIST, t.replace(minute=1))
>>> opening = Opening("T01", frozenset({"T01"}), frozenset({4, 3}), frozenset())
>>> plan = call_plan([ann, bob], opening)
>>> plan.called.player, plan.seat, [c.player for c in plan.off_the_list]
('P-2', 3, ['P-1'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from waitlist.domain.seating import (
    Candidate,
    Opening,
    Skip,
    TableLoad,
    pick,
    table_order,
)


def tables_to_call(
    loads: Iterable[TableLoad], *, named: str | None = None
) -> list[str]:
    """Return the tables to try a call at, in order (WL4).

    The table the floor named, else every table with a free seat in the order a
    new player goes to them: the fewest players, then the one that opened first.
    """
    if named is not None:
        return [named]
    return [load.table for load in table_order(loads)]


@dataclass(frozen=True, slots=True)
class CallPlan:
    """What a call at one table decides.

    ``called`` is the candidate called (None: nobody can be) to ``seat``;
    ``passed_over`` lists who was passed over, in the queue's order, with why;
    ``off_the_list`` are the listed players who sat down in the game meanwhile and
    leave the list (WL6).
    """

    called: Candidate | None
    seat: int | None
    passed_over: tuple[Skip, ...]
    off_the_list: tuple[Candidate, ...]


def call_plan(
    candidates: Iterable[Candidate],
    opening: Opening,
    *,
    apart: frozenset[frozenset[str]] = frozenset(),
    busy: frozenset[str] = frozenset(),
) -> CallPlan:
    """Decide a call for ``opening``: who, to which seat, and who is passed over.

    The first in the queue's order whom :func:`~waitlist.domain.seating.pick` finds
    (WL2, WL3, WL6, WL7, WL9, WL10) is called to the seat asked for (the floor's
    or his seat change's), else the lowest free seat.
    """
    picked = pick(candidates, opening, apart=apart, busy=busy)
    seat = None
    if picked.chosen is not None:
        seat = picked.seat or min(opening.free_seats)
    return CallPlan(
        picked.chosen,
        seat,
        tuple(picked.skipped),
        tuple(s.candidate for s in picked.skipped if s.remove),
    )
