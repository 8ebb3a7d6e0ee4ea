"""Refunds: a cancelled or altered event, a purchase refunded whole or in part
against its receipt, approved by a second person and paid at the cage (TO10, DC2).

A purchase may be refunded in several parts until it is whole: each part is a
numbered receipt whose posting gives back, out of the drawer, its amount split pro
rata across what is left of the purchase's prize pool, fee, staff fee and bounty
(:func:`tournaments.domain.postings.refund_parts`). A whole refund in one go
``reverses`` the purchase's posting; a partial one points at it through its
:class:`Refund` row. A partial refund takes no chips out of play: the entry plays
on with its stack; the purchase's chips leave play (TO3, ``refund``) with the part
that makes its refund whole.

While the event runs, the purchases of an entry that busted or finished are not
refunded: his chips are in the other players' stacks, still playing for the pools
his money is in. The house may allow it with the event's setting
``refund_after_bust`` (the issue's house reading of TO10); such a refund takes no
chips out of play.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.models import Receipt
from accounting.services import retry_on_conflict
from accounting.services.cage import receipt_issue
from core.errors import SharedCode
from tournaments import selectors
from tournaments.domain import postings
from tournaments.domain.postings import Price
from tournaments.errors import Code, conflict, invalid, missing, refuse
from tournaments.models import (
    ChipMovement,
    Entry,
    Event,
    Purchase,
    Refund,
    RefundApproval,
)
from tournaments.services._entries import currency_check
from tournaments.services._shared import event_locked, receipt_legs

REFUND_AFTER_BUST_SETTING = "refund_after_bust"


@transaction.atomic
def event_cancel(*, event: Event, by: User, reason: str) -> Event:
    """Cancel the event (TO10); its purchases are then refunded at the cage."""
    event = event_locked(event)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="cancel", rule="TO10")
    if event.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise conflict(Code.EVENT_CLOSED, text="refund")
    event.status = Event.Status.CANCELLED
    event.save(update_fields=["status"])
    return event


def _amount_to_refund(left: Price, amount_cents: int | None) -> int:
    """``amount_cents`` (all that is left when ``None``) once it can be refunded.

    Raises :class:`Conflict` when nothing is left; :class:`Invalid` for an amount
    that isn't positive cents; :class:`Refusal` (TO10) above what is left.
    """
    if left.total_cents == 0:
        raise conflict(Code.ALREADY_REFUNDED)
    if amount_cents is None:
        return left.total_cents
    if (
        isinstance(amount_cents, bool)
        or not isinstance(amount_cents, int)
        or amount_cents <= 0
    ):
        raise invalid(SharedCode.INVALID_AMOUNT)
    if amount_cents > left.total_cents:
        raise refuse(
            Code.REFUND_TOO_MUCH,
            rule="TO10",
            allowed={"max": left.total_cents},
            left=left.total_cents,
            amount=amount_cents,
        )
    return amount_cents


def _entry_may_be_refunded(event: Event, entry: Entry) -> None:
    """Refuse (TO10) a refund of an entry out of a running event, unless the
    event's setting allows it."""
    if (
        event.status == Event.Status.RUNNING
        and entry.status != Entry.Status.ACTIVE
        and not event.refund_after_bust
    ):
        raise refuse(
            Code.REFUND_AFTER_BUST,
            rule="TO10",
            allowed={"setting": REFUND_AFTER_BUST_SETTING},
            no=entry.number,
            status=entry.get_status_display(),
            setting=REFUND_AFTER_BUST_SETTING,
        )


def _refundable(
    *, purchase: Purchase, cashier: User, approved_by: User, reason: str
) -> tuple[Purchase, Event]:
    """The purchase and its event (locked), once it may be refunded (TO10)."""
    # Purchases are append-only (no row lock for the app role): the event's row lock
    # orders refunds, and what is left to refund is read under it.
    event_locked(purchase.entry.event)
    purchase = Purchase.objects.select_related(
        "entry__event", "entry__player", "transaction"
    ).get(pk=purchase.pk)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="refund", rule="TO10")
    if approved_by.pk == cashier.pk:
        raise refuse(SharedCode.FOUR_EYES, text="refund", rule="TO10")
    entry = purchase.entry
    event = event_locked(entry.event)
    if event.status not in (
        Event.Status.CANCELLED,
        Event.Status.SCHEDULED,
        Event.Status.RUNNING,
    ):
        raise refuse(Code.EVENT_OVER, rule="TO10")
    _entry_may_be_refunded(event, entry)
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
    amount_cents: int | None = None,
    approval: RefundApproval | None = None,
    at: datetime | None = None,
) -> Refund:
    """Refund a purchase, whole or ``amount_cents`` of it, at the cage when its
    event is cancelled or altered (TO10): a numbered receipt whose posting gives
    back the amount's parts (all that is left when ``amount_cents`` is ``None``),
    approved by another person (DC2). The purchase's chips leave play (TO3,
    ``refund``) with the refund that makes it whole, unless its entry busted in a
    running event.

    Raises :class:`Refusal` (TO10) without a reason or a second person, above what
    is left to refund, once the event is over, or for an entry out of a running
    event without the event's ``refund_after_bust``; :class:`Conflict` when it was
    refunded whole already; :class:`Invalid` for an amount that isn't positive
    cents; :class:`InsufficientFunds` when the pool no longer holds it (its prizes
    are approved).
    """
    at = at or timezone.now()
    purchase, event = _refundable(
        purchase=purchase, cashier=cashier, approved_by=approved_by, reason=reason
    )
    entry = purchase.entry
    left = selectors.refund_left(purchase=purchase)
    amount = _amount_to_refund(left, amount_cents)
    parts = postings.refund_parts(left, amount)
    receipt = _refund_receipt_issue(
        purchase=purchase,
        event=event,
        parts=parts,
        amount=amount,
        cage=cage,
        cashier=cashier,
        approved_by=approved_by,
        reason=reason,
        at=at,
    )
    refund = Refund.objects.create(
        purchase=purchase,
        approval=approval,
        amount_cents=amount,
        prize_pool_cents=parts.prize_pool_cents,
        fee_cents=parts.fee_cents,
        staff_fee_cents=parts.staff_fee_cents,
        bounty_cents=parts.bounty_cents,
        reason=reason,
        transaction=receipt.transaction,
        receipt=receipt,
        requested_by=cashier,
        approved_by=approved_by,
        at=at,
    )
    if amount < left.total_cents:
        return refund  # a part: the entry plays on with its chips
    if event.status == Event.Status.RUNNING and entry.status != Entry.Status.ACTIVE:
        return refund  # his chips are in the others' stacks, still in play
    _refunded_chips_leave(
        event=event, entry=entry, purchase=purchase, receipt=receipt, by=cashier, at=at
    )
    return refund


