"""The waiting lists' services called directly: joining, calling, answering, seating,
calls running out, lockups and pairs kept apart (WL1, WL2, WL4–WL9)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.api.errors import status_of
from core.errors import ApplicationError
from waitlist import services
from waitlist.models import Bar, Entry, Lockup

from .conftest import STAFF, books_balance, fill, kinds, nl12, sit, sitting

pytestmark = pytest.mark.django_db


def refused(error: pytest.ExceptionInfo[ApplicationError], rule: str | None, code: str):
    assert (error.value.rule, error.value.code) == (rule, code), error.value


@pytest.fixture
def two_tables(open_table, players, clock):
    """T01 (three seats, two players) opened before T02 (three seats, one player)."""
    open_table("T01", seats=3)
    open_table("T02", seats=3)
    fill(clock, "T01", ["P-1", "P-2"])
    fill(clock, "T02", ["P-3"])


class TestJoin:
    def test_a_player_joins_once_and_the_event_says_who_and_why(
        self, two_tables, clock
    ):
        """WL1: he joins, recorded with the source that asked; twice is refused."""
        entry = services.entry_join(
            waiting_list=nl12(), player_code="P-5", source=STAFF, now=clock.now
        )
        assert (entry.status, entry.kind, entry.joined_at) == (
            "waiting",
            "list",
            clock.now,
        )
        (event,) = entry.events.all()
        assert (event.kind, event.rule, event.source) == ("joined", "WL1", "floor-desk")
        with pytest.raises(ApplicationError) as error:
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code="P-5", now=clock.now
            )
        refused(error, "WL1", "already_listed")

    def test_a_player_of_the_game_or_an_unknown_one_is_refused(self, two_tables, clock):
        """WL10 for a player who plays the game already; BI10 for a stranger."""
        with pytest.raises(ApplicationError) as error:
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code="P-1", now=clock.now
            )
        refused(error, "WL10", "already_in_game")
        with pytest.raises(ApplicationError) as error:
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code="P-99", now=clock.now
            )
        refused(error, "BI10", "unknown_player")
        assert not Entry.objects.exists()


class TestCall:
    def test_the_first_listed_is_called_to_the_table_with_fewest_players(
        self, two_tables, clock
    ):
        """WL2, WL4: first in the list's order, to T02 (one player against two)."""
        for code in ("P-6", "P-5"):
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code=code, now=clock.now
            )
            clock.advance(seconds=30)
        result = services.list_call(waiting_list=nl12(), source=STAFF, now=clock.now)
        assert result.entry is not None and result.table is not None
        assert (result.entry.player.code, result.table.code) == ("P-6", "T02")
        assert result.entry.call_seat == 2
        assert result.entry.expires_at == clock.now + timedelta(minutes=5)
        event = result.entry.events.get(kind="called")
        assert event.details["table_chosen_by"] == "WL4"
        assert event.details["seat"] == 2 and event.rule == "WL2"

    def test_a_call_holds_its_seat_so_the_next_goes_elsewhere(self, two_tables, clock):
        """WL2: the seat called is taken for the next call; at a full table, 409."""
        for code in ("P-5", "P-6", "P-7"):
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code=code, now=clock.now
            )
        first = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
        )
        second = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
        )
        assert first.entry is not None and second.entry is not None
        assert (first.entry.call_seat, second.entry.call_seat) == (2, 3)
        with pytest.raises(ApplicationError) as error:
            services.list_call(
                source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
            )
        refused(error, None, "no_open_seat")
        assert status_of(error.value) == 409

    def test_calling_counts_its_statements(
        self, two_tables, clock, django_assert_num_queries
    ):
        """One call for the next seat, with three players waiting, in a fixed count
        of statements: the list's lock, the timers, the loads, the queue, and the
        waiting list's door for the one player called, not for every player
        waiting (PP2–PP4: the settings and his restrictions)."""
        for code in ("P-5", "P-6", "P-7"):
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code=code, now=clock.now
            )
        wl = nl12()
        with django_assert_num_queries(23):
            result = services.list_call(source=STAFF, waiting_list=wl, now=clock.now)
        assert result.entry is not None and result.entry.player.code == "P-5"

    def test_a_pair_kept_apart_is_passed_over_and_keeps_his_place(
        self, two_tables, clock
    ):
        """WL9: P-5 and P-3 (at T02) are kept apart: P-6 is called there instead."""
        services.kept_apart_start(
            player_codes=("P-5", "P-3"), reason="Family", source=STAFF, now=clock.now
        )
        for code in ("P-5", "P-6"):
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code=code, now=clock.now
            )
            clock.advance(seconds=1)
        result = services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
        )
        assert result.entry is not None and result.entry.player.code == "P-6"
        assert result.skipped == [
            {"player": "P-5", "rule": "WL9", "reason": "kept_apart"}
        ]
        assert Entry.objects.get(player__code="P-5").status == "waiting"


