"""Seat draw, breaking and balancing a tournament's tables (TO11, TDA R11, R12)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import Invalid
from tournaments.domain.tables import (
    Game,
    Reason,
    TableSeats,
    apply,
    balance,
    draw_seats,
    halted,
    next_big_blind,
    plan,
    worst_position,
)


def table(code: str, seats: dict[int, str], *, size: int = 9, **kw) -> TableSeats:
    return TableSeats(code, size, seats, **kw)


class TestDraw:
    def test_the_draw_is_replayed_by_its_seed(self):
        """TO11: the same seed and inputs give the same seats (auditable)."""
        tables = [table("T1", {}), table("T2", {})]
        players = [f"P-{i}" for i in range(12)]
        first = draw_seats(players, tables, order=["T1", "T2"], seed="abc")
        assert first == draw_seats(players, tables, order=["T1", "T2"], seed="abc")
        other = draw_seats(players, tables, order=["T1", "T2"], seed="abd")
        assert first != other

    def test_the_draw_keeps_the_tables_balanced(self):
        """TO2/TO11: entrants go to the tables with the fewest players."""
        tables = [table("T1", {1: "X", 2: "Y", 3: "Z"}), table("T2", {})]
        moves = draw_seats(["A", "B", "C", "D"], tables, order=["T1", "T2"], seed="s")
        assert [m.to_table for m in moves[:3]] == ["T2"] * 3
        after = apply(tables, moves)
        assert sorted(t.players for t in after) == [3, 4]
        assert all(m.reason is Reason.DRAW and m.from_table is None for m in moves)

    def test_a_seated_player_draws_no_second_seat(self):
        """TO11: one seat per player."""
        with pytest.raises(Invalid) as caught:
            draw_seats(["X"], [table("T1", {1: "X"})], order=["T1"], seed="s")
        assert caught.value.rule == "TO11"

    def test_no_seat_left(self):
        """TO11: a draw with every seat taken is refused."""
        full = table("T1", {1: "A", 2: "B"}, size=2)
        with pytest.raises(Invalid) as caught:
            draw_seats(["C"], [full], order=["T1"], seed="s")
        assert caught.value.code == "no_seat_left"


class TestWhoMoves:
    def test_the_next_big_blind_moves(self):
        """TDA R12: the player to be big blind next is the one moved."""
        t = table("T1", {1: "A", 3: "B", 6: "C", 9: "D"}, big_blind=3)
        assert next_big_blind(t) == 6
        assert next_big_blind(table("T1", {1: "A", 3: "B"}, big_blind=9)) == 1

    def test_worst_position_is_the_seat_right_after_the_big_blind(self):
        """TDA R12: a single big blind if available, even the big blind twice."""
        t = table("T2", {1: "A", 2: "B", 5: "C", 6: "D"}, big_blind=2)
        assert worst_position(t) == 3

    def test_worst_position_is_never_the_small_blind(self):
        """TDA R12: the next small blind is last hand's big blind, never a move's."""
        t = table("T2", {1: "A", 2: "B", 3: "C", 7: "D"}, big_blind=3, size=8)
        assert worst_position(t) == 4
        assert worst_position(t) != t.big_blind

    def test_stud_moves_by_position(self):
        """TDA R12: in stud the last seat opened at the short table is filled."""
        big = table("T1", {s: f"A{s}" for s in range(1, 9)}, size=8)
        short = table(
            "T2", {1: "B1", 2: "B2", 5: "B5", 6: "B6"}, size=8, opened=(3, 4, 7, 8)
        )
        moves = balance([big, short], order=["T1", "T2"], game=Game.STUD)
        assert next((m.player, m.to_seat) for m in moves) == ("A8", 8)


class TestBalance:
    def test_from_the_biggest_to_the_shortest_table(self):
        """TDA R12: the long table gives to the short one until within one."""
        t1 = table("T1", {s: f"A{s}" for s in range(1, 10)}, big_blind=4)
        t2 = table(
            "T2", {1: "B1", 2: "B2", 3: "B3", 4: "B4", 5: "B5", 6: "B6"}, big_blind=1
        )
        moves = balance([t1, t2], order=["T1", "T2"])
        assert [(m.player, m.from_table, m.to_table) for m in moves] == [
            ("A5", "T1", "T2")
        ]
        assert moves[0].to_seat == 7

    def test_ties_go_by_the_breaking_order(self):
        """TO11: the table that breaks first gives; the one that breaks last takes."""
        t1 = table("T1", {s: f"A{s}" for s in range(1, 9)})
        t2 = table("T2", {s: f"B{s}" for s in range(1, 9)})
        t3 = table("T3", {1: "C1", 2: "C2", 3: "C3", 4: "C4", 5: "C5"})
        t4 = table("T4", {1: "D1", 2: "D2", 3: "D3", 4: "D4", 5: "D5"})
        moves = balance([t1, t2, t3, t4], order=["T2", "T4", "T1", "T3"])
        assert (moves[0].from_table, moves[0].to_table) == ("T2", "T3")

    def test_halting_three_short(self):
        """TDA R12 D: play halts three or more players short of the longest table."""
        t1 = table("T1", {s: f"A{s}" for s in range(1, 10)})
        t2 = table("T2", {s: f"B{s}" for s in range(1, 7)})
        t3 = table("T3", {s: f"C{s}" for s in range(1, 8)})
        assert halted([t1, t2, t3]) == ["T2"]


class TestBreaking:
    def test_tables_break_in_the_stated_order(self):
        """TDA R11/TO11: the next table in the event's order breaks when it fits."""
        t1 = table("T1", {s: f"A{s}" for s in range(1, 7)})
        t2 = table("T2", {s: f"B{s}" for s in range(1, 7)})
        t3 = table("T3", {s: f"C{s}" for s in range(1, 7)})
        result = plan([t1, t2, t3], order=["T2", "T1", "T3"], seed="x")
        assert result.broken == ("T2",)
        moved = [m for m in result.moves if m.reason is Reason.BREAK]
        assert sorted(m.player for m in moved) == [f"B{s}" for s in range(1, 7)]
        assert {m.to_table for m in moved} == {"T1", "T3"}

    def test_no_break_while_the_players_do_not_fit(self):
        """TDA R11: a table breaks only when its players fit elsewhere."""
        t1 = table("T1", {s: f"A{s}" for s in range(1, 8)})
        t2 = table("T2", {s: f"B{s}" for s in range(1, 8)})
        assert plan([t1, t2], order=["T1", "T2"], seed="x").broken == ()

    def test_a_bad_order_is_refused(self):
        """TO11: the breaking order names every table once."""
        with pytest.raises(Invalid) as caught:
            plan([table("T1", {}), table("T2", {})], order=["T1"], seed="x")
        assert caught.value.code == "bad_breaking_order"


