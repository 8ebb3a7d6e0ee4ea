"""Bad-beat categories: a new version of a category's rules, and RULES.md BB2's
default categories written into the database (BB2).

The data migration writes the defaults; a ``post_migrate`` receiver writes them again
into a database whose tables were emptied (``manage.py flush``, transactional tests).
A category that exists is left as it is: its versions are the managers' to change.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.db import transaction

from jackpots.domain.rules import (
    DEFAULT_CATEGORIES,
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


@transaction.atomic
def categories_ensure(*, apps: Any = None, **kwargs: Any) -> None:
    """Create each default category missing from the database, at version 1.

    ``apps`` is an app registry: the migration's historical one, the one
    ``post_migrate`` passes, or (after a flush, which passes none) Django's.
    """
    apps = apps or django_apps
    Category = apps.get_model("jackpots", "Category")
    CategoryVersion = apps.get_model("jackpots", "CategoryVersion")
    for code, config in DEFAULT_CATEGORIES.items():
        category, created = Category.objects.get_or_create(
            code=code, defaults={"name": config["name"]}
        )
        if not created:
            continue
        rules = CategoryRules.from_config(config)
        document = rules.to_config()
        CategoryVersion.objects.create(
            category=category,
            version=1,
            active=True,
            pool_code=config["pool"],
            games=document["games"],
            min_losing_hand=document["min_losing_hand"],
            card_use=document["card_use"],
            min_participants=rules.min_participants,
            min_pot_cents=rules.min_pot_cents,
            payout_percent=rules.payout.percent,
            loser_part=rules.payout.loser,
            winner_part=rules.payout.winner,
            table_part=rules.payout.table,
            note="RULES.md BB2 house default",
        )
