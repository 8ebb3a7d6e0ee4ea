"""Bad-beat categories: a new version of a category's rules (BB2)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from jackpots.domain.rules import (
    CategoryRules,
    ConfigError,
)
from jackpots.models import (
    Category,
    CategoryVersion,
)
from jackpots.services._shared import config_refusal


@transaction.atomic
def category_publish(
    *,
    category: Category,
    config: dict[str, Any],
    pool_code: str,
    by: User | None,
    active: bool = True,
    note: str = "",
) -> CategoryVersion:
    """Add a version of a category's rules (BB2); it applies to hands qualified
    from now on, while hits already found keep the version they were found under.

    Raises :class:`Invalid` (400) naming the first field the rules can't use.
    """
    try:
        rules = CategoryRules.from_config(config)
    except ConfigError as error:
        raise config_refusal(error) from error
    locked = Category.objects.select_for_update().get(pk=category.pk)
    latest = locked.versions.order_by("-version").first()
    document = rules.to_config()
    return CategoryVersion.objects.create(
        category=locked,
        version=(latest.version if latest else 0) + 1,
        active=active,
        pool_code=pool_code,
        games=document["games"],
        min_losing_hand=document["min_losing_hand"],
        card_use=document["card_use"],
        min_participants=rules.min_participants,
        min_pot_cents=rules.min_pot_cents,
        payout_percent=rules.payout.percent,
        loser_part=rules.payout.loser,
        winner_part=rules.payout.winner,
        table_part=rules.payout.table,
        note=note,
        created_by=by,
    )