@st.composite
def floors(draw):
    size = draw(st.integers(2, 10))
    n_tables = draw(st.integers(1, 8))
    players = iter(range(10_000))
    tables = []
    for i in range(n_tables):
        seats = draw(st.sets(st.integers(1, size)))
        bb = draw(st.one_of(st.none(), st.integers(1, size)))
        opened = tuple(draw(st.permutations(sorted(set(range(1, size + 1)) - seats))))
        tables.append(
            TableSeats(
                f"T{i}", size, {s: f"P-{next(players)}" for s in seats}, bb, opened
            )
        )
    order = draw(st.permutations([t.code for t in tables]))
    return tables, list(order)


# The machine is shared: a slow example is no failure.
@settings(deadline=None)
@given(
    floor=floors(),
    seed=st.text(max_size=8),
    game=st.sampled_from(Game),
    tolerance=st.integers(1, 3),
)
def test_after_a_plan_every_player_sits_once_and_tables_are_balanced(
    floor, seed, game, tolerance
):
    """TO11: after breaking and balancing, each player has one seat, no table is
    over its seats, the tables differ by at most the tolerance, and only tables
    at the front of the breaking order (or empty ones) broke."""
    tables, order = floor
    result = plan(tables, order=order, seed=seed, game=game, tolerance=tolerance)
    after = {t.code: t for t in apply(tables, result.moves)}
    for code in result.broken:
        assert not after.pop(code).occupied
    before_players = sorted(p for t in tables for p in t.occupied.values())
    after_players = sorted(p for t in after.values() for p in t.occupied.values())
    assert after_players == before_players
    assert all(t.players <= t.seats for t in after.values())
    counts = [t.players for t in after.values()]
    assert max(counts) - min(counts) <= tolerance
    left = [c for c in order if c not in result.broken]
    for code in result.broken:
        empty_before = not next(t for t in tables if t.code == code).occupied
        assert empty_before or order.index(code) < min(
            (order.index(c) for c in left), default=len(order)
        )
    # Each move starts where the player sits at that moment.
    seats = {p: (t.code, s) for t in tables for s, p in t.occupied.items()}
    for m in result.moves:
        assert seats[m.player] == (m.from_table, m.from_seat)
        seats[m.player] = (m.to_table, m.to_seat)
    assert len(set(seats.values())) == len(seats)
    # The same seed gives the same plan.
    assert result == plan(
        tables, order=order, seed=seed, game=game, tolerance=tolerance
    )
    # Nothing more can break: the next table doesn't fit in the others' seats.
    if len(after) > 1:
        first = next(c for c in order if c in after)
        others = sum(t.seats - t.players for c, t in after.items() if c != first)
        assert after[first].players > others


# The machine is shared: a slow example is no failure.
@settings(deadline=None)
@given(floor=floors(), seed=st.text(max_size=8), n=st.integers(0, 20))
def test_a_draw_seats_each_entrant_once_on_an_empty_seat(floor, seed, n):
    """TO2/TO11: drawn players get distinct empty seats, tables stay balanced."""
    tables, order = floor
    free = sum(len(t.empty) for t in tables)
    players = [f"N-{i}" for i in range(min(n, free))]
    moves = draw_seats(players, tables, order=order, seed=seed)
    after = apply(tables, moves)
    assert [m.player for m in moves] == players
    spots = [(m.to_table, m.to_seat) for m in moves]
    assert len(set(spots)) == len(spots)
    for m in moves:
        assert m.to_seat not in next(t for t in tables if t.code == m.to_table).occupied
    before = [t.players for t in tables]
    counts = [t.players for t in after]
    # Drawing into the emptiest tables never widens the gap beyond one or beyond
    # what it was.
    assert max(counts) - min(counts) <= max(1, max(before) - min(before))
