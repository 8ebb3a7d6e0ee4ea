"""Building blocks of models that keep records: the database refuses to lose them."""

from __future__ import annotations

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils.functional import Promise

from core.db import triggers as guards


def staff_fk(
    verbose_name: str | Promise, *, optional: bool = False
) -> models.ForeignKey:
    """A staff member who signed something: kept for ever (PROTECT)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=optional,
        blank=optional,
        related_name="+",
        verbose_name=str(verbose_name),
    )


def never_deleted(prefix: str) -> guards.Protect:
    """A trigger refusing DELETE and TRUNCATE: the record stays; its status tells
    its fate. No session setting switches it off (:mod:`core.db.triggers`)."""
    return guards.Protect(name=f"{prefix}_never_deleted", operation=pgtrigger.Delete)


def append_only(prefix: str) -> guards.Protect:
    """A trigger refusing UPDATE, DELETE and TRUNCATE: a correction is a new record
    (DC2). No session setting switches it off (:mod:`core.db.triggers`)."""
    return guards.Protect(
        name=f"{prefix}_append_only", operation=pgtrigger.Update | pgtrigger.Delete
    )
