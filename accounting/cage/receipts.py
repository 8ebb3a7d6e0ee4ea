"""Receipts at the cage: chip purchases and redemptions (CA2), award payouts (CA6),
receivables paid back (DC3, :mod:`accounting.cage.receivables`).

Each takes the cage's next receipt number under the ``Cage`` row lock, in the same
database transaction as its ledger posting: a rollback gives the number back, so the
numbers of a cage run without gaps (not a sequence, which skips on rollback).

Postings, all through the cashier's drawer (CA1), as balances in each account's normal
sign:

- purchase of C: drawer cash +C, player's chips +C (liability), drawer chips −C,
  chip float −C (the chips left the house's hands);
- redemption of C: the reverse; more than the player holds is refused by the ledger
  (``insufficient_funds``);
- award payout of A: awards payable −A (the debt is settled), drawer cash −A.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg import errors as pg_errors

from accounting import chart
from accounting.cage.common import cage_get, cents_check
from accounting.cage.players import cash_activity_record, player_get
from accounting.cage.shifts import drawer_accounts, shift_open_get
from accounting.domain.cage import receipt_no
from accounting.models import Cage, Payable, Player, Receipt, Shift, Transaction
from accounting.services import Leg, retry_on_conflict, transaction_post
from core.api.errors import Conflict, RuleViolation

LegsFor = Callable[[Shift, Player, int], list[Leg]]


def receipt_number_take(cage: Cage) -> int:
    """Take the next receipt number of ``cage``, read under the caller's row lock.

    The counter moves in the caller's database transaction: if that rolls back, so
    does the counter, and the number is given again (CA2).
    """
    Cage.objects.filter(pk=cage.pk).update(next_receipt_no=F("next_receipt_no") + 1)
    return cage.next_receipt_no


def issue_receipt(
    *,
    kind: Receipt.Kind,
    cage_code: str,
    cashier: User,
    player_code: str,
    amount_cents: int,
    legs_for: LegsFor,
    at: datetime | None,
    payable: Payable | None = None,
    check: Callable[[Shift, Player], None] | None = None,
    reverses: Transaction | None = None,
    approved_by: User | None = None,
    memo: str = "",
) -> Receipt:
    """Issue one numbered receipt: locks, checks, number, posting, record."""
    cents_check(amount_cents, name="amount")
    at = at or timezone.now()
    cage = cage_get(code=cage_code, lock=True)
    shift = shift_open_get(cage=cage, cashier=cashier)
    player = player_get(code=player_code, rule="CA2")
    if check is not None:
        check(shift, player)
    cash_activity_record(
        player=player,
        amount_cents=amount_cents,
        kind=kind,
        reference=f"cage {cage.code}",
        at=at,
        cage=cage,
        threshold_cents=cage.identity_threshold_cents,
    )
    number = receipt_number_take(cage)
    no = receipt_no(cage.code, number)
    posting = transaction_post(
        kind=kind,
        legs=legs_for(shift, player, amount_cents),
        posted_by=cashier,
        reference=no,
        external_id=f"receipt:{cage.code}:{number}",
        posted_at=at,
        reverses=reverses,
        approved_by=approved_by,
        memo=memo,
    )
    return Receipt.objects.create(
        cage=cage,
        number=number,
        kind=kind,
        shift=shift,
        player=player,
        amount_cents=amount_cents,
        transaction=posting,
        payable=payable,
        player_signed=payable is not None,
        issued_by=cashier,
        issued_at=at,
    )


@transaction.atomic
def receipt_issue(
    *,
    kind: Receipt.Kind,
    cage: str,
    cashier: User,
    player: str,
    amount_cents: int,
    legs_for: LegsFor,
    check: Callable[[Shift, Player], None] | None = None,
    at: datetime | None = None,
    reverses: Transaction | None = None,
    approved_by: User | None = None,
    memo: str = "",
) -> Receipt:
    """Issue a numbered receipt for another app's cash movement at the cage (CA2).

    The same path as a chip purchase: the cage's row lock, the cashier's open shift
    (CA1), a registered player (CA2), the identity threshold (CA5), the next number
    without gaps, one posting whose legs ``legs_for(shift, player, amount)`` gives
    (through the shift's drawer, :func:`drawer_accounts`). ``check`` refuses before
    anything is written. A refund names the posting it ``reverses`` with its
    ``approved_by`` and why (``memo``, DC2). The tournaments' entries and refunds
    use it (TO1, TO10).
    """
    return issue_receipt(
        kind=kind,
        cage_code=cage,
        cashier=cashier,
        player_code=player,
        amount_cents=amount_cents,
        legs_for=legs_for,
        at=at,
        check=check,
        reverses=reverses,
        approved_by=approved_by,
        memo=memo,
    )


def _exchange(shift: Shift, player: Player, cents: int) -> list[Leg]:
    """Legs of a purchase of ``cents`` (negate for a redemption)."""
    currency = shift.cage.currency
    cash, chips = drawer_accounts(shift)
    return [
        Leg(cash, cents),
        Leg(chart.player_chips(player=player.code, currency=currency), -cents),
        Leg(chips, -cents),
        Leg(chart.chip_float(currency=currency), cents),
    ]


@retry_on_conflict()
@transaction.atomic
def chip_purchase(
    *,
    cage: str,
    cashier: User,
    player: str,
    amount_cents: int,
    at: datetime | None = None,
) -> Receipt:
    """Sell ``amount_cents`` of chips for cash to a registered player (CA2).

    Raises :class:`RuleViolation` for no open shift (CA1), an unregistered player
    (CA2), the identity threshold (CA5), :class:`Refusal` (DC3) when he owes a
    receivable past its terms; :class:`InsufficientFunds` when the drawer hasn't
    the chips. A refusal writes nothing and takes no receipt number.
    """
    from accounting.cage.receivables import receivable_check

    at = at or timezone.now()
    return issue_receipt(
        kind=Receipt.Kind.PURCHASE,
        cage_code=cage,
        cashier=cashier,
        player_code=player,
        amount_cents=amount_cents,
        legs_for=_exchange,
        at=at,
        check=lambda _shift, who: receivable_check(player=who, now=at),
    )


@retry_on_conflict()
@transaction.atomic
def chip_redemption(
    *,
    cage: str,
    cashier: User,
    player: str,
    amount_cents: int,
    at: datetime | None = None,
) -> Receipt:
    """Cash a registered player's chips (CA2).

    Raises :class:`RuleViolation` for no open shift (CA1), an unregistered player
    (CA2), the identity threshold (CA5); :class:`InsufficientFunds` (422,
    ``insufficient_funds``, allowed ``max``) when the player holds fewer chips or
    the drawer less cash. A refusal writes nothing and takes no receipt number.
    """
    return issue_receipt(
        kind=Receipt.Kind.REDEMPTION,
        cage_code=cage,
        cashier=cashier,
        player_code=player,
        amount_cents=amount_cents,
        legs_for=lambda shift, who, cents: _exchange(shift, who, -cents),
        at=at,
    )


@transaction.atomic
def payable_create(
    *,
    player: Player,
    amount_cents: int,
    reference: str,
    approved_by: User | None,
    created_by: User | None = None,
    booking: Transaction | None = None,
    memo: str = "",
    currency: str | None = None,
) -> Payable:
    """Record an approved award owed to ``player``, to be paid at the cage (CA6).

    The caller (jackpots, BB5/HM3) has booked the award into ``awards_payable`` and
    passes that posting as ``booking``. Raises :class:`RuleViolation` (CA6) without
    an approver or when the approver made the award himself.
    """
    cents_check(amount_cents, name="amount")
    if approved_by is None:
        raise RuleViolation(
            _("CA6: an award is paid only once a manager approved it."),
            code="award_not_approved",
            rule="CA6",
        )
    if created_by is not None and created_by.pk == approved_by.pk:
        raise RuleViolation(
            _("CA6: an award is approved by another person than who made it."),
            code="four_eyes",
            rule="CA6",
        )
    return Payable.objects.create(
        player=player,
        amount_cents=amount_cents,
        currency=currency or settings.CARDROOM_CURRENCY,
        reference=reference,
        memo=memo,
        approved_by=approved_by,
        created_by=created_by,
        booking=booking,
    )


def _already_paid(payable: Payable) -> Conflict:
    return Conflict(
        _("CA6: award %(ref)s is already paid.") % {"ref": payable.reference},
        code="already_paid",
        rule="CA6",
    )


@retry_on_conflict()
@transaction.atomic
def payable_pay(
    *,
    payable: Payable,
    cage: str,
    cashier: User,
    player: str,
    player_signed: bool,
    at: datetime | None = None,
) -> Receipt:
    """Pay an approved award in cash to its player, against his signature (CA6).

    ``player`` is the id the cashier read from the player's identity; it must be
    the award's. Raises :class:`Conflict` (409, CA6, ``already_paid``) for an
    award already paid; :class:`RuleViolation` (CA6) for another player, no
    signature, an award the cashier approved himself or in another currency;
    (CA1) without an open shift, (CA5) above the identity threshold.
    """
    if payable.status == Payable.Status.PAID:
        raise _already_paid(payable)

    def check(shift: Shift, who: Player) -> None:
        locked = Payable.objects.select_for_update().get(pk=payable.pk)
        if locked.status == Payable.Status.PAID:
            raise _already_paid(locked)
        if locked.player_id != who.pk:
            raise RuleViolation(
                _("CA6: this award is owed to another player."),
                code="wrong_player",
                rule="CA6",
            )
        if not player_signed:
            raise RuleViolation(
                _("CA6: the player signs the receipt of an award payout."),
                code="signature_required",
                rule="CA6",
            )
        if locked.approved_by_id == cashier.pk:
            raise RuleViolation(
                _("CA6: the cashier paying an award can't be its approver."),
                code="four_eyes",
                rule="CA6",
            )
        if locked.currency != shift.cage.currency:
            raise RuleViolation(
                _("CA6: this award is in %(currency)s; pay it at a cage in it.")
                % {"currency": locked.currency},
                code="wrong_currency",
                rule="CA6",
            )

    def legs(shift: Shift, who: Player, cents: int) -> list[Leg]:
        cash, _chips = drawer_accounts(shift)
        return [
            Leg(chart.awards_payable(currency=shift.cage.currency), cents),
            Leg(cash, -cents),
        ]

    at = at or timezone.now()
    try:
        with transaction.atomic():
            receipt = issue_receipt(
                kind=Receipt.Kind.AWARD_PAYOUT,
                cage_code=cage,
                cashier=cashier,
                player_code=player,
                amount_cents=payable.amount_cents,
                legs_for=legs,
                at=at,
                payable=payable,
                check=check,
            )
    except IntegrityError as exc:
        # The receipt's unique payable: the database refuses a second payment.
        if isinstance(exc.__cause__, pg_errors.UniqueViolation):
            raise _already_paid(payable) from exc
        raise
    Payable.objects.filter(pk=payable.pk).update(status=Payable.Status.PAID, paid_at=at)
    return receipt
