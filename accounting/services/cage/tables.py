"""The cage and the tables: fills and credits (CA3), drop and rake box counts (CA4).

Fills and credits: a floor person requests a slip (``slip_request``) and signs it by
doing so (a slip not issued may be cancelled with a reason, ``slip_cancel``); the
cashier issues it (``slip_issue``) from his open shift and the chips move, the
posting naming both (posted by the cashier, approved by the floor person, which the
ledger requires to be two people):

- fill of C: table tray +C, drawer chips −C;
- credit of C: drawer chips +C, table tray −C.

Box counts: at the end of the gaming day the count team (a cashier with an open
shift) counts a table's drop box (cash) or rake or jackpot box (chips). The box's
ledger balance is what was recorded; the box is emptied by that amount, the counted
amount goes into the vault (cash or chips) and the difference to over/short:

- drop box recorded R, counted C: drop box −R, vault cash +C, over/short R−C;
- rake or jackpot box: the same with the cage's chips.
"""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounting.domain import cage_postings
from accounting.errors import (
    FILL_TABLE_CLOSED,
    SLIP_REASON_REQUIRED,
    Code,
    conflict,
    refuse,
)
from accounting.models import Account, BoxCount, Cage, TableSlip
from accounting.services.cage.common import cage_get, cents_check, table_open
from accounting.services.cage.shifts import shift_open_get
from accounting.services.ledger import retry_on_conflict
from accounting.services.posting import account_for, plan_post
from core.errors import Conflict, Refusal, SharedCode


def _same_person() -> Refusal:
    return refuse(Code.SAME_PERSON, rule="CA3")


def _not_pending(slip: TableSlip) -> Conflict:
    issued = slip.status == TableSlip.Status.ISSUED
    return conflict(
        Code.SLIP_ALREADY_ISSUED if issued else Code.SLIP_ALREADY_CANCELLED,
        rule="CA3",
        kind=slip.get_kind_display(),
        id=slip.pk,
        status=slip.get_status_display(),
    )


@transaction.atomic
def slip_request(
    *,
    kind: TableSlip.Kind,
    cage: Cage,
    table: str,
    amount_cents: int,
    requested_by: User,
    at: datetime | None = None,
) -> TableSlip:
    """Request and sign a fill or credit for ``table`` (CA3); no chips move yet.

    Raises :class:`Refusal` (CA3, ``table_closed``) for a fill of a table the
    floor has closed: a closed table gets no fills. A credit is taken from a
    closed table too: it is how a closed table's chips go back to the cage.
    """
    cents_check(amount_cents, name="amount")
    if kind == TableSlip.Kind.FILL and table_open(table) is False:
        raise refuse(SharedCode.TABLE_CLOSED, rule="CA3", table=table)
    return TableSlip.objects.create(
        kind=kind,
        cage=cage,
        table=table,
        amount_cents=amount_cents,
        requested_by=requested_by,
        requested_at=at or timezone.now(),
    )


@retry_on_conflict()
@transaction.atomic
def slip_issue(
    *,
    slip: TableSlip,
    cashier: User,
    at: datetime | None = None,
) -> TableSlip:
    """Issue a requested fill or credit from the cashier's open shift (CA3).

    Raises :class:`Refusal` (CA3, ``same_person``) when the cashier is the
    floor person who requested it, (CA3, ``table_closed``) for a fill of a table
    closed since it was asked for (checked as it is issued, the table held open
    until the fill is booked), (CA1) without an open shift at the slip's cage;
    :class:`Conflict` (409, CA3) when it was issued or cancelled already;
    :class:`InsufficientFunds` when the drawer (fill) or the tray (credit) hasn't
    the chips.
    """
    shift = shift_open_get(cage=slip.cage, cashier=cashier)
    slip = TableSlip.objects.select_for_update().get(pk=slip.pk)
    if slip.status != TableSlip.Status.PENDING:
        raise _not_pending(slip)
    if slip.requested_by_id == cashier.pk:
        raise _same_person()
    if slip.kind == TableSlip.Kind.FILL and table_open(slip.table) is False:
        raise refuse(
            SharedCode.TABLE_CLOSED,
            rule="CA3",
            text=FILL_TABLE_CLOSED,
            id=slip.pk,
            table=slip.table,
        )
    plan = cage_postings.slip_plan(
        kind=slip.kind,
        cage=shift.cage.code,
        shift=shift.pk,
        table=slip.table,
        cents=slip.amount_cents,
    )
    at = at or timezone.now()
    slip.transaction = plan_post(
        plan,
        currency=shift.cage.currency,
        posted_by=cashier,
        approved_by=slip.requested_by,
        reference=f"{slip.kind} {slip.pk} {slip.table}",
        external_id=f"slip:{slip.pk}",
        posted_at=at,
    )
    slip.status = TableSlip.Status.ISSUED
    slip.shift = shift
    slip.issued_by = cashier
    slip.issued_at = at
    slip.save()
    return slip


