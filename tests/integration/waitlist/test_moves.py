"""House moves called directly: closed tables, must-move games, seat changes and
balancing (WL3, WL4, WL7, WL10, BI7), booked through the floor's services."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.models import Table
from core.api.errors import status_of
from core.errors import ApplicationError
from waitlist import selectors, services
from waitlist.domain.seating import draw
from waitlist.models import Bar, Entry, Lockup, TableBreak

from .conftest import STAFF, books_balance, fill, kinds, nl12, sit, sitting

pytestmark = pytest.mark.django_db


def leave(clock, table: str, seat: int) -> None:
    from cardroom import services as floor

    floor.seat_leave(
        source="floor-desk", table_code=table, seat=seat, stack=20_000, now=clock.now
    )


class TestTableBreak:
    @pytest.fixture
    def room(self, open_table, players, clock):
        """T01 (3 seats, 2 players), T02 (2 seats, 1 player), T03 (3 players) to
        break, and P-9 on the list."""
        open_table("T01", seats=3)
        open_table("T02", seats=2)
        open_table("T03")
        fill(clock, "T01", ["P-1", "P-2"])
        fill(clock, "T02", ["P-3"])
        for seat, (player, stack) in enumerate(
            (("P-4", 12_000), ("P-5", 31_500), ("P-6", 20_000)), 1
        ):
            sit(clock, "T03", seat, player, stack)
        services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-9", now=clock.now
        )
        clock.advance(minutes=1)

    def test_the_draw_orders_the_moves_and_the_last_waits_ahead_of_the_list(
        self, room, clock
    ):
        """WL3: in the seeded draw's order each moves to the table a new player
        would get (WL4), keeping his stack (BI7); who finds no seat waits first."""
        result = services.table_break(
            table_code="T03", source=STAFF, now=clock.now, seed=7
        )
        order = draw(["P-4", "P-5", "P-6"], 7)
        assert result.broken.order == order and result.broken.seed == 7
        first, second, third = order
        assert [(m["player"], m["table"], m["draw_no"]) for m in result.moved] == [
            (first, "T02", 1),
            (second, "T01", 2),
        ]
        stacks = {"P-4": 12_000, "P-5": 31_500, "P-6": 20_000}
        assert [m["stack"] for m in result.moved] == [stacks[first], stacks[second]]
        assert sitting(first) == ("T02", 2, stacks[first], True)
        assert sitting(second) == ("T01", 3, stacks[second], True)
        (waiting,) = result.waiting
        assert (waiting.player.code, waiting.kind, waiting.draw_no) == (
            third,
            "closed_table",
            3,
        )
        assert [e.player.code for e in selectors.queue(nl12())] == [
            third,
            "P-9",
        ]
        assert kinds(table__code="T03") == ["draw", "joined"]
        books_balance()

    def test_the_last_player_called_away_closes_the_table(self, room, clock):
        """WL3: his priority holds for the next seat anywhere in the game; the table
        closes behind him."""
        result = services.table_break(
            source=STAFF, table_code="T03", now=clock.now, seed=7
        )
        (waiting,) = result.waiting
        stack = sitting(waiting.player.code)[2]
        with pytest.raises(ApplicationError) as error:
            services.list_call(
                source=STAFF, waiting_list=nl12(), table_code="T03", now=clock.now
            )
        assert (error.value.rule, error.value.code) == ("WL3", "table_breaking")
        leave(clock, "T01", 1)
        call = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
        )
        assert call.entry is not None and call.entry.pk == waiting.pk
        _entry, session = services.entry_seat(
            source=STAFF, entry_id=waiting.pk, now=clock.now
        )
        assert (session.stack_cents, session.house_move) == (stack, True)
        assert Table.objects.get(code="T03").status == "closed"
        assert kinds(table__code="T03")[-1] == "table_closed"
        books_balance()

    def test_calls_and_lockups_there_end_and_breaking_twice_is_refused(
        self, room, clock
    ):
        """WL3: a call to the closing table goes back to waiting, keeping its place;
        its lockups are released; a second break is a conflict."""
        call = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T03", now=clock.now
        )
        lockup = services.lockup_take(
            source=STAFF, table_code="T03", seat=5, now=clock.now
        )
        services.table_break(source=STAFF, table_code="T03", now=clock.now, seed=1)
        assert call.entry is not None
        entry = Entry.objects.get(pk=call.entry.pk)
        assert (entry.status, entry.call_table) == ("waiting", None)
        assert Lockup.objects.get(pk=lockup.pk).release == "floor"
        with pytest.raises(ApplicationError) as error:
            services.table_break(source=STAFF, table_code="T03", now=clock.now)
        assert (error.value.code, status_of(error.value)) == ("table_breaking", 409)
        assert TableBreak.objects.count() == 1

    def test_breaking_counts_its_statements(
        self, room, clock, django_assert_num_queries
    ):
        """Breaking a table of three, two moving and one waiting, in a fixed count
        of statements: the game's tables are read once, for the plan, not again
        before each player's move."""
        with django_assert_num_queries(115):
            services.table_break(source=STAFF, table_code="T03", now=clock.now, seed=7)


