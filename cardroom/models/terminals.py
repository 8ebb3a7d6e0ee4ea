"""The reference terminal's records (issue 37): the one-time codes that pair a
tablet with its table, and the hands a table's terminal posted that the server
refused, kept for the floor."""

from __future__ import annotations

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.db import triggers as guards
from core.records import never_deleted


class TerminalPairing(models.Model):
    """A one-time code a manager shows on the floor screen to pair a tablet with a
    table (API.md "Pairing a terminal"): valid ten minutes, redeemed once for a
    new terminal key of that table. Only the code's keyed hash is stored."""

    table = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="pairings",
        verbose_name=_("table"),
    )
    code_hash = models.CharField(_("code (hashed)"), max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("made"))
    expires_at = models.DateTimeField(_("valid until"))
    redeemed_at = models.DateTimeField(_("redeemed"), null=True, blank=True)
    key = models.OneToOneField(
        "cardroom.TerminalKey",
        on_delete=models.PROTECT,
        related_name="pairing",
        null=True,
        blank=True,
        verbose_name=_("terminal key"),
    )

    class Meta:
        verbose_name = _("terminal pairing")
        verbose_name_plural = _("terminal pairings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(redeemed_at__isnull=True, key__isnull=True)
                | models.Q(redeemed_at__isnull=False, key__isnull=False),
                name="pairing_redeemed_with_a_key",
            ),
            models.CheckConstraint(
                condition=models.Q(expires_at__gt=models.F("created_at")),
                name="pairing_expires_after_made",
            ),
            # A code pairs a tablet only before it expires.
            models.CheckConstraint(
                condition=models.Q(redeemed_at__isnull=True)
                | models.Q(redeemed_at__lt=models.F("expires_at")),
                name="pairing_redeemed_before_expiry",
            ),
        ]
        triggers = [
            never_deleted("pairing"),
            # Redeemed once: a redeemed pairing is never changed again.
            guards.Protect(
                name="pairing_redeemed_once",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__redeemed_at__isnull=False),
            ),
            guards.ReadOnly(
                name="pairing_code_fixed",
                fields=["table", "code_hash", "created_by", "created_at", "expires_at"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} pairing {self.pk}"


class HandRefusal(models.Model):
    """A hand a table's terminal posted and the server refused (4xx), kept for the
    floor after the refused transaction rolled back, until a floor person marks it
    handled. The same body refused again counts on the open record."""

    table = models.ForeignKey(
        "cardroom.Table",
        on_delete=models.PROTECT,
        related_name="hand_refusals",
        verbose_name=_("table"),
    )
    key = models.ForeignKey(
        "cardroom.TerminalKey",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("terminal key"),
    )
    hand_no = models.BigIntegerField(_("hand number"), null=True, blank=True)
    body = models.JSONField(_("hand record as posted"))
    body_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(_("answered with"))
    code = models.CharField(_("error"), max_length=64)
    rule = models.CharField(_("rule"), max_length=16, blank=True)
    error = models.JSONField(_("error as answered"))
    said = models.JSONField(
        _("reason, to translate"),
        null=True,
        blank=True,
        help_text=_(
            "The refusal's message template and parameters, so that the floor reads"
            " it in its own language."
        ),
    )
    count = models.PositiveIntegerField(_("times refused"), default=1)
    at = models.DateTimeField(_("first refused"))
    last_at = models.DateTimeField(_("last refused"))
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("handled by"),
    )
    note = models.CharField(_("note"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("refused hand")
        verbose_name_plural = _("refused hands")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "body_hash"],
                condition=models.Q(handled_at__isnull=True),
                name="hand_refusal_one_open_per_body",
            ),
            models.CheckConstraint(
                condition=models.Q(handled_at__isnull=True, handled_by__isnull=True)
                | models.Q(handled_at__isnull=False, handled_by__isnull=False),
                name="hand_refusal_handled_by_someone",
            ),
            models.CheckConstraint(
                condition=models.Q(count__gte=1, status__gte=400, status__lte=499),
                name="hand_refusal_counted_4xx",
            ),
        ]
        indexes = [models.Index(fields=["handled_at", "last_at"])]
        triggers = [
            never_deleted("hand_refusal"),
            guards.Protect(
                name="hand_refusal_handled_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__handled_at__isnull=False),
            ),
            guards.ReadOnly(
                name="hand_refusal_body_fixed",
                fields=["table", "body", "body_hash", "hand_no", "at"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} hand {self.hand_no} refused ({self.code})"

    def reason(self) -> str:
        """Why the hand was refused, in the active language: the refusal's
        template and parameters translated now (as ``core.errors`` says a
        detail), else the detail the terminal was answered."""
        said = self.said if isinstance(self.said, dict) else {}
        template = said.get("template")
        if isinstance(template, str) and template:
            params = said.get("params")
            text = gettext(template)
            if not isinstance(params, dict) or not params:
                return text
            try:
                return text % {"rule": self.rule or None, **params}
            except (KeyError, TypeError, ValueError):
                pass
        inner = self.error.get("error") if isinstance(self.error, dict) else None
        return str(inner.get("detail") or self.code) if isinstance(inner, dict) else ""
