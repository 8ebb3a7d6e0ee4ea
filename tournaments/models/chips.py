"""Chips counted, not booked: each issue and removal with its cause, the chip
races and the tables' counts (TO3, TO6)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.records import append_only, staff_fk
from tournaments.models.entries import Entry
from tournaments.models.events import Event


class ChipMovement(models.Model):
    """Chips coming into play or leaving it, with the recorded cause (TO3, TO6).

    ``chips`` is positive for chips issued (entries, rebuys, add-ons) and negative
    for chips removed. The reconciliation sums these by cause against the count.
    """

    class Cause(models.TextChoices):
        ENTRY = "entry", _("starting stack")
        REBUY = "rebuy", _("rebuy")
        ADDON = "addon", _("add-on")
        REENTRY_SURRENDER = "reentry_surrender", _("surrendered on re-entry")
        DISQUALIFICATION = "disqualification", _("disqualification")
        ABSENT = "absent", _("removed for absence")
        UNSOLD_SEAT = "unsold_seat", _("unsold seat's stack")
        COLOUR_UP = "colour_up", _("colour-up remainder")
        RACE = "race", _("chip race remainder")
        RACE_MINIMUM = "race_minimum", _("chip given so no one is raced out")
        HIDDEN = "hidden", _("hidden chips after an all-in")
        PENALTY = "penalty", _("chip penalty")
        REFUND = "refund", _("refunded entry")

    ISSUED = ("entry", "rebuy", "addon", "race_minimum")

    event = models.ForeignKey(
        Event,
        on_delete=models.PROTECT,
        related_name="chip_movements",
        verbose_name=_("event"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="chip_movements",
        verbose_name=_("entry"),
    )
    cause = models.CharField(_("cause"), max_length=20, choices=Cause.choices)
    chips = models.BigIntegerField(_("chips"))
    note = models.CharField(_("note"), max_length=500, blank=True)
    recorded_by = staff_fk(_("recorded by"), optional=True)
    source = models.CharField(_("source"), max_length=64, blank=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("chip movement")
        verbose_name_plural = _("chip movements")
        ordering = ["event", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(cause__in=["entry", "rebuy", "addon", "race_minimum"])
                    & models.Q(chips__gt=0)
                )
                | (
                    ~models.Q(cause__in=["entry", "rebuy", "addon", "race_minimum"])
                    & models.Q(chips__lt=0)
                ),
                name="chip_movement_sign_by_cause",
                violation_error_message=_(
                    "TO3: chips are issued by entries, rebuys and add-ons and leave "
                    "play only for a recorded cause."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(recorded_by__isnull=False) | ~models.Q(source=""),
                name="chip_movement_has_a_recorder",
            ),
        ]
        triggers = [append_only("chip_movement")]

    def __str__(self) -> str:
        return f"{self.event.code} {self.cause} {self.chips:+d}"


class ChipRace(models.Model):
    """A colour-up with its chip race, as recorded at the break (TO6, RR §15 #11).

    ``result`` keeps each seat's odd chips, cards drawn and the chip won.
    """

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="races", verbose_name=_("event")
    )
    table = models.CharField(_("table"), max_length=16)
    denomination = models.PositiveBigIntegerField(_("denomination retired"))
    new_denomination = models.PositiveBigIntegerField(_("raced for"))
    result = models.JSONField(_("result"))
    removed_chips = models.PositiveBigIntegerField(_("chips removed"))
    added_chips = models.PositiveBigIntegerField(
        _("chips given"),
        default=0,
        help_text=_("Given to players the race left with nothing (TDA R26-A)."),
    )
    recorded_by = staff_fk(_("recorded by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("chip race")
        verbose_name_plural = _("chip races")
        ordering = ["event", "at"]
        triggers = [append_only("chip_race")]

    def __str__(self) -> str:
        return f"{self.event.code} {self.table} race {self.denomination}"


class ChipCount(models.Model):
    """Chips counted in play at a moment: per table, or the whole field (TO3)."""

    event = models.ForeignKey(
        Event,
        on_delete=models.PROTECT,
        related_name="chip_counts",
        verbose_name=_("event"),
    )
    table = models.CharField(_("table"), max_length=16, blank=True)
    chips = models.PositiveBigIntegerField(_("chips counted"))
    counted_by = staff_fk(_("counted by"), optional=True)
    source = models.CharField(_("source"), max_length=64, blank=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        ordering = ["event", "-at"]
        triggers = [append_only("chip_count")]

    def __str__(self) -> str:
        return f"{self.event.code} {self.table or '*'} {self.chips}"
