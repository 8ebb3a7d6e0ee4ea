"""Infrastructure records shared by every app."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class IdempotencyRecord(models.Model):
    """The first answer to a money-moving POST, replayed for retries (API.md).

    Stored in the same database transaction as the write it answers, so a retry
    either finds both or neither.
    """

    scope = models.CharField(
        _("caller"), max_length=64, help_text=_("Who sent it: user or terminal key.")
    )
    key = models.CharField(_("idempotency key"), max_length=255)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=512)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    response_body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "key"], name="idempotency_unique_scope_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"
