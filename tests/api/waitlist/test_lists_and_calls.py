"""Joining lists and calling players for open seats (WL1, WL2, WL4, WL6)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.models import SeatSession
from tests.api.floor.conftest import leave, seat
from tests.api.waitlist.conftest import (
    answer,
    call,
    called,
    events,
    fill,
    join,
    joined,
    key,
    refused,
    seat_entry,
    status_of,
)
from waitlist.models import Entry
from waitlist.tasks import sweep_task

pytestmark = pytest.mark.django_db


class TestJoin:
    def test_a_player_lists_for_several_games_and_while_seated_elsewhere(
        self, floor, open_table, players, clock
    ):
        """WL1: one player on two lists, while he plays a third game."""
        t = open_table("T01", "PLO12")
        fill(t, "T01", ["P-1"])
        one = join(floor, "P-1", "NL12")
        two = join(floor, "P-1", "NL25")
        assert (one.status_code, two.status_code) == (201, 201), two.content
        assert one.json()["kind"] == "list" and one.json()["status"] == "waiting"
        lists = {
            row["list"]: [e["player"] for e in row["entries"]]
            for row in floor.get("/api/v1/waitlist/lists").json()
        }
        assert lists[key("NL12")] == ["P-1"] and lists[key("NL25")] == ["P-1"]
        assert events("joined")[0].details == {"seated_at": "T01"}
        assert events("joined")[0].by.username == "floor"

    def test_the_list_keeps_the_order_players_joined_in(self, floor, players, clock):
        """WL1: first come, first listed."""
        for n in (3, 1, 2):
            joined(floor, f"P-{n}")
            clock.advance(seconds=30)
        body = floor.get(f"/api/v1/waitlist/lists/{key()}").json()
        assert [e["player"] for e in body["entries"]] == ["P-3", "P-1", "P-2"]

    def test_twice_on_one_list_is_refused(self, floor, players, clock):
        """WL1: a player is once on a list; the database says so too."""
        joined(floor, "P-1")
        refused(join(floor, "P-1"), "WL1")
        assert Entry.objects.count() == 1

    def test_listing_for_the_game_he_plays_is_refused(
        self, floor, open_table, players, clock
    ):
        """WL10: a player in the game asks for a seat change instead."""
        t = open_table("T01")
        fill(t, "T01", ["P-1"])
        error = refused(join(floor, "P-1"), "WL10")
        assert error["code"] == "already_in_game"

    def test_unknown_players_and_games_are_refused(self, floor, players, clock):
        """BI10 for an unregistered player; 404 for a game the room doesn't deal."""
        refused(join(floor, "P-404"), "BI10")
        answer_ = floor.post(
            "/api/v1/waitlist/lists/NLHE-1-2/join", {"player": "P-1"}, format="json"
        )
        assert answer_.status_code == 404

    def test_only_floor_staff_work_the_lists(self, staff_client, api, players):
        """A cashier or nobody at all can't put players on lists."""
        from core.roles import Role

        cashier = staff_client(Role.CASHIER, username="cash")
        assert join(cashier, "P-1").status_code == 403
        assert join(api, "P-1").status_code in (401, 403)


