"""Deals among the players left and each player's signature (TO5)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk
from tournaments.models.entries import Entry
from tournaments.models.events import Event


class Deal(models.Model):
    """A deal among every remaining player (TO5), with the figures they chose.

    ``offers`` keeps the chip-chop and ICM figures the product computed; ``amounts``
    what the players agreed, ``bounties`` how the bounties still on their heads are
    shared (TO8: a deal is not a chopped pot). Every player in it signs, then a
    second staff member (not who recorded it) approves it (four-eyes); only then
    does it bind, end the event and let the payout sheet follow.
    """

    class Method(models.TextChoices):
        CHIP_CHOP = "chip_chop", _("chip chop")
        ICM = "icm", _("ICM")
        CUSTOM = "custom", _("agreed figures")

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("waiting for signatures")
        SIGNED = "signed", _("signed by every player")
        APPROVED = "approved", _("approved")
        CANCELLED = "cancelled", _("cancelled")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="deals", verbose_name=_("event")
    )
    method = models.CharField(_("method"), max_length=12, choices=Method.choices)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PROPOSED
    )
    pool_cents = models.BigIntegerField(_("prize money dealt"))
    offers = models.JSONField(_("figures computed"))
    amounts = models.JSONField(_("amounts agreed, by entry"))
    left_in_play_cents = models.BigIntegerField(
        _("left to play for"),
        default=0,
        help_text=_("Prize money the players kept to play for, with the title."),
    )
    bounties = models.JSONField(
        _("bounties agreed, by entry"),
        default=dict,
        blank=True,
        help_text=_(
            "How the bounties still on the players' heads are shared, in cents "
            "(TO8); empty when the event has none or play goes on."
        ),
    )
    recorded_by = staff_fk(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded"))
    signed_at = models.DateTimeField(_("signed"), null=True, blank=True)
    approved_by = staff_fk(_("approved by"), optional=True)
    approved_at = models.DateTimeField(_("approved"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["event", "-recorded_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"],
                condition=models.Q(status__in=["signed", "approved"]),
                name="deal_one_binding_per_event",
            ),
            models.CheckConstraint(
                condition=models.Q(pool_cents__gt=0)
                & models.Q(left_in_play_cents__gte=0),
                name="deal_amounts_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | ~models.Q(approved_by=models.F("recorded_by")),
                name="deal_four_eyes",
                violation_error_message=_(
                    "TO5: a deal is approved by another person than who recorded it."
                ),
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="approved")
                    & models.Q(approved_by__isnull=False)
                    & models.Q(approved_at__isnull=False)
                    & models.Q(signed_at__isnull=False)
                )
                | (
                    ~models.Q(status="approved")
                    & models.Q(approved_by__isnull=True)
                    & models.Q(approved_at__isnull=True)
                ),
                name="deal_approved_completely",
            ),
        ]
        triggers = [
            never_deleted("deal"),
            guards.FSM(
                name="deal_status_forward",
                field="status",
                transitions=[
                    ("proposed", "signed"),
                    ("proposed", "cancelled"),
                    ("signed", "approved"),
                    ("signed", "cancelled"),
                ],
            ),
            guards.ReadOnly(
                name="deal_terms_fixed",
                exclude=["status", "signed_at", "approved_by", "approved_at"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.code} deal {self.method}"


class DealSignature(models.Model):
    """One player's signature of a deal, witnessed by a floor person (TO5)."""

    deal = models.ForeignKey(
        Deal,
        on_delete=models.PROTECT,
        related_name="signatures",
        verbose_name=_("deal"),
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="+", verbose_name=_("entry")
    )
    witnessed_by = staff_fk(_("witnessed by"))
    at = models.DateTimeField(_("signed"))

    class Meta:
        verbose_name = _("deal signature")
        verbose_name_plural = _("deal signatures")
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "entry"], name="deal_signed_once_per_player"
            ),
        ]
        triggers = [append_only("deal_signature")]

    def __str__(self) -> str:
        return f"{self.deal} signed by {self.entry}"