class TestAnswerAndSeat:
    @pytest.fixture
    def called(self, two_tables, clock) -> Entry:
        entry = services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-5", now=clock.now
        )
        services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
        )
        entry.refresh_from_db()
        return entry

    def test_a_new_player_says_yes_and_buys_in(self, called, clock):
        """WL2: yes is on his way; seated, he leaves the list with his buy-in."""
        clock.advance(minutes=2)
        services.entry_answer(
            source=STAFF, entry_id=called.pk, accept=True, now=clock.now
        )
        clock.advance(minutes=1)
        entry, session = services.entry_seat(
            source=STAFF,
            entry_id=called.pk,
            amount=15_000,
            method="cash",
            now=clock.now,
        )
        assert (entry.status, entry.end, entry.seated_session_id) == (
            "seated",
            "seated",
            session.pk,
        )
        assert sitting("P-5") == ("T02", 2, 15_000, False)
        assert kinds(entry=entry) == ["joined", "called", "answered", "seated"]
        books_balance()

    def test_a_new_player_without_an_amount_is_refused(self, called, clock):
        """He brings no stack: the floor gives an amount and a method (400)."""
        with pytest.raises(ApplicationError) as error:
            services.entry_seat(source=STAFF, entry_id=called.pk, now=clock.now)
        refused(error, None, "amount_required")
        assert Entry.objects.get(pk=called.pk).status == "called"

    def test_no_leaves_the_list(self, called, clock):
        """WL5: a player who declines leaves the list; seating him then is refused."""
        services.entry_answer(
            source=STAFF, entry_id=called.pk, accept=False, now=clock.now
        )
        assert Entry.objects.get(pk=called.pk).end == "declined"
        with pytest.raises(ApplicationError) as error:
            services.entry_seat(
                source=STAFF, entry_id=called.pk, amount=15_000, now=clock.now
            )
        refused(error, None, "not_called")

    def test_a_call_runs_out_after_five_minutes_not_before(self, called, clock):
        """WL2: at exactly five minutes he is in time; a moment later the sweep
        takes him off the list and seating him says the call ran out."""
        clock.advance(minutes=5)
        assert services.timers_sweep(now=clock.now) == 0
        clock.advance(seconds=1)
        assert services.timers_sweep(now=clock.now) == 1
        entry = Entry.objects.get(pk=called.pk)
        assert (entry.status, entry.end) == ("removed", "no_show")
        expired = entry.events.get(kind="expired")
        assert (expired.rule, expired.source, expired.details["seat"]) == (
            "WL2",
            "timer",
            2,
        )
        with pytest.raises(ApplicationError) as error:
            services.entry_seat(
                source=STAFF, entry_id=called.pk, amount=15_000, now=clock.now
            )
        refused(error, "WL2", "call_expired")

    def test_a_seated_player_moving_down_brings_his_stack_to_the_maximum(
        self, two_tables, open_table, clock
    ):
        """WL5 under BI5 (c): from NL 2/5 to NL 1/2 he brings 40,000 of 60,000."""
        open_table("T04", "NL25")
        sit(clock, "T04", 1, "P-7", 60_000)
        entry = services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-7", now=clock.now
        )
        services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T02", now=clock.now
        )
        _entry, session = services.entry_seat(
            source=STAFF, entry_id=entry.pk, now=clock.now
        )
        assert (session.kind, session.stack_cents) == ("transfer", 40_000)
        assert sitting("P-7") == ("T02", 2, 40_000, False)
        books_balance()

    def test_the_floor_removes_an_entry_once(self, called, clock):
        """A removed entry frees its call's seat; removing it again is a conflict."""
        services.entry_remove(
            source=STAFF, entry_id=called.pk, reason="Went home", now=clock.now
        )
        assert Entry.objects.get(pk=called.pk).end == "removed"
        with pytest.raises(ApplicationError) as error:
            services.entry_remove(source=STAFF, entry_id=called.pk, now=clock.now)
        refused(error, None, "not_on_list")


class TestLockups:
    def test_a_lockup_holds_a_seat_and_is_released_when_the_list_waits(
        self, two_tables, clock
    ):
        """WL8: a held seat isn't called; with a list waiting, a seat lockup ends
        after 10 minutes (a new game's after 5)."""
        lockup = services.lockup_take(
            table_code="T01", seat=3, note="Parking", source=STAFF, now=clock.now
        )
        services.entry_join(
            source=STAFF, waiting_list=nl12(), player_code="P-5", now=clock.now
        )
        with pytest.raises(ApplicationError) as error:
            services.list_call(
                source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
            )
        refused(error, None, "no_open_seat")
        clock.advance(minutes=9, seconds=59)
        services.list_refresh(waiting_list=nl12(), now=clock.now)
        assert Lockup.objects.get(pk=lockup.pk).released_at is None
        clock.advance(seconds=1)
        assert services.timers_sweep(now=clock.now) == 1
        lockup.refresh_from_db()
        assert (lockup.release, lockup.released_at) == ("timed_out", clock.now)

    def test_the_floor_releases_a_lockup_once(self, two_tables, clock):
        lockup = services.lockup_take(
            source=STAFF, table_code="T01", seat=3, now=clock.now
        )
        with pytest.raises(ApplicationError) as error:
            services.lockup_take(source=STAFF, table_code="T01", seat=3, now=clock.now)
        refused(error, None, "seat_taken")
        services.lockup_release(source=STAFF, lockup_id=lockup.pk, now=clock.now)
        with pytest.raises(ApplicationError) as error:
            services.lockup_release(source=STAFF, lockup_id=lockup.pk, now=clock.now)
        refused(error, None, "released")


class TestBar:
    def test_a_barred_player_can_neither_list_nor_sit_in_the_game(
        self, two_tables, clock
    ):
        """WL7: while a bar runs, the list and the floor's seat check refuse him."""
        game = nl12().game
        Bar.objects.create(
            player_id=_player("P-5"),
            game=game,
            since=clock.now,
            until=clock.now + timedelta(minutes=60),
        )
        with pytest.raises(ApplicationError) as error:
            services.entry_join(
                source=STAFF, waiting_list=nl12(), player_code="P-5", now=clock.now
            )
        refused(error, "WL7", "barred_from_game")
        with pytest.raises(ApplicationError) as error:
            sit(clock, "T02", 3, "P-5")
        refused(error, "WL7", "barred_from_game")


def _player(code: str) -> int:
    from accounting.models import Player

    return Player.objects.get(code=code).pk
