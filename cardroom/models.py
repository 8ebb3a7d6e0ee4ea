"""The floor: tables and the terminals that post for them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework_api_key.models import AbstractAPIKey, BaseAPIKeyManager

MAX_SEATS = 12  # HS1


class Table(models.Model):
    """A poker table of the room, known to its terminal by ``code`` ("T01")."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=64, blank=True)
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=MAX_SEATS),
                name="table_seats_2_to_12",
                violation_error_message=_("HS1: a table has 2 to 12 seats."),
            ),
        ]

    def __str__(self) -> str:
        return self.code


class TerminalKeyManager(BaseAPIKeyManager):
    def get_usable_keys(self) -> models.QuerySet[TerminalKey]:
        return super().get_usable_keys().select_related("table")


class TerminalKey(AbstractAPIKey):
    """An API key of one table's terminal: stored hashed, shown once, revocable."""

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="terminal_keys"
    )

    objects = TerminalKeyManager()

    class Meta(AbstractAPIKey.Meta):
        verbose_name = _("terminal key")
        verbose_name_plural = _("terminal keys")
