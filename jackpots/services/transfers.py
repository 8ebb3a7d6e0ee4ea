"""Money held in trust that changes pool: a promotion ended (its pool to a successor)
and drops that reached no pool given to one, with a manager's reason (JD5).
"""

from __future__ import annotations

from datetime import datetime

import pghistory
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounting import chart
from accounting.models import Account
from accounting.services import Leg, retry_on_conflict, transaction_post
from cardroom.models import Room
from core.api.errors import Conflict, RuleViolation
from core.roles import Role
from jackpots.models import (
    Hit,
    Month,
    Pool,
    Transfer,
)
from jackpots.services._shared import _lock_pools, _now, _reason_check, _require

TRANSFER_KIND = "jackpot_transfer"


def _still_owed(pool: Pool) -> None:
    """Refuse to move a pool's money while a hit or a month waits on it (BB4, HM3)."""
    hits = pool.hits.filter(status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED])
    months = pool.months.filter(status=Month.Status.PENDING)
    waiting = [*(f"hit {pk}" for pk in hits.values_list("pk", flat=True))]
    waiting += [f"month {pk}" for pk in months.values_list("pk", flat=True)]
    if waiting:
        raise RuleViolation(
            _("JD5: %(pool)s still owes players; decide %(what)s first.")
            % {"pool": pool.code, "what": ", ".join(waiting)},
            code="pool_owes",
            rule="JD5",
            allowed={"waiting": waiting},
        )


def _transfer_book(
    *,
    room: Room,
    source: Pool | None,
    target: Pool,
    legs: list[Leg],
    amount_cents: int,
    reserve_cents: int,
    reason: str,
    retired: bool,
    by: User,
    now: datetime | None,
) -> Transfer:
    at = _now(now)
    txn = transaction_post(
        kind=TRANSFER_KIND,
        legs=legs,
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
        raise RuleViolation(
            _("JD5: the successor is another active pool of room %(room)s.")
            % {"room": pool.room.code},
            code="bad_successor",
            rule="JD5",
        )
    if target.account.currency != pool.account.currency:
        raise RuleViolation(
            _("JD5: the successor pool keeps another currency."),
            code="bad_successor",
            rule="JD5",
        )


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
    _require(by, Role.MANAGER)
    reason = _reason_check(reason)
    pool, successor = _lock_pools(pool, successor)
    _target_check(pool, successor)
    if not pool.active:
        raise Conflict(
            _("%(pool)s was retired already.") % {"pool": pool.code},
            code="already_retired",
        )
    _still_owed(pool)
    amount = pool.account.balance_cents
    reserve = pool.reserve_account.balance_cents
    with pghistory.context(user=by.pk, reason=reason):
        pool.active = False
        pool.save(update_fields=["active"])
    if not amount and not reserve:
        return None
    legs = []
    if amount:
        legs += [Leg(pool.account, amount), Leg(successor.account, -amount)]
    if reserve:
        legs += [
            Leg(pool.reserve_account, reserve),
            Leg(successor.reserve_account, -reserve),
        ]
    return _transfer_book(
        room=pool.room,
        source=pool,
        target=successor,
        legs=legs,
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
    _require(by, Role.MANAGER)
    reason = _reason_check(reason)
    (pool,) = _lock_pools(pool)
    drops = Account.objects.select_for_update().get(pk=chart.jackpot_drops().pk)
    if not pool.active or drops.currency != pool.account.currency:
        raise RuleViolation(
            _("JD5: the drops go to an active pool in %(currency)s.")
            % {"currency": drops.currency},
            code="bad_successor",
            rule="JD5",
        )
    held = drops.balance_cents
    amount = held if amount_cents is None else amount_cents
    whole = isinstance(amount, int) and not isinstance(amount, bool)
    if not whole or not 0 < amount <= held:
        raise RuleViolation(
            _("JD5: %(held)d cents of drops wait for a pool; give from 1 to that.")
            % {"held": held},
            code="invalid_amount",
            rule="JD5",
            allowed={"min": 1 if held else 0, "max": held},
        )
    return _transfer_book(
        room=pool.room,
        source=None,
        target=pool,
        legs=[Leg(drops, amount), Leg(pool.account, -amount)],
        amount_cents=amount,
        reserve_cents=0,
        reason=reason,
        retired=False,
        by=by,
        now=now,
    )
