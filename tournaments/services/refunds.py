"""Refunds: a cancelled event, a purchase refunded against its receipt, approved by a
second person and paid at the cage (TO10, DC2).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.cage import receipt_issue
from accounting.models import Receipt
from accounting.services import retry_on_conflict
from tournaments.domain import postings
from tournaments.domain.postings import Price
from tournaments.errors import Code, conflict, missing, refuse
from tournaments.models import (
    ChipMovement,
    Entry,
    Event,
    Purchase,
    Refund,
    RefundApproval,
)
from tournaments.services._shared import _event_locked, _legs_for
from tournaments.services.purchases import _currency_check


@transaction.atomic
def event_cancel(*, event: Event, by: User, reason: str) -> Event:
    """Cancel the event (TO10); its purchases are then refunded at the cage."""
    event = _event_locked(event)
    if not reason.strip():
        raise refuse(Code.REASON_REQUIRED, text="cancel", rule="TO10")
    if event.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise conflict(Code.EVENT_CLOSED, text="refund")
    event.status = Event.Status.CANCELLED
    event.save(update_fields=["status"])
    return event


def _refundable(
    *, purchase: Purchase, cashier: User, approved_by: User, reason: str
) -> tuple[Purchase, Event]:
    """The purchase and its event (locked), once it may be refunded (TO10)."""
    # Purchases are append-only (no row lock for the app role): the event's row lock
    # orders refunds, and the refund's unique purchase refuses a second one.
    _event_locked(purchase.entry.event)
    purchase = Purchase.objects.select_related(
        "entry__event", "entry__player", "transaction"
    ).get(pk=purchase.pk)
    if Refund.objects.filter(purchase=purchase).exists():
        raise conflict(Code.ALREADY_REFUNDED)
    if not reason.strip():
        raise refuse(Code.REASON_REQUIRED, text="refund", rule="TO10")
    if approved_by.pk == cashier.pk:
        raise refuse(Code.FOUR_EYES, text="refund", rule="TO10")
    entry = purchase.entry
    event = _event_locked(entry.event)
    if event.status not in (
        Event.Status.CANCELLED,
        Event.Status.SCHEDULED,
        Event.Status.RUNNING,
    ):
        raise refuse(Code.EVENT_OVER, rule="TO10")
    return purchase, event


@retry_on_conflict()
@transaction.atomic
def purchase_refund(
    *,
    purchase: Purchase,
    cage: str,
    cashier: User,
    approved_by: User,
    reason: str,
    at: datetime | None = None,
) -> Refund:
    """Refund a purchase at the cage when its event is cancelled or altered (TO10):
    a numbered receipt whose posting reverses the purchase's, approved by another
    person (DC2). The chips it gave leave play (TO3, ``refund``).

    Raises :class:`Refusal` (TO10) without a reason or a second person, or once the
    event is over; :class:`Conflict` when it was refunded already;
    :class:`InsufficientFunds` when the pool no longer holds it (its prizes are
    approved).
    """
    at = at or timezone.now()
    purchase, event = _refundable(
        purchase=purchase, cashier=cashier, approved_by=approved_by, reason=reason
    )
    entry = purchase.entry
    price = Price(
        purchase.prize_pool_cents,
        purchase.fee_cents,
        purchase.staff_fee_cents,
        purchase.bounty_cents,
        purchase.chips,
    )
    legs = _legs_for(
        lambda cash: postings.refund(event=event.code, cash=cash, price=price),
        currency=event.currency,
        rule="TO10",
    )
    receipt = receipt_issue(
        kind=Receipt.Kind.ENTRY_REFUND,
        cage=cage,
        cashier=cashier,
        player=entry.player.code,
        amount_cents=price.total_cents,
        legs_for=legs,
        check=_currency_check(event),
        at=at,
        reverses=purchase.transaction,
        approved_by=approved_by,
        memo=reason,
    )
    refund = Refund.objects.create(
        purchase=purchase,
        amount_cents=price.total_cents,
        reason=reason,
        transaction=receipt.transaction,
        receipt=receipt,
        requested_by=cashier,
        approved_by=approved_by,
        at=at,
    )
    ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=ChipMovement.Cause.REFUND,
        chips=-purchase.chips,
        note=receipt.no,
        recorded_by=cashier,
        at=at,
    )
    if not entry.purchases.filter(refund__isnull=True).exists():
        Entry.objects.filter(pk=entry.pk).update(
            status=Entry.Status.REFUNDED, seat=None, finished_at=at
        )
    return refund


def _purchase_by_receipt(*, event: Event, receipt: str) -> Purchase:
    """The event's purchase sold on the printed receipt ``receipt`` (``MAIN-000123``).

    Raises :class:`NotFound` for no such purchase in the event.
    """
    cage, _sep, number = receipt.rpartition("-")
    purchase = (
        Purchase.objects.select_related("entry__event", "entry__player", "receipt")
        .filter(
            entry__event=event,
            receipt__cage__code=cage,
            receipt__number=int(number) if number.isdigit() else -1,
        )
        .first()
    )
    if purchase is None:
        raise missing(Code.NO_SUCH_PURCHASE, event=event.code, receipt=receipt)
    return purchase


@transaction.atomic
def refund_approve(
    *,
    event: Event,
    receipt: str,
    by: User,
    reason: str,
    at: datetime | None = None,
) -> RefundApproval:
    """A manager approves the refund of the purchase on ``receipt`` (TO10, RR §15
    #39), saying why; the cage then pays it (:func:`refund_pay`) by another person.

    Raises :class:`NotFound` for no such purchase; :class:`Refusal` (TO10) without
    a reason or once the event is over; :class:`Conflict` when it is approved or
    refunded already.
    """
    event = _event_locked(event)
    purchase = _purchase_by_receipt(event=event, receipt=receipt)
    if not reason.strip():
        raise refuse(Code.REASON_REQUIRED, text="refund", rule="TO10")
    if event.status == Event.Status.FINISHED:
        raise refuse(Code.EVENT_OVER, rule="TO10")
    if Refund.objects.filter(purchase=purchase).exists():
        raise conflict(Code.ALREADY_REFUNDED)
    if RefundApproval.objects.filter(purchase=purchase).exists():
        raise conflict(Code.REFUND_APPROVED)
    return RefundApproval.objects.create(
        purchase=purchase,
        reason=reason.strip()[:500],
        approved_by=by,
        at=at or timezone.now(),
    )


@retry_on_conflict()
@transaction.atomic
def refund_pay(
    *,
    event: Event,
    receipt: str,
    cage: str,
    cashier: User,
    at: datetime | None = None,
) -> Refund:
    """Pay at the cage the approved refund of the purchase on ``receipt`` (TO10):
    :func:`purchase_refund` with the approval's manager and reason (four-eyes).

    Raises :class:`NotFound` for no such purchase; :class:`Refusal` (TO10) before
    a manager approved it or when the cashier is the approver; what
    :func:`purchase_refund` raises.
    """
    _event_locked(event)
    purchase = _purchase_by_receipt(event=event, receipt=receipt)
    approval = (
        RefundApproval.objects.select_related("approved_by")
        .filter(purchase=purchase)
        .first()
    )
    if approval is None:
        raise refuse(Code.REFUND_NOT_APPROVED, rule="TO10")
    return purchase_refund(
        purchase=purchase,
        cage=cage,
        cashier=cashier,
        approved_by=approval.approved_by,
        reason=approval.reason,
        at=at,
    )
