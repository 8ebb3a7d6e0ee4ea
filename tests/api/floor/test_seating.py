"""Seats, buy-ins, top-ups and leaving through the terminal API (BI1–BI7, WL6)."""

from __future__ import annotations

from datetime import date

import pytest

from accounting import chart
from accounting.models import Account, Transaction
from accounting.selectors import trial_balance
from cardroom.models import SeatSession, StackMovement
from tests.api.floor.conftest import leave, seat

pytestmark = pytest.mark.django_db


def balance(code: str) -> int:
    return Account.objects.get(code=code).balance_cents


def refused(answer, rule: str) -> dict:
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert error["rule"] == rule, error
    return error


def nothing_written(before: tuple[int, int, int]) -> bool:
    return before == counts()


def counts() -> tuple[int, int, int]:
    return (
        Transaction.objects.count(),
        StackMovement.objects.count(),
        SeatSession.objects.count(),
    )


class TestBuyIn:
    def test_cash_buy_in_books_drop_box_tray_and_stack(
        self, clock, open_table, players
    ):
        """BI1/CA3: cash into the drop box, chips from the tray, onto his stack."""
        t = open_table("T01")
        answer = seat(t, "T01", 4, "P-1", 20_000)
        assert answer.status_code == 201, answer.content
        assert answer.json() == {
            "seat": 4,
            "player": "P-1",
            "stack": 20_000,
            "kind": "buy_in",
        }
        assert balance("table:T01:drop_box") == 20_000
        assert balance("table:T01:tray") == 2_000_000 - 20_000
        assert balance("player:P-1:table:T01") == 20_000
        tb = trial_balance()
        assert tb.balanced and tb.cached_balances_agree

    def test_outside_the_limits_is_refused_and_writes_nothing(
        self, clock, open_table, players
    ):
        """BI1: below the minimum or above the maximum: 422 with both limits."""
        t = open_table("T01")
        before = counts()
        error = refused(seat(t, "T01", 4, "P-1", 9_999), "BI1")
        assert error["allowed"] == {"min": 10_000, "max": 40_000}
        refused(seat(t, "T01", 4, "P-1", 40_001), "BI1")
        assert nothing_written(before)

    def test_cash_above_the_identity_threshold_needs_a_verified_id(
        self, clock, open_table, players, settings
    ):
        """CA5: cash reaching the threshold in a gaming day needs a verified ID."""
        from accounting.models import Player

        settings.CARDROOM_IDENTITY_THRESHOLD_CENTS = 30_000
        Player.objects.create(
            code="P-anon", name="No papers", birth_date=date(1985, 1, 1)
        )
        t = open_table("T01")
        assert seat(t, "T01", 1, "P-anon", 20_000).status_code == 201
        before = counts()
        up = t.post(
            "/api/v1/tables/T01/seats/1/top-ups",
            {"amount": 10_000, "method": "cash"},
            format="json",
        )
        error = refused(up, "CA5")
        assert error["allowed"] == {"max": 9_999}
        assert nothing_written(before)

    def test_unregistered_player_is_refused(self, clock, open_table, players):
        """BI10: every buy-in belongs to a registered player."""
        t = open_table("T01")
        refused(seat(t, "T01", 4, "P-404", 20_000), "BI10")

    def test_one_seat_per_player(self, clock, open_table, players):
        """WL6: a player seated at T01 can't sit at T02."""
        t1, t2 = open_table("T01"), open_table("T02")
        assert seat(t1, "T01", 1, "P-1", 20_000).status_code == 201
        before = counts()
        refused(seat(t2, "T02", 1, "P-1", 20_000), "WL6")
        assert nothing_written(before)

    def test_a_taken_seat_is_a_conflict(self, clock, open_table, players):
        """Two players can't hold one seat."""
        t = open_table("T01")
        seat(t, "T01", 1, "P-1", 20_000)
        assert seat(t, "T01", 1, "P-2", 20_000).status_code == 409

    def test_terminal_seats_only_at_its_own_table(self, clock, open_table, players):
        """A terminal key can't seat players at another table."""
        t1 = open_table("T01")
        open_table("T02")
        assert seat(t1, "T02", 1, "P-1", 20_000).status_code == 403

    def test_closed_table_refuses_seats(self, clock, open_table, players, manager):
        """A closed table seats nobody."""
        t = open_table("T01")
        assert manager.post("/api/v1/tables/T01/close").status_code == 200
        assert seat(t, "T01", 1, "P-1", 20_000).status_code == 422


class TestTopUp:
    def test_top_up_up_to_the_maximum(self, clock, open_table, players):
        """BI2: with a big blind in front, any amount up to the maximum."""
        t = open_table("T01")
        seat(t, "T01", 1, "P-1", 30_000)
        up = t.post(
            "/api/v1/tables/T01/seats/1/top-ups",
            {"amount": 10_000, "method": "cash"},
            format="json",
        )
        assert up.status_code == 201 and up.json()["stack"] == 40_000
        over = t.post(
            "/api/v1/tables/T01/seats/1/top-ups",
            {"amount": 50, "method": "cash"},
            format="json",
        )
        error = refused(over, "BI2")
        assert error["allowed"]["max"] == 0
        assert balance("player:P-1:table:T01") == 40_000


