"""Who is called, which table, the draw, the timers, as pure decisions (WL2–WL10)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from waitlist.domain.board import board_name, initials
from waitlist.domain.seating import (
    Candidate,
    Kind,
    Opening,
    Skipped,
    TableLoad,
    bar_until,
    call_deadline,
    draw,
    lockup_due,
    pick,
    table_order,
)

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def listed(n: int, minute: float, **kw) -> Candidate:
    return Candidate(n, f"P-{n}", kw.pop("kind", Kind.LIST), at(minute), **kw)


T01 = Opening(
    "T01",
    game_tables=frozenset({"T01", "T02"}),
    free_seats=frozenset({4, 7}),
    seated=frozenset({"P-90", "P-91"}),
)


class TestPick:
    def test_the_list_is_first_come_first_called(self):
        """WL2: the earliest on the list is called."""
        assert pick([listed(2, 5), listed(1, 1), listed(3, 9)], T01).chosen.id == 1

    def test_priority_closed_table_then_must_move_then_seat_change_then_list(self):
        """WL3 before WL7 before WL10 before WL1, whatever the arrival times."""
        queue = [
            listed(1, 0),
            listed(2, 3, kind=Kind.SEAT_CHANGE, table="T01", seated_at="T02"),
            listed(3, 2, kind=Kind.MUST_MOVE, table="T01", seated_at="T02"),
            listed(4, 9, kind=Kind.CLOSED_TABLE, seated_at="T03", draw_no=1),
        ]
        order = []
        while queue:
            chosen = pick(queue, T01).chosen
            order.append(chosen.id)
            queue.remove(chosen)
        assert order == [4, 3, 2, 1]

    def test_a_closed_tables_players_follow_the_draw(self):
        """WL3: same closing time, the draw decides; an earlier break goes first."""
        queue = [
            listed(1, 10, kind=Kind.CLOSED_TABLE, draw_no=2, seated_at="T03"),
            listed(2, 10, kind=Kind.CLOSED_TABLE, draw_no=1, seated_at="T03"),
            listed(3, 12, kind=Kind.CLOSED_TABLE, draw_no=1, seated_at="T04"),
        ]
        assert pick(queue, T01).chosen.id == 2
        assert pick(queue[:1] + queue[2:], T01).chosen.id == 1

    def test_moves_wait_for_their_own_table(self):
        """WL7, WL10: a must-move or seat change for T02 isn't called to T01."""
        queue = [
            listed(1, 0, kind=Kind.MUST_MOVE, table="T02", seated_at="T05"),
            listed(2, 0, kind=Kind.SEAT_CHANGE, table="T02", seated_at="T01"),
            listed(3, 5),
        ]
        result = pick(queue, T01)
        assert result.chosen.id == 3 and result.skipped == []

    def test_a_seat_change_waits_for_the_seat_he_asked_for(self):
        """WL10: seat 7 asked for; called to it when free, not to another seat."""
        wants_7 = listed(1, 0, kind=Kind.SEAT_CHANGE, table="T01", seat=7)
        assert pick([wants_7], T01).seat == 7
        only_4 = Opening("T01", T01.game_tables, frozenset({4}), T01.seated)
        assert pick([wants_7], only_4).chosen is None
        named_4 = Opening("T01", T01.game_tables, T01.free_seats, T01.seated, seat=4)
        assert pick([wants_7, listed(2, 1)], named_4).chosen.id == 2

    def test_a_closed_table_player_isnt_called_back_to_it(self):
        assert (
            pick([listed(1, 0, kind=Kind.CLOSED_TABLE, seated_at="T01")], T01).chosen
            is None
        )

    def test_kept_apart_players_are_passed_over_and_keep_their_place(self):
        """WL9: P-1 is kept apart from P-90 at the table, or from P-92 coming."""
        apart = frozenset({frozenset({"P-1", "P-90"})})
        result = pick([listed(1, 0), listed(2, 1)], T01, apart=apart)
        assert result.chosen.id == 2
        assert [
            (s.candidate.id, s.reason, s.rule, s.remove) for s in result.skipped
        ] == [(1, Skipped.KEPT_APART, "WL9", False)]
        coming = Opening(
            "T01", T01.game_tables, T01.free_seats, frozenset(), frozenset({"P-92"})
        )
        apart = frozenset({frozenset({"P-1", "P-92"})})
        assert pick([listed(1, 0), listed(2, 1)], coming, apart=apart).chosen.id == 2

    def test_one_seat_at_a_time(self):
        """WL6: called elsewhere: passed over; seated in this game: off the list."""
        result = pick(
            [
                listed(1, 0),
                listed(2, 1, seated_at="T02"),
                listed(3, 2, seated_at="T09"),
            ],
            T01,
            busy=frozenset({"P-1"}),
        )
        assert result.chosen.id == 3  # seated in another game: may be called (WL5)
        assert [(s.candidate.id, s.reason, s.remove) for s in result.skipped] == [
            (1, Skipped.CALLED_ELSEWHERE, False),
            (2, Skipped.SEATED_IN_GAME, True),
        ]

    def test_no_free_seat_no_call(self):
        full = Opening("T01", T01.game_tables, frozenset(), T01.seated)
        assert pick([listed(1, 0)], full).chosen is None
        taken = Opening("T01", T01.game_tables, frozenset({4}), T01.seated, seat=5)
        assert pick([listed(1, 0)], taken).chosen is None

    @given(st.lists(st.integers(0, 10_000), min_size=1, max_size=30, unique=True))
    def test_the_called_player_is_never_behind_another_callable_one(self, minutes):
        queue = [listed(n, m) for n, m in enumerate(minutes)]
        chosen = pick(queue, T01).chosen
        assert chosen.joined_at == min(c.joined_at for c in queue)


