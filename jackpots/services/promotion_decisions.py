"""Deciding a promotion's prize: verified by the floor, approved by another
manager or rejected (PR5), and cancelled when its hand is voided (PR4).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounting.models import Account
from accounting.services import plan_post, retry_on_conflict
from accounting.services.cage import payable_create
from cardroom.models import Hand
from core.errors import Conflict, SharedCode
from core.roles import Role
from jackpots.domain import postings
from jackpots.errors import Code, conflict, refuse
from jackpots.models import Award, Pool, PromotionPrize
from jackpots.services._shared import log, now_or_current, pool_key, role_require
from jackpots.services.promotion_prizes import period_close

OPEN = (PromotionPrize.Status.PENDING, PromotionPrize.Status.VERIFIED)


def _lock(prize: PromotionPrize) -> PromotionPrize:
    # The pool first, as for hits: every booking on a pool queues on its row.
    Pool.objects.select_for_update().filter(promotion__prizes=prize.pk).get()
    return (
        PromotionPrize.objects.select_for_update(of=("self",))
        .select_related("promotion__room", "promotion__pool__account", "hand")
        .get(pk=prize.pk)
    )


def _decided(prize: PromotionPrize) -> Conflict:
    return conflict(
        SharedCode.DECIDED,
        text="prize",
        rule="PR5",
        id=prize.pk,
        status=prize.get_status_display(),
    )


def _hands_booked(prize: PromotionPrize) -> None:
    """Refuse (PR4) a prize whose hand, or a winning hand, was voided."""
    voided = (
        Hand.objects.filter(pk__in=prize.awards.values("hand_id"))
        .exclude(status=Hand.Status.BOOKED)
        .first()
    )
    if voided is not None:
        raise refuse(SharedCode.HAND_VOIDED, text="prize", rule="PR4", hand=str(voided))


@retry_on_conflict()
@transaction.atomic
def prize_verify(
    *, prize: PromotionPrize, by: User, note: str = "", now: datetime | None = None
) -> PromotionPrize:
    """A floor person confirms the prize: the cards, the camera (PR5).

    Raises :class:`Conflict` (409) for a prize no longer pending,
    :class:`Refusal` (PR4) for a voided hand.
    """
    role_require(by, Role.FLOOR, Role.MANAGER)
    p = _lock(prize)
    if p.status != PromotionPrize.Status.PENDING:
        raise _decided(p)
    _hands_booked(p)
    p.status = PromotionPrize.Status.VERIFIED
    p.verified_by, p.verified_at, p.verification_note = by, now_or_current(now), note
    p.save(update_fields=["status", "verified_by", "verified_at", "verification_note"])
    return p


@retry_on_conflict()
@transaction.atomic
def prize_approve(
    *, prize: PromotionPrize, by: User, now: datetime | None = None
) -> PromotionPrize:
    """A manager, not the verifier, approves a verified prize (PR5): one posting
    takes it from the pool (the drop's money) and the house (an expense) into
    awards payable, and each award is made payable at the cage (CA6).

    Raises :class:`Conflict` (409) for a prize decided already;
    :class:`Refusal` for a prize not verified or the verifier approving (PR5),
    a voided hand (PR4), a pool that holds less than its part (JD5).
    """
    role_require(by, Role.MANAGER)
    p = _lock(prize)
    if p.status not in OPEN:
        raise _decided(p)
    if p.status != PromotionPrize.Status.VERIFIED:
        raise refuse(Code.NOT_VERIFIED, text="prize", rule="PR5")
    if p.verified_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, text="prize", rule="PR5")
    _hands_booked(p)
    now = now_or_current(now)
    promotion = p.promotion
    pool = promotion.pool
    plan = postings.promotion_award(
        pool=pool_key(pool),
        house=p.house_cents,
        from_pool=p.pool_cents,
        held=Account.objects.get(pk=pool.account_id).balance_cents,
    )
    reference = f"promotion {promotion.code} #{p.pk}"
    booking = plan_post(
        plan,
        currency=pool.account.currency,
        posted_by=p.verified_by,
        approved_by=by,
        reference=reference,
        memo=_("Prize of %(promotion)s") % {"promotion": promotion.name},
        external_id=f"promotion:prize:{p.pk}",
        posted_at=now,
    )
    for award in p.awards.select_for_update(of=("self",)).select_related("player"):
        award.status = Award.Status.APPROVED
        if award.amount_cents:
            award.payable = payable_create(
                player=award.player,
                amount_cents=award.amount_cents,
                reference=reference,
                memo=award.get_role_display(),
                approved_by=by,
                created_by=p.verified_by,
                booking=booking,
                currency=pool.account.currency,
            )
        award.save(update_fields=["status", "payable"])
    p.status = PromotionPrize.Status.APPROVED
    p.approved_by, p.approved_at, p.booking = by, now, booking
    p.save(update_fields=["status", "approved_by", "approved_at", "booking"])
    return p


@retry_on_conflict()
@transaction.atomic
def prize_reject(
    *, prize: PromotionPrize, by: User, reason: str, now: datetime | None = None
) -> PromotionPrize:
    """Reject a pending or verified prize with a reason (PR5): nothing is booked,
    and what it promised from the pool is free again.

    Raises :class:`Refusal` (PR5) without a reason, :class:`Conflict` (409) for
    a prize decided already.
    """
    role_require(by, Role.FLOOR, Role.MANAGER)
    if not (reason or "").strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="prize", rule="PR5")
    p = _lock(prize)
    if p.status not in OPEN:
        raise _decided(p)
    _close(p, PromotionPrize.Status.REJECTED, by, reason.strip(), now_or_current(now))
    return p


def _close(
    p: PromotionPrize, status: str, by: User | None, reason: str, at: datetime
) -> None:
    p.status = status
    p.rejected_by, p.rejected_at, p.rejection_reason = by, at, reason[:500]
    p.save(update_fields=["status", "rejected_by", "rejected_at", "rejection_reason"])
    p.awards.update(status=Award.Status.REJECTED)


def prizes_void_check(*, hand: Hand) -> None:
    """Refuse the void of a hand whose prize was approved (RK8, PR5): the awards
    were booked and may be paid."""
    approved = (
        PromotionPrize.objects.filter(
            status=PromotionPrize.Status.APPROVED, awards__hand=hand
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if approved is not None:
        raise refuse(
            Code.AWARD_BOOKED,
            text="prize",
            rule="RK8",
            allowed={"prize": approved},
            id=approved,
            hand=str(hand),
        )


def prizes_cancel_voided(*, hand: Hand, now: datetime | None = None) -> list[int]:
    """A hand was voided (RK8): cancel its prizes still pending (PR4), and decide
    again each high-hand period it won, without it; return the cancelled ids.

    Called by the floor in the void's transaction (``CARDROOM_HAND_VOIDED``).
    """
    now = now_or_current(now)
    cancelled = []
    for prize in (
        PromotionPrize.objects.filter(status__in=OPEN, awards__hand=hand)
        .distinct()
        .order_by("pk")
    ):
        p = _lock(prize)
        if p.status not in OPEN:
            continue
        _close(
            p,
            PromotionPrize.Status.CANCELLED,
            None,
            _("PR4: hand %(hand)s was voided.") % {"hand": str(hand)},
            now,
        )
        cancelled.append(p.pk)
        if p.kind == PromotionPrize.Kind.PERIOD:
            assert p.period_start is not None
            period_close(
                promotion=p.promotion, at=p.period_start, source="void", now=now
            )
        log.info("jackpots.promotion.cancelled", prize=p.pk, hand=hand.pk)
    return cancelled