class TestCall:
    def test_the_first_listed_is_called_and_the_call_holds_the_seat(
        self, floor, small, clock
    ):
        """WL2: the first player is called; his call holds the one open seat."""
        first = joined(floor, "P-5")
        joined(floor, "P-6")
        entry = called(floor, table="T01")
        assert entry["id"] == first and entry["status"] == "called"
        assert (entry["table"], entry["seat"]) == ("T01", 3)
        assert entry["expires_at"] == (clock.now + timedelta(minutes=5)).isoformat()
        again = call(floor, table="T01")
        assert again.status_code == 409
        assert again.json()["error"]["code"] == "no_open_seat"
        assert status_of(first) == ("called", "")

    def test_seated_within_five_minutes(self, floor, small, clock):
        """WL2: at 4:59 after the call he still takes the seat, buying in."""
        entry = joined(floor, "P-5")
        called(floor, table="T01")
        clock.advance(minutes=4, seconds=59)
        answer_ = seat_entry(floor, entry, amount=20_000, method="cash")
        assert answer_.status_code == 201, answer_.content
        body = answer_.json()
        assert (body["table"], body["seat"], body["stack"]) == ("T01", 3, 20_000)
        assert body["kind"] == "buy_in" and not body["house_move"]
        assert status_of(entry) == ("seated", "seated")
        assert SeatSession.objects.get(player__code="P-5", ended_at=None).seat == 3

    def test_not_there_after_five_minutes_he_leaves_the_list(self, floor, small, clock):
        """WL2: past 5 minutes the seat goes to the next player; his seat is refused."""
        late = joined(floor, "P-5")
        nxt = joined(floor, "P-6")
        called(floor, table="T01")
        clock.advance(minutes=5, seconds=1)
        refused(seat_entry(floor, late, amount=20_000, method="cash"), "WL2")
        assert called(floor, table="T01")["id"] == nxt
        assert status_of(late) == ("removed", "no_show")
        (expired,) = events("expired")
        assert expired.rule == "WL2" and expired.source == "timer"
        assert expired.details["deadline"] == "2026-11-29T21:05:00+02:00"
        assert not SeatSession.objects.filter(player__code="P-5").exists()

    def test_reading_the_list_applies_the_five_minutes_without_the_task(
        self, floor, small, clock
    ):
        """WL2 holds when the scheduled task is late: a read removes the player."""
        late = joined(floor, "P-5")
        called(floor, table="T01")
        clock.advance(minutes=6)
        body = floor.get(f"/api/v1/waitlist/lists/{key()}").json()
        assert body["entries"] == []
        assert status_of(late) == ("removed", "no_show")

    def test_the_scheduled_sweep_removes_late_players(self, floor, small, clock):
        """WL2: the periodic task ends calls past their 5 minutes, and only those."""
        late = joined(floor, "P-5")
        called(floor, table="T01")
        clock.advance(minutes=5)
        assert sweep_task() == 0
        assert status_of(late) == ("called", "")
        clock.advance(seconds=1)
        assert sweep_task() == 1
        assert status_of(late) == ("removed", "no_show")

    def test_a_yes_is_recorded_but_the_clock_still_runs(self, floor, small, clock):
        """WL2: answering yes doesn't stop the 5 minutes; sitting down does."""
        entry = joined(floor, "P-5")
        called(floor, table="T01")
        clock.advance(minutes=1)
        assert answer(floor, entry, True).json()["answered_at"] is not None
        clock.advance(minutes=4, seconds=1)
        refused(answer(floor, entry, True), "WL2")

    def test_a_no_takes_him_off_the_list(self, floor, small, clock):
        """WL5: declining the seat, he leaves the list; the next one is called."""
        entry = joined(floor, "P-5")
        nxt = joined(floor, "P-6")
        called(floor, table="T01")
        assert answer(floor, entry, False).status_code == 200
        assert status_of(entry) == ("removed", "declined")
        assert called(floor, table="T01")["id"] == nxt

    def test_nobody_to_call(self, floor, small, clock):
        """With an empty list the call answers 200 and holds nothing."""
        answer_ = call(floor, table="T01")
        assert answer_.status_code == 200 and answer_.json()["entry"] is None
        assert not Entry.objects.exists()

    def test_the_floor_removes_a_player(self, floor, small, clock):
        """A removal frees the seat his call held, and says why."""
        entry = joined(floor, "P-5")
        called(floor, table="T01")
        answer_ = floor.post(
            f"/api/v1/waitlist/entries/{entry}/remove",
            {"reason": "went home"},
            format="json",
        )
        assert answer_.status_code == 200
        assert status_of(entry) == ("removed", "removed")
        assert events("removed")[-1].reason == "went home"
        again = floor.post(
            f"/api/v1/waitlist/entries/{entry}/remove", {}, format="json"
        )
        assert again.status_code == 409

    def test_a_call_for_a_table_of_another_game_is_refused(
        self, floor, open_table, players, clock
    ):
        open_table("T05", "PLO12")
        joined(floor, "P-1")
        refused(call(floor, table="T05"), "WL1")

    def test_every_decision_is_on_the_entry(self, floor, small, clock):
        """Who, when, why: the entry's events."""
        entry = joined(floor, "P-5")
        called(floor, table="T01")
        clock.advance(minutes=1)
        seat_entry(floor, entry, amount=20_000, method="cash")
        body = floor.get(f"/api/v1/waitlist/entries/{entry}").json()
        assert [(e["kind"], e["rule"], e["by"]) for e in body["events"]] == [
            ("joined", "WL1", "floor"),
            ("called", "WL2", "floor"),
            ("seated", "WL2", "floor"),
        ]
        assert body["events"][2]["at"] == "2026-11-29T21:01:00+02:00"


