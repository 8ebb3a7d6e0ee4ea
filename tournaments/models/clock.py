"""An event's clock log (TO12): append-only, the clock's state is replayed from it,
and nothing done to the clock can be taken back, only followed by another change.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.records import append_only, staff_fk
from tournaments.domain.clock import Action


class ClockChange(models.Model):
    """One entry of an event's clock log: what the floor did, when, who (TO12).

    ``level`` is the structure's level number (breaks are numbered too) for START
    and MOVE; ``seconds`` the time left there (null: the whole period), or for
    ADD_TIME the seconds added (negative: taken away).
    """

    class Kind(models.TextChoices):
        START = Action.START.value, _("started")
        PAUSE = Action.PAUSE.value, _("paused")
        RESUME = Action.RESUME.value, _("resumed")
        MOVE = Action.MOVE.value, _("moved")
        ADD_TIME = Action.ADD_TIME.value, _("time added")
        STOP = Action.STOP.value, _("stopped")

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.PROTECT,
        related_name="clock_changes",
        verbose_name=_("event"),
    )
    action = models.CharField(_("action"), max_length=8, choices=Kind.choices)
    level = models.PositiveSmallIntegerField(_("level"), null=True, blank=True)
    seconds = models.IntegerField(_("seconds"), null=True, blank=True)
    reason = models.CharField(_("why"), max_length=200, blank=True)
    by = staff_fk(_("by"), optional=True)
    source = models.CharField(_("source"), max_length=64, blank=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("clock change")
        verbose_name_plural = _("clock changes")
        ordering = ["event", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(action__in=["start", "move"])
                    & (models.Q(seconds__isnull=True) | models.Q(seconds__gt=0))
                )
                | (
                    models.Q(action="add_time")
                    & models.Q(level__isnull=True)
                    & models.Q(seconds__isnull=False)
                    & ~models.Q(seconds=0)
                )
                | (
                    models.Q(action__in=["pause", "resume", "stop"])
                    & models.Q(level__isnull=True)
                    & models.Q(seconds__isnull=True)
                ),
                name="clock_change_fits_its_action",
            ),
        ]
        triggers = [append_only("clock_change")]

    def __str__(self) -> str:
        return f"{self.event_id} {self.action} {self.at:%H:%M:%S}"
