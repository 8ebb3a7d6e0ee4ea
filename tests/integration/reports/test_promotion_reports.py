"""The promotions in the jackpot report and the daily audit of a closed day (PR1,
PR2, PR5, JD5): each promotion's pool reconciled (opening + in − out = closing),
its prizes with their status, its carry-overs, the house's expense; a figure that
doesn't reconcile fails a check, visibly.

The day is dealt through the API on a moved clock: an hourly high hand funded by
the house and by half of its pool's share of the drop, and an aces-cracked bonus
the house pays. The first hour has no qualifying hand and carries over; four
nines win the second hour, approved and paid at the cage; the cracked aces are
rejected.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from accounting.services.cage import payable_pay
from cardroom.services import room_default
from core.roles import Role
from jackpots import services
from jackpots.models import Award, Promotion, PromotionPrize
from reports import selectors as q
from reports.builders.promotions import promotion_funds
from reports.document import Checks, rows_of
from reports.services import report_generate
from reports.totals import failed_checks
from tests.api.floor.conftest import HELSINKI
from tests.api.jackpots.conftest import dealer, pools, staff, sweep

__all__ = ["dealer", "pools", "staff", "sweep"]

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 29)
HIGH_HAND = {
    "kind": "high_hand",
    "games": ["NLHE"],
    "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
    "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
    "min_pot_big_blinds": 10,
    "min_dealt_in": 4,
    "period_minutes": 60,
    "carry_over": True,
    "prize": {"fixed": 10_000, "pool_percent": 50, "funding": "both"},
}
ACES_CRACKED = {
    "kind": "aces_cracked",
    "games": ["NLHE"],
    "min_dealt_in": 4,
    "min_pot_big_blinds": 10,
    "prize": {"fixed": 5_000, "funding": "house"},
}
POOL = "jackpot:main.high-hand:pool"


def at(hour: int, minute: int = 0, day: date = DAY) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=HELSINKI)


@pytest.fixture
def night(clock, pools, dealer, sweep, staff, make_staff):
    """The day played, decided and paid; the clock at 07:00 the morning after."""
    boss = make_staff("promoter", Role.MANAGER)
    room = room_default()
    clock.now = at(21)
    services.promotion_create(
        room=room,
        code="high-hand",
        name="Hourly high hand",
        rules=HIGH_HAND,
        by=boss,
        drop_ratio=1,
    )
    services.promotion_create(
        room=room, code="aces", name="Aces cracked", rules=ACES_CRACKED, by=boss
    )
    clock.now = at(21, 30)
    dealer.ordinary()  # aces hold: nothing for the first hour
    clock.now = at(22, 10)
    dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})  # four nines
    clock.now = at(22, 20)
    dealer.deal("Ts 9s 8d 2c 3h", {1: "As Ad", 2: "Jh 7h"})  # aces cracked
    sweep()
    aces = PromotionPrize.objects.get(promotion__code="aces")
    clock.now = at(22, 40)
    services.prize_reject(
        prize=aces, by=staff["manager"], reason="the hand was misread"
    )
    clock.now = at(23, 5)
    carried, won = services.periods_close_due()
    clock.now = at(23, 10)
    services.prize_verify(prize=won, by=staff["floor"])
    services.prize_approve(prize=won, by=staff["manager"])
    clock.now = at(23, 20)
    award = Award.objects.get(prize=won)
    payable_pay(
        payable=award.payable,
        cage="MAIN",
        cashier=User.objects.get(username="tray-cashier"),
        player="P-1",
        player_signed=True,
    )
    clock.now = at(7, day=DAY + timedelta(days=1))
    for prize in (carried, won, aces):
        prize.refresh_from_db()
    return {"carried": carried, "won": won, "aces": aces}


def by_key(rows, key, value):
    return [r for r in rows if r[key] == value]


def test_the_daily_audit_reconciles_each_promotion_of_a_closed_day(night, clock):
    """PR1, JD5: the high hand's pool took 60 cents of the day's drops (one part
    in five of three hands' €1) and the first hour's €100 carried over from the
    house, and paid its share of the second hour's prize (the €100.10 carried and
    half of the 50 cents free); opening + in − out = closing = the ledger's
    balance. The prizes show with their status, the carry-over with the period it
    went to, the house's expense with its two parts, and every check agrees."""
    carried, won, aces = night["carried"], night["won"], night["aces"]
    assert (carried.status, carried.house_cents, carried.pool_cents) == (
        "carried_over",
        10_000,
        10,
    )
    assert (won.carried_in_cents, won.house_cents, won.pool_cents) == (
        10_010,
        10_000,
        10_035,
    )
    report = report_generate(
        kind="daily_audit", first=DAY, source="command", now=clock.now
    ).report
    data = report.data

    (pool,) = rows_of(data, "promotion_funds")[:1]
    assert pool["promotion"] == "Hourly high hand"
    assert pool["account"] == POOL
    assert (pool["opening"], pool["drop_in"], pool["house_in"]) == (0, 60, 10_000)
    assert (pool["awards_out"], pool["other"], pool["closing"]) == (10_035, 0, 25)
    assert pool["ledger_closing"] == 25 and pool["agrees"] is True
    aces_pool = by_key(rows_of(data, "promotion_funds"), "promotion", "Aces cracked")
    assert aces_pool[0]["closing"] == 0 and aces_pool[0]["agrees"] is True

    prizes = rows_of(data, "promotion_prizes")
    [first_hour] = by_key(prizes, "prize", f"#{carried.pk}")
    assert first_hour["status"] == "carried_over"
    assert first_hour["what"] == "2026-11-29 21:00–22:00"
    assert (first_hour["house"], first_hour["pool"]) == (10_000, 10)
    assert first_hour["player"] == ""
    assert first_hour["posting"] == f"#{carried.carry_booking_id}"
    [second_hour] = by_key(prizes, "prize", f"#{won.pk}")
    assert second_hour["status"] == "approved"
    assert second_hour["hands"] == "four of a kind, nines (9s 9h 9c 9d Ks)"
    assert (second_hour["house"], second_hour["pool"]) == (10_000, 10_035)
    assert second_hour["carried_in"] == 10_010
    assert (second_hour["verified_by"], second_hour["approved_by"]) == (
        "fiona",
        "maria",
    )
    assert (second_hour["player"], second_hour["amount"]) == ("P-1", 20_035)
    assert second_hour["paid"] == "paid 2026-11-29 23:20:00+02:00"
    assert second_hour["posting"] == f"#{won.booking_id}"
    [cracked] = by_key(prizes, "prize", f"#{aces.pk}")
    assert cracked["status"] == "rejected"
    assert cracked["rejected"] == "maria the hand was misread"
    assert (cracked["house"], cracked["amount"], cracked["paid"]) == (5_000, 5_000, "")

    [carry] = rows_of(data, "promotion_carry_overs")
    assert (carry["from_pool"], carry["from_house"], carry["carried"]) == (
        10,
        10_000,
        10_010,
    )
    assert carry["next_status"] == "approved"
    assert carry["next_period"] == "2026-11-29 22:00–23:00"

    [expense] = rows_of(data, "promotion_expense")
    assert expense["account"] == "expense:promotions"
    assert (expense["awards"], expense["carry_overs"], expense["total"]) == (
        10_000,
        10_000,
        20_000,
    )
    checks = rows_of(data, "checks")
    named = {r["check"]: r for r in checks}
    for check in (
        "Hourly high hand: opening + in − out = closing (PR1, JD5)",
        "Hourly high hand: awards out of the pool = prizes approved (PR5)",
        "Hourly high hand: house in = carry-overs booked (PR1, PR2)",
        "promotion expense: the house's part of the prizes approved (PR1, PR5)",
        "promotion expense: carry-overs booked into the pools (PR1, PR2)",
    ):
        assert named[check]["agrees"] is True, check
    assert (
        named["Hourly high hand: awards out of the pool = prizes approved (PR5)"][
            "records"
        ]
        == 10_035
    )
    assert report.checks_failed == 0, failed_checks(data)