@transaction.atomic
def slip_cancel(
    *,
    slip: TableSlip,
    by: User,
    reason: str,
    at: datetime | None = None,
) -> TableSlip:
    """Cancel a fill or credit not yet issued, with the reason (CA3): asked by
    mistake, or no longer needed. No chips moved, so nothing is posted; the slip
    stays on record as cancelled.

    Raises :class:`Refusal` (CA3, ``reason_required``) without a reason;
    :class:`Conflict` (409, CA3) when it was issued or cancelled already.
    """
    reason = (reason or "").strip()
    if not reason:
        raise refuse(SharedCode.REASON_REQUIRED, rule="CA3", text=SLIP_REASON_REQUIRED)
    slip = TableSlip.objects.select_for_update().get(pk=slip.pk)
    if slip.status != TableSlip.Status.PENDING:
        raise _not_pending(slip)
    slip.status = TableSlip.Status.CANCELLED
    slip.cancelled_by = by
    slip.cancelled_at = at or timezone.now()
    slip.cancel_reason = reason
    slip.save(update_fields=["status", "cancelled_by", "cancelled_at", "cancel_reason"])
    return slip


@retry_on_conflict()
@transaction.atomic
def box_count_record(
    *,
    cage: str,
    cashier: User,
    table: str,
    box: BoxCount.Box,
    gaming_day: date,
    counted_cents: int,
    at: datetime | None = None,
) -> BoxCount:
    """Count a table's drop, rake or jackpot box for ``gaming_day`` (CA4).

    The recorded amount is the box account's ledger balance; the variance
    (counted − recorded) is stored for the reports and booked to over/short.

    Raises :class:`Refusal` (CA1) without an open shift at ``cage``;
    :class:`Conflict` (409, CA4) when that box was counted for that day already.
    """
    cents_check(counted_cents, name="counted", positive=False)
    cage_row = cage_get(code=cage)
    shift = shift_open_get(cage=cage_row, cashier=cashier)
    if BoxCount.objects.filter(table=table, box=box, gaming_day=gaming_day).exists():
        raise _counted_already(table, box, gaming_day)
    currency = cage_row.currency
    account = account_for(cage_postings.box_account(box, table), currency=currency)
    # Lock the box's account so no hand books into it between reading and emptying.
    recorded = Account.objects.select_for_update().get(pk=account.pk).balance_cents
    at = at or timezone.now()
    posting = None
    if recorded or counted_cents:
        plan = cage_postings.box_count_plan(
            cage=cage_row.code,
            table=table,
            box=box,
            recorded=recorded,
            counted=counted_cents,
            balances={account.code: recorded},
        )
        posting = plan_post(
            plan,
            currency=currency,
            posted_by=cashier,
            reference=f"{box} box {table} {gaming_day.isoformat()}",
            external_id=f"count:{table}:{box}:{gaming_day.isoformat()}",
            posted_at=at,
        )
    try:
        with transaction.atomic():
            return BoxCount.objects.create(
                cage=cage_row,
                shift=shift,
                table=table,
                box=box,
                gaming_day=gaming_day,
                recorded_cents=recorded,
                counted_cents=counted_cents,
                variance_cents=counted_cents - recorded,
                counted_by=cashier,
                counted_at=at,
                transaction=posting,
            )
    except IntegrityError as exc:
        raise _counted_already(table, box, gaming_day) from exc


def _counted_already(table: str, box: str, gaming_day: date) -> Conflict:
    return conflict(
        Code.COUNTED_ALREADY,
        rule="CA4",
        box=box,
        table=table,
        day=gaming_day.isoformat(),
    )