def _refund_receipt_issue(
    *,
    purchase: Purchase,
    event: Event,
    parts: Price,
    amount: int,
    cage: str,
    cashier: User,
    approved_by: User,
    reason: str,
    at: datetime,
) -> Receipt:
    """The refund's numbered receipt, its posting of ``parts`` out of the drawer
    (TO10, DC2); a refund of the whole purchase in one go reverses its posting."""
    legs = receipt_legs(
        lambda cash: postings.refund(event=event.code, cash=cash, price=parts),
        currency=event.currency,
        rule="TO10",
    )
    return receipt_issue(
        kind=Receipt.Kind.ENTRY_REFUND,
        cage=cage,
        cashier=cashier,
        player=purchase.entry.player.code,
        amount_cents=amount,
        legs_for=legs,
        check=currency_check(event),
        at=at,
        reverses=purchase.transaction if amount == purchase.total_cents else None,
        approved_by=approved_by,
        memo=reason,
    )


def _refunded_chips_leave(
    *,
    event: Event,
    entry: Entry,
    purchase: Purchase,
    receipt: Receipt,
    by: User,
    at: datetime,
) -> None:
    """The chips of a purchase refunded whole leave play (TO3 ``refund``); the entry
    is refunded once all its purchases are."""
    ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=ChipMovement.Cause.REFUND,
        chips=-purchase.chips,
        note=receipt.no,
        recorded_by=by,
        at=at,
    )
    if all(
        selectors.refund_left(purchase=p).total_cents == 0
        for p in entry.purchases.all()
    ):
        Entry.objects.filter(pk=entry.pk).update(
            status=Entry.Status.REFUNDED, seat=None, finished_at=at
        )


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
    amount_cents: int | None = None,
    at: datetime | None = None,
) -> RefundApproval:
    """A manager approves the refund of ``amount_cents`` of the purchase on
    ``receipt`` (all that is left of it when ``None``), saying why (TO10, RR §15
    #39); the cage then pays it (:func:`refund_pay`) by another person. Several
    partial refunds of one purchase may be approved, one after the other, until
    it is whole.

    Raises :class:`NotFound` for no such purchase; :class:`Refusal` (TO10) without
    a reason, above what is left to refund, once the event is over, or for an
    entry out of a running event without the event's ``refund_after_bust``;
    :class:`Invalid` for an amount that isn't positive cents; :class:`Conflict`
    when it is refunded whole or a refund of it waits for the cage.
    """
    event = event_locked(event)
    purchase = _purchase_by_receipt(event=event, receipt=receipt)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="refund", rule="TO10")
    if event.status == Event.Status.FINISHED:
        raise refuse(Code.EVENT_OVER, rule="TO10")
    if RefundApproval.objects.filter(purchase=purchase, refund__isnull=True).exists():
        raise conflict(Code.REFUND_APPROVED, text="pending")
    amount = _amount_to_refund(selectors.refund_left(purchase=purchase), amount_cents)
    _entry_may_be_refunded(event, purchase.entry)
    return RefundApproval.objects.create(
        purchase=purchase,
        amount_cents=amount,
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
    :func:`purchase_refund` of the approved amount, with the approval's manager
    and reason (four-eyes).

    Raises :class:`NotFound` for no such purchase; :class:`Refusal` (TO10) before
    a manager approved it or when the cashier is the approver; what
    :func:`purchase_refund` raises.
    """
    event_locked(event)
    purchase = _purchase_by_receipt(event=event, receipt=receipt)
    approval = (
        RefundApproval.objects.select_related("approved_by")
        .filter(purchase=purchase, refund__isnull=True)
        .order_by("pk")
        .first()
    )
    if approval is None:
        if selectors.refund_left(purchase=purchase).total_cents == 0:
            raise conflict(Code.ALREADY_REFUNDED)
        raise refuse(Code.REFUND_NOT_APPROVED, rule="TO10")
    return purchase_refund(
        purchase=purchase,
        cage=cage,
        cashier=cashier,
        approved_by=approval.approved_by,
        reason=approval.reason,
        amount_cents=approval.amount_cents,
        approval=approval,
        at=at,
    )
