"""What the cage screens record beside the cage's own records: the counts of a
shift by denomination and the cashier's note on an over/short (CA1)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Shift
from core.records import append_only, staff_fk


class ShiftCount(models.Model):
    """A count of a shift's drawer, by denomination, at its opening or its close.

    ``notes`` and ``chips`` map a denomination in cents (as text) to how many were
    counted; ``coins_cents`` is the loose cash counted as one amount. The totals are
    what the shift was opened or closed with (CA1); ``note`` is the cashier's
    explanation of an over/short, required when it isn't zero. Kept for ever.
    """

    class Moment(models.TextChoices):
        OPEN = "open", _("opening")
        CLOSE = "close", _("close")

    shift = models.ForeignKey(
        Shift, on_delete=models.PROTECT, related_name="+", verbose_name=_("shift")
    )
    moment = models.CharField(_("moment"), max_length=8, choices=Moment.choices)
    notes = models.JSONField(_("notes counted"))
    chips = models.JSONField(_("chips counted"))
    coins_cents = models.BigIntegerField(_("coins"), default=0)
    cash_cents = models.BigIntegerField(_("cash counted"))
    chips_cents = models.BigIntegerField(_("chips counted (total)"))
    over_short_cash_cents = models.BigIntegerField(_("cash over/short"), default=0)
    over_short_chips_cents = models.BigIntegerField(_("chips over/short"), default=0)
    note = models.CharField(_("note"), max_length=500, blank=True)
    counted_by = staff_fk(_("counted by"))
    counted_at = models.DateTimeField(_("counted"))

    class Meta:
        verbose_name = _("shift count")
        verbose_name_plural = _("shift counts")
        constraints = [
            models.UniqueConstraint(
                fields=["shift", "moment"], name="shift_count_once_per_moment"
            ),
            models.CheckConstraint(
                condition=models.Q(cash_cents__gte=0)
                & models.Q(chips_cents__gte=0)
                & models.Q(coins_cents__gte=0),
                name="shift_count_not_negative",
            ),
            # CA1: an over/short at the close is explained.
            models.CheckConstraint(
                condition=(
                    models.Q(over_short_cash_cents=0, over_short_chips_cents=0)
                    | ~models.Q(note="")
                ),
                name="shift_count_over_short_has_note",
            ),
        ]
        triggers = [append_only("shift_count")]

    def __str__(self) -> str:
        return f"{self.shift_id} {self.moment}"
