"""Where a broken table's players go (WL3, WL4, WL9, BI7), without a database."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from waitlist.domain.breaks import Seats, break_plan

T = datetime(2026, 11, 29, 21, 0)
PLAYERS = [f"P-{n}" for n in range(1, 9)]
SEATED = [f"S-{n}" for n in range(1, 9)]


@st.composite
def rooms(draw):
    """A broken table's drawn order with stacks, the game's other tables, and pairs
    kept apart among all of them."""
    order = draw(st.permutations(PLAYERS).map(lambda p: p[: draw(st.integers(0, 8))]))
    stacks = {p: draw(st.sampled_from([0, 50, 20_000])) for p in order}
    tables = []
    for n in range(draw(st.integers(0, 4))):
        seats = draw(st.integers(2, 6))
        free = draw(st.sets(st.integers(1, seats)))
        present = frozenset(
            draw(st.lists(st.sampled_from(SEATED), max_size=seats, unique=True))
        )
        tables.append(
            Seats(
                f"T{n:02}",
                T + timedelta(minutes=draw(st.integers(0, 3))),
                seats - len(free),
                frozenset(free),
                present,
            )
        )
    everyone = PLAYERS + SEATED
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(everyone), st.sampled_from(everyone)).filter(
                lambda p: p[0] != p[1]
            ),
            max_size=6,
        )
    )
    return order, stacks, tables, frozenset(frozenset(p) for p in pairs)


@settings(max_examples=60, deadline=None)
@given(rooms())
def test_each_player_in_the_draws_order_gets_the_table_a_new_player_would(room):
    """WL3, WL4, WL9, BI7: in the draw's order each player with chips takes the
    lowest free seat of the table a new player would get (fewest players, then the
    first opened) among those where nobody he is kept apart from sits or has just
    moved; only a player with no chips, or with no such table left, waits."""
    order, stacks, tables, apart = room
    plan = break_plan(order, stacks=stacks, tables=tables, apart=apart)
    assert [(s.player, s.draw_no) for s in plan] == [
        (p, n) for n, p in enumerate(order, 1)
    ]
    state = {t.table: [t.players, set(t.free_seats), set(t.present), t] for t in tables}
    for step in plan:
        allowed = sorted(
            (players, t.opened_at, name)
            for name, (players, free, present, t) in state.items()
            if free and not any(frozenset((step.player, o)) in apart for o in present)
        )
        if stacks[step.player] <= 0 or not allowed:
            assert (step.table, step.seat) == (None, None)
            continue
        assert step.table == allowed[0][2]
        players, free, present, _t = state[step.table]
        assert step.seat == min(free)
        state[step.table] = [
            players + 1,
            free - {step.seat},
            present | {step.player},
            _t,
        ]


@settings(max_examples=40, deadline=None)
@given(rooms())
def test_no_seat_is_given_twice_and_only_free_seats_are_given(room):
    """WL6: one player a seat; a taken, called or held seat is never given."""
    order, stacks, tables, apart = room
    plan = break_plan(order, stacks=stacks, tables=tables, apart=apart)
    given_seats = [(s.table, s.seat) for s in plan if s.table is not None]
    assert len(given_seats) == len(set(given_seats))
    free = {t.table: t.free_seats for t in tables}
    assert all(seat in free[table] for table, seat in given_seats)


def test_the_draws_first_goes_to_the_emptier_table_and_the_rest_wait():
    """WL3, WL4: a table of one before a table of two that opened first; with the
    seats gone the third waits, and so does a player who has no chips (BI7)."""
    tables = [
        Seats("T01", T, 2, frozenset({3}), frozenset({"S-1", "S-2"})),
        Seats("T02", T + timedelta(minutes=1), 1, frozenset({2}), frozenset({"S-3"})),
    ]
    plan = break_plan(
        ["P-2", "P-1", "P-3", "P-4"],
        stacks={"P-1": 31_500, "P-2": 8_000, "P-3": 20_000, "P-4": 0},
        tables=tables,
    )
    assert [(s.player, s.table, s.seat) for s in plan] == [
        ("P-2", "T02", 2),
        ("P-1", "T01", 3),
        ("P-3", None, None),
        ("P-4", None, None),
    ]


def test_a_player_kept_apart_passes_over_the_table_his_partner_sits_at():
    """WL9: P-1 may not join S-3 at the emptier T02; he goes to T01."""
    tables = [
        Seats("T01", T, 2, frozenset({3}), frozenset({"S-1", "S-2"})),
        Seats("T02", T, 1, frozenset({2}), frozenset({"S-3"})),
    ]
    apart = frozenset({frozenset({"P-1", "S-3"})})
    (step,) = break_plan(["P-1"], stacks={"P-1": 100}, tables=tables, apart=apart)
    assert (step.table, step.seat) == ("T01", 3)
