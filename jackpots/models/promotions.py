"""Promotions beyond the bad beat: high hands by the period, fixed bonuses, aces
cracked (RULES.md PR1–PR6).

A promotion is configuration, versioned like the bad-beat categories: its rules
are its versions, append-only, the latest in force from the next period. Its
money is its pool (:class:`jackpots.models.Pool`, kind ``other``): the drop's
share (JD4) and the house's part, held in trust (PR1, JD5). What it pays is a
:class:`PromotionPrize` (a closed period, or a bonus found in a hand), pending
until a floor person verifies it and a manager, another person, approves it
(PR5); its recipients' shares are :class:`jackpots.models.Award` rows that the
cage pays (CA6). PostgreSQL keeps them honest as it keeps the hits: a period
decided once, a bonus once per hand, the approver another person than the
verifier, states that only move forward, records never deleted.
"""

from __future__ import annotations

import pgtrigger
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Player, Transaction
from cardroom.models import Hand, Room
from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk
from jackpots.models.pools import Pool

_CODE_REGEX = r"^[a-z0-9][a-z0-9_-]*$"


class Promotion(models.Model):
    """A promotion of a room (PR1): what kind, which pool holds its money."""

    class Kind(models.TextChoices):
        HIGH_HAND = "high_hand", _("high hand")
        FIXED_BONUS = "fixed_bonus", _("fixed bonus")
        ACES_CRACKED = "aces_cracked", _("aces cracked")

    room = models.ForeignKey(
        Room,
        on_delete=models.PROTECT,
        related_name="promotions",
        verbose_name=_("room"),
    )
    code = models.SlugField(_("code"), max_length=32)
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    pool = models.OneToOneField(
        Pool,
        on_delete=models.PROTECT,
        related_name="promotion",
        verbose_name=_("pool"),
        help_text=_("Holds the promotion's money in trust (PR1, JD5)."),
    )
    created_at = models.DateTimeField(_("created"))
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("promotion")
        verbose_name_plural = _("promotions")
        ordering = ["room", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "code"], name="promotion_code_unique_in_room"
            ),
            models.CheckConstraint(
                condition=models.Q(code__regex=_CODE_REGEX),
                name="promotion_code_format",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    kind__in=["high_hand", "fixed_bonus", "aces_cracked"]
                ),
                name="promotion_known_kind",
            ),
        ]
        triggers = [
            never_deleted("promotion"),
            guards.ReadOnly(
                name="promotion_identity_fixed",
                fields=["room", "code", "kind", "pool", "created_at"],
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PromotionVersion(models.Model):
    """One version of a promotion's rules (PR1–PR4), checked by
    :class:`jackpots.domain.promotions.PromotionRules`. Append-only: a change is a
    new version, in force from the next period (a bonus: from the next hand); a
    prize records the version it was decided by. ``active`` false ends the
    promotion: nothing qualifies from then on."""

    promotion = models.ForeignKey(
        Promotion, on_delete=models.PROTECT, related_name="versions"
    )
    version = models.PositiveIntegerField(_("version"))
    active = models.BooleanField(_("active"), default=True)
    rules = models.JSONField(_("rules"))
    note = models.CharField(_("why"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"))
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("promotion version")
        verbose_name_plural = _("promotion versions")
        ordering = ["promotion", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["promotion", "version"], name="promotion_version_unique"
            ),
        ]
        triggers = [append_only("promotion_version")]

    def __str__(self) -> str:
        return f"{self.promotion} v{self.version}"


class PromotionEntry(models.Model):
    """A hand tabled at a showdown that counts for a high-hand period (PR2).

    One row per seat, written when the hand is qualified; the period's leader is
    the best of them whose hand is still booked (PR4), read through the index.
    """

    promotion = models.ForeignKey(
        Promotion, on_delete=models.PROTECT, related_name="entries"
    )
    period_start = models.DateTimeField(_("period"))
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="+")
    ended_at = models.DateTimeField(_("hand tabled"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    key = models.IntegerField(_("rank"), help_text=_("Bigger is better."))
    description = models.CharField(_("hand"), max_length=120)
    cards = models.JSONField(_("best five"))
    hole = models.JSONField(_("hole cards"))

    class Meta:
        verbose_name = _("high-hand entry")
        verbose_name_plural = _("high-hand entries")
        constraints = [
            models.UniqueConstraint(
                fields=["promotion", "hand", "seat"], name="promotion_entry_once"
            ),
        ]
        indexes = [
            models.Index(
                "promotion",
                "period_start",
                models.F("key").desc(),
                "ended_at",
                name="promotion_entry_standings",
            )
        ]
        triggers = [append_only("promotion_entry")]

    def __str__(self) -> str:
        return f"{self.promotion} {self.description}"


class PromotionPrize(models.Model):
    """What a promotion pays: a closed high-hand period, or a bonus found in a hand
    (PR2, PR3). Pending until a floor person verifies it and a manager, another
    person, approves it (PR5); rejected with a reason; cancelled when its hand is
    voided (PR4); a period without a qualifying hand is ``carried_over`` or
    ``lapsed`` as the promotion says.

    ``house_cents`` and ``pool_cents`` are what it pays from the house (an
    expense) and from the pool (PR1); ``carried_in_cents`` (in ``pool_cents``)
    came from the empty periods before it.
    """

    class Kind(models.TextChoices):
        PERIOD = "period", _("high-hand period")
        BONUS = "bonus", _("bonus")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for verification")
        VERIFIED = "verified", _("verified, waiting for approval")
        APPROVED = "approved", _("approved and booked")
        REJECTED = "rejected", _("rejected")
        CANCELLED = "cancelled", _("cancelled: the hand was voided")
        CARRIED_OVER = "carried_over", _("no hand, carried over")
        LAPSED = "lapsed", _("no hand, not carried over")

    promotion = models.ForeignKey(
        Promotion, on_delete=models.PROTECT, related_name="prizes"
    )
    version = models.ForeignKey(
        PromotionVersion, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    period_start = models.DateTimeField(_("period from"), null=True, blank=True)
    period_end = models.DateTimeField(_("period until"), null=True, blank=True)
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="promotion_prizes",
        help_text=_("The hand a bonus was found in."),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    details = models.JSONField(_("hands"), help_text=_("The winning hands, as cards."))
    house_cents = models.BigIntegerField(_("from the house"))
    pool_cents = models.BigIntegerField(_("from the pool"))
    carried_in_cents = models.BigIntegerField(_("carried in"), default=0)
    found_at = models.DateTimeField(_("found"))
    closed_by = staff_fk(_("closed by"), optional=True)
    closed_source = models.CharField(_("closed by process"), max_length=32, blank=True)
    verified_by = staff_fk(_("verified by"), optional=True)
    verified_at = models.DateTimeField(_("verified"), null=True, blank=True)
    verification_note = models.CharField(_("verification"), max_length=500, blank=True)
    approved_by = staff_fk(_("approved by"), optional=True)
    approved_at = models.DateTimeField(_("approved"), null=True, blank=True)
    rejected_by = staff_fk(_("rejected by"), optional=True)
    rejected_at = models.DateTimeField(_("rejected"), null=True, blank=True)
    rejection_reason = models.CharField(_("why"), max_length=500, blank=True)
    booking = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("booked by posting"),
    )
    carry_booking = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("carry-over booked by posting"),
        help_text=_("The house's part of a carried-over prize, into the pool (PR1)."),
    )

    class Meta:
        verbose_name = _("promotion prize")
        verbose_name_plural = _("promotion prizes")
        ordering = ["-found_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["promotion", "period_start"],
                condition=models.Q(kind="period") & ~models.Q(status="cancelled"),
                name="promotion_period_decided_once",
                violation_error_message=_("PR2: this period is closed already."),
            ),
            models.UniqueConstraint(
                fields=["promotion", "hand"],
                condition=models.Q(kind="bonus") & ~models.Q(status="cancelled"),
                name="promotion_bonus_once_per_hand",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="period")
                    & models.Q(period_start__isnull=False)
                    & models.Q(period_end__gt=models.F("period_start"))
                )
                | (models.Q(kind="bonus") & models.Q(hand__isnull=False)),
                name="promotion_prize_shape",
            ),
            models.CheckConstraint(
                condition=models.Q(house_cents__gte=0)
                & models.Q(pool_cents__gte=models.F("carried_in_cents"))
                & models.Q(carried_in_cents__gte=0),
                name="promotion_prize_amounts",
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | ~models.Q(approved_by=models.F("verified_by")),
                name="promotion_prize_four_eyes",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status__in=["pending", "verified"])
                    & models.Q(approved_by__isnull=True)
                    & models.Q(booking__isnull=True)
                )
                | (
                    models.Q(status="approved")
                    & models.Q(verified_by__isnull=False)
                    & models.Q(approved_by__isnull=False)
                    & models.Q(booking__isnull=False)
                )
                | (
                    models.Q(status__in=["rejected", "cancelled"])
                    & ~models.Q(rejection_reason="")
                    & models.Q(booking__isnull=True)
                )
                | (
                    models.Q(status__in=["carried_over", "lapsed"])
                    & models.Q(kind="period")
                    & models.Q(booking__isnull=True)
                ),
                name="promotion_prize_status_consistent",
            ),
        ]
        triggers = [
            never_deleted("promotion_prize"),
            guards.FSM(
                name="promotion_prize_status_forward",
                field="status",
                transitions=[
                    ("pending", "verified"),
                    ("pending", "rejected"),
                    ("pending", "cancelled"),
                    ("verified", "approved"),
                    ("verified", "rejected"),
                    ("verified", "cancelled"),
                ],
            ),
            guards.Protect(
                name="promotion_prize_decided_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(
                    old__status__in=[
                        "approved",
                        "rejected",
                        "cancelled",
                        "carried_over",
                        "lapsed",
                    ]
                ),
            ),
            guards.ReadOnly(
                name="promotion_prize_facts_fixed",
                fields=[
                    "promotion",
                    "version",
                    "kind",
                    "period_start",
                    "period_end",
                    "hand",
                    "details",
                    "house_cents",
                    "pool_cents",
                    "carried_in_cents",
                    "found_at",
                    "carry_booking",
                ],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.promotion} #{self.pk}"
