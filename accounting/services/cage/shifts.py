"""Cashier shifts (CA1): a counted float in, a count out, over/short, sign-off.

Money moves between the cage's vault (``chart.cage_cash``, ``chart.cage_chips``) and
the shift's drawer (``chart.drawer_cash``, ``chart.drawer_chips``):

- open: vault → drawer, the counted float;
- close: the count against the drawer's ledger balance; each difference is posted
  between the drawer and ``chart.over_short`` (cash and chips separately), so the
  drawer then holds what was counted; within the cage's threshold the drawer goes
  back to the vault at once, above it the shift waits for a supervisor;
- sign-off: a manager, another person than the cashier, accepts the difference and
  the drawer goes back to the vault.

Lock order for every cage service: the ``Cage`` row (receipt counter), the
``Shift`` row, the ``Player`` row, the slip or payable row, then the ledger's
accounts (in primary-key order, by ``transaction_post``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting import chart
from accounting.domain import cage_postings
from accounting.domain.cage import Variance, needs_sign_off
from accounting.errors import (
    NOTHING_TO_FUND,
    NOTHING_TO_WITHDRAW,
    Code,
    conflict,
    forbidden,
    invalid,
    refuse,
)
from accounting.models import Account, Cage, Shift, Transaction
from accounting.services.cage.common import cents_check
from accounting.services.cage.days import gaming_day_of
from accounting.services.ledger import retry_on_conflict
from accounting.services.posting import plan_post
from core.errors import Refusal, SharedCode
from core.work import lock_check


def drawer_accounts(shift: Shift) -> tuple[Account, Account]:
    """Return the shift's drawer accounts (cash, chips), opening them if new."""
    cage = shift.cage
    return (
        chart.drawer_cash(cage=cage.code, shift=shift.pk, currency=cage.currency),
        chart.drawer_chips(cage=cage.code, shift=shift.pk, currency=cage.currency),
    )


def shift_open_get(*, cage: Cage, cashier: User) -> Shift:
    """Return the cashier's open shift at ``cage``, its row locked (CA1).

    Every cage transaction belongs to it. Raises :class:`Refusal` (rule CA1,
    code ``no_open_shift``) when the cashier has none, :class:`RuntimeError`
    outside a transaction.
    """
    lock_check("a shift's row")
    shift = (
        Shift.objects.select_for_update()
        .select_related("cage")
        .filter(cage=cage, cashier=cashier, status=Shift.Status.OPEN)
        .first()
    )
    if shift is None:
        raise refuse(
            Code.NO_OPEN_SHIFT,
            rule="CA1",
            user=cashier.get_username(),
            cage=cage.code,
        )
    return shift


def _vault_move(
    *,
    cage: Cage,
    cash_cents: int,
    chips_cents: int,
    sign: int,
    kind: str,
    **posting: Any,
) -> Transaction:
    """Post house cash (against house capital) and chip stock (against the chip
    float) into the vault (``sign`` 1) or out of it (-1)."""
    plan = cage_postings.vault_plan(
        kind=kind, cage=cage.code, cash=cash_cents, chips=chips_cents, sign=sign
    )
    return plan_post(
        plan, currency=cage.currency, reference=f"cage {cage.code}", **posting
    )


@retry_on_conflict()
@transaction.atomic
def cage_vault_fund(
    *,
    cage: Cage,
    cash_cents: int,
    chips_cents: int,
    by: User,
    memo: str = "",
) -> Transaction:
    """Put house cash and new chip stock into the cage's vault.

    Cash comes from ``house_capital``; chips enter the house's inventory against
    ``chip_float``. Raises :class:`Invalid` (400) for negative or no amounts.
    """
    cents_check(cash_cents, name="cash", positive=False)
    cents_check(chips_cents, name="chips", positive=False)
    if not cash_cents and not chips_cents:
        raise invalid(SharedCode.INVALID_AMOUNT, text=NOTHING_TO_FUND)
    return _vault_move(
        cage=cage,
        cash_cents=cash_cents,
        chips_cents=chips_cents,
        sign=1,
        kind="vault_fund",
        posted_by=by,
        memo=memo,
    )


