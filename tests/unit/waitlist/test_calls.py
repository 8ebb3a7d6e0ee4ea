"""What a call decides and where it is tried (WL2, WL4, WL6, WL9), with no database."""

from __future__ import annotations

import doctest
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from waitlist.domain import breaks, calls
from waitlist.domain.calls import call_plan, tables_to_call
from waitlist.domain.seating import Candidate, Kind, Opening, TableLoad, queue_order

T = datetime(2026, 11, 29, 21, 0)
CODES = [f"P-{n}" for n in range(1, 7)]


@st.composite
def calls_at_t01(draw):
    """A queue of distinct players for T01 of a two-table game, the pairs kept apart
    and the players called elsewhere."""
    players = draw(st.lists(st.sampled_from(CODES), unique=True, max_size=6))
    queue = [
        Candidate(
            n,
            code,
            draw(st.sampled_from(list(Kind))),
            T + timedelta(minutes=draw(st.integers(0, 30))),
            draw_no=draw(st.none() | st.integers(1, 5)),
            table=draw(st.sampled_from([None, "T01", "T02"])),
            seat=draw(st.none() | st.integers(1, 4)),
            seated_at=draw(st.sampled_from([None, "T01", "T02", "T09"])),
        )
        for n, code in enumerate(players, 1)
    ]
    opening = Opening(
        "T01",
        frozenset({"T01", "T02"}),
        frozenset(draw(st.sets(st.integers(1, 4)))),
        frozenset(draw(st.sets(st.sampled_from(["S-1", *CODES]), max_size=3))),
        seat=draw(st.none() | st.integers(1, 4)),
    )
    pairs = draw(
        st.lists(st.tuples(st.sampled_from(CODES), st.sampled_from(["S-1", *CODES])))
    )
    apart = frozenset(frozenset(p) for p in pairs if p[0] != p[1])
    busy = frozenset(draw(st.sets(st.sampled_from(CODES), max_size=2)))
    return queue, opening, apart, busy


@settings(max_examples=60, deadline=None)
@given(calls_at_t01())
def test_a_call_goes_to_a_free_seat_and_passes_over_only_those_ahead(case):
    """WL2: the seat called is free (the one asked for, when asked); everyone
    passed over or taken off the list stood ahead of the player called, for a
    reason: sat down in the game (WL6, off the list), called elsewhere (WL6), or
    kept apart from someone at the table (WL9)."""
    queue, opening, apart, busy = case
    plan = call_plan(queue, opening, apart=apart, busy=busy)
    if plan.called is None:
        assert plan.seat is None
    else:
        assert plan.seat in opening.free_seats
        assert opening.seat in (None, plan.seat)
        called = queue_order(plan.called)
        assert all(queue_order(s.candidate) < called for s in plan.passed_over)
        assert plan.called.player not in busy
    assert {c.id for c in plan.off_the_list} <= {
        s.candidate.id for s in plan.passed_over
    }
    for skip in plan.passed_over:
        who = skip.candidate
        if skip.remove:
            assert who.kind is Kind.LIST and who.seated_at in opening.game_tables
        elif skip.rule == "WL9":
            present = opening.seated | opening.coming
            assert any(frozenset((who.player, o)) in apart for o in present)
        else:
            assert who.player in busy


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 9), st.integers(0, 30), st.integers(0, 3)),
        max_size=5,
    )
)
def test_a_call_is_tried_first_where_a_new_player_goes(rows):
    """WL4: tables with a free seat only, the fewest players first and, at equal
    counts, the one that opened first."""
    loads = [
        TableLoad(f"T{n:02}", T + timedelta(minutes=opened), players, free)
        for n, (players, opened, free) in enumerate(rows)
    ]
    order = tables_to_call(loads)
    by_name = {load.table: load for load in loads}
    assert sorted(order) == sorted(load.table for load in loads if load.free)
    keys = [(by_name[t].players, by_name[t].opened_at) for t in order]
    assert keys == sorted(keys)


def test_the_named_table_is_the_only_one_tried():
    assert tables_to_call([TableLoad("T01", T, 0, 9)], named="T05") == ["T05"]


def test_the_worked_examples_hold():
    for module in (calls, breaks):
        assert doctest.testmod(module).failed == 0