class TestWhichTable:
    def test_equal_counts_go_to_the_table_that_opened_first(
        self, floor, open_table, players, clock
    ):
        """WL4: two tables with two players each; the earlier-opened one gets him."""
        late = open_table("T02")
        clock.advance(minutes=-10)
        early = open_table("T01")
        clock.advance(minutes=10)
        fill(late, "T02", ["P-1", "P-2"])
        fill(early, "T01", ["P-3", "P-4"])
        joined(floor, "P-5")
        entry = called(floor)
        assert entry["table"] == "T01"

    def test_the_table_with_fewer_players_comes_first(
        self, floor, open_table, players, clock
    ):
        """WL4: counts decide before opening times; a called player counts."""
        early = open_table("T01")
        clock.advance(minutes=10)
        late = open_table("T02")
        fill(early, "T01", ["P-1", "P-2"])
        fill(late, "T02", ["P-3"])
        joined(floor, "P-5")
        joined(floor, "P-6")
        joined(floor, "P-7")
        assert called(floor)["table"] == "T02"  # 1 player against 2
        assert called(floor)["table"] == "T01"  # 2 against 2 (one called): T01 older
        assert called(floor)["table"] == "T02"


class TestOneSeat:
    def test_a_player_called_elsewhere_is_passed_over_and_keeps_his_place(
        self, floor, open_table, players, clock
    ):
        """WL6: one seat at a time: while called to one game he isn't called again."""
        nl = open_table("T01", seats=2)
        plo = open_table("T05", "PLO12", seats=2)
        fill(nl, "T01", ["P-1"])
        fill(plo, "T05", ["P-2"])
        both = joined(floor, "P-5", "NL12")
        other = joined(floor, "P-5", "PLO12")
        second = joined(floor, "P-6", "PLO12")
        assert called(floor, "NL12")["id"] == both
        answer_ = call(floor, "PLO12")
        assert answer_.json()["entry"]["id"] == second
        assert answer_.json()["skipped"] == [
            {"player": "P-5", "rule": "WL6", "reason": "called_elsewhere"}
        ]
        assert seat_entry(floor, both, amount=20_000, method="cash").status_code == 201
        # Seated in NL, he is still first on the PLO list (WL1).
        body = floor.get(f"/api/v1/waitlist/lists/{key('PLO12')}").json()
        assert [e["id"] for e in body["entries"]] == [other, second]

    def test_seating_cancels_his_other_calls(self, floor, open_table, players, clock):
        """WL6: called twice at once, sitting down frees the other seat."""
        nl = open_table("T01", seats=2)
        plo = open_table("T05", "PLO12", seats=2)
        fill(nl, "T01", ["P-1"])
        fill(plo, "T05", ["P-2"])
        a = joined(floor, "P-5", "NL12")
        b = joined(floor, "P-5", "PLO12")
        called(floor, "NL12")
        # The race the busy check can't see across two lists' locks, made by hand.
        Entry.objects.filter(pk=b).update(
            status="called",
            called_at=clock.now,
            expires_at=clock.now + timedelta(minutes=5),
            call_table_id=plo_table_id(),
            call_seat=2,
        )
        assert seat_entry(floor, a, amount=20_000, method="cash").status_code == 201
        assert status_of(b) == ("waiting", "")
        assert events("call_cancelled")[0].rule == "WL6"

    def test_a_listed_player_who_sat_down_in_the_game_leaves_the_list(
        self, floor, open_table, players, clock
    ):
        """WL6: he took a seat in this game by himself; the call passes him and ends
        his entry."""
        t = open_table("T01")
        fill(t, "T01", ["P-1"])
        gone = joined(floor, "P-5")
        nxt = joined(floor, "P-6")
        assert seat(t, "T01", 5, "P-5", 20_000).status_code == 201
        answer_ = call(floor, table="T01")
        assert answer_.json()["entry"]["id"] == nxt
        assert status_of(gone) == ("removed", "seated_in_game")

    def test_a_player_who_left_is_called_to_the_seat_he_left(self, floor, small, clock):
        """The seat a leaving player frees is the one the call holds."""
        joined(floor, "P-5")
        called(floor, table="T01")
        assert leave(small, "T01", 1, 20_000).status_code == 200
        joined(floor, "P-6")
        assert called(floor, table="T01")["seat"] == 1


def plo_table_id() -> int:
    from cardroom.models import Table

    return Table.objects.get(code="T05").pk
