"""Jackpots: pools held in trust, bad-beat categories, hits, the hand of the month.

Money lives in the ledger only. A pool is two ledger accounts, its amount and its
reserve (liabilities that can't go below zero, JD5); what a screen shows is their
balance (JD6). The rows here say what the money is for and who decided: hits and
months wait for people (BB5, HM3), awards point at the cage's payables (CA6).
PostgreSQL keeps them honest too: a hit once per hand and category, a month closed
once, the approver another person than the verifier (CHECK), states that only move
forward and records never deleted (django-pgtrigger).
"""

from __future__ import annotations

import pghistory
import pgtrigger
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Account, Payable, Player, Transaction
from cardroom.models import Hand, Room
from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk

_CODE_REGEX = r"^[a-z0-9][a-z0-9_-]*$"


@pghistory.track(guards.InsertEvent(), guards.UpdateEvent())
class Pool(models.Model):
    """A jackpot pool of a room: bad beat, hand of the month, or another promotion.

    Each hand's drop is shared between the room's active pools by ``drop_ratio``
    (JD4); ``reserve_percent`` of a pool's part goes to its reserve, the next
    jackpot's seed, which rolls into the pool when a jackpot is paid from it. The
    hand-of-the-month settings (``games``, ``payout_percent``, the closing day and
    hour, ``starts_on``) apply to pools of that kind. Changes are kept by
    django-pghistory (who changed what, when).
    """

    class Kind(models.TextChoices):
        BAD_BEAT = "bad_beat", _("bad beat")
        HAND_OF_THE_MONTH = "hand_of_the_month", _("hand of the month")
        OTHER = "other", _("other promotion")

    room = models.ForeignKey(
        Room,
        on_delete=models.PROTECT,
        related_name="jackpot_pools",
        verbose_name=_("room"),
    )
    code = models.SlugField(
        _("code"),
        max_length=32,
        help_text=_("What categories name to pay from, e.g. bad-beat."),
    )
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    drop_ratio = models.PositiveIntegerField(
        _("part of each drop"),
        default=1,
        help_text=_("The pools of a room share each drop by these ratios (JD4)."),
    )
    reserve_percent = models.PositiveSmallIntegerField(
        _("to the reserve (%)"),
        default=0,
        help_text=_("Of this pool's part of each drop, set aside as the next seed."),
    )
    seed_cents = models.BigIntegerField(
        _("seed from the house"),
        default=0,
        editable=False,
        help_text=_("What the house put in when the pool started."),
    )
    games = models.JSONField(
        _("games covered"),
        default=list,
        blank=True,
        help_text=_("Hand of the month: the games whose showdowns count (HM1)."),
    )
    payout_percent = models.PositiveSmallIntegerField(
        _("paid to the month's winners (%)"),
        default=100,
        help_text=_("Hand of the month: the part of the pool the month pays."),
    )
    month_close_day = models.PositiveSmallIntegerField(
        _("month closes on day"), default=1
    )
    month_close_hour = models.PositiveSmallIntegerField(
        _("month closes at (hour)"), default=12
    )
    starts_on = models.DateField(
        _("first month"),
        help_text=_("Hand of the month: the first month that counts."),
    )
    active = models.BooleanField(_("active"), default=True)
    account = models.OneToOneField(
        Account,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("pool account"),
    )
    reserve_account = models.OneToOneField(
        Account,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        verbose_name=_("reserve account"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("jackpot pool")
        verbose_name_plural = _("jackpot pools")
        ordering = ["room", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "code"], name="pool_code_unique_in_room"
            ),
            models.CheckConstraint(
                condition=models.Q(code__regex=_CODE_REGEX),
                name="pool_code_format",
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=["bad_beat", "hand_of_the_month", "other"]),
                name="pool_known_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(reserve_percent__lte=100)
                & models.Q(payout_percent__lte=100)
                & models.Q(seed_cents__gte=0),
                name="pool_percents",
            ),
            models.CheckConstraint(
                condition=models.Q(month_close_day__gte=1, month_close_day__lte=28)
                & models.Q(month_close_hour__lte=23),
                name="pool_month_close_moment",
            ),
        ]
        triggers = [
            never_deleted("pool"),
            guards.ReadOnly(
                name="pool_identity_fixed",
                fields=["room", "code", "kind", "account", "reserve_account"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.room.code})"


class Category(models.Model):
    """A bad-beat category (BB2); its rules are its versions, the latest in force."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=100)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("bad-beat category")
        verbose_name_plural = _("bad-beat categories")
        ordering = ["code"]
        triggers = [
            never_deleted("category"),
            guards.ReadOnly(name="category_code_fixed", fields=["code"]),
        ]

    def __str__(self) -> str:
        return self.name


class CategoryVersion(models.Model):
    """One version of a category's rules (BB2). Append-only: a change is a new
    version, applying to hands qualified from then on; a hit records its version."""

    category = models.ForeignKey(
        Category, on_delete=models.PROTECT, related_name="versions"
    )
    version = models.PositiveIntegerField(_("version"))
    active = models.BooleanField(
        _("active"), default=True, help_text=_("A retired category pays nothing.")
    )
    pool_code = models.SlugField(
        _("pays from pool"),
        max_length=32,
        help_text=_("The code of the pool, in the hand's room, that pays a hit."),
    )
    games = models.JSONField(_("games covered"))
    min_losing_hand = models.JSONField(
        _("minimum losing hand"), help_text=_("Five cards, e.g. As Ah Ad Ts Th.")
    )
    card_use = models.JSONField(
        _("card-use rules"),
        help_text=_(
            'For "loser" and "winner": hole_cards (how many must play) and '
            "quads_pocket_pair."
        ),
    )
    min_participants = models.PositiveSmallIntegerField(_("minimum participants"))
    min_pot_cents = models.BigIntegerField(_("minimum pot"), default=0)
    payout_percent = models.PositiveSmallIntegerField(
        # xgettext:no-python-format
        _("pays (% of the pool)")
    )
    loser_part = models.PositiveSmallIntegerField(_("loser's part"))
    winner_part = models.PositiveSmallIntegerField(_("winner's part"))
    table_part = models.PositiveSmallIntegerField(_("table's part"))
    note = models.CharField(_("why"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("category version")
        verbose_name_plural = _("category versions")
        ordering = ["category", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["category", "version"], name="category_version_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(payout_percent__lte=100)
                & models.Q(min_participants__gte=2, min_participants__lte=12)
                & models.Q(min_pot_cents__gte=0),
                name="category_version_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(loser_part__gt=0)
                | models.Q(winner_part__gt=0)
                | models.Q(table_part__gt=0),
                name="category_version_pays_someone",
            ),
        ]
        triggers = [
            guards.Protect(
                name="category_version_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
            )
        ]

    def __str__(self) -> str:
        return f"{self.category} v{self.version}"

    def config(self) -> dict[str, object]:
        """Return the rules in the shape of ``jackpots.domain.rules``."""
        return {
            "games": self.games,
            "min_losing_hand": self.min_losing_hand,
            "card_use": self.card_use,
            "min_participants": self.min_participants,
            "min_pot": self.min_pot_cents,
            "payout": {
                "percent": self.payout_percent,
                "loser": self.loser_part,
                "winner": self.winner_part,
                "table": self.table_part,
            },
        }


class QualifiedHand(models.Model):
    """A booked hand the jackpots have looked at: qualification runs once a hand.

    Lets a sweep find hands whose task was lost, and a month close check that every
    hand of the month counted (HM3).
    """

    hand = models.OneToOneField(
        Hand, on_delete=models.PROTECT, primary_key=True, related_name="+"
    )
    qualified_at = models.DateTimeField(_("qualified"))

    class Meta:
        verbose_name = _("qualified hand")
        verbose_name_plural = _("qualified hands")

    def __str__(self) -> str:
        return str(self.hand_id)


class SweepCursor(models.Model):
    """Where the qualification sweep got to: the highest hand id it has qualified
    (BB1, HM1). Moved in the same transaction as the qualification it records, so
    a sweep that dies leaves it where the last committed one put it."""

    name = models.CharField(primary_key=True, max_length=40)
    last_hand_id = models.BigIntegerField(default=0)
    swept_at = models.DateTimeField(_("swept"), null=True)

    class Meta:
        verbose_name = _("qualification sweep cursor")
        verbose_name_plural = _("qualification sweep cursors")

    def __str__(self) -> str:
        return f"{self.name} @ {self.last_hand_id}"


class Hit(models.Model):
    """A bad beat found in a hand (BB1): pending until a floor person verifies it and
    a manager, another person, approves it (BB5); or rejected with a reason.

    ``pool_cents`` is the pool's amount after the hand's drop, less what earlier
    hits took (BB4): shown while pending, fixed when approved.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for verification")
        VERIFIED = "verified", _("verified, waiting for approval")
        APPROVED = "approved", _("approved and booked")
        REJECTED = "rejected", _("rejected")

    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="jackpot_hits"
    )
    hand_ended_at = models.DateTimeField(_("hand ended"), db_index=True)
    category = models.ForeignKey(
        Category, on_delete=models.PROTECT, related_name="hits"
    )
    category_version = models.ForeignKey(
        CategoryVersion, on_delete=models.PROTECT, related_name="+"
    )
    pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="hits")
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    details = models.JSONField(
        _("hands"), help_text=_("The losing and winning hands and the table.")
    )
    pool_cents = models.BigIntegerField(_("pool at the hand"))
    payout_cents = models.BigIntegerField(_("pays"))
    found_at = models.DateTimeField(_("found"))
    verified_by = staff_fk(_("verified by"), optional=True)
    verified_at = models.DateTimeField(_("verified"), null=True, blank=True)
    verification_note = models.CharField(_("verification"), max_length=500, blank=True)
    approved_by = staff_fk(_("approved by"), optional=True)
    approved_at = models.DateTimeField(_("approved"), null=True, blank=True)
    rejected_by = staff_fk(_("rejected by"), optional=True)
    rejected_at = models.DateTimeField(_("rejected"), null=True, blank=True)
    rejection_reason = models.CharField(_("why rejected"), max_length=500, blank=True)
    booking = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("booked by posting"),
    )

    class Meta:
        verbose_name = _("bad-beat hit")
        verbose_name_plural = _("bad-beat hits")
        ordering = ["-hand_ended_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "category"],
                name="hit_once_per_hand_and_category",
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | ~models.Q(approved_by=models.F("verified_by")),
                name="hit_four_eyes",
                violation_error_message=_(
                    "BB5: the manager approving a hit is not the one who verified it."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(pool_cents__gte=0)
                & models.Q(payout_cents__gte=0)
                & models.Q(payout_cents__lte=models.F("pool_cents")),
                name="hit_pays_from_the_pool",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="pending")
                    & models.Q(verified_by__isnull=True)
                    & models.Q(approved_by__isnull=True)
                    & models.Q(rejected_by__isnull=True)
                    & models.Q(booking__isnull=True)
                )
                | (
                    models.Q(status="verified")
                    & models.Q(verified_by__isnull=False)
                    & models.Q(verified_at__isnull=False)
                    & models.Q(approved_by__isnull=True)
                    & models.Q(rejected_by__isnull=True)
                    & models.Q(booking__isnull=True)
                )
                | (
                    models.Q(status="approved")
                    & models.Q(verified_by__isnull=False)
                    & models.Q(approved_by__isnull=False)
                    & models.Q(approved_at__isnull=False)
                    & models.Q(rejected_by__isnull=True)
                    & models.Q(booking__isnull=False)
                )
                | (
                    models.Q(status="rejected")
                    & models.Q(rejected_by__isnull=False)
                    & models.Q(rejected_at__isnull=False)
                    & ~models.Q(rejection_reason="")
                    & models.Q(approved_by__isnull=True)
                    & models.Q(booking__isnull=True)
                ),
                name="hit_status_consistent",
            ),
        ]
        triggers = [
            never_deleted("hit"),
            guards.FSM(
                name="hit_status_forward",
                field="status",
                transitions=[
                    ("pending", "verified"),
                    ("pending", "rejected"),
                    ("verified", "approved"),
                    ("verified", "rejected"),
                ],
            ),
            guards.Protect(
                name="hit_decided_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status__in=["approved", "rejected"]),
            ),
            guards.ReadOnly(
                name="hit_facts_fixed",
                fields=[
                    "hand",
                    "hand_ended_at",
                    "category",
                    "category_version",
                    "pool",
                    "details",
                    "found_at",
                ],
            ),
        ]

    def __str__(self) -> str:
        label = _("Bad beat")
        return f"{label} #{self.pk} {self.hand}"