@retry_on_conflict()
@transaction.atomic
def cage_vault_withdraw(
    *,
    cage: Cage,
    cash_cents: int,
    chips_cents: int,
    by: User,
    memo: str,
) -> Transaction:
    """Take house cash out of the vault (to the bank) or retire chip stock: the
    reverse of :func:`cage_vault_fund`, with the reason in ``memo``.

    Raises :class:`Invalid` (400) for negative or no amounts or no memo;
    :class:`InsufficientFunds` (the ledger's) for more than the vault holds.
    """
    cents_check(cash_cents, name="cash", positive=False)
    cents_check(chips_cents, name="chips", positive=False)
    if not cash_cents and not chips_cents:
        raise invalid(SharedCode.INVALID_AMOUNT, text=NOTHING_TO_WITHDRAW)
    if not (memo or "").strip():
        raise invalid(Code.MEMO_REQUIRED)
    return _vault_move(
        cage=cage,
        cash_cents=cash_cents,
        chips_cents=chips_cents,
        sign=-1,
        kind="vault_withdraw",
        posted_by=by,
        memo=memo.strip(),
    )


def _already_open(shift_id: int | None) -> Refusal:
    return refuse(
        Code.SHIFT_ALREADY_OPEN,
        rule="CA1",
        allowed={"open_shift": shift_id},
        id=shift_id,
    )


@retry_on_conflict()
@transaction.atomic
def shift_open(
    *,
    cage: Cage,
    cashier: User,
    cash_cents: int,
    chips_cents: int,
    at: datetime | None = None,
) -> Shift:
    """Open the cashier's shift at ``cage`` with a counted float (CA1).

    The float moves vault → drawer. Raises :class:`Refusal` (CA1) when the
    cashier already has an open shift there, :class:`InsufficientFunds` when the
    vault doesn't hold the float, :class:`Invalid` (400) for negative amounts.
    """
    cents_check(cash_cents, name="cash", positive=False)
    cents_check(chips_cents, name="chips", positive=False)
    existing = Shift.objects.filter(
        cage=cage, cashier=cashier, status=Shift.Status.OPEN
    ).first()
    if existing is not None:
        raise _already_open(existing.pk)
    at = at or timezone.now()
    try:
        with transaction.atomic():
            shift = Shift.objects.create(
                cage=cage,
                cashier=cashier,
                gaming_day=gaming_day_of(at),
                opened_at=at,
                opening_cash_cents=cash_cents,
                opening_chips_cents=chips_cents,
            )
    except IntegrityError as exc:
        # The same cashier opened one at this cage a moment before (unique index).
        raise _already_open(None) from exc
    drawer_accounts(shift)  # opened with the shift, even on an empty float
    if cash_cents or chips_cents:
        plan = cage_postings.shift_open_plan(
            cage=cage.code, shift=shift.pk, cash=cash_cents, chips=chips_cents
        )
        plan_post(
            plan,
            currency=cage.currency,
            posted_by=cashier,
            reference=f"shift {shift.pk}",
            external_id=f"shift:{shift.pk}:open",
            posted_at=at,
        )
    return shift


def _locked(shift: Shift) -> Shift:
    lock_check("a shift's row")
    return Shift.objects.select_for_update().select_related("cage").get(pk=shift.pk)


def _post_variance(
    *, shift: Shift, drawer: Account, variance: int, what: str, by: User
) -> None:
    """Post one count difference between the drawer and over/short (CA1)."""
    if not variance:
        return
    plan = cage_postings.over_short_plan(
        cage=shift.cage.code,
        shift=shift.pk,
        what=what,
        variance=variance,
        balances={drawer.code: drawer.balance_cents},
    )
    plan_post(
        plan,
        currency=shift.cage.currency,
        posted_by=by,
        reference=f"shift {shift.pk}",
        memo=_("%(what)s count difference at close") % {"what": what},
        external_id=f"shift:{shift.pk}:over_short:{what}",
        posted_at=shift.closed_at,
    )


