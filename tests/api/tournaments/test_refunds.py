"""Refunds at the cage (TO10, RR §15 #39): a manager cancels the event and approves
each refund, a cashier who is not the approver pays it; the posting reverses the
purchase's, retries book once, refusals carry the rule."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from accounting.models import Receipt, Transaction
from core.roles import Role
from tests.api.cage.conftest import FLOAT, post
from tests.api.tournaments.test_cage_endpoints import setup
from tournaments import chart, selectors
from tournaments.models import Entry, Refund

pytestmark = pytest.mark.django_db

__all__ = ["setup"]


def test_cancel_approve_and_refund_at_the_cage(setup, staff_client):
    event, cashier, floor, manager = setup
    entry = post(
        cashier,
        "tournaments/sunday/entries",
        {"cage": "MAIN", "player": "P-0", "level": 1},
        key="r-1",
    ).json()
    no = entry["receipt"]["no"]

    not_approved = post(cashier, f"tournaments/sunday/refunds/{no}", {"cage": "MAIN"})
    assert not_approved.status_code == 422
    assert not_approved.json()["error"]["rule"] == "TO10"
    assert post(floor, "tournaments/sunday/cancel", {"reason": "x"}).status_code == 403

    cancelled = post(
        manager, "tournaments/sunday/cancel", {"reason": "No dealers"}, key="c-1"
    )
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    approve = f"tournaments/sunday/refunds/{no}/approve"
    assert post(manager, approve, {"reason": " "}).status_code == 400
    approved = post(manager, approve, {"reason": "Event cancelled"}, key="a-1")
    assert approved.status_code == 201, approved.content
    assert approved.json()["amount"] == 11_500
    assert post(manager, approve, {"reason": "again"}).status_code == 409

    before = (Transaction.objects.count(), Receipt.objects.count())
    paid = post(cashier, f"tournaments/sunday/refunds/{no}", {"cage": "MAIN"}, key="p")
    assert paid.status_code == 201, paid.content
    answer = paid.json()
    assert (answer["kind"], answer["amount"]) == ("entry_refund", 11_500)
    again = post(cashier, f"tournaments/sunday/refunds/{no}", {"cage": "MAIN"}, key="p")
    assert again.status_code == 201 and again.json() == answer
    assert (Transaction.objects.count(), Receipt.objects.count()) == (
        before[0] + 1,
        before[1] + 1,
    )
    refund = Refund.objects.get()
    assert refund.transaction.reverses_id == refund.purchase.transaction_id
    assert refund.approved_by.username == "mia"
    assert refund.requested_by.username == "kalle"
    assert Entry.objects.get().status == Entry.Status.REFUNDED
    assert selectors.prize_pool_cents(event=event) == 0
    assert chart.bounty_pool(event="sunday", currency="EUR").balance_cents == 0
    unknown = post(cashier, "tournaments/sunday/refunds/MAIN-999", {"cage": "MAIN"})
    assert unknown.status_code == 404
    printed = render_to_string("accounting/receipt.html", {"receipt": refund.receipt})
    assert "refund of" in printed and "Event cancelled" in printed
    assert "100.00 EUR" in printed and "mia" in printed


def test_the_approver_cannot_pay_the_refund(setup, staff_client):
    """Four-eyes (TO10, DC2): a manager who also works the cage can't pay a
    refund he approved himself."""
    _event, cashier, _floor, _manager = setup
    both = staff_client(Role.CASHIER, Role.MANAGER, username="boss")
    shift = {"cage": "MAIN", "cash": FLOAT, "chips": FLOAT}
    assert post(both, "cage/shifts", shift).status_code == 201
    no = post(
        cashier,
        "tournaments/sunday/entries",
        {"cage": "MAIN", "player": "P-1", "level": 1},
    ).json()["receipt"]["no"]
    reason = {"reason": "Structure changed"}
    approve = post(both, f"tournaments/sunday/refunds/{no}/approve", reason)
    assert approve.status_code == 201
    refused = post(both, f"tournaments/sunday/refunds/{no}", {"cage": "MAIN"})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert (error["code"], error["rule"]) == ("four_eyes", "TO10")
    assert not Refund.objects.exists()
