"""Money held in trust that changes pool: a promotion ended (its pool to a successor)
and drops that reached no pool given to one, with a manager's reason (JD5).
"""

from __future__ import annotations

from datetime import datetime

import pghistory
from django.contrib.auth.models import User
from django.db import transaction

from accounting import chart
from accounting.domain.postings import Plan
from accounting.models import Account
from accounting.services import plan_post, retry_on_conflict
from cardroom.models import Room
from core.roles import Role
from jackpots.domain import postings
from jackpots.errors import Code, conflict, refuse
from jackpots.models import (
    Hit,
    Month,
    Pool,
    PromotionPrize,
    Transfer,
)
from jackpots.services._shared import (
    now_or_current,
    pool_key,
    pools_lock,
    reason_check,
    role_require,
)


def _still_owed(pool: Pool) -> None:
    """Refuse to move a pool's money while a hit, a month or a promotion's prize
    waits on it (BB4, HM3, PR5)."""
    hits = pool.hits.filter(status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED])
    months = pool.months.filter(status=Month.Status.PENDING)
    prizes = PromotionPrize.objects.filter(
        promotion__pool=pool,
        status__in=[PromotionPrize.Status.PENDING, PromotionPrize.Status.VERIFIED],
    )
    waiting = [*(f"hit {pk}" for pk in hits.values_list("pk", flat=True))]
    waiting += [f"month {pk}" for pk in months.values_list("pk", flat=True)]
    waiting += [f"prize {pk}" for pk in prizes.values_list("pk", flat=True)]
    if waiting:
        raise refuse(
            Code.POOL_OWES,
            rule="JD5",
            allowed={"waiting": waiting},
            pool=pool.code,
            what=", ".join(waiting),
        )


def _transfer_book(
    *,
    room: Room,
    source: Pool | None,
    target: Pool,
    plan: Plan,
    amount_cents: int,
    reserve_cents: int,
    reason: str,
    retired: bool,
    by: User,
    now: datetime | None,
) -> Transfer:
    at = now_or_current(now)
    txn = plan_post(
        plan,
        currency=target.account.currency,
        posted_by=by,
        reference=f"pool {room.code}:{source.code if source else 'drops'}"
        f" -> {target.code}",
        memo=reason,
        posted_at=at,
    )
    return Transfer.objects.create(
        room=room,
        source=source,
        target=target,
        amount_cents=amount_cents,
        reserve_cents=reserve_cents,
        reason=reason,
        retired=retired,
        decided_by=by,
        decided_at=at,
        ledger_transaction=txn,
    )


def _target_check(pool: Pool, target: Pool) -> None:
    if target.pk == pool.pk or target.room_id != pool.room_id or not target.active:
        raise refuse(Code.BAD_SUCCESSOR, rule="JD5", room=pool.room.code)
    if target.account.currency != pool.account.currency:
        raise refuse(Code.BAD_SUCCESSOR, text="currency", rule="JD5")


@retry_on_conflict()
@transaction.atomic
def pool_retire(
    *,
    pool: Pool,
    successor: Pool,
    reason: str,
    by: User,
    now: datetime | None = None,
) -> Transfer | None:
    """End a promotion (JD5): the pool takes no more drops and all it holds, its
    amount and its reserve, moves to ``successor`` (amount to amount, reserve to
    reserve), with the manager's record of why.

    Refused (422, JD5) without a reason, for a successor that isn't another active
    pool of the room, or while a hit or a month waits on the pool. Returns the
    transfer, or None when the pool held nothing (it is retired all the same).
    """
    role_require(by, Role.MANAGER)
    reason = reason_check(reason)
    pool, successor = pools_lock(pool, successor)
    _target_check(pool, successor)
    if not pool.active:
        raise conflict(Code.ALREADY_RETIRED, pool=pool.code)
    _still_owed(pool)
    amount = pool.account.balance_cents
    reserve = pool.reserve_account.balance_cents
    with pghistory.context(user=by.pk, reason=reason):
        pool.active = False
        pool.save(update_fields=["active"])
    if not amount and not reserve:
        return None
    return _transfer_book(
        room=pool.room,
        source=pool,
        target=successor,
        plan=postings.retire(
            pool=pool_key(pool),
            successor=pool_key(successor),
            amount=amount,
            reserve=reserve,
        ),
        amount_cents=amount,
        reserve_cents=reserve,
        reason=reason,
        retired=True,
        by=by,
        now=now,
    )


@retry_on_conflict()
@transaction.atomic
def drops_allocate(
    *,
    pool: Pool,
    reason: str,
    by: User,
    amount_cents: int | None = None,
    now: datetime | None = None,
) -> Transfer:
    """Give hands' drops that reached no pool (``jackpot:drops``, booked while the
    room had no active pool) to ``pool``: held in trust, they go to players (JD5).

    ``amount_cents`` defaults to all of them. Refused (422, JD5) without a reason,
    for an inactive pool, or for more than is held.
    """
    role_require(by, Role.MANAGER)
    reason = reason_check(reason)
    (pool,) = pools_lock(pool)
    drops = Account.objects.select_for_update().get(pk=chart.jackpot_drops().pk)
    if not pool.active or drops.currency != pool.account.currency:
        raise refuse(
            Code.BAD_SUCCESSOR, text="drops", rule="JD5", currency=drops.currency
        )
    held = drops.balance_cents
    amount = held if amount_cents is None else amount_cents
    return _transfer_book(
        room=pool.room,
        source=None,
        target=pool,
        plan=postings.drops_give(pool=pool_key(pool), amount=amount, held=held),
        amount_cents=amount,
        reserve_cents=0,
        reason=reason,
        retired=False,
        by=by,
        now=now,
    )