class TestMustMove:
    @pytest.fixture
    def tables(self, open_table, players, clock):
        """Main game T01 full; T02 with P-5 (walked in) then P-4 (from the list)."""
        open_table("T01", seats=3)
        open_table("T02", seats=4)
        fill(clock, "T01", ["P-1", "P-2", "P-3"])
        sit(clock, "T02", 1, "P-5")
        clock.advance(minutes=1)
        listed = services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-4", now=clock.now
        )
        clock.advance(minutes=1)
        services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
        )
        services.entry_seat(
            source=STAFF,
            entry_id=listed.pk,
            amount=20_000,
            method="cash",
            now=clock.now,
        )
        clock.advance(minutes=1)
        services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-9", now=clock.now
        )
        return services.must_move_start(
            table_code="T02", main_code="T01", source=STAFF, now=clock.now
        )

    def test_its_players_queue_for_the_main_game_in_list_order(self, tables, clock):
        """WL7: P-5 sat down first, P-4 came later from the list; both come before
        the list, and the first moves keeping his stack."""
        queue = selectors.queue(nl12())
        assert [(e.player.code, e.kind) for e in queue] == [
            ("P-5", "must_move"),
            ("P-4", "must_move"),
            ("P-9", "list"),
        ]
        leave(clock, "T01", 2)
        call = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
        )
        assert call.entry is not None and call.entry.player.code == "P-5"
        services.entry_seat(source=STAFF, entry_id=call.entry.pk, now=clock.now)
        assert sitting("P-5") == ("T01", 2, 20_000, True)
        books_balance()

    def test_refusing_the_move_leaves_the_game_and_bars_it_for_an_hour(
        self, tables, clock
    ):
        """WL7: no to the move takes him out of the game with his stack and bars
        him from it for 60 minutes."""
        leave(clock, "T01", 2)
        call = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
        )
        assert call.entry is not None
        services.entry_answer(
            source=STAFF, entry_id=call.entry.pk, accept=False, now=clock.now
        )
        assert sitting("P-5") is None
        bar = Bar.objects.get()
        assert (bar.player.code, bar.until) == ("P-5", clock.now + timedelta(hours=1))

    def test_ending_it_ends_the_queue_places(self, tables, clock):
        services.must_move_end(source=STAFF, must_move_id=tables.pk, now=clock.now)
        assert [e.player.code for e in selectors.queue(nl12())] == ["P-9"]
        with pytest.raises(ApplicationError) as error:
            services.must_move_end(source=STAFF, must_move_id=tables.pk, now=clock.now)
        assert error.value.code == "ended"


class TestSeatChangeAndBalance:
    @pytest.fixture
    def t01(self, open_table, players, clock):
        open_table("T01", seats=3)
        fill(clock, "T01", ["P-1", "P-2", "P-3"])
        services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-9", now=clock.now
        )

    def test_a_seat_change_comes_before_the_list_and_keeps_his_stack(self, t01, clock):
        """WL10: P-1 asked for seat 3; it opens, he moves as a house move, and the
        list fills the seat he left."""
        services.seat_change_request(
            source=STAFF, player_code="P-1", table_code="T01", seat=3, now=clock.now
        )
        leave(clock, "T01", 3)
        call = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
        )
        assert call.entry is not None
        assert (call.entry.player.code, call.entry.call_seat) == ("P-1", 3)
        services.entry_seat(source=STAFF, entry_id=call.entry.pk, now=clock.now)
        assert sitting("P-1") == ("T01", 3, 20_000, True)
        nxt = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
        )
        assert nxt.entry is not None
        assert (nxt.entry.player.code, nxt.entry.call_seat) == ("P-9", 1)
        books_balance()

    def test_only_a_player_of_the_game_asks_for_a_seat_change(self, t01, clock):
        with pytest.raises(ApplicationError) as error:
            services.seat_change_request(
                source=STAFF, player_code="P-9", table_code="T01", now=clock.now
            )
        assert (error.value.rule, error.value.code) == ("WL10", "not_in_game")

    def test_balancing_moves_a_player_from_the_fuller_table(
        self, t01, open_table, clock
    ):
        """BI7: from three players to one he moves with his stack; from two to two
        is refused."""
        open_table("T02", seats=3)
        sit(clock, "T02", 1, "P-4", 25_000)
        session = services.table_balance(
            table_code="T01", seat=2, to_table="T02", source=STAFF, now=clock.now
        )
        assert (session.table.code, session.seat, session.stack_cents) == (
            "T02",
            2,
            20_000,
        )
        with pytest.raises(ApplicationError) as error:
            services.table_balance(
                source=STAFF, table_code="T01", seat=1, to_table="T02", now=clock.now
            )
        assert (error.value.rule, error.value.code) == ("BI7", "tables_balanced")
        books_balance()