class TestTables:
    def test_fewest_players_then_earliest_opened(self):
        """WL4: equal counts go to the table that opened first."""
        loads = [
            TableLoad("T02", at(10), 5, 4),
            TableLoad("T01", at(0), 5, 4),
            TableLoad("T03", at(-10), 6, 3),
            TableLoad("T04", at(-20), 9, 0),
        ]
        assert [t.table for t in table_order(loads)] == ["T01", "T02", "T03"]

    def test_fewer_players_beat_an_earlier_opening(self):
        loads = [TableLoad("T01", at(0), 7, 2), TableLoad("T02", at(30), 3, 6)]
        assert table_order(loads)[0].table == "T02"


class TestDraw:
    @given(
        st.lists(st.text(min_size=1, max_size=6), unique=True, max_size=12),
        st.integers(0, 2**62),
    )
    def test_a_draw_is_a_repeatable_permutation(self, players, seed):
        """WL3: the same players and seed give the same order, whatever their order."""
        order = draw(players, seed)
        assert sorted(order) == sorted(players)
        assert draw(list(reversed(players)), seed) == order

    def test_seeds_give_different_orders(self):
        players = [f"P-{n}" for n in range(9)]
        assert len({tuple(draw(players, seed)) for seed in range(20)}) > 10


class TestTimers:
    def test_the_call_lasts_five_minutes(self):
        """WL2: the deadline is five minutes after the call."""
        assert call_deadline(T0) == at(5)

    def test_lockups_only_run_out_while_a_list_waits(self):
        """WL8: 5 minutes for a new game, 10 for any seat, only with a list."""
        assert not lockup_due(new_game=True, locked_at=T0, now=at(60), list_waits=False)
        assert not lockup_due(
            new_game=True, locked_at=T0, now=at(4.99), list_waits=True
        )
        assert lockup_due(new_game=True, locked_at=T0, now=at(5), list_waits=True)
        assert not lockup_due(
            new_game=False, locked_at=T0, now=at(9.99), list_waits=True
        )
        assert lockup_due(new_game=False, locked_at=T0, now=at(10), list_waits=True)

    def test_a_refused_must_move_bars_for_an_hour(self):
        assert bar_until(T0) == at(60)


class TestBoardNames:
    def test_nickname_or_initials_only(self):
        """WL11: the board never shows a full name."""
        assert board_name("", "Mika Juhani Virtanen") == "M. J. V."
        assert board_name("Ässä", "Mika Virtanen") == "Ässä"
        assert board_name("  ", "") == "?"
        assert initials("kim min-jun") == "K. M."
