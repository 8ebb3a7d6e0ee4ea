"""Every seat an entry was given, drawn or moved (TO2, TO11): append-only, the
seating history is replayed from it.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.records import append_only, staff_fk
from tournaments.domain.tables import Reason


class SeatMove(models.Model):
    """A seat given to an entry: drawn for a new entrant, or a move when a table
    broke or the tables were balanced (TO2, TO11). The player takes the seat with
    his stack; ``seed`` is the draw's seed, recorded so the draw can be replayed.
    """

    class Why(models.TextChoices):
        DRAW = Reason.DRAW.value, _("seat drawn")
        BREAK = Reason.BREAK.value, _("table broken")
        BALANCE = Reason.BALANCE.value, _("tables balanced")

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.PROTECT,
        related_name="seat_moves",
        verbose_name=_("event"),
    )
    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        related_name="seat_moves",
        verbose_name=_("entry"),
    )
    reason = models.CharField(_("why"), max_length=8, choices=Why.choices)
    from_table = models.CharField(_("from table"), max_length=16, blank=True)
    from_seat = models.PositiveSmallIntegerField(_("from seat"), null=True, blank=True)
    to_table = models.CharField(_("table"), max_length=16)
    to_seat = models.PositiveSmallIntegerField(_("seat"))
    seed = models.CharField(_("draw seed"), max_length=64, blank=True)
    by = staff_fk(_("by"), optional=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("seat move")
        verbose_name_plural = _("seat moves")
        ordering = ["event", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(to_seat__gte=1)
                & (
                    models.Q(reason="draw")
                    & models.Q(from_table="")
                    & models.Q(from_seat__isnull=True)
                    | ~models.Q(reason="draw")
                    & ~models.Q(from_table="")
                    & models.Q(from_seat__isnull=False)
                ),
                name="seat_move_valid",
            ),
        ]
        triggers = [append_only("seat_move")]

    def __str__(self) -> str:
        return f"{self.entry_id} → {self.to_table}/{self.to_seat}"
