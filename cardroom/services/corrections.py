"""Corrections: pot corrections, held pots, receivables, by two (HS7, HS8, DC1–DC3)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounting.services import plan_post
from cardroom.domain import postings
from cardroom.errors import (
    VOIDED_NO_CORRECTION,
    Code,
    conflict,
    invalid,
    missing,
    refuse,
)
from cardroom.models import Correction, Hand, HandException, SeatSession, Table
from cardroom.services.hands.exceptions import exceptions_resolve
from cardroom.services.sessions import chips_locate, player_require, stacks_sync
from core.errors import NotFound
from core.errors import gettext_noop as _

# The corrections that move a hand's pot: none once the hand is void (RK8).
_OF_THE_POT = (Correction.Kind.POT_CORRECTION, Correction.Kind.HOLD)


def _dc1(hand: Hand) -> None:
    if hand.status == Hand.Status.VOIDED:
        raise refuse(Code.HAND_VOIDED, rule="RK8")
    if hand.table.hands.filter(hand_no__gt=hand.hand_no).exists():
        raise refuse(
            Code.RULING_TOO_LATE,
            rule="DC1",
            n=hand.table.hands.aggregate(n=Max("hand_no"))["n"],
        )


def _hold_releasing(held_id: int, amount: int) -> Correction:
    """The approved hold ``held_id``, locked, if it still holds ``amount`` (HS8)."""
    held = (
        Correction.objects.select_for_update()
        .filter(
            pk=held_id, kind=Correction.Kind.HOLD, status=Correction.Status.APPROVED
        )
        .first()
    )
    if held is None:
        raise refuse(Code.NO_SUCH_HOLD, rule="HS8", id=held_id)
    left = held.amount_cents - sum(
        r.amount_cents for r in held.releases.exclude(status=Correction.Status.REJECTED)
    )
    if amount > left:
        raise refuse(Code.ABOVE_HELD, rule="HS8", allowed={"max": left}, left=left)
    return held


@transaction.atomic
def correction_request(
    *,
    kind: str,
    table_code: str,
    amount: int,
    reason: str,
    by: User,
    hand_no: int | None = None,
    from_player: str | None = None,
    to_player: str | None = None,
    held_id: int | None = None,
    now: datetime | None = None,
) -> Correction:
    """Ask for a correction; nothing moves until another person approves (DC2).

    Pot corrections and holds name a hand and must be asked for before the next
    hand at that table (DC1, HS7, HS8); a release names an approved hold and pays
    at most what it still holds; a receivable names the player who owes (DC3).
    Raises :class:`Refusal` with the rule that refuses it.
    """
    table = Table.objects.filter(code=table_code).first()
    if table is None:
        raise missing(Code.NOT_FOUND, t=table_code)
    if not reason.strip():
        raise refuse(Code.REASON_REQUIRED, rule="DC2")
    hand = None
    if hand_no is not None:
        hand = (
            Hand.objects.select_related("table")
            .filter(table=table, hand_no=hand_no)
            .first()
        )
        if hand is None:
            raise NotFound(Code.NOT_FOUND, _("No hand %(n)s."), params={"n": hand_no})
    needs = {
        Correction.Kind.POT_CORRECTION: ("hand", "from", "to"),
        Correction.Kind.HOLD: ("hand", "from"),
        Correction.Kind.RELEASE: ("held", "to"),
        Correction.Kind.RECEIVABLE: ("from",),
    }[Correction.Kind(kind)]
    given = {"hand": hand, "from": from_player, "to": to_player, "held": held_id}
    absent = [n for n in needs if given[n] is None]
    if absent:
        raise invalid(Code.INVALID, k=kind, m=", ".join(absent))
    if hand is not None and kind in (
        Correction.Kind.POT_CORRECTION,
        Correction.Kind.HOLD,
    ):
        _dc1(hand)
    held = None
    if kind == Correction.Kind.RELEASE:
        assert held_id is not None
        held = _hold_releasing(held_id, amount)
    return Correction.objects.create(
        kind=kind,
        hand=hand or (held.hand if held else None),
        table=table,
        from_player=player_require(from_player) if from_player else None,
        to_player=player_require(to_player) if to_player else None,
        held=held,
        amount_cents=amount,
        reason=reason,
        requested_by=by,
        requested_at=now or timezone.now(),
    )


@transaction.atomic
def correction_decide(
    *,
    correction: Correction,
    approve: bool,
    by: User,
    now: datetime | None = None,
) -> Correction:
    """Approve (and book) or reject a correction; the decider is another person.

    A pot correction or hold of a hand voided since it was asked for is only
    rejected: the void gave every contribution back (RK8), so there is no pot to
    correct; the hand's row is locked, so a void and an approval don't cross.

    Raises :class:`Refusal` (DC2) when the asker decides, (RK8, ``hand_voided``)
    when approving a pot correction or hold of a voided hand; :class:`Conflict`
    when it was decided already, :class:`InsufficientFunds` when the chips aren't
    there any more.
    """
    c = (
        Correction.objects.select_for_update(of=("self",))
        .select_related("table", "from_player", "to_player")
        .get(pk=correction.pk)
    )
    if c.status != Correction.Status.PENDING:
        raise conflict(Code.DECIDED)
    if c.requested_by_id == by.pk:
        raise refuse(Code.FOUR_EYES, rule="DC2")
    if approve and c.hand_id is not None and c.kind in _OF_THE_POT:
        hand = Hand.objects.select_for_update(of=("self",)).get(pk=c.hand_id)
        if hand.status == Hand.Status.VOIDED:
            raise refuse(
                Code.HAND_VOIDED,
                rule="RK8",
                text=VOIDED_NO_CORRECTION,
                n=hand.hand_no,
                id=c.pk,
            )
    c.decided_by, c.decided_at = by, now or timezone.now()
    if not approve:
        c.status = Correction.Status.REJECTED
        c.save()
        return c
    table = c.table
    touched: list[SeatSession | None] = []
    source = target = None
    if c.kind != Correction.Kind.RECEIVABLE and c.from_player is not None:
        source, session = chips_locate(c.from_player, table)
        touched.append(session)
    if c.to_player is not None:
        target, session = chips_locate(c.to_player, table)
        touched.append(session)
    debtor = c.from_player if c.kind == Correction.Kind.RECEIVABLE else None
    c.ledger_transaction = plan_post(
        postings.correction(
            kind=c.kind,
            table=table.code,
            amount=c.amount_cents,
            source=source,
            target=target,
            debtor=debtor.code if debtor is not None else None,
        ),
        posted_by=by,
        approved_by=c.requested_by,
        reference=str(c.hand or table),
        memo=c.reason,
        posted_at=c.decided_at,
    )
    c.status = Correction.Status.APPROVED
    c.save()
    _mispaid_resolved(c, by)
    stacks_sync(*touched)
    return c


def _mispaid_resolved(c: Correction, by: User) -> None:
    """HS7, HS8: a pot correction or a release is the pot's ruling; the hand's
    mispaid-pot flag no longer waits (a hold still waits for its release)."""
    if c.hand_id is None or c.kind not in (
        Correction.Kind.POT_CORRECTION,
        Correction.Kind.RELEASE,
    ):
        return
    exceptions_resolve(
        hand_id=c.hand_id,
        kinds=(HandException.Kind.MISPAID_POT,),
        by=by,
        at=c.decided_at,
        resolution=f"{c.get_kind_display()} {c.pk}: {c.reason}",
    )
