"""Blind structures and their levels, reused by events (TO12)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.records import never_deleted


class Structure(models.Model):
    """A blind structure: its levels and breaks, reused by events (TO12)."""

    code = models.SlugField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=100)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")
        ordering = ["code"]
        triggers = [never_deleted("structure")]

    def __str__(self) -> str:
        return self.name


class Level(models.Model):
    """One level of a structure: blinds and ante for ``minutes``, or a break."""

    structure = models.ForeignKey(
        Structure,
        on_delete=models.PROTECT,
        related_name="levels",
        verbose_name=_("structure"),
    )
    number = models.PositiveSmallIntegerField(_("level"))
    small_blind = models.PositiveBigIntegerField(_("small blind"), default=0)
    big_blind = models.PositiveBigIntegerField(_("big blind"), default=0)
    ante = models.PositiveBigIntegerField(_("ante"), default=0)
    big_blind_ante = models.BooleanField(
        _("big blind ante"),
        default=False,
        help_text=_("The big blind posts the ante for the table (TO4)."),
    )
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    is_break = models.BooleanField(_("break"), default=False)
    retire_denomination = models.PositiveBigIntegerField(
        _("chips coloured up at this break"),
        null=True,
        blank=True,
        help_text=_("The denomination raced off at this break (TO6)."),
    )

    class Meta:
        verbose_name = _("level")
        verbose_name_plural = _("levels")
        ordering = ["structure", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["structure", "number"], name="level_number_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(minutes__gt=0) & models.Q(number__gte=1),
                name="level_has_a_duration",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(is_break=True)
                    & models.Q(small_blind=0)
                    & models.Q(big_blind=0)
                    & models.Q(ante=0)
                )
                | (
                    models.Q(is_break=False)
                    & models.Q(big_blind__gt=0)
                    & models.Q(small_blind__lte=models.F("big_blind"))
                    & models.Q(retire_denomination__isnull=True)
                ),
                name="level_blinds_or_break",
            ),
        ]

    def __str__(self) -> str:
        if self.is_break:
            return f"{self.structure.code} #{self.number} break"
        return (
            f"{self.structure.code} #{self.number} {self.small_blind}/{self.big_blind}"
        )