class TestOneNightOneStack:
    def test_a_return_to_the_same_table_with_the_stack_he_left_with(
        self, clock, open_table, players
    ):
        """BI5 a: he comes back with at least the 35,000 he left with."""
        t = open_table("T01")
        seat(t, "T01", 1, "P-1", 35_000)
        assert leave(t, "T01", 1, 35_000).json() == {
            "player": "P-1",
            "left_with": 35_000,
        }
        assert balance("player:P-1:chips") == 35_000
        clock.advance(minutes=20)
        error = refused(seat(t, "T01", 2, "P-1", 20_000, method="chips"), "BI5")
        assert error["allowed"]["min"] == 35_000
        back = seat(t, "T01", 2, "P-1", 35_000, method="chips")
        assert back.status_code == 201 and back.json()["kind"] == "return"
        assert balance("player:P-1:chips") == 0

    def test_b_same_stakes_elsewhere_brings_the_whole_stack(
        self, clock, open_table, players
    ):
        """BI5 b: another NL 1/2 table: the whole stack."""
        t1, t2 = open_table("T01"), open_table("T02")
        seat(t1, "T01", 1, "P-1", 30_000)
        leave(t1, "T01", 1, 30_000)
        refused(seat(t2, "T02", 1, "P-1", 10_000, method="chips"), "BI5")
        moved = seat(t2, "T02", 1, "P-1", 30_000, method="chips")
        assert moved.json()["kind"] == "transfer"

    def test_c_moving_down_is_capped_at_the_new_maximum(
        self, clock, open_table, players
    ):
        """BI5 c: from NL 2/5 with 60,000 to NL 0.5/1: 20,000, the new maximum."""
        big, small = open_table("T01", "NL25"), open_table("T02", "NL051")
        seat(big, "T01", 1, "P-1", 60_000)
        leave(big, "T01", 1, 60_000)
        error = refused(seat(small, "T02", 1, "P-1", 10_000, method="chips"), "BI5")
        assert error["allowed"] == {"min": 20_000, "max": 20_000}
        assert seat(small, "T02", 1, "P-1", 20_000, method="chips").status_code == 201
        assert balance("player:P-1:chips") == 40_000

    def test_d_another_structure_starts_with_the_minimum(
        self, clock, open_table, players
    ):
        """BI5 d: from no limit to pot limit he may start with the minimum."""
        nl, plo = open_table("T01", "NL12"), open_table("T02", "PLO12")
        seat(nl, "T01", 1, "P-1", 40_000)
        leave(nl, "T01", 1, 40_000)
        assert seat(plo, "T02", 1, "P-1", 10_000, method="chips").status_code == 201

    def test_e_moving_up_tops_up_to_the_new_minimum(self, clock, open_table, players):
        """BI5 e: from NL 1/2 with 15,000 to NL 2/5: at least 20,000."""
        small, big = open_table("T01", "NL12"), open_table("T02", "NL25")
        seat(small, "T01", 1, "P-1", 15_000)
        leave(small, "T01", 1, 15_000)
        error = refused(seat(big, "T02", 1, "P-1", 15_000, method="chips"), "BI5")
        assert error["allowed"]["min"] == 20_000

    def test_bi6_within_an_hour_across_the_cut_off(self, clock, open_table, players):
        """BI6: left at 05:40, back at 06:20 on the next gaming day: full stack."""
        t1, t2 = open_table("T01"), open_table("T02")
        clock.set("2026-11-30T05:00")
        seat(t1, "T01", 1, "P-1", 30_000)
        clock.set("2026-11-30T05:40")
        leave(t1, "T01", 1, 30_000)
        clock.set("2026-11-30T06:20")
        error = refused(seat(t2, "T02", 1, "P-1", 10_000, method="chips"), "BI6")
        assert error["allowed"]["min"] == 30_000
        clock.set("2026-11-30T06:45")
        assert seat(t2, "T02", 1, "P-1", 10_000, method="chips").status_code == 201

    def test_next_gaming_day_after_an_hour_starts_fresh(
        self, clock, open_table, players
    ):
        """BI5 is per night: after the cut-off and an hour, the minimum is enough."""
        t1 = open_table("T01")
        clock.set("2026-11-30T04:00")
        seat(t1, "T01", 1, "P-1", 30_000)
        leave(t1, "T01", 1, 30_000)
        clock.set("2026-11-30T06:10")
        assert (
            seat(t1, "T01", 1, "P-1", 10_000, method="chips").json()["kind"] == "buy_in"
        )


class TestLeaving:
    def test_leaving_with_another_stack_is_refused(self, clock, open_table, players):
        """HS6: he leaves with what the hands left him, nothing else."""
        t = open_table("T01")
        seat(t, "T01", 1, "P-1", 20_000)
        error = refused(leave(t, "T01", 1, 25_000), "HS6")
        assert error["allowed"] == {"min": 20_000, "max": 20_000}

    def test_idempotent_buy_in(self, clock, open_table, players):
        """A retried buy-in with the same key books once."""
        t = open_table("T01")
        body = {"seat": 1, "player": "P-1", "amount": 20_000, "method": "cash"}
        for _ in range(2):
            answer = t.post(
                "/api/v1/tables/T01/seats",
                body,
                format="json",
                HTTP_IDEMPOTENCY_KEY="buy-1",
            )
            assert answer.status_code == 201
        assert balance("player:P-1:table:T01") == 20_000
        assert StackMovement.objects.count() == 1
        assert chart.table_drop_box(table="T01").balance_cents == 20_000
