"""A cashier's shift from open to close through the API (CA1–CA3)."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import Receipt
from accounting.selectors import trial_balance
from accounting.services import cage as services
from core.roles import Role
from tests.integration.cage.helpers import book_award, book_table_activity

from .conftest import FLOAT, VAULT, post

pytestmark = pytest.mark.django_db


def test_a_shift_from_float_to_sign_off_adds_up(cage, cashier, floor, manager):
    """Purchases, a redemption, a fill and a credit; €30 short waits for a manager."""
    registered = post(
        manager,
        "players",
        {
            "id": "P-1001",
            "name": "Aino",
            "id_verified": True,
            "birth_date": "1985-01-01",
        },
    )
    assert registered.status_code == 201, registered.content
    opened = post(
        cashier, "cage/shifts", {"cage": "MAIN", "cash": FLOAT, "chips": FLOAT}
    )
    assert opened.status_code == 201, opened.content
    shift = opened.json()["id"]
    assert opened.json()["status"] == "open"

    receipts = []
    for path, amount in [
        ("cage/purchases", 40_000),
        ("cage/purchases", 25_000),
        ("cage/redemptions", 15_000),
    ]:
        answer = post(
            cashier, path, {"cage": "MAIN", "player": "P-1001", "amount": amount}
        )
        assert answer.status_code == 201, answer.content
        receipts.append(answer.json())
    assert [r["no"] for r in receipts] == ["MAIN-000001", "MAIN-000002", "MAIN-000003"]
    assert {r["shift"] for r in receipts} == {shift}

    for kind, amount in [("fills", 100_000), ("credits", 30_000)]:
        slip = post(
            floor, f"cage/{kind}", {"cage": "MAIN", "table": "T01", "amount": amount}
        )
        assert slip.status_code == 201, slip.content
        assert slip.json()["status"] == "pending"
        issued = post(cashier, f"cage/{kind}/{slip.json()['id']}/issue")
        assert issued.status_code == 200, issued.content
        assert (issued.json()["status"], issued.json()["issued_by"]) == (
            "issued",
            "kalle",
        )
    assert chart.table_tray(table="T01").balance_cents == 70_000

    live = cashier.get(f"/api/v1/cage/shifts/{shift}").json()
    assert live["cash"]["expected"] == FLOAT + 65_000 - 15_000 == 550_000
    assert live["chips"]["expected"] == FLOAT - 65_000 + 15_000 - 100_000 + 30_000
    assert live["reconciled"] is True
    assert live["cash"]["counted"] is None

    closed = post(
        cashier,
        f"cage/shifts/{shift}/close",
        {"cash": 550_000 - 3_000, "chips": 380_000},
    )
    assert closed.status_code == 200, closed.content
    report = closed.json()
    assert report["status"] == "pending_sign_off"
    assert report["needs_sign_off"] is True

    refused = post(cashier, f"cage/shifts/{shift}/sign-off", {"note": "mine"})
    assert refused.status_code == 403
    signed = post(manager, f"cage/shifts/{shift}/sign-off", {"note": "counted twice"})
    assert signed.status_code == 200, signed.content
    report = signed.json()
    assert (report["status"], report["signed_off_by"]) == ("closed", "mia")

    cash, chips = report["cash"], report["chips"]
    assert cash == {
        "opening": FLOAT,
        "purchases": 65_000,
        "redemptions": 15_000,
        "payouts": 0,
        "collections": 0,
        "tournament_entries": 0,
        "tournament_refunds": 0,
        "tournament_prizes": 0,
        "tournament_bounties": 0,
        "expected": 550_000,
        "from_movements": 550_000,
        "counted": 547_000,
        "over_short": -3_000,
    }
    assert chips == {
        "opening": FLOAT,
        "purchases": 65_000,
        "redemptions": 15_000,
        "fills": 100_000,
        "credits": 30_000,
        "expected": 380_000,
        "from_movements": 380_000,
        "counted": 380_000,
        "over_short": 0,
    }
    # The report adds up: movements to expected, expected and over/short to counted.
    assert (
        cash["opening"] + cash["purchases"] - cash["redemptions"] - cash["payouts"]
        == cash["expected"]
        == cash["counted"] - cash["over_short"]
    )
    assert (
        chips["opening"]
        - chips["purchases"]
        + chips["redemptions"]
        - chips["fills"]
        + chips["credits"]
        == chips["expected"]
        == chips["counted"] - chips["over_short"]
    )
    assert report["receipts"] == 3 and report["slips"] == 2 and report["reconciled"]
    # And so does the ledger: the drawer is back in the vault, the short expensed.
    assert chart.cage_cash(cage="MAIN").balance_cents == VAULT + 50_000 - 3_000
    assert chart.cage_chips(cage="MAIN").balance_cents == VAULT - 120_000
    assert chart.over_short().balance_cents == 3_000
    assert chart.player_chips(player="P-1001").balance_cents == 50_000
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree

    receipt = cashier.get("/api/v1/cage/receipts/MAIN-000002")
    assert receipt.status_code == 200
    assert (receipt.json()["amount"], receipt.json()["kind"]) == (
        25_000,
        "chip_purchase",
    )


def test_a_cashier_who_is_also_a_manager_cant_sign_off_his_own_shift(
    cage, staff_client
):
    """The manager role doesn't let him approve his own over/short (CA1)."""
    both = staff_client(Role.CASHIER, Role.MANAGER, username="boss")
    shift = post(both, "cage/shifts", {"cage": "MAIN", "cash": FLOAT, "chips": 0})
    shift_id = shift.json()["id"]
    post(both, f"cage/shifts/{shift_id}/close", {"cash": FLOAT - 10_000, "chips": 0})
    answer = post(both, f"cage/shifts/{shift_id}/sign-off")
    assert answer.status_code == 422
    assert (answer.json()["error"]["rule"], answer.json()["error"]["code"]) == (
        "CA1",
        "own_shift",
    )
    assert both.get(f"/api/v1/cage/shifts/{shift_id}").json()["status"] == (
        "pending_sign_off"
    )


