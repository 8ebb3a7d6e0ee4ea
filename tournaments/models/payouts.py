"""Payout sheets, prepared and approved by two people, and their payouts (TO7, TO9)."""

from __future__ import annotations

import pgtrigger
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Payable, Transaction
from core.db import triggers as guards
from core.records import never_deleted, staff_fk
from tournaments.models.deals import Deal
from tournaments.models.entries import Entry
from tournaments.models.events import Event


class PayoutSheet(models.Model):
    """The prizes of an event, prepared by one staff member and approved by another
    (four-eyes, TO9). Approval books the pool into awards payable (or holds)."""

    class Status(models.TextChoices):
        PREPARED = "prepared", _("waiting for approval")
        APPROVED = "approved", _("approved")

    event = models.OneToOneField(
        Event,
        on_delete=models.PROTECT,
        related_name="payout_sheet",
        verbose_name=_("event"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PREPARED
    )
    pool_cents = models.BigIntegerField(_("prize pool"))
    overlay_cents = models.BigIntegerField(_("overlay (the house)"), default=0)
    deal = models.ForeignKey(
        Deal,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deal"),
    )
    prepared_by = staff_fk(_("prepared by"))
    prepared_at = models.DateTimeField(_("prepared"))
    approved_by = staff_fk(_("approved by"), optional=True)
    approved_at = models.DateTimeField(_("approved"), null=True, blank=True)
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payout_sheet",
        verbose_name=_("posting"),
    )

    class Meta:
        verbose_name = _("payout sheet")
        verbose_name_plural = _("payout sheets")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pool_cents__gte=0) & models.Q(overlay_cents__gte=0),
                name="payout_sheet_amounts_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | ~models.Q(approved_by=models.F("prepared_by")),
                name="payout_sheet_four_eyes",
                violation_error_message=_(
                    "TO9: a payout sheet is approved by another person than who "
                    "prepared it."
                ),
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="prepared")
                    & models.Q(approved_by__isnull=True)
                    & models.Q(approved_at__isnull=True)
                    & models.Q(transaction__isnull=True)
                )
                | (
                    models.Q(status="approved")
                    & models.Q(approved_by__isnull=False)
                    & models.Q(approved_at__isnull=False)
                    & models.Q(transaction__isnull=False)
                ),
                name="payout_sheet_approved_completely",
            ),
        ]
        triggers = [
            never_deleted("payout_sheet"),
            guards.FSM(
                name="payout_sheet_approved_once",
                field="status",
                transitions=[("prepared", "approved")],
            ),
            guards.Protect(
                name="payout_sheet_approved_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status="approved"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.code} payout sheet"


class Payout(models.Model):
    """One line of a payout sheet: a place's prize (or a satellite seat) for an entry.

    On approval an open line becomes an award payable at the cage (TO9, CA6); a held
    line (disqualified or absent, TDA RP-23) waits in the event's held account
    until released or forfeited.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        PAYABLE = "payable", _("payable at the cage")
        HELD = "held", _("held")
        PAID = "paid", _("paid")
        FORFEITED = "forfeited", _("forfeited")

    class Destination(models.TextChoices):
        HOUSE = "house", _("house revenue")
        JACKPOT = "jackpot", _("a jackpot pool")

    sheet = models.ForeignKey(
        PayoutSheet,
        on_delete=models.PROTECT,
        related_name="lines",
        verbose_name=_("payout sheet"),
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="payouts", verbose_name=_("entry")
    )
    place_high = models.PositiveIntegerField(_("place"))
    place_low = models.PositiveIntegerField(_("to place"))
    amount_cents = models.BigIntegerField(_("prize"))
    seat_cents = models.BigIntegerField(_("satellite seat"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    hold_reason = models.CharField(_("why held"), max_length=500, blank=True)
    tax_document = models.CharField(
        _("tax document"),
        max_length=120,
        blank=True,
        help_text=_("The number of the tax document given with the prize (TO9)."),
    )
    payable = models.OneToOneField(
        Payable,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_payout",
        verbose_name=_("award payable"),
    )
    seat_entry = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="won_in_satellite",
        verbose_name=_("seat won"),
        help_text=_("The entry in the target event this satellite seat paid (TO7)."),
    )
    # TO9: a held prize forfeited by a second person, saying why and where it went.
    forfeit_reason = models.CharField(_("why forfeited"), max_length=500, blank=True)
    forfeit_destination = models.CharField(
        _("forfeited to"),
        max_length=8,
        choices=Destination.choices,
        blank=True,
    )
    forfeit_pool = models.CharField(
        _("jackpot pool"),
        max_length=32,
        blank=True,
        help_text=_("The code of the room's jackpot pool the prize went to."),
    )
    forfeited_by = staff_fk(_("forfeited by"), optional=True)
    forfeited_at = models.DateTimeField(_("forfeited"), null=True, blank=True)
    forfeit_transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_forfeit",
        verbose_name=_("forfeit posting"),
    )

    class Meta:
        verbose_name = _("payout")
        verbose_name_plural = _("payouts")
        ordering = ["sheet", "place_high", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "entry"], name="payout_one_line_per_entry"
            ),
            models.CheckConstraint(
                condition=models.Q(amount_cents__gte=0)
                & models.Q(seat_cents__gte=0)
                & (models.Q(amount_cents__gt=0) | models.Q(seat_cents__gt=0))
                & models.Q(place_high__gte=1)
                & models.Q(place_low__gte=models.F("place_high")),
                name="payout_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="held") | models.Q(hold_reason__regex=r"\S"),
                name="payout_held_says_why",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="forfeited")
                    & models.Q(forfeit_reason__regex=r"\S")
                    & (
                        (
                            models.Q(forfeit_destination="house")
                            & models.Q(forfeit_pool="")
                        )
                        | (
                            models.Q(forfeit_destination="jackpot")
                            & models.Q(forfeit_pool__regex=r"\S")
                        )
                    )
                    & models.Q(forfeited_by__isnull=False)
                    & models.Q(forfeited_at__isnull=False)
                    & models.Q(forfeit_transaction__isnull=False)
                )
                | (
                    ~models.Q(status="forfeited")
                    & models.Q(forfeit_reason="")
                    & models.Q(forfeit_destination="")
                    & models.Q(forfeit_pool="")
                    & models.Q(forfeited_by__isnull=True)
                    & models.Q(forfeited_at__isnull=True)
                    & models.Q(forfeit_transaction__isnull=True)
                ),
                name="payout_forfeited_completely",
                violation_error_message=_(
                    "TO9: a forfeited prize says why, where it went, who forfeited "
                    "it and its posting."
                ),
            ),
        ]
        triggers = [
            never_deleted("payout"),
            guards.FSM(
                name="payout_status_forward",
                field="status",
                transitions=[
                    ("pending", "payable"),
                    ("pending", "held"),
                    ("held", "payable"),
                    ("held", "forfeited"),
                    ("payable", "paid"),
                ],
            ),
            guards.ReadOnly(
                name="payout_terms_fixed",
                fields=[
                    "sheet",
                    "entry",
                    "place_high",
                    "place_low",
                    "amount_cents",
                    "seat_cents",
                ],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sheet.event.code} {self.place_high} {self.entry.player.code}"
