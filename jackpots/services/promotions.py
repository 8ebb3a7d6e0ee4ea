"""Promotions as configuration: starting one with its pool, a new version of its
rules, ending it (PR1–PR4).

A promotion's money is its pool (kind ``other``), started with it: the drop's
share (``drop_ratio``, JD4) when the promotion is funded by the drop, and what
the house books into it (PR1). The rules are checked by
:class:`jackpots.domain.promotions.PromotionRules` and kept as versions,
append-only: a new version is in force from the next period (a bonus: from the
next hand tabled); the prizes found keep the version they were found under.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from cardroom.models import Room
from core.roles import Role
from jackpots.domain.promotions import BOTH, DROP, PromotionRules
from jackpots.domain.rules import ConfigError
from jackpots.errors import Code, conflict, refuse
from jackpots.models import Pool, Promotion, PromotionVersion
from jackpots.services._shared import config_refusal, now_or_current, role_require
from jackpots.services.pools import pool_create


def rules_check(rules: Any) -> PromotionRules:
    """Return the rules read, or raise :class:`Invalid` (400) naming the field."""
    try:
        return PromotionRules.from_config(rules)
    except ConfigError as error:
        raise config_refusal(error) from None


def _funding_check(checked: PromotionRules, pool: Pool | None, drop_ratio: int) -> None:
    """A promotion the drop funds takes a share of it (PR1, JD4)."""
    ratio = pool.drop_ratio if pool is not None else drop_ratio
    if checked.prize.funding in (DROP, BOTH) and (ratio <= 0):
        raise refuse(Code.PROMOTION_UNFUNDED, rule="PR1", funding=checked.prize.funding)


@transaction.atomic
def promotion_create(
    *,
    room: Room,
    code: str,
    name: str,
    rules: dict[str, Any],
    by: User | None,
    drop_ratio: int = 0,
    note: str = "",
    now: datetime | None = None,
) -> Promotion:
    """Start a promotion in ``room`` with its pool and version 1 of its rules.

    ``drop_ratio`` is the pool's share of each drop against the room's other
    pools (JD4); a promotion the drop funds needs one. Raises :class:`Invalid`
    (400) for rules that can't be used, :class:`Conflict` (409) for a code the
    room uses, :class:`Refusal` (PR1) for drop funding without a share.
    """
    if by is not None:
        role_require(by, Role.MANAGER)
    now = now_or_current(now)
    checked = rules_check(rules)
    _funding_check(checked, None, drop_ratio)
    if Promotion.objects.filter(room=room, code=code).exists():
        raise conflict(Code.PROMOTION_EXISTS, code=code)
    pool = pool_create(
        room=room,
        code=code,
        name=name,
        kind=Pool.Kind.OTHER,
        by=by,
        drop_ratio=drop_ratio,
        now=now,
    )
    promotion = Promotion.objects.create(
        room=room,
        code=code,
        name=name,
        kind=checked.kind,
        pool=pool,
        created_at=now,
        created_by=by,
    )
    PromotionVersion.objects.create(
        promotion=promotion,
        version=1,
        rules=checked.to_config(),
        note=note,
        created_at=now,
        created_by=by,
    )
    return promotion


@transaction.atomic
def promotion_publish(
    *,
    promotion: Promotion,
    rules: dict[str, Any] | None,
    by: User | None,
    active: bool = True,
    note: str = "",
    now: datetime | None = None,
) -> PromotionVersion:
    """Add a version of a promotion's rules; ``active`` false ends it (nothing
    qualifies from then on, what was found is still decided). ``rules`` None
    keeps the rules in force.

    Raises :class:`Invalid` (400) for rules that can't be used or of another
    kind, :class:`Refusal` (PR1) for drop funding without a share.
    """
    if by is not None:
        role_require(by, Role.MANAGER)
    locked = (
        Promotion.objects.select_for_update()
        .select_related("pool")
        .get(pk=promotion.pk)
    )
    latest = locked.versions.order_by("-version").first()
    assert latest is not None  # a promotion starts with version 1
    checked = rules_check(latest.rules if rules is None else rules)
    if checked.kind != locked.kind:
        raise config_refusal(ConfigError("kind", "one_of", choices=locked.kind))
    if active:
        _funding_check(checked, locked.pool, 0)
    return PromotionVersion.objects.create(
        promotion=locked,
        version=latest.version + 1,
        active=active,
        rules=checked.to_config(),
        note=note,
        created_at=now_or_current(now),
        created_by=by,
    )