def test_a_small_difference_closes_without_sign_off(cage, cashier, open_shift):
    """€20 exactly is within the cage's threshold: closed at once."""
    answer = post(
        cashier,
        f"cage/shifts/{open_shift}/close",
        {"cash": FLOAT + 2_000, "chips": FLOAT},
    )
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["needs_sign_off"]) == (
        "closed",
        False,
    )
    assert answer.json()["cash"]["over_short"] == 2_000
    assert chart.cage_cash(cage="MAIN").balance_cents == VAULT + 2_000


def test_awards_are_listed_and_paid_against_signature(
    cage, cashier, open_shift, player, make_staff
):
    """A payable shows in the list and is paid once (CA6)."""
    approver = make_staff("approver", Role.MANAGER)
    book_award("P-1001", 80_000)
    award = services.payable_create(
        player=player,
        amount_cents=80_000,
        reference="hand of the month",
        approved_by=approver,
    )
    listed = cashier.get("/api/v1/cage/payables?player=P-1001&status=open")
    assert [p["id"] for p in listed.json()] == [award.pk]
    body = {"cage": "MAIN", "player": "P-1001", "player_signed": True}
    paid = post(cashier, f"cage/payables/{award.pk}/pay", body)
    assert paid.status_code == 201, paid.content
    assert (paid.json()["kind"], paid.json()["player_signed"]) == ("award_payout", True)
    again = post(cashier, f"cage/payables/{award.pk}/pay", body)
    assert again.status_code == 409
    assert again.json()["error"]["rule"] == "CA6"
    assert Receipt.objects.filter(payable=award).count() == 1
    report = cashier.get(f"/api/v1/cage/shifts/{open_shift}").json()
    assert report["cash"]["payouts"] == 80_000
    assert report["cash"]["expected"] == FLOAT - 80_000


def test_box_counts_are_reported_per_table(cage, cashier, open_shift, manager):
    """POST a count, then the day's counts show recorded, counted and variance."""
    book_table_activity("T01", drop=60_000, rake=700)
    book_table_activity("T02", drop=30_000)
    for table, box, counted in [
        ("T01", "drop", 60_000),
        ("T01", "rake", 600),
        ("T02", "drop", 30_500),
    ]:
        answer = post(
            cashier,
            "cage/counts",
            {
                "cage": "MAIN",
                "table": table,
                "box": box,
                "gaming_day": "2026-11-29",
                "counted": counted,
            },
        )
        assert answer.status_code == 201, answer.content
    day = manager.get("/api/v1/cage/counts?gaming_day=2026-11-29").json()
    assert [(c["table"], c["box"], c["recorded"], c["variance"]) for c in day] == [
        ("T01", "drop", 60_000, 0),
        ("T01", "rake", 700, -100),
        ("T02", "drop", 30_000, 500),
    ]
