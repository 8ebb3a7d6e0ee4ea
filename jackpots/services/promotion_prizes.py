"""A promotion's prizes: closing a high-hand period, verifying, approving and
rejecting a prize, and what a void does to one (PR1, PR2, PR4, PR5, CA6).

Money moves only when a manager approves (PR5): one posting takes the prize from
the pool (the drop's money, JD5) and from the house (an expense), into awards
payable, and each recipient's award is made payable at the cage (CA6). The one
other posting is a carry-over: the house's part of a prize nobody won, booked
into the pool at the period's close, so that it is held for players (PR1).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounting.models import Transaction
from accounting.services import plan_post, retry_on_conflict
from core.errors import ApplicationError
from jackpots import selectors
from jackpots.domain import postings
from jackpots.domain.promotions import HIGH_HAND, Prize, prize_amount
from jackpots.domain.shares import tie_shares
from jackpots.errors import Code, conflict, invalid, refuse
from jackpots.models import Award, Pool, Promotion, PromotionEntry, PromotionPrize
from jackpots.services._shared import log, now_or_current, pool_key
from jackpots.services.promotion_qualify import Versions
from jackpots.services.sweep import hands_qualify_missed

CLOSE_AFTER = timedelta(seconds=60)
"""How long after a period's end the scheduler closes it: the terminal posts a
hand when it ends, so a hand tabled in the period's last seconds is booked and
qualified before its period is decided (PR2)."""


def _iso(at: datetime) -> str:
    return at.isoformat()


def _versions(promotion: Promotion) -> Versions:
    return Versions(list(promotion.versions.all()))


def _last_decided(promotion: Promotion) -> PromotionPrize | None:
    return (
        promotion.prizes.filter(kind=PromotionPrize.Kind.PERIOD)
        .exclude(status=PromotionPrize.Status.CANCELLED)
        .order_by("-period_start")
        .first()
    )


def _closable(
    promotion: Promotion, at: datetime, now: datetime
) -> tuple[Versions, datetime, datetime]:
    """The version and bounds of the period containing ``at``, once it may close:
    over, not closed, the period before it decided (PR2)."""
    if promotion.kind != HIGH_HAND:
        raise invalid(Code.NOT_A_HIGH_HAND, promotion=promotion.name)
    versions = _versions(promotion)
    found = versions.for_period(promotion, at)
    if found is None:
        raise refuse(Code.BEFORE_PROMOTION, rule="PR2", promotion=promotion.name)
    _version, (start, end) = found
    if (
        promotion.prizes.filter(kind=PromotionPrize.Kind.PERIOD, period_start=start)
        .exclude(status=PromotionPrize.Status.CANCELLED)
        .exists()
    ):
        raise conflict(
            Code.PERIOD_CLOSED, rule="PR2", start=_iso(start), promotion=promotion.name
        )
    if now < end:
        raise refuse(
            Code.PERIOD_NOT_OVER,
            rule="PR2",
            allowed={"after": _iso(end)},
            end=_iso(end),
        )
    previous = versions.for_period(promotion, start - timedelta(microseconds=1))
    if previous is not None and previous[0].active:
        before = previous[1][0]
        if (
            not promotion.prizes.filter(
                kind=PromotionPrize.Kind.PERIOD, period_start=before
            )
            .exclude(status=PromotionPrize.Status.CANCELLED)
            .exists()
        ):
            raise refuse(
                Code.EARLIER_PERIOD_OPEN,
                rule="PR2",
                allowed={"period": _iso(before)},
                start=_iso(before),
            )
    return versions, start, end


@retry_on_conflict()
@transaction.atomic
def period_close(
    *,
    promotion: Promotion,
    at: datetime,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> PromotionPrize:
    """Close the high-hand period containing ``at`` (PR2).

    Hands of the period not yet qualified are qualified first. The best hand
    tabled, or the tied best hands (one share a player, largest remainder, the
    earlier hand first), get a pending prize: the promotion's fixed amount and
    its percent of what the pool holds free at the period's end, with what empty
    periods before carried in (PR1). A period without a qualifying hand carries
    its prize to the next one, the house's part booked into the pool, or lapses,
    as the promotion says.

    Raises :class:`Conflict` (409, PR2) for a period closed already;
    :class:`Refusal` (PR2) for one not over, before the promotion, or after a
    period still open; :class:`Invalid` (400) for a promotion without periods.
    """
    now = now_or_current(now)
    locked = (
        Promotion.objects.select_for_update()
        .select_related("room", "pool__account")
        .get(pk=promotion.pk)
    )
    Pool.objects.select_for_update().filter(pk=locked.pool_id).get()
    versions, start, end = _closable(locked, at, now)
    found = versions.for_period(locked, start)
    assert found is not None
    version = found[0]
    rules = versions.rules(version)
    hands_qualify_missed(since=start, until=end, room=locked.room)
    leaders = selectors.period_leaders(promotion=locked, start=start)
    carried_in = selectors.period_carried_in(promotion=locked, start=start)
    free = selectors.promotion_pool_free(
        promotion=locked, at=end, carried_in=carried_in
    )
    amount = prize_amount(rules.prize, free=free, carried_in=carried_in)
    if leaders:
        status = PromotionPrize.Status.PENDING
    elif rules.carry_over:
        status = PromotionPrize.Status.CARRIED_OVER
    else:
        status = PromotionPrize.Status.LAPSED
        amount = prize_amount(Prize(0, 0, rules.prize.funding), free=0)
    prize = PromotionPrize.objects.create(
        promotion=locked,
        version=version,
        kind=PromotionPrize.Kind.PERIOD,
        period_start=start,
        period_end=end,
        status=status,
        details={
            "hands": [_entry_json(e) for e in leaders],
            "carried_in": carried_in,
            "free": max(free, 0),
        },
        house_cents=amount.house,
        pool_cents=amount.pool,
        carried_in_cents=carried_in if leaders or rules.carry_over else 0,
        found_at=now,
        closed_by=by,
        closed_source=(source or "jackpots") if by is None else "",
        carry_booking=_carry_book(locked, amount.house, start, end, now)
        if status == PromotionPrize.Status.CARRIED_OVER
        else None,
    )
    _awards_new(prize, leaders)
    log.info(
        "jackpots.promotion.period_closed",
        promotion=locked.code,
        start=_iso(start),
        winners=len(leaders),
        status=status,
        total=amount.total,
    )
    return prize


def _awards_new(prize: PromotionPrize, leaders: list[PromotionEntry]) -> None:
    """The tied best hands share the prize equally, one share a player, the
    earlier hand the odd cent (PR2, largest remainder)."""
    if not leaders:
        return
    shares = tie_shares(prize.house_cents + prize.pool_cents, len(leaders))
    Award.objects.bulk_create(
        Award(
            pool=prize.promotion.pool,
            prize=prize,
            hand=e.hand,
            seat=e.seat,
            player=e.player,
            role=Award.Role.HIGH_HAND,
            part=100,
            sharing=len(leaders),
            position=i,
            amount_cents=share,
        )
        for i, (e, share) in enumerate(zip(leaders, shares, strict=True))
    )


def _entry_json(entry: PromotionEntry) -> dict[str, object]:
    return {
        "seat": entry.seat,
        "player": entry.player.code,
        "hand": entry.description,
        "cards": entry.cards,
        "hole": entry.hole,
        "hand_id": entry.hand_id,
        "table": entry.hand.table.code,
        "hand_no": entry.hand.hand_no,
        "tabled_at": _iso(entry.ended_at),
    }


def _carry_book(
    promotion: Promotion, house: int, start: datetime, end: datetime, now: datetime
) -> Transaction | None:
    """Book the house's part of a carried-over prize into the pool (PR1)."""
    if house <= 0:
        return None
    return plan_post(
        postings.promotion_carry(pool=pool_key(promotion.pool), house=house),
        currency=promotion.pool.account.currency,
        posted_by=None,
        source="jackpots",
        reference=f"promotion {promotion.code} {_iso(start)}"[:120],
        memo=_("%(promotion)s: no hand, the prize carried over")
        % {"promotion": promotion.name},
        external_id=f"promotion:{promotion.pk}:carry:{_iso(start)}",
        posted_at=now,
    )


