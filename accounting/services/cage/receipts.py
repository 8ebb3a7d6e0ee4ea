"""Receipts at the cage: chip purchases and redemptions (CA2), award payouts (CA6),
receivables paid back (DC3; what is owed is read by
:mod:`accounting.services.cage.receivables`).

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
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from psycopg import errors as pg_errors

from accounting.domain import cage_postings
from accounting.domain.cage import receipt_no
from accounting.domain.postings import Plan
from accounting.errors import (
    AWARD_FOUR_EYES,
    PAYER_FOUR_EYES,
    Code,
    conflict,
    refuse,
)
from accounting.models import Cage, Payable, Player, Receipt, Shift, Transaction
from accounting.services.cage.common import cage_get, cents_check
from accounting.services.cage.players import cash_activity_record, player_get
from accounting.services.cage.protection import Door, award_check, door_check
from accounting.services.cage.receivables import receivable_check, receivable_standing
from accounting.services.cage.shifts import shift_open_get
from accounting.services.ledger import Leg, retry_on_conflict, transaction_post
from accounting.services.posting import plan_post
from core.errors import Conflict, SharedCode
from core.work import lock_check

LegsFor = Callable[[Shift, Player, int], list[Leg]]
PlanFor = Callable[[Shift, Player, int], Plan]


def receipt_number_take(cage: Cage) -> int:
    """Take the next receipt number of ``cage``, read under the caller's row lock.

    The counter moves in the caller's database transaction: if that rolls back, so
    does the counter, and the number is given again (CA2). Raises
    :class:`RuntimeError` outside a transaction.
    """
    lock_check("the cage's receipt counter")
    Cage.objects.filter(pk=cage.pk).update(next_receipt_no=F("next_receipt_no") + 1)
    return cage.next_receipt_no


@transaction.atomic(savepoint=False)
def receipt_issue(
    *,
    kind: Receipt.Kind,
    cage: str,
    cashier: User,
    player: str,
    amount_cents: int,
    legs_for: LegsFor | None = None,
    plan_for: PlanFor | None = None,
    payable: Payable | None = None,
    check: Callable[[Shift, Player], None] | None = None,
    at: datetime | None = None,
    reverses: Transaction | None = None,
    approved_by: User | None = None,
    memo: str = "",
) -> Receipt:
    """Issue one numbered receipt at the cage (CA2): locks, checks, number, posting,
    record; the cage's own receipts and another app's cash movement alike.

    The cage's row lock, the cashier's open shift (CA1), a registered player (CA2),
    the identity threshold (CA5), the next number without gaps, one posting: the
    plan ``plan_for(shift, player, amount)`` gives
    (:mod:`accounting.domain.cage_postings`), or the ledger legs another app's
    ``legs_for`` gives (through the shift's drawer, :func:`drawer_accounts`).
    ``check`` refuses before anything is written. A refund names the posting it
    ``reverses`` with its ``approved_by`` and why (``memo``, DC2). The tournaments'
    entries and refunds use it (TO1, TO10); ``payable`` is the award a payout
    settles (CA6). It runs in the caller's transaction when there is one (no
    savepoint: a refusal rolls the caller's back), else in its own.
    """
    cents_check(amount_cents, name="amount")
    at = at or timezone.now()
    the_cage = cage_get(code=cage, lock=True)
    shift = shift_open_get(cage=the_cage, cashier=cashier)
    who = player_get(code=player, rule="CA2")
    if check is not None:
        check(shift, who)
    cash_activity_record(
        player=who,
        amount_cents=amount_cents,
        kind=kind,
        reference=f"cage {the_cage.code}",
        at=at,
        cage=the_cage,
        threshold_cents=the_cage.identity_threshold_cents,
    )
    number = receipt_number_take(the_cage)
    no = receipt_no(the_cage.code, number)
    booking: dict[str, Any] = {
        "posted_by": cashier,
        "reference": no,
        "external_id": f"receipt:{the_cage.code}:{number}",
        "posted_at": at,
        "reverses": reverses,
        "approved_by": approved_by,
        "memo": memo,
    }
    if plan_for is not None:
        plan = plan_for(shift, who, amount_cents)
        assert plan.kind == kind, "a receipt's posting is of its kind"
        posting = plan_post(plan, currency=the_cage.currency, **booking)
    else:
        assert legs_for is not None, "a receipt posts a plan or legs"
        posting = transaction_post(
            kind=kind, legs=legs_for(shift, who, amount_cents), **booking
        )
    return Receipt.objects.create(
        cage=the_cage,
        number=number,
        kind=kind,
        shift=shift,
        player=who,
        amount_cents=amount_cents,
        transaction=posting,
        payable=payable,
        player_signed=payable is not None,
        issued_by=cashier,
        issued_at=at,
    )


def _exchange(shift: Shift, player: Player, cents: int) -> Plan:
    """The plan of a purchase of ``cents`` (negated: a redemption)."""
    return cage_postings.exchange_plan(
        cage=shift.cage.code, shift=shift.pk, player=player.code, cents=cents
    )


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

    The player asks at the chip-purchase door first (PP2–PP4). Raises
    :class:`Refusal` for no open shift (CA1), an unregistered player (CA2), a
    player under age or without a date of birth (PP2), barred (PP3) or
    self-excluded (PP4), the identity threshold (CA5), :class:`Refusal` (DC3) when
    he owes a receivable past its terms; :class:`InsufficientFunds` when the
    drawer hasn't the chips. A refusal writes nothing and takes no receipt number.
    """
    at = at or timezone.now()

    def check(_shift: Shift, who: Player) -> None:
        door_check(player=who, door=Door.CHIP_PURCHASE, at=at)
        receivable_check(player=who, now=at)

    return receipt_issue(
        kind=Receipt.Kind.PURCHASE,
        cage=cage,
        cashier=cashier,
        player=player,
        amount_cents=amount_cents,
        plan_for=_exchange,
        at=at,
        check=check,
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

    No door asks here: a restriction never keeps a player's money from him (PP5).
    Raises :class:`Refusal` for no open shift (CA1), an unregistered player
    (CA2), the identity threshold (CA5); :class:`InsufficientFunds` (422,
    ``insufficient_funds``, allowed ``max``) when the player holds fewer chips or
    the drawer less cash. A refusal writes nothing and takes no receipt number.
    """
    return receipt_issue(
        kind=Receipt.Kind.REDEMPTION,
        cage=cage,
        cashier=cashier,
        player=player,
        amount_cents=amount_cents,
        plan_for=lambda shift, who, cents: _exchange(shift, who, -cents),
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
    passes that posting as ``booking``. Raises :class:`Refusal` (CA6) without
    an approver or when the approver made the award himself.
    """
    cents_check(amount_cents, name="amount")
    if approved_by is None:
        raise refuse(Code.AWARD_NOT_APPROVED, rule="CA6")
    if created_by is not None and created_by.pk == approved_by.pk:
        raise refuse(SharedCode.FOUR_EYES, rule="CA6", text=AWARD_FOUR_EYES)
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
    return conflict(SharedCode.ALREADY_PAID, rule="CA6", ref=payable.reference)


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
    door: Door = Door.AWARD,
) -> Receipt:
    """Pay an approved award in cash to its player, against his signature (CA6).

    ``player`` is the id the cashier read from the player's identity; it must be
    the award's. ``door`` is what the award is: a jackpot share or a promotion
    award (``Door.AWARD``), or a tournament prize (``Door.PRIZE``), so that a
    restriction of the other game's scope doesn't hold it. Raises
    :class:`Conflict` (409, CA6, ``already_paid``) for an award already paid;
    :class:`Refusal` (CA6) for another player, no signature, an award the cashier
    approved himself or in another currency; (PP2) for a player under age or
    without a date of birth, (PP6, ``award_held``) for one whose restriction
    holds it; (CA1) without an open shift, (CA5) above the identity threshold.
    """
    if payable.status == Payable.Status.PAID:
        raise _already_paid(payable)

    def check(shift: Shift, who: Player) -> None:
        locked = Payable.objects.select_for_update().get(pk=payable.pk)
        if locked.status == Payable.Status.PAID:
            raise _already_paid(locked)
        if locked.status == Payable.Status.FORFEITED:
            raise conflict(Code.AWARD_FORFEITED, rule="PP6", ref=locked.reference)
        if locked.player_id != who.pk:
            raise refuse(Code.WRONG_PLAYER, rule="CA6")
        award_check(player=who, door=door, at=at, payable=locked)
        if not player_signed:
            raise refuse(Code.SIGNATURE_REQUIRED, rule="CA6")
        if locked.approved_by_id == cashier.pk:
            raise refuse(SharedCode.FOUR_EYES, rule="CA6", text=PAYER_FOUR_EYES)
        if locked.currency != shift.cage.currency:
            raise refuse(
                SharedCode.WRONG_CURRENCY, rule="CA6", currency=locked.currency
            )

    def payout(shift: Shift, who: Player, cents: int) -> Plan:
        return cage_postings.award_payout_plan(
            cage=shift.cage.code, shift=shift.pk, cents=cents
        )

    at = at or timezone.now()
    try:
        with transaction.atomic():
            receipt = receipt_issue(
                kind=Receipt.Kind.AWARD_PAYOUT,
                cage=cage,
                cashier=cashier,
                player=player,
                amount_cents=payable.amount_cents,
                plan_for=payout,
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


def _collection(shift: Shift, player: Player, cents: int) -> Plan:
    return cage_postings.collection_plan(
        cage=shift.cage.code, shift=shift.pk, player=player.code, cents=cents
    )


@retry_on_conflict()
@transaction.atomic
def receivable_collect(
    *,
    cage: str,
    cashier: User,
    player: str,
    amount_cents: int,
    at: datetime | None = None,
) -> Receipt:
    """Collect ``amount_cents`` in cash of what ``player`` owes, with a receipt (DC3).

    A part is fine; more than is open is refused (422 DC3, ``above_open``, with
    ``allowed.max`` the amount open), as is a player who owes nothing. Raises as a
    chip purchase does for no open shift (CA1), an unregistered player (CA2) and the
    identity threshold (CA5). A refusal writes nothing and takes no receipt number.
    """
    at = at or timezone.now()

    def check(shift: Shift, who: Player) -> None:
        # The player's row is locked from here (CA5's check locks it) until commit,
        # and his account's row by the posting: two desks can't both collect the
        # last euro.
        Player.objects.select_for_update().filter(pk=who.pk).first()
        s = receivable_standing(player=who, now=at)
        if amount_cents > s.open:
            raise refuse(
                Code.ABOVE_OPEN,
                rule="DC3",
                allowed={"min": 1, "max": s.open},
                p=who.code,
                open=s.open,
                a=amount_cents,
            )

    return receipt_issue(
        kind=Receipt.Kind.COLLECTION,
        cage=cage,
        cashier=cashier,
        player=player,
        amount_cents=amount_cents,
        plan_for=_collection,
        at=at,
        check=check,
    )
