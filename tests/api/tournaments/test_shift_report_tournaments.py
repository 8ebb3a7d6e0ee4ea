"""The cashier's shift report through the API sees the tournament's money (CA1):
entries, a rebuy, an add-on, a refund and the prize each on a named line of
``GET /api/v1/cage/shifts/{id}``, ``from_movements`` equal to ``expected`` on each
side, before and after a close €10 short."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounting import chart as ledger
from accounting.models import Shift
from tests.api.cage.conftest import FLOAT, post
from tests.api.tournaments.test_cage_endpoints import setup
from tournaments import services
from tournaments.models import Entry, Payout
from tournaments.services import BustIn

pytestmark = pytest.mark.django_db

__all__ = ["setup"]

ENTRY = 10_000 + 1_000 + 500  # the "sunday" event: buy-in, fee, staff fee (TO1)
REBUY = ADDON = 10_000 + 500


def _active(code: str) -> Entry:
    return Entry.objects.get(event__code="sunday", player__code=code, status="active")


def test_the_shift_report_has_tournament_lines_that_add_up(setup):
    event, cashier, floor_client, manager = setup
    event.payout_table = [{"min_entries": 1, "shares": [10_000]}]
    event.payout_unit_cents = 1
    event.save()
    shift = Shift.objects.get(cashier__username="kalle")
    mine = f"cage/shifts/{shift.pk}"

    for path, amount in (("cage/purchases", 30_000), ("cage/redemptions", 5_000)):
        body = {"cage": "MAIN", "player": "P-0", "amount": amount}
        assert post(cashier, path, body).status_code == 201
    receipts = {}
    for code in ("P-0", "P-1", "P-2"):
        sold = post(
            cashier, "tournaments/sunday/entries", {"cage": "MAIN", "player": code}
        )
        assert sold.status_code == 201, sold.content
        receipts[code] = sold.json()["receipt"]["no"]
    # A refund, approved by a manager and paid by the cashier (TO10).
    approve = f"tournaments/sunday/refunds/{receipts['P-2']}/approve"
    assert post(manager, approve, {"reason": "left ill"}).status_code == 201
    paid = post(
        cashier, f"tournaments/sunday/refunds/{receipts['P-2']}", {"cage": "MAIN"}
    )
    assert paid.status_code == 201, paid.content

    # The server's clock: a rebuy in level 1, the add-on at the level-4 break.
    now = timezone.now()
    services.clock_change(event_code="sunday", action="start", by=None, now=now)
    number = _active("P-0").number
    rebuy = post(
        cashier,
        f"tournaments/sunday/entries/{number}/rebuys",
        {"cage": "MAIN", "stack": 4_000},
    )
    assert rebuy.status_code == 201, rebuy.content
    services.clock_change(
        event_code="sunday",
        action="move",
        level=4,
        by=None,
        now=now + timedelta(seconds=1),
    )
    addon = post(
        cashier, f"tournaments/sunday/entries/{number}/addons", {"cage": "MAIN"}
    )
    assert addon.status_code == 201, addon.content

    # P-1 out, P-0 wins; the sheet by two people, the prize paid at the cage (TO9).
    services.busts_record(
        event=event,
        hand="TT1#9",
        busts=[BustIn(_active("P-1"), 20_000)],
        by=User.objects.get(username="fred"),
    )
    prepared = post(floor_client, "tournaments/sunday/payout-sheet", {})
    assert prepared.status_code == 201, prepared.content
    approved = post(manager, "tournaments/sunday/payout-sheet/approve")
    assert approved.status_code == 200, approved.content
    (prize,) = Payout.objects.filter(sheet__event=event)
    pool = 2 * 10_000 + 10_000 + 10_000
    assert prize.amount_cents == pool
    prize_paid = post(
        cashier,
        f"tournaments/sunday/payouts/{prize.pk}/pay",
        {"cage": "MAIN", "player": "P-0", "player_signed": True, "tax_document": "T"},
    )
    assert prize_paid.status_code == 201, prize_paid.content

    report = cashier.get(f"/api/v1/{mine}").json()
    cash = FLOAT + 30_000 - 5_000 + 3 * ENTRY + REBUY + ADDON - ENTRY - pool
    assert report["cash"] == {
        "opening": FLOAT,
        "purchases": 30_000,
        "redemptions": 5_000,
        "payouts": 0,
        "collections": 0,
        "tournament_entries": 3 * ENTRY + REBUY + ADDON,
        "tournament_refunds": ENTRY,
        "tournament_prizes": pool,
        "tournament_bounties": 0,
        "expected": cash,
        "from_movements": cash,
        "counted": None,
        "over_short": None,
    }
    assert report["chips"]["expected"] == report["chips"]["from_movements"]
    assert report["chips"]["expected"] == FLOAT - 25_000
    assert report["reconciled"] is True
    assert report["receipts"] == 2 + 3 + 1 + 2 + 1
    assert ledger.drawer_cash(cage="MAIN", shift=shift.pk).balance_cents == cash

    closed = post(
        cashier, f"{mine}/close", {"cash": cash - 1_000, "chips": FLOAT - 25_000}
    )
    assert closed.status_code == 200, closed.content
    report = closed.json()
    assert report["status"] == "closed" and report["reconciled"] is True
    assert report["cash"]["tournament_entries"] == 3 * ENTRY + REBUY + ADDON
    assert report["cash"]["expected"] == report["cash"]["from_movements"] == cash
    assert (report["cash"]["counted"], report["cash"]["over_short"]) == (
        cash - 1_000,
        -1_000,
    )
    assert report["chips"]["over_short"] == 0


def test_the_schema_documents_the_new_lines(api):
    """The contract grows: the new lines and from_movements are in the schema,
    required, beside the lines that were there."""
    spec = api.get("/api/schema/?format=json").json()["components"]["schemas"]
    cash = spec["CageShiftCash"]
    for name in (
        "purchases",
        "redemptions",
        "payouts",
        "collections",
        "tournament_entries",
        "tournament_refunds",
        "tournament_prizes",
        "tournament_bounties",
        "from_movements",
    ):
        assert name in cash["properties"] and name in cash["required"], name
    assert "from_movements" in spec["CageShiftChips"]["required"]
