"""Building blocks of models that keep records: the database refuses to lose them."""

from __future__ import annotations

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils.functional import Promise


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


def never_deleted(prefix: str) -> pgtrigger.Protect:
    """A trigger refusing DELETE: the record stays; its status tells its fate."""
    return pgtrigger.Protect(name=f"{prefix}_never_deleted", operation=pgtrigger.Delete)


def append_only(prefix: str) -> pgtrigger.Protect:
    """A trigger refusing UPDATE and DELETE: a correction is a new record (DC2)."""
    return pgtrigger.Protect(
        name=f"{prefix}_append_only", operation=pgtrigger.Update | pgtrigger.Delete
    )
