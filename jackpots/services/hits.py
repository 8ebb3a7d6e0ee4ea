"""Deciding a bad-beat hit: verified by the floor, approved by another manager or
rejected (BB4–BB6, RK8).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from cardroom.models import Hand, HandException
from core.errors import Conflict, SharedCode
from core.roles import Role
from jackpots import selectors
from jackpots.errors import Code, conflict, refuse
from jackpots.models import (
    Award,
    Hit,
    Pool,
)
from jackpots.services._shared import awards_approve, now_or_current, role_require


def _lock_hit(hit: Hit) -> Hit:
    # Pool first, then the hit: every approval on a pool queues on the pool's row,
    # so hits are booked one after another, in the order they are approved.
    Pool.objects.select_for_update().filter(pk=hit.pool_id).get()
    return (
        Hit.objects.select_for_update(of=("self",))
        .select_related("pool__room", "pool__account", "pool__reserve_account", "hand")
        .get(pk=hit.pk)
    )


def _hand_still_booked(hand: Hand) -> None:
    if hand.status != Hand.Status.BOOKED:
        raise refuse(SharedCode.HAND_VOIDED, rule="RK8", hand=str(hand))


def void_check(*, hand: Hand) -> None:
    """Refuse the void of a hand whose hit was approved (RK8, BB5).

    The approval booked the awards from the pool and they may be paid already; the
    void gives contributions back, not awards. A hit still waiting is refused at
    its verification and approval once the hand is void (``hand_voided``).
    """
    approved = (
        Hit.objects.filter(hand=hand, status=Hit.Status.APPROVED)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if approved is not None:
        raise refuse(
            Code.AWARD_BOOKED,
            rule="RK8",
            allowed={"hit": approved},
            id=approved,
            hand=str(hand),
        )


def _decided(hit: Hit) -> Conflict:
    return conflict(
        Code.ALREADY_APPROVED
        if hit.status == Hit.Status.APPROVED
        else SharedCode.DECIDED,
        rule="BB5",
        id=hit.pk,
        status=hit.get_status_display(),
    )


@retry_on_conflict()
@transaction.atomic
def hit_verify(
    *, hit: Hit, by: User, note: str = "", now: datetime | None = None
) -> Hit:
    """A floor person confirms the hit: the cards, the camera (BB5).

    Raises :class:`Conflict` (409) for a hit no longer pending, :class:`Refusal`
    (RK8) for a voided hand.
    """
    role_require(by, Role.FLOOR, Role.MANAGER)
    h = _lock_hit(hit)
    if h.status != Hit.Status.PENDING:
        raise _decided(h)
    _hand_still_booked(h.hand)
    h.status = Hit.Status.VERIFIED
    h.verified_by, h.verified_at, h.verification_note = by, now_or_current(now), note
    h.save(update_fields=["status", "verified_by", "verified_at", "verification_note"])
    return h


@retry_on_conflict()
@transaction.atomic
def hit_approve(*, hit: Hit, by: User, now: datetime | None = None) -> Hit:
    """A manager, not the verifier, approves a verified hit; its awards are booked
    from the pool to awards payable and made payable at the cage (BB5, CA6).

    The amount is the pool's after the hand's drop, less what earlier hits took
    (BB4); earlier hits on the pool are decided first. Each recipient's share is
    fixed by the largest-remainder method (BB6). The pool's reserve rolls into the
    pool as the next jackpot's seed.

    Raises :class:`Conflict` (409, ``already_approved``) for an approved hit;
    :class:`Refusal` for a hit not verified (BB5), the verifier approving
    (BB5, ``four_eyes``), an earlier hit undecided (BB4), a voided hand (RK8).
    """
    role_require(by, Role.MANAGER)
    h = _lock_hit(hit)
    if h.status in (Hit.Status.APPROVED, Hit.Status.REJECTED):
        raise _decided(h)
    if h.status != Hit.Status.VERIFIED:
        raise refuse(Code.NOT_VERIFIED, rule="BB5")
    if h.verified_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, rule="BB5")
    _hand_still_booked(h.hand)
    earlier = (
        Hit.objects.filter(
            pool=h.pool, status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED]
        )
        .filter(
            Q(hand_ended_at__lt=h.hand_ended_at)
            | Q(hand_ended_at=h.hand_ended_at, pk__lt=h.pk)
        )
        .order_by("hand_ended_at", "pk")
        .first()
    )
    if earlier is not None:
        raise refuse(
            Code.EARLIER_HIT_PENDING,
            rule="BB4",
            allowed={"hit": earlier.pk},
            id=earlier.pk,
        )
    now = now_or_current(now)
    amount = selectors.pool_amount_at(pool=h.pool, at=h.hand_ended_at)
    awards_approve(
        h,
        pool=h.pool,
        amount=amount,
        percent=h.category_version.payout_percent,
        reference=f"bad beat #{h.pk} {h.hand}",
        external_id=f"jackpot:hit:{h.pk}",
        by=by,
        created_by=h.verified_by,
        now=now,
    )
    _candidate_resolve(
        h, by=by, at=now, resolution=_("BB5: approved; the awards are payable.")
    )
    return h


@retry_on_conflict()
@transaction.atomic
def hit_reject(*, hit: Hit, by: User, reason: str, now: datetime | None = None) -> Hit:
    """Reject a pending or verified hit with a reason; the pool is untouched (BB5).

    Raises :class:`Refusal` (BB5) without a reason, :class:`Conflict` (409)
    for a hit already decided.
    """
    role_require(by, Role.FLOOR, Role.MANAGER)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="hit", rule="BB5")
    h = _lock_hit(hit)
    if h.status in (Hit.Status.APPROVED, Hit.Status.REJECTED):
        raise _decided(h)
    h.status = Hit.Status.REJECTED
    h.rejected_by, h.rejected_at, h.rejection_reason = (
        by,
        now_or_current(now),
        reason.strip(),
    )
    _candidate_resolve(
        h,
        by=by,
        at=h.rejected_at,
        resolution=_("BB5: rejected: %(reason)s") % {"reason": h.rejection_reason},
    )
    h.save(update_fields=["status", "rejected_by", "rejected_at", "rejection_reason"])
    h.awards.update(status=Award.Status.REJECTED)
    return h


def _candidate_resolve(hit: Hit, *, by: User, at: datetime, resolution: str) -> None:
    """Close the hand's ``bad_beat_candidate`` exception for ``hit`` once the hit is
    decided (BB1, BB5): it needs no person any more, and the audit lists it as
    resolved, by whom and how."""
    HandException.objects.filter(
        hand_id=hit.hand_id,
        kind=HandException.Kind.BAD_BEAT_CANDIDATE,
        details__hit=hit.pk,
        status=HandException.Status.OPEN,
    ).update(
        status=HandException.Status.RESOLVED,
        resolved_by=by,
        resolved_at=at,
        resolution=resolution[:500],
    )
