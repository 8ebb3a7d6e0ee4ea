"""Hand of the month: closing a month, approving or rejecting its awards (HM2, HM3)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction

from accounting.services import retry_on_conflict
from core.errors import ApplicationError, Conflict, SharedCode
from core.roles import Role
from jackpots import selectors
from jackpots.domain.months import (
    month_bounds,
    month_name,
    months_due,
    next_month,
)
from jackpots.domain.shares import percent_of
from jackpots.errors import Code, conflict, invalid, refuse
from jackpots.models import (
    Award,
    Month,
    Pool,
)
from jackpots.services._shared import (
    INSTANT,
    awards_approve,
    awards_new,
    log,
    now_or_current,
    role_require,
)
from jackpots.services.sweep import hands_qualify_missed


def _closable(pool: Pool, month: date, now: datetime) -> tuple[datetime, datetime]:
    """The bounds of ``month`` of ``pool`` (locked), once it may close (HM3)."""
    locked = pool
    tz = locked.room.tz
    start, end = month_bounds(month, tz)
    if Month.objects.filter(pool=locked, month=month).exists():
        raise conflict(
            Code.MONTH_CLOSED, rule="HM3", month=month_name(month), pool=locked.name
        )
    if now < end:
        raise refuse(Code.MONTH_NOT_OVER, rule="HM3", month=month_name(month))
    first = locked.starts_on.replace(day=1)
    if month < first:
        raise refuse(
            Code.BEFORE_FIRST_MONTH,
            rule="HM3",
            allowed={"from": month_name(first)},
            pool=locked.name,
            first=month_name(first),
        )
    previous = (start - timedelta(days=1)).date().replace(day=1)
    if month > first and not Month.objects.filter(pool=locked, month=previous).exists():
        raise refuse(
            Code.EARLIER_MONTH_OPEN,
            rule="HM3",
            allowed={"month": month_name(previous)},
            previous=month_name(previous),
        )
    return start, end


@retry_on_conflict()
@transaction.atomic
def month_close(
    *,
    pool: Pool,
    month: date,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Month:
    """Close a past month of a hand-of-the-month pool (HM3).

    Any hand of the month not yet qualified is qualified first. The best hand, or
    the tied best hands, get pending awards of the pool's payout at the month's
    end, split equally, earlier hand first (HM2); a month without a qualifying hand
    carries the pool forward.

    Raises :class:`Conflict` (409, HM3) for a month closed already;
    :class:`Refusal` (HM3) for a month not over, before the pool's first
    month, or after a month still open; :class:`Invalid` (400) for a pool of
    another kind.
    """
    now = now_or_current(now)
    locked = Pool.objects.select_for_update().select_related("room").get(pk=pool.pk)
    if locked.kind != Pool.Kind.HAND_OF_THE_MONTH:
        raise invalid(Code.NOT_A_MONTH_POOL, pool=locked.name)
    month = month.replace(day=1)
    start, end = _closable(locked, month, now)
    hands_qualify_missed(since=start, until=end, room=locked.room)
    entries = list(selectors.month_best_hands(pool=locked, month=month))
    amount = selectors.pool_amount_at(pool=locked, at=end - INSTANT)
    payout = percent_of(amount, locked.payout_percent) if entries else 0
    record = Month.objects.create(
        pool=locked,
        month=month,
        ends_at=end,
        status=Month.Status.PENDING if entries else Month.Status.CARRIED_FORWARD,
        pool_cents=amount,
        payout_cents=payout,
        best_hand=entries[0].description if entries else "",
        closed_at=now,
        closed_by=by,
        closed_source=(source or "jackpots") if by is None else "",
    )
    if entries:
        awards_new(
            pool=locked,
            payout=payout,
            roles=[
                (
                    Award.Role.MONTH,
                    100,
                    [(e.hand, e.seat, e.player) for e in entries],
                )
            ],
            month=record,
        )
    log.info(
        "jackpots.month.closed",
        pool=locked.code,
        month=month_name(month),
        winners=len(entries),
        payout=payout,
    )
    return record


def months_close_due(
    *, now: datetime | None = None, source: str = "beat"
) -> list[Month]:
    """Close every month whose closing moment has passed, oldest first (HM3).

    The scheduled task calls this every hour; a month closes once whatever the
    schedule (the unique month per pool), and a missed run catches up.
    """
    now = now_or_current(now)
    closed = []
    for pool in Pool.objects.filter(
        kind=Pool.Kind.HAND_OF_THE_MONTH, active=True
    ).select_related("room"):
        last = pool.months.order_by("-month").values_list("month", flat=True).first()
        first = next_month(last) if last else pool.starts_on.replace(day=1)
        due = months_due(
            first, now, pool.room.tz, pool.month_close_day, pool.month_close_hour
        )
        try:
            for month in due:
                closed.append(
                    month_close(pool=pool, month=month, source=source, now=now)
                )
        except ApplicationError as error:
            # One pool's refusal doesn't hold up the others; it is retried next hour.
            log.error("jackpots.month.not_closed", pool=pool.pk, error=str(error))
    return closed


def _lock_month(month: Month) -> Month:
    Pool.objects.select_for_update().filter(pk=month.pool_id).get()
    return (
        Month.objects.select_for_update(of=("self",))
        .select_related("pool__room", "pool__account", "pool__reserve_account")
        .get(pk=month.pk)
    )


def _month_decided(month: Month) -> Conflict:
    approved = month.status == Month.Status.APPROVED
    return conflict(
        Code.ALREADY_APPROVED if approved else SharedCode.DECIDED,
        text="month",
        rule="HM3",
        month=str(month),
        status=month.get_status_display(),
    )


@retry_on_conflict()
@transaction.atomic
def month_approve(*, month: Month, by: User, now: datetime | None = None) -> Month:
    """A manager approves a closed month's awards: booked from the pool to awards
    payable and made payable at the cage (HM3, CA6).

    The amount is the pool's at the month's end, less what earlier months took;
    earlier months are decided first. Raises :class:`Conflict` (409) for a month
    decided already, :class:`Refusal` (HM3) for an earlier month pending or
    the person who closed it approving.
    """
    role_require(by, Role.MANAGER)
    m = _lock_month(month)
    if m.status != Month.Status.PENDING:
        raise _month_decided(m)
    if m.closed_by_id is not None and m.closed_by_id == by.pk:
        raise refuse(SharedCode.FOUR_EYES, text="month", rule="HM3")
    earlier = (
        Month.objects.filter(
            pool=m.pool, status=Month.Status.PENDING, month__lt=m.month
        )
        .order_by("month")
        .first()
    )
    if earlier is not None:
        raise refuse(
            Code.EARLIER_MONTH_PENDING,
            rule="HM3",
            allowed={"month": month_name(earlier.month)},
            month=month_name(earlier.month),
        )
    now = now_or_current(now)
    amount = selectors.pool_amount_at(pool=m.pool, at=m.ends_at - INSTANT)
    awards_approve(
        m,
        pool=m.pool,
        amount=amount,
        percent=m.pool.payout_percent,
        reference=f"hand of the month {m.pool.code} {month_name(m.month)}",
        external_id=f"jackpot:month:{m.pk}",
        by=by,
        created_by=m.closed_by,
        now=now,
    )
    return m


@retry_on_conflict()
@transaction.atomic
def month_reject(
    *, month: Month, by: User, reason: str, now: datetime | None = None
) -> Month:
    """Reject a closed month's awards with a reason: the pool carries forward.

    Raises :class:`Refusal` (HM3) without a reason, :class:`Conflict` (409)
    for a month decided already.
    """
    role_require(by, Role.MANAGER)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, text="month", rule="HM3")
    m = _lock_month(month)
    if m.status != Month.Status.PENDING:
        raise _month_decided(m)
    m.status = Month.Status.REJECTED
    m.rejected_by, m.rejected_at, m.rejection_reason = (
        by,
        now_or_current(now),
        reason.strip(),
    )
    m.save(update_fields=["status", "rejected_by", "rejected_at", "rejection_reason"])
    m.awards.update(status=Award.Status.REJECTED)
    return m
