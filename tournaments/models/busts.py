"""Busts and the bounties they pay (TO4, TO8)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Payable
from core.records import append_only, staff_fk
from tournaments.models.entries import Entry
from tournaments.models.events import Event


class Bust(models.Model):
    """A player out of the event, with his stack at the start of the hand (TO4).

    Players out in the same hand share a ``hand`` key; the places follow from their
    stacks (``tournaments.domain.places``). ``place_low``..``place_high`` are the
    places he shares (one place unless tied or hand-for-hand).
    """

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="busts", verbose_name=_("event")
    )
    entry = models.OneToOneField(
        Entry, on_delete=models.PROTECT, related_name="bust", verbose_name=_("entry")
    )
    hand = models.CharField(_("hand"), max_length=64)
    stack_at_start = models.PositiveBigIntegerField(_("stack at the start of the hand"))
    hand_for_hand = models.BooleanField(_("hand-for-hand"), default=False)
    busted_by = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="knockouts",
        verbose_name=_("knocked out by"),
    )
    place_high = models.PositiveIntegerField(_("best place shared"))
    place_low = models.PositiveIntegerField(_("worst place shared"))
    recorded_by = staff_fk(_("recorded by"), optional=True)
    source = models.CharField(_("source"), max_length=64, blank=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("bust")
        verbose_name_plural = _("busts")
        ordering = ["event", "-place_low"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(place_high__gte=1)
                & models.Q(place_low__gte=models.F("place_high")),
                name="bust_places_ordered",
            ),
            models.CheckConstraint(
                condition=models.Q(busted_by__isnull=True)
                | ~models.Q(busted_by=models.F("entry")),
                name="bust_not_by_himself",
            ),
        ]
        triggers = [append_only("bust")]

    def __str__(self) -> str:
        return f"{self.entry} out {self.place_high}"


class BountyPayment(models.Model):
    """A bounty paid from the bounty pool to the player who busted it (TO8)."""

    event = models.ForeignKey(
        Event,
        on_delete=models.PROTECT,
        related_name="bounty_payments",
        verbose_name=_("event"),
    )
    bust = models.ForeignKey(
        Bust,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="bounty_payments",
        verbose_name=_("bust"),
    )
    winner = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="bounties_won",
        verbose_name=_("won by"),
    )
    amount_cents = models.BigIntegerField(_("paid"))
    added_to_bounty_cents = models.BigIntegerField(
        _("added to his own bounty"), default=0
    )
    reason = models.CharField(_("why"), max_length=32, default="bust")
    payable = models.OneToOneField(
        Payable,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_bounty",
        verbose_name=_("award payable"),
    )
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("bounty payment")
        verbose_name_plural = _("bounty payments")
        ordering = ["event", "at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gte=0)
                & models.Q(added_to_bounty_cents__gte=0)
                & (
                    models.Q(amount_cents__gt=0) | models.Q(added_to_bounty_cents__gt=0)
                ),
                name="bounty_payment_positive",
            ),
        ]
        triggers = [append_only("bounty_payment")]

    def __str__(self) -> str:
        return f"{self.event.code} bounty → {self.winner}"