def _drawer_return(shift: Shift, *, by: User, at: datetime) -> None:
    """Move the drawer's counted cash and chips back to the vault."""
    cage = shift.cage
    cash, chips = drawer_accounts(shift)
    # After the variances the drawer holds exactly what was counted.
    assert (cash.balance_cents, chips.balance_cents) == (
        shift.counted_cash_cents,
        shift.counted_chips_cents,
    ), "the drawer's balance differs from its count"
    if not cash.balance_cents and not chips.balance_cents:
        return
    plan = cage_postings.drawer_return_plan(
        cage=cage.code,
        shift=shift.pk,
        cash=cash.balance_cents,
        chips=chips.balance_cents,
        balances={cash.code: cash.balance_cents, chips.code: chips.balance_cents},
    )
    plan_post(
        plan,
        currency=cage.currency,
        posted_by=by,
        reference=f"shift {shift.pk}",
        external_id=f"shift:{shift.pk}:return",
        posted_at=at,
    )


@retry_on_conflict()
@transaction.atomic
def shift_close(
    *,
    shift: Shift,
    cashier: User,
    cash_cents: int,
    chips_cents: int,
    at: datetime | None = None,
) -> Shift:
    """Close the cashier's own shift with a count of cash and chips (CA1).

    The expected amounts are the drawer accounts' ledger balances; differences go
    to over/short. Within the cage's ``over_short_signoff_cents`` (the absolute
    differences added) the drawer returns to the vault and the shift is closed;
    above it the shift waits for :func:`shift_sign_off`.

    Raises :class:`Forbidden` (403, CA1) for another cashier's shift,
    :class:`Conflict` (409, CA1) when the shift isn't open, :class:`Invalid` (400)
    for negative counts.
    """
    cents_check(cash_cents, name="cash", positive=False)
    cents_check(chips_cents, name="chips", positive=False)
    shift = _locked(shift)
    if shift.cashier_id != cashier.pk:
        raise forbidden(Code.NOT_YOUR_SHIFT, rule="CA1")
    if shift.status != Shift.Status.OPEN:
        raise conflict(Code.SHIFT_NOT_OPEN, rule="CA1", id=shift.pk)
    cash, chips = drawer_accounts(shift)
    cash_variance = Variance(expected=cash.balance_cents, counted=cash_cents)
    chips_variance = Variance(expected=chips.balance_cents, counted=chips_cents)
    shift.closed_at = at or timezone.now()
    shift.expected_cash_cents = cash_variance.expected
    shift.expected_chips_cents = chips_variance.expected
    shift.counted_cash_cents = cash_cents
    shift.counted_chips_cents = chips_cents
    shift.needs_sign_off = needs_sign_off(
        variances=[cash_variance.over_short, chips_variance.over_short],
        threshold_cents=shift.cage.over_short_signoff_cents,
    )
    _post_variance(
        shift=shift,
        drawer=cash,
        variance=cash_variance.over_short,
        what="cash",
        by=cashier,
    )
    _post_variance(
        shift=shift,
        drawer=chips,
        variance=chips_variance.over_short,
        what="chips",
        by=cashier,
    )
    if shift.needs_sign_off:
        shift.status = Shift.Status.PENDING_SIGN_OFF
    else:
        _drawer_return(shift, by=cashier, at=shift.closed_at)
        shift.status = Shift.Status.CLOSED
    shift.save()
    return shift


@retry_on_conflict()
@transaction.atomic
def shift_sign_off(
    *,
    shift: Shift,
    supervisor: User,
    note: str = "",
    at: datetime | None = None,
) -> Shift:
    """Accept a closed shift's over/short above the threshold (CA1).

    The supervisor (the API lets only managers call it) must be another person than
    the cashier; then the drawer returns to the vault and the shift is closed.

    Raises :class:`Refusal` (CA1, ``own_shift``) when the supervisor is the
    shift's cashier, :class:`Conflict` (409, CA1) when the shift isn't waiting for
    a sign-off.
    """
    shift = _locked(shift)
    if shift.status != Shift.Status.PENDING_SIGN_OFF:
        raise conflict(
            Code.NOT_PENDING_SIGN_OFF,
            rule="CA1",
            id=shift.pk,
            status=shift.get_status_display(),
        )
    if shift.cashier_id == supervisor.pk:
        raise refuse(Code.OWN_SHIFT, rule="CA1")
    at = at or timezone.now()
    _drawer_return(shift, by=supervisor, at=at)
    shift.status = Shift.Status.CLOSED
    shift.signed_off_by = supervisor
    shift.signed_off_at = at
    shift.sign_off_note = note
    shift.save()
    return shift
