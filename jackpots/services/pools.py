"""Pools: starting one with its ledger accounts, changing its settings, the house's
seed (JD5, JD6).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pghistory
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounting import chart
from accounting.models import Account, Transaction
from accounting.services import plan_post
from cardroom.models import Room
from jackpots.domain import postings
from jackpots.domain.months import (
    month_of,
)
from jackpots.domain.rules import (
    HIGH_GAMES,
    HOLDEM_GAMES,
    OMAHA_GAMES,
    ConfigError,
)
from jackpots.errors import Code, conflict, invalid
from jackpots.models import (
    Pool,
)
from jackpots.services._shared import config_refusal, now_or_current, pool_key

DROP_RATIO_MAX = 10**6
"""The largest share of the drop a pool takes, against the others' (JD4)."""


def _pool_fields_check(fields: dict[str, Any]) -> None:
    games = fields.get("games")
    if games is not None:
        bad = [g for g in games if g not in HIGH_GAMES]
        if not isinstance(games, list) or bad:
            raise config_refusal(
                ConfigError("games", "high", games=", ".join(HIGH_GAMES))
            )
    for name, low, high in (
        ("reserve_percent", 0, 100),
        ("payout_percent", 0, 100),
        ("month_close_day", 1, 28),
        ("month_close_hour", 0, 23),
        ("drop_ratio", 0, DROP_RATIO_MAX),
    ):
        value = fields.get(name)
        if value is not None and not (
            isinstance(value, int)
            and not isinstance(value, bool)
            and low <= value <= high
        ):
            raise config_refusal(ConfigError(name, "range", low=low, high=high))


@transaction.atomic
def pool_create(
    *,
    room: Room,
    code: str,
    name: str,
    kind: Pool.Kind | str,
    by: User | None,
    drop_ratio: int = 1,
    reserve_percent: int = 0,
    seed_cents: int = 0,
    games: list[str] | None = None,
    payout_percent: int = 100,
    month_close_day: int = 1,
    month_close_hour: int = 12,
    starts_on: date | None = None,
    now: datetime | None = None,
) -> Pool:
    """Start a pool in ``room``, with its ledger accounts (JD5) and, when
    ``seed_cents`` is given, the house's seed booked from house capital.

    A hand-of-the-month pool covers ``games`` (default: the Hold'em and Omaha games
    of BB2) from the month of ``starts_on`` (default: this month). Raises
    :class:`Invalid` (400) for a bad setting and :class:`Conflict` for a code the
    room already uses.
    """
    fields = {
        "games": games,
        "reserve_percent": reserve_percent,
        "payout_percent": payout_percent,
        "month_close_day": month_close_day,
        "month_close_hour": month_close_hour,
        "drop_ratio": drop_ratio,
    }
    _pool_fields_check(fields)
    if Pool.objects.filter(room=room, code=code).exists():
        raise conflict(Code.POOL_EXISTS, code=code)
    if kind == Pool.Kind.HAND_OF_THE_MONTH and not games:
        games = [*HOLDEM_GAMES, *OMAHA_GAMES]
    # One segment ("main.bad-beat"): jackpot:main.bad-beat:pool, as the board reads.
    key = f"{room.code}.{code}"
    with pghistory.context(user=getattr(by, "pk", None)):
        pool = Pool.objects.create(
            room=room,
            code=code,
            name=name,
            kind=kind,
            drop_ratio=drop_ratio,
            reserve_percent=reserve_percent,
            games=games or [],
            payout_percent=payout_percent,
            month_close_day=month_close_day,
            month_close_hour=month_close_hour,
            starts_on=(starts_on or month_of(now_or_current(now), room.tz)).replace(
                day=1
            ),
            account=chart.jackpot_pool(pool=key, currency=room.currency),
            reserve_account=chart.jackpot_reserve(pool=key, currency=room.currency),
            seed_cents=seed_cents,
            created_by=by,
        )
    _accounts_name(pool)
    if seed_cents:
        pool_seed(
            pool=pool,
            amount_cents=seed_cents,
            by=by,
            memo=_("The house's seed when the pool started."),
            now=now,
        )
    return pool


@transaction.atomic
def pool_update(*, pool: Pool, by: User | None, **changes: Any) -> Pool:
    """Change a pool's name, ratios, hand-of-the-month settings or ``active``.

    The change applies from the next hand; django-pghistory keeps who changed what.
    Raises :class:`Invalid` (400) for a bad setting or a field that can't change.
    """
    editable = {
        "name",
        "drop_ratio",
        "reserve_percent",
        "games",
        "payout_percent",
        "month_close_day",
        "month_close_hour",
        "active",
    }
    unknown = set(changes) - editable
    if unknown:
        raise invalid(
            Code.INVALID_CONFIGURATION, text="fixed", fields=", ".join(sorted(unknown))
        )
    _pool_fields_check(changes)
    with pghistory.context(user=getattr(by, "pk", None)):
        for field, value in changes.items():
            setattr(pool, field, value)
        pool.save(update_fields=list(changes))
    if "name" in changes:
        _accounts_name(pool)
    return pool


def _accounts_name(pool: Pool) -> None:
    """Name the pool's ledger accounts as the pool: the board shows them (JD6)."""
    Account.objects.filter(pk=pool.account_id).update(name=pool.name)
    Account.objects.filter(pk=pool.reserve_account_id).update(
        name=_("%(pool)s reserve") % {"pool": pool.name}
    )


@transaction.atomic
def pool_seed(
    *,
    pool: Pool,
    amount_cents: int,
    by: User | None,
    to_reserve: bool = False,
    memo: str = "",
    now: datetime | None = None,
    source: str = "",
) -> Transaction:
    """Put house money into a pool or its reserve: house capital → pool (JD5).

    Raises :class:`Invalid` (400) for an amount that isn't positive cents.
    """
    plan = postings.seed(pool=pool_key(pool), cents=amount_cents, to_reserve=to_reserve)
    return plan_post(
        plan,
        currency=pool.account.currency,
        posted_by=by,
        source=source or ("" if by else "jackpots"),
        reference=f"pool {pool.room.code}:{pool.code}",
        memo=memo or _("Seed from the house."),
        posted_at=now_or_current(now),
    )
