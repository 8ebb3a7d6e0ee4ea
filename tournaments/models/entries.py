"""Entries: one life of a player in an event, with its seat (TO1, TO2)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Player
from core.db import triggers as guards
from core.records import never_deleted
from tournaments.models.events import Event


class Entry(models.Model):
    """One life of a player in an event: his entry or a re-entry (TO1, TO2).

    Its seat comes from a random draw (TO2, TO11); the floor moves it when tables are
    balanced or broken. ``place`` is set when it busts (TO4) or wins.
    """

    class Kind(models.TextChoices):
        ENTRY = "entry", _("entry")
        REENTRY = "reentry", _("re-entry")

    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        BUSTED = "busted", _("busted")
        DISQUALIFIED = "disqualified", _("disqualified")
        REFUNDED = "refunded", _("refunded")
        WON = "won", _("won")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="entries", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    number = models.PositiveIntegerField(_("entry number"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE
    )
    table = models.CharField(_("table"), max_length=16, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    place = models.PositiveIntegerField(_("finished"), null=True, blank=True)
    entered_at = models.DateTimeField(_("entered"))
    entered_level = models.PositiveSmallIntegerField(_("entered at level"), default=1)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="entry_number_unique"
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(status="active"),
                name="entry_one_life_at_a_time",
                violation_error_message=_(
                    "TO1: a player has one live entry in an event at a time."
                ),
            ),
            models.UniqueConstraint(
                fields=["event", "table", "seat"],
                condition=models.Q(status="active") & models.Q(seat__isnull=False),
                name="entry_one_player_per_seat",
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1)
                & models.Q(kind__in=["entry", "reentry"]),
                name="entry_valid",
            ),
        ]
        triggers = [
            never_deleted("entry"),
            guards.ReadOnly(
                name="entry_identity_fixed",
                fields=["event", "player", "number", "kind", "entered_at"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.code} #{self.number} {self.player.code}"