class Month(models.Model):
    """A closed month of a hand-of-the-month pool (HM3): its winners' awards wait
    for a manager's approval, or the pool carried forward (no qualifying hand, or
    the awards were rejected with a reason)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved and booked")
        REJECTED = "rejected", _("rejected, carried forward")
        CARRIED_FORWARD = "carried_forward", _("no hand, carried forward")

    pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="months")
    month = models.DateField(_("month"), help_text=_("Its first day."))
    ends_at = models.DateTimeField(_("ended"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    pool_cents = models.BigIntegerField(_("pool at the month's end"))
    payout_cents = models.BigIntegerField(_("pays"))
    best_hand = models.CharField(_("best hand"), max_length=120, blank=True)
    closed_at = models.DateTimeField(_("closed"))
    closed_by = staff_fk(_("closed by"), optional=True)
    closed_source = models.CharField(
        _("closed by process"),
        max_length=32,
        blank=True,
        help_text=_("The scheduled task or the command, when no person closed it."),
    )
    approved_by = staff_fk(_("approved by"), optional=True)
    approved_at = models.DateTimeField(_("approved"), null=True, blank=True)
    rejected_by = staff_fk(_("rejected by"), optional=True)
    rejected_at = models.DateTimeField(_("rejected"), null=True, blank=True)
    rejection_reason = models.CharField(_("why rejected"), max_length=500, blank=True)
    booking = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("booked by posting"),
    )

    class Meta:
        verbose_name = _("hand of the month")
        verbose_name_plural = _("hands of the month")
        ordering = ["pool", "-month"]
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "month"],
                name="month_closed_once",
                violation_error_message=_("HM3: this month is closed already."),
            ),
            models.CheckConstraint(
                condition=models.Q(closed_by__isnull=False)
                | ~models.Q(closed_source=""),
                name="month_closed_by_someone",
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | models.Q(closed_by__isnull=True)
                | ~models.Q(approved_by=models.F("closed_by")),
                name="month_four_eyes",
            ),
            models.CheckConstraint(
                condition=models.Q(pool_cents__gte=0)
                & models.Q(payout_cents__gte=0)
                & models.Q(payout_cents__lte=models.F("pool_cents")),
                name="month_pays_from_the_pool",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="pending")
                    & models.Q(approved_by__isnull=True)
                    & models.Q(rejected_by__isnull=True)
                    & models.Q(booking__isnull=True)
                )
                | (
                    models.Q(status="carried_forward")
                    & models.Q(payout_cents=0)
                    & models.Q(approved_by__isnull=True)
                    & models.Q(booking__isnull=True)
                )
                | (
                    models.Q(status="approved")
                    & models.Q(approved_by__isnull=False)
                    & models.Q(approved_at__isnull=False)
                    & models.Q(booking__isnull=False)
                )
                | (
                    models.Q(status="rejected")
                    & models.Q(rejected_by__isnull=False)
                    & ~models.Q(rejection_reason="")
                    & models.Q(booking__isnull=True)
                ),
                name="month_status_consistent",
            ),
        ]
        triggers = [
            never_deleted("month"),
            guards.FSM(
                name="month_status_forward",
                field="status",
                transitions=[("pending", "approved"), ("pending", "rejected")],
            ),
            guards.Protect(
                name="month_decided_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(
                    old__status__in=["approved", "rejected", "carried_forward"]
                ),
            ),
            guards.ReadOnly(
                name="month_facts_fixed", fields=["pool", "month", "ends_at"]
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pool.name} {self.month:%Y-%m}"


class MonthHand(models.Model):
    """A hand tabled at a showdown that counts for a pool's month (HM1, HM4).

    One row per seat, written when the hand is qualified; the standings read them
    best first through the index.
    """

    pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(_("month"))
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="+")
    ended_at = models.DateTimeField(_("hand ended"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    key = models.IntegerField(_("rank"), help_text=_("Bigger is better."))
    description = models.CharField(_("hand"), max_length=120)
    cards = models.JSONField(_("best five"))

    class Meta:
        verbose_name = _("hand of the month entry")
        verbose_name_plural = _("hand of the month entries")
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "hand", "seat"], name="month_hand_once"
            ),
        ]
        indexes = [
            models.Index(
                "pool",
                "month",
                models.F("key").desc(),
                "ended_at",
                name="month_hand_standings",
            )
        ]
        triggers = [
            guards.Protect(
                name="month_hand_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
            )
        ]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m} {self.description}"


class Award(models.Model):
    """One recipient's share of a hit (BB3, BB6), of a month (HM2), or of a
    promotion's prize (PR2, PR3).

    Pending with the share computed from the pool as it stands; on approval the
    amount is fixed, booked from the pool to awards payable, and a cage payable is
    made for the cashier to pay against the player's identity (CA6).
    """

    class Role(models.TextChoices):
        LOSER = "loser", _("losing hand")
        WINNER = "winner", _("winning hand")
        TABLE = "table", _("table share")
        MONTH = "month", _("hand of the month")
        HIGH_HAND = "high_hand", _("high hand")
        BONUS = "bonus", _("bonus hand")
        ACES_CRACKED = "aces_cracked", _("aces cracked")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="awards")
    hit = models.ForeignKey(
        Hit, on_delete=models.PROTECT, null=True, blank=True, related_name="awards"
    )
    month = models.ForeignKey(
        Month, on_delete=models.PROTECT, null=True, blank=True, related_name="awards"
    )
    prize = models.ForeignKey(
        "jackpots.PromotionPrize",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="awards",
    )
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="jackpot_awards"
    )
    role = models.CharField(_("for"), max_length=16, choices=Role.choices)
    part = models.PositiveSmallIntegerField(
        _("role's part"), help_text=_("The role's part of the payout (BB2).")
    )
    sharing = models.PositiveSmallIntegerField(
        _("shared by"), help_text=_("How many share the role's part equally.")
    )
    position = models.PositiveSmallIntegerField(
        _("order"), help_text=_("Priority of the largest-remainder split (BB6, HM2).")
    )
    amount_cents = models.BigIntegerField(_("amount"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    payable = models.OneToOneField(
        Payable,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="jackpot_award",
        verbose_name=_("cage payable"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("jackpot award")
        verbose_name_plural = _("jackpot awards")
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(hit__isnull=False)
                    & models.Q(month__isnull=True)
                    & models.Q(prize__isnull=True)
                )
                | (
                    models.Q(hit__isnull=True)
                    & models.Q(month__isnull=False)
                    & models.Q(prize__isnull=True)
                )
                | (
                    models.Q(hit__isnull=True)
                    & models.Q(month__isnull=True)
                    & models.Q(prize__isnull=False)
                ),
                name="award_for_a_hit_a_month_or_a_prize",
            ),
            models.CheckConstraint(
                condition=models.Q(amount_cents__gte=0) & models.Q(sharing__gte=1),
                name="award_amount_not_negative",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="approved")
                | models.Q(payable__isnull=False)
                | models.Q(amount_cents=0),
                name="award_approved_is_payable",
            ),
            models.UniqueConstraint(
                fields=["hit", "seat"],
                condition=models.Q(hit__isnull=False),
                name="award_once_per_hit_seat",
            ),
            models.UniqueConstraint(
                fields=["month", "hand", "seat"],
                condition=models.Q(month__isnull=False),
                name="award_once_per_month_hand_seat",
            ),
            models.UniqueConstraint(
                fields=["prize", "hand", "seat"],
                condition=models.Q(prize__isnull=False),
                name="award_once_per_prize_hand_seat",
            ),
        ]
        triggers = [
            never_deleted("award"),
            guards.FSM(
                name="award_status_forward",
                field="status",
                transitions=[("pending", "approved"), ("pending", "rejected")],
            ),
            guards.Protect(
                name="award_decided_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status__in=["approved", "rejected"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} {self.player.code} {self.amount_cents}"


class Transfer(models.Model):
    """Money held in trust moved to another pool, with a manager's record of why
    (JD5): a promotion ended and its pool, amount and reserve, went to its
    successor; or hands' drops that reached no pool (``jackpot:drops``) given to
    one. ``source`` is None for the latter. Append-only: a transfer made in error
    is answered by another transfer.
    """

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="+", verbose_name=_("room")
    )
    source = models.ForeignKey(
        Pool,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transfers_out",
        verbose_name=_("from pool"),
        help_text=_("Empty: the drops no pool received."),
    )
    target = models.ForeignKey(
        Pool,
        on_delete=models.PROTECT,
        related_name="transfers_in",
        verbose_name=_("to pool"),
    )
    amount_cents = models.BigIntegerField(_("to the pool"))
    reserve_cents = models.BigIntegerField(_("to the reserve"))
    reason = models.TextField(_("why"))
    retired = models.BooleanField(
        _("source retired"),
        default=False,
        help_text=_("The promotion ended: the source takes no more drops."),
    )
    decided_by = staff_fk(_("decided by"))
    decided_at = models.DateTimeField(_("decided"))
    ledger_transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("ledger transaction"),
    )

    class Meta:
        verbose_name = _("jackpot transfer")
        verbose_name_plural = _("jackpot transfers")
        ordering = ["-decided_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gte=0, reserve_cents__gte=0)
                & (models.Q(amount_cents__gt=0) | models.Q(reserve_cents__gt=0)),
                name="transfer_moves_money",
            ),
            models.CheckConstraint(
                condition=~models.Q(source=models.F("target")),
                name="transfer_to_another_pool",
            ),
            models.CheckConstraint(
                condition=models.Q(reason__regex=r"\S"),
                name="transfer_has_a_reason",
            ),
        ]
        triggers = [append_only("jackpot_transfer")]

    def __str__(self) -> str:
        return f"{self.source or 'drops'} → {self.target}: {self.amount_cents}"