def test_the_jackpot_report_shows_the_promotions_beside_the_jackpots(night, clock):
    """JD5: the jackpot report of the day has the same pools, prizes and
    carry-overs, and its checks agree; its pools' closing is the ledger's."""
    report = report_generate(
        kind="jackpot", first=DAY, source="command", now=clock.now
    ).report
    data = report.data
    pools = {r["promotion"]: r for r in rows_of(data, "promotion_funds")}
    assert pools["Hourly high hand"]["closing"] == 25
    assert pools["Hourly high hand"]["agrees"] is True
    statuses = sorted(r["status"] for r in rows_of(data, "promotion_prizes"))
    assert statuses == ["approved", "carried_over", "rejected"]
    assert len(rows_of(data, "promotion_carry_overs")) == 1
    funds = {r["account"]: r for r in rows_of(data, "jackpot_funds")}
    assert funds[POOL]["closing"] == 25
    assert report.checks_failed == 0, failed_checks(data)


def test_a_pool_that_does_not_reconcile_fails_its_check(night, clock):
    """A promotion's pool whose balance is not what its entries add up to shows
    as not agreeing, in its row and among the checks the report opens with."""
    period = q.Period.of(room_default(), DAY)
    ledger = q.ledger_movements(period=period, code_prefix="jackpot:")
    ledger[POOL].cached_balance += 1  # a cent the entries don't explain
    checks = Checks()
    section = promotion_funds(period, ledger, checks)
    row = dict(zip([c.key for c in section.columns], section.rows[0], strict=True))
    assert (row["closing"], row["ledger_closing"], row["agrees"]) == (25, 26, False)
    failed = failed_checks({"sections": [checks.as_json()]})
    assert [f["check"] for f in failed] == [
        "Hourly high hand: opening + in − out = closing (PR1, JD5)"
    ]
    assert failed[0]["difference"] == 1


def test_a_day_before_the_promotions_shows_none(night, clock):
    """A day without promotions' movements lists the pools at zero and no prize."""
    report = report_generate(
        kind="daily_audit", first=DAY - timedelta(days=1), source="command",
        now=clock.now,
    ).report  # fmt: skip
    assert {r["closing"] for r in rows_of(report.data, "promotion_funds")} == {0}
    assert rows_of(report.data, "promotion_prizes") == []
    assert rows_of(report.data, "promotion_carry_overs") == []
    assert Promotion.objects.count() == 2
    assert report.checks_failed == 0, failed_checks(report.data)
