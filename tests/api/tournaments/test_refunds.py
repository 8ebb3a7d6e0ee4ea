"""Refunds at the cage (TO10, RR §15 #39): a manager cancels the event and approves
each refund, whole or in part, a cashier who is not the approver pays it; the
posting reverses the purchase's (pro rata for a part), retries book once, refusals
carry the rule; a busted entry isn't refunded while the event runs unless the
event's setting allows it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string

from accounting.models import Receipt, Transaction
from accounting.selectors import trial_balance
from core.roles import Role
from tests.api.cage.conftest import FLOAT, post
from tests.api.tournaments.test_cage_endpoints import setup
from tournaments import chart, selectors, services
from tournaments.models import ChipMovement, Entry, Event, Refund, RefundApproval
from tournaments.services import BustIn

pytestmark = pytest.mark.django_db

__all__ = ["setup"]


def test_cancel_approve_and_refund_at_the_cage(setup, staff_client):
    event, cashier, floor, manager = setup
    entry = post(
        cashier,
        "tournaments/sunday/entries",
        {"cage": "MAIN", "player": "P-0"},
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
    assert "€100.00" in printed and "mia" in printed


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
        {"cage": "MAIN", "player": "P-1"},
    ).json()["receipt"]["no"]
    reason = {"reason": "Structure changed"}
    approve = post(both, f"tournaments/sunday/refunds/{no}/approve", reason)
    assert approve.status_code == 201
    refused = post(both, f"tournaments/sunday/refunds/{no}", {"cage": "MAIN"})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert (error["code"], error["rule"]) == ("four_eyes", "TO10")
    assert not Refund.objects.exists()


def _split(refund) -> tuple[int, int, int, int]:
    return (
        refund.prize_pool_cents,
        refund.fee_cents,
        refund.staff_fee_cents,
        refund.bounty_cents,
    )


def test_a_purchase_refunded_in_two_parts_until_it_is_whole(setup):
    """TO10: €57.50 of a €115 entry, split pro rata (€50 + €5 + €2.50), leaves the
    entry playing with its chips; the rest makes it whole, and then its chips leave
    play; more than is left is refused with what is left; the pool ends empty."""
    event, cashier, _floor, manager = setup
    no = post(
        cashier, "tournaments/sunday/entries", {"cage": "MAIN", "player": "P-0"}
    ).json()["receipt"]["no"]
    partial = f"tournaments/sunday/refunds/{no}/partial-approve"
    pay = f"tournaments/sunday/refunds/{no}"
    assert post(manager, partial, {"reason": "x", "amount": "5750"}).status_code == 400
    assert post(manager, partial, {"reason": "x", "amount": 57.5}).status_code == 400
    assert post(manager, partial, {"reason": "x", "amount": 0}).status_code == 400
    assert post(manager, partial, {"reason": "x", "extra": 1}).status_code == 400
    too_much = post(manager, partial, {"reason": "x", "amount": 11_501})
    assert too_much.status_code == 422
    assert too_much.json()["error"]["rule"] == "TO10"
    assert too_much.json()["error"]["allowed"] == {"max": 11_500}

    body = {"reason": "Structure shortened", "amount": 5_750}
    approved = post(manager, partial, body, key="a-1")
    assert approved.status_code == 201, approved.content
    answer = approved.json()
    assert answer["amount"] == 5_750 and answer["left_after"] == 5_750
    assert answer["split"] == {
        "prize_pool": 5_000,
        "fee": 500,
        "staff_fee": 250,
        "bounty": 0,
    }
    assert post(manager, partial, body, key="a-1").json() == answer
    pending = post(manager, partial, {"reason": "again", "amount": 100})
    assert pending.status_code == 409

    paid = post(cashier, pay, {"cage": "MAIN"}, key="p-1")
    assert paid.status_code == 201, paid.content
    assert (paid.json()["kind"], paid.json()["amount"]) == ("entry_refund", 5_750)
    first = Refund.objects.get()
    assert _split(first) == (5_000, 500, 250, 0)
    assert first.transaction.reverses_id is None  # a part doesn't reverse it all
    entry = Entry.objects.get()
    assert entry.status == Entry.Status.ACTIVE and entry.seat is not None
    assert not ChipMovement.objects.filter(cause="refund").exists()
    assert selectors.prize_pool_cents(event=event) == 5_000
    assert selectors.buy_ins_cents(event=event) == 5_000

    rest = post(manager, partial, {"reason": "x", "amount": 5_751})
    assert rest.status_code == 422 and rest.json()["error"]["allowed"] == {"max": 5_750}
    # The whole-refund door approves all that is left, and says how much.
    whole = f"tournaments/sunday/refunds/{no}/approve"
    rest_approved = post(manager, whole, {"reason": "Cancelled after all"})
    assert rest_approved.status_code == 201, rest_approved.content
    assert rest_approved.json()["amount"] == 5_750
    assert post(cashier, pay, {"cage": "MAIN"}, key="p-2").status_code == 201
    second = Refund.objects.latest("id")
    assert _split(second) == (5_000, 500, 250, 0)
    assert Entry.objects.get().status == Entry.Status.REFUNDED
    assert ChipMovement.objects.get(cause="refund").chips == -20_000
    assert selectors.prize_pool_cents(event=event) == 0
    assert trial_balance().balanced
    done = post(cashier, pay, {"cage": "MAIN"})
    assert done.status_code == 409
    assert post(manager, partial, {"reason": "x"}).status_code == 409


def test_a_busted_entry_is_not_refunded_while_the_event_runs(setup):
    """TO10: his chips play on in the others' stacks; refused with the rule and the
    setting that allows it. With the setting, the refund takes no chips out."""
    event, cashier, _floor, manager = setup
    nos = [
        post(
            cashier, "tournaments/sunday/entries", {"cage": "MAIN", "player": code}
        ).json()["receipt"]["no"]
        for code in ("P-0", "P-1", "P-2")
    ]
    services.event_start(event=event)
    entries = list(Entry.objects.filter(event=event).order_by("number"))
    services.busts_record(
        event=event,
        hand="TT1#3",
        busts=[BustIn(entries[0], 20_000, (entries[1],))],
        by=User.objects.get(username="fred"),
    )
    for path in (f"refunds/{nos[0]}/approve", f"refunds/{nos[0]}/partial-approve"):
        refused = post(manager, f"tournaments/sunday/{path}", {"reason": "asked"})
        assert refused.status_code == 422, path
        error = refused.json()["error"]
        assert (error["code"], error["rule"]) == ("refund_after_bust", "TO10")
        assert error["allowed"] == {"setting": "refund_after_bust"}
    assert not RefundApproval.objects.exists()

    Event.objects.filter(pk=event.pk).update(refund_after_bust=True)
    partial = f"tournaments/sunday/refunds/{nos[0]}/partial-approve"
    assert post(manager, partial, {"reason": "house rule"}).status_code == 201
    paid = post(cashier, f"tournaments/sunday/refunds/{nos[0]}", {"cage": "MAIN"})
    assert paid.status_code == 201, paid.content
    assert Entry.objects.get(pk=entries[0].pk).status == Entry.Status.BUSTED
    assert not ChipMovement.objects.filter(cause="refund").exists()
    assert selectors.prize_pool_cents(event=event) == 20_000
    assert selectors.buy_ins_cents(event=event) == 20_000
