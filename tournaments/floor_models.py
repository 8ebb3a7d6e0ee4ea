"""The floor's records of an event: the clock's log (TO12) and every seat drawn or
moved (TO11). Both are append-only: the clock's state and the seating history are
replayed from them, and nothing the floor did can be taken back, only followed by
another change.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.records import append_only, staff_fk
from tournaments.domain.clock import Action
from tournaments.domain.tables import Reason


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
