"""Helpers the jackpots' use cases share: the clock, role checks, pools locked in
primary-key order, and the one routine that books an approved hit's or month's
awards (BB5, BB6, HM3, CA6).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import structlog
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import Account, Player, Transaction
from accounting.services import plan_post
from accounting.services.cage import payable_create
from cardroom.models import Hand
from core.errors import Invalid, SharedCode
from core.roles import Role, has_role
from jackpots.domain import postings
from jackpots.domain.rules import (
    ConfigError,
)
from jackpots.domain.shares import percent_of, role_shares
from jackpots.errors import forbidden, refuse
from jackpots.models import (
    Award,
    Hit,
    Month,
    Pool,
)

log = structlog.get_logger(__name__)


# A month's amount is the pool's just before the next month begins.
INSTANT = timedelta(microseconds=1)


def now_or_current(now: datetime | None) -> datetime:
    return now or timezone.now()


def role_require(user: User, *roles: Role) -> None:
    """Refuse (403) a person without one of ``roles``: the admin calls these too."""
    if not has_role(user, *roles):
        raise forbidden(
            SharedCode.PERMISSION_DENIED, roles=" or ".join(r.value for r in roles)
        )


def config_refusal(error: ConfigError) -> Invalid:
    return Invalid(
        error.code, error.template, allowed=error.allowed, params=error.params
    )


def reason_check(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise refuse(SharedCode.REASON_REQUIRED, rule="JD5")
    return reason


def pool_key(pool: Pool) -> str:
    """The pool's key in the chart (``main.bad-beat``), as its accounts' codes name
    it (``jackpot:main.bad-beat:pool``)."""
    return pool_key_of(pool.account.code)


def pool_key_of(account_code: str) -> str:
    """The key of the pool whose account is ``account_code``."""
    return account_code.removeprefix("jackpot:").removesuffix(":pool")


def pools_lock(*pools: Pool) -> list[Pool]:
    """The pools' rows and their accounts, locked in one order (no deadlock): FOR
    UPDATE locks the joined account rows too, so the balances read stay put."""
    ids = sorted(p.pk for p in pools)
    locked = {
        p.pk: p
        for p in Pool.objects.select_for_update()
        .select_related("room", "account", "reserve_account")
        .filter(pk__in=ids)
        .order_by("pk")
    }
    return [locked[p.pk] for p in pools]


Members = list[tuple[Hand, int, Player]]


def awards_new(
    *,
    pool: Pool,
    payout: int,
    roles: Sequence[tuple[Award.Role, int, Members]],
    hit: Hit | None = None,
    month: Month | None = None,
) -> list[Award]:
    """Create the pending awards of a hit or a month: ``payout`` split between the
    roles by their parts and equally within each, by largest remainder (BB6, HM2).
    """
    shares = role_shares(payout, [(part, len(members)) for _r, part, members in roles])
    awards, position = [], 0
    for (role, part, members), amounts in zip(roles, shares, strict=True):
        for (hand, seat, player), amount in zip(members, amounts, strict=True):
            awards.append(
                Award(
                    pool=pool,
                    hit=hit,
                    month=month,
                    hand=hand,
                    seat=seat,
                    player=player,
                    role=role,
                    part=part,
                    sharing=len(members),
                    position=position,
                    amount_cents=amount,
                )
            )
            position += 1
    return Award.objects.bulk_create(awards)


def _awards_book(
    *,
    pool: Pool,
    awards: list[Award],
    payout: int,
    reference: str,
    external_id: str,
    approved_by: User,
    created_by: User | None,
    now: datetime,
) -> tuple[Transaction, int]:
    """Fix the shares of ``payout``, book them to awards payable, make them payable.

    ``awards`` in their priority order; the roles keep their parts and members.
    One posting: the pool pays the awards into awards payable and receives its
    reserve. Raises :class:`Refusal` (JD5) when there is nothing to pay.
    """
    roles: list[tuple[int, int]] = []
    for i, award in enumerate(awards):
        if i == 0 or awards[i - 1].role != award.role:
            roles.append((award.part, award.sharing))
    shares = [a for role in role_shares(payout, roles) for a in role]
    total = sum(shares)
    currency = pool.account.currency
    # Drops only add to the reserve while this runs: what is read can be moved.
    reserve = Account.objects.get(pk=pool.reserve_account_id).balance_cents
    plan = postings.award(
        pool=pool_key(pool),
        total=total,
        reserve=reserve,
        held=pool.account.balance_cents,
    )
    booking = plan_post(
        plan,
        currency=currency,
        # Both people in the ledger (DC2): who verified or closed it, who approved.
        posted_by=created_by or approved_by,
        approved_by=approved_by if created_by is not None else None,
        reference=reference[:120],
        memo=_("Jackpot awards of %(pool)s") % {"pool": pool.name},
        external_id=external_id,
        posted_at=now,
    )
    for award, amount in zip(awards, shares, strict=True):
        award.amount_cents = amount
        award.status = Award.Status.APPROVED
        if amount:
            award.payable = payable_create(
                player=award.player,
                amount_cents=amount,
                reference=reference[:120],
                memo=award.get_role_display(),
                approved_by=approved_by,
                created_by=created_by,
                booking=booking,
                currency=currency,
            )
        award.save(update_fields=["amount_cents", "status", "payable"])
    return booking, total


def awards_approve(
    record: Hit | Month,
    *,
    pool: Pool,
    amount: int,
    percent: int,
    reference: str,
    external_id: str,
    by: User,
    created_by: User | None,
    now: datetime,
) -> None:
    """Approve a hit's or a month's awards: ``percent`` of the pool's ``amount`` is
    booked to awards payable and made payable at the cage, and ``record`` saved as
    approved by ``by``, with what it paid and the booking (BB5, HM3, CA6).

    ``created_by`` verified the hit or closed the month. Raises
    :class:`Refusal` (JD5) when there is nothing to pay.
    """
    booking, paid = _awards_book(
        pool=pool,
        awards=list(
            record.awards.select_for_update(of=("self",))
            .select_related("player")
            .order_by("position")
        ),
        payout=percent_of(amount, percent),
        reference=reference,
        external_id=external_id,
        approved_by=by,
        created_by=created_by,
        now=now,
    )
    record.status = record.Status.APPROVED
    record.approved_by, record.approved_at = by, now
    record.pool_cents, record.payout_cents, record.booking = amount, paid, booking
    record.save(
        update_fields=[
            "status",
            "approved_by",
            "approved_at",
            "pool_cents",
            "payout_cents",
            "booking",
        ]
    )