def periods_close_due(
    *, now: datetime | None = None, source: str = "beat"
) -> list[PromotionPrize]:
    """Close every high-hand period that ended :data:`CLOSE_AFTER` ago or more,
    oldest first, each promotion's in turn (PR2). The scheduler calls this every
    minute; a period closes once (the database's unique period), and a run
    missed is caught up by the next one."""
    now = now_or_current(now)
    closed = []
    promotions = Promotion.objects.filter(kind=HIGH_HAND, pool__active=True)
    for promotion in promotions.select_related("room"):
        versions = _versions(promotion)
        if not versions.versions:
            continue
        last = _last_decided(promotion)
        at = versions.versions[0].created_at
        if last is not None and last.period_end is not None:
            at = last.period_end
        ended = versions.versions[-1]
        try:
            while True:
                if not ended.active and ended.created_at <= at:
                    break  # ended: nothing more to close
                found = versions.for_period(promotion, at)
                if found is None or found[1][1] + CLOSE_AFTER > now:
                    break
                version, (start, end) = found
                if version.active:
                    closed.append(
                        period_close(
                            promotion=promotion, at=start, source=source, now=now
                        )
                    )
                at = end
        except ApplicationError as error:
            log.error(
                "jackpots.promotion.not_closed",
                promotion=promotion.pk,
                error=str(error),
            )
    return closed
