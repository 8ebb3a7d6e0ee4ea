"""Tournaments: structures, events, entries, chips, busts, deals and payouts (TO1–TO12).

Money lives in the ledger only (``tournaments.chart``): an event's prize pool and its
bounty pool are liabilities held in trust like the jackpot pools (TO1, TO8), which
the database keeps from going below zero; fees are house revenue; a guarantee's
overlay is the house's expense (TO7). Tournament chips are not money: they are
counted here, in :class:`ChipMovement` rows that say why chips came into or left
play (TO3), so the reconciliation is a sum of records.

The rows say who did what and when and point at the postings. PostgreSQL keeps them
honest: amounts that can't be negative and add up (CHECK), the approver of a payout
sheet another person than who prepared it (four-eyes, TO9), a deal signed by every
player in it (TO5), states that only move forward and records never deleted or
edited (django-pgtrigger).
"""

from __future__ import annotations

import pghistory
import pgtrigger
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.models import Payable, Player, Receipt, Transaction
from cardroom.models import Room
from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk

_CODE_REGEX = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


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


@pghistory.track(guards.InsertEvent(), guards.UpdateEvent())
class Event(models.Model):
    """A tournament: its money (TO1, TO7, TO8), its rebuy and re-entry settings and
    its state. Changes are kept by django-pghistory (who changed what, when)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    class Bounty(models.TextChoices):
        NONE = "none", _("no bounties")
        STANDARD = "standard", _("bounties")
        PROGRESSIVE = "progressive", _("progressive knockouts")

    class Remainder(models.TextChoices):
        TOP = "top", _("to the highest places")
        FIRST = "first", _("to first place")

    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, related_name="events", verbose_name=_("room")
    )
    code = models.SlugField(_("code"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=200)
    currency = models.CharField(_("currency"), max_length=3)
    structure = models.ForeignKey(
        Structure,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("structure"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED
    )
    starts_at = models.DateTimeField(_("starts"))
    # TO1: an entry is buy-in + fee (+ staff fee) (+ bounty, TO8), separate amounts.
    buy_in_cents = models.BigIntegerField(_("buy-in (to the prize pool)"))
    fee_cents = models.BigIntegerField(_("fee (house)"), default=0)
    staff_fee_cents = models.BigIntegerField(_("staff fee"), default=0)
    bounty_kind = models.CharField(
        _("bounties"), max_length=12, choices=Bounty.choices, default=Bounty.NONE
    )
    bounty_cents = models.BigIntegerField(_("bounty"), default=0)
    starting_stack = models.PositiveBigIntegerField(_("starting stack (chips)"))
    # Late registration and re-entry (TO1, TDA "MLR").
    late_registration_level = models.PositiveSmallIntegerField(
        _("late registration closes after level"), default=0
    )
    reentry_max = models.PositiveSmallIntegerField(
        _("re-entries allowed per player"), default=0
    )
    # Rebuys (TO1): during the period, with the stack at or below the limit.
    rebuy_max = models.PositiveSmallIntegerField(
        _("rebuys allowed per entry"), default=0
    )
    rebuy_until_level = models.PositiveSmallIntegerField(
        _("rebuys until the end of level"), default=0
    )
    rebuy_stack_limit = models.PositiveBigIntegerField(
        _("rebuy when the stack is at most"), default=0
    )
    rebuy_cents = models.BigIntegerField(_("rebuy (to the prize pool)"), default=0)
    rebuy_fee_cents = models.BigIntegerField(_("rebuy fee"), default=0)
    rebuy_chips = models.PositiveBigIntegerField(_("rebuy chips"), default=0)
    # The add-on (TO1): once, at its level (usually the break ending the rebuys).
    addon_level = models.PositiveSmallIntegerField(
        _("add-on at level"), null=True, blank=True
    )
    addon_cents = models.BigIntegerField(_("add-on (to the prize pool)"), default=0)
    addon_fee_cents = models.BigIntegerField(_("add-on fee"), default=0)
    addon_chips = models.PositiveBigIntegerField(_("add-on chips"), default=0)
    # The prize pool (TO7).
    guarantee_cents = models.BigIntegerField(_("guarantee"), default=0)
    payout_unit_cents = models.PositiveIntegerField(
        _("prizes rounded to"),
        default=100,
        help_text=_("The smallest note or chip the prizes are paid in, in cents."),
    )
    payout_remainder = models.CharField(
        _("rounding remainder goes"),
        max_length=8,
        choices=Remainder.choices,
        default=Remainder.TOP,
    )
    payout_table = models.JSONField(
        _("payout table"),
        default=list,
        blank=True,
        help_text=_(
            "Rows of {min_entries, shares}: shares per place in basis points; "
            "empty for the default table."
        ),
    )
    satellite_target = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="satellites",
        verbose_name=_("satellite to"),
        help_text=_(
            "A satellite pays seats in this event (its entry's full price each), "
            "and cash for the rest (TO7)."
        ),
    )
    satellite_seat_cents = models.BigIntegerField(
        _("satellite seat value"),
        default=0,
        help_text=_("A satellite pays seats of this value, and cash for the rest."),
    )
    tax_document_threshold_cents = models.BigIntegerField(
        _("tax document from"),
        default=200_000,
        help_text=_("A prize of at least this needs a tax document (TO9)."),
    )
    # TO10: the house's reading of a refund after a bust, refused unless set.
    refund_after_bust = models.BooleanField(
        _("refund a busted entry while the event runs"),
        default=False,
        help_text=_(
            "Whether a purchase of an entry that busted or finished may be refunded "
            "while the event runs (TO10). Off: its money stays in the pools its "
            "chips still play for."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(buy_in_cents__gte=0)
                & models.Q(fee_cents__gte=0)
                & models.Q(staff_fee_cents__gte=0)
                & models.Q(bounty_cents__gte=0)
                & models.Q(rebuy_cents__gte=0)
                & models.Q(rebuy_fee_cents__gte=0)
                & models.Q(addon_cents__gte=0)
                & models.Q(addon_fee_cents__gte=0)
                & models.Q(guarantee_cents__gte=0)
                & models.Q(satellite_seat_cents__gte=0)
                & models.Q(tax_document_threshold_cents__gt=0)
                & models.Q(payout_unit_cents__gte=1)
                & models.Q(starting_stack__gt=0),
                name="event_amounts_valid",
            ),
            models.CheckConstraint(
                condition=(models.Q(bounty_kind="none") & models.Q(bounty_cents=0))
                | (~models.Q(bounty_kind="none") & models.Q(bounty_cents__gt=0)),
                name="event_bounty_consistent",
            ),
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"),
                name="event_currency_code",
            ),
            models.CheckConstraint(
                condition=~models.Q(satellite_target=models.F("id")),
                name="event_not_its_own_satellite",
            ),
        ]
        triggers = [
            never_deleted("event"),
            guards.FSM(
                name="event_status_forward",
                field="status",
                transitions=[
                    ("scheduled", "running"),
                    ("scheduled", "cancelled"),
                    ("running", "finished"),
                    ("running", "cancelled"),
                ],
            ),
            guards.ReadOnly(name="event_identity_fixed", fields=["code", "currency"]),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    @property
    def entry_total_cents(self) -> int:
        """What a player pays for one entry (TO1, TO8)."""
        return (
            self.buy_in_cents
            + self.fee_cents
            + self.staff_fee_cents
            + self.bounty_cents
        )


class EventTable(models.Model):
    """A table the event plays at, in the order the event breaks them (TO11)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        BROKEN = "broken", _("broken")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="tables", verbose_name=_("event")
    )
    table = models.CharField(_("table"), max_length=16)
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    break_order = models.PositiveSmallIntegerField(
        _("broken in this order"),
        help_text=_("Tables are broken from the lowest number up (TO11)."),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    broken_at = models.DateTimeField(_("broken"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["event", "break_order"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "table"], name="event_table_unique"
            ),
            models.UniqueConstraint(
                fields=["event", "break_order"], name="event_table_break_order_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2)
                & models.Q(seats__lte=11)
                & models.Q(table__regex=_CODE_REGEX),
                name="event_table_valid",
            ),
        ]
        triggers = [
            never_deleted("event_table"),
            guards.FSM(
                name="event_table_broken_once",
                field="status",
                transitions=[("open", "broken")],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.code} {self.table}"


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


class Purchase(models.Model):
    """What was paid at the cage for an entry: its buy-in, a rebuy or the add-on (TO1).

    One balanced ledger transaction and one cage receipt each; the chips it gave are
    a :class:`ChipMovement`. A refund (TO10) is a reversing transaction.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("buy-in")
        REBUY = "rebuy", _("rebuy")
        ADDON = "addon", _("add-on")

    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="purchases",
        verbose_name=_("entry"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    prize_pool_cents = models.BigIntegerField(_("to the prize pool"))
    fee_cents = models.BigIntegerField(_("fee"))
    staff_fee_cents = models.BigIntegerField(_("staff fee"))
    bounty_cents = models.BigIntegerField(_("bounty"))
    chips = models.PositiveBigIntegerField(_("chips"))
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="tournament_purchase",
        verbose_name=_("posting"),
    )
    receipt = models.OneToOneField(
        Receipt,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_purchase",
        verbose_name=_("receipt"),
    )
    sold_by = staff_fk(_("cashier"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("tournament purchase")
        verbose_name_plural = _("tournament purchases")
        ordering = ["entry", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(prize_pool_cents__gte=0)
                & models.Q(fee_cents__gte=0)
                & models.Q(staff_fee_cents__gte=0)
                & models.Q(bounty_cents__gte=0)
                & models.Q(chips__gt=0)
                & models.Q(kind__in=["buy_in", "rebuy", "addon"]),
                name="purchase_valid",
            ),
            models.UniqueConstraint(
                fields=["entry"],
                condition=models.Q(kind="buy_in"),
                name="purchase_one_buy_in_per_entry",
            ),
            models.UniqueConstraint(
                fields=["entry"],
                condition=models.Q(kind="addon"),
                name="purchase_one_addon_per_entry",
            ),
        ]
        triggers = [append_only("purchase")]

    def __str__(self) -> str:
        return f"{self.entry} {self.kind}"

    @property
    def total_cents(self) -> int:
        """What the player paid for it (TO1)."""
        return (
            self.prize_pool_cents
            + self.fee_cents
            + self.staff_fee_cents
            + self.bounty_cents
        )

    @property
    def refund_approval(self) -> RefundApproval | None:
        """The approved refund the cage hasn't paid yet, if any (TO10)."""
        return self.refund_approvals.filter(refund__isnull=True).first()


class Refund(models.Model):
    """A purchase given back, whole or in part, when the event is cancelled or
    altered (TO10).

    Its posting reverses the purchase's parts: all of them for a whole refund (the
    transaction then ``reverses`` the purchase's), or ``amount_cents`` split pro rata
    across what is left of each part (``tournaments.domain.postings.refund_parts``).
    Several partial refunds of one purchase add up to at most what it cost. Asked by
    one staff member and approved by another (DC2).
    """

    purchase = models.ForeignKey(
        Purchase,
        on_delete=models.PROTECT,
        related_name="refunds",
        related_query_name="refund",
        verbose_name=_("purchase"),
    )
    approval = models.OneToOneField(
        "RefundApproval",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="refund",
        verbose_name=_("approval"),
    )
    amount_cents = models.BigIntegerField(_("amount"))
    prize_pool_cents = models.BigIntegerField(_("from the prize pool"), default=0)
    fee_cents = models.BigIntegerField(_("fee"), default=0)
    staff_fee_cents = models.BigIntegerField(_("staff fee"), default=0)
    bounty_cents = models.BigIntegerField(_("bounty"), default=0)
    reason = models.CharField(_("why"), max_length=500)
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="tournament_refund",
        verbose_name=_("posting"),
    )
    receipt = models.OneToOneField(
        Receipt,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_refund",
        verbose_name=_("receipt"),
    )
    requested_by = staff_fk(_("asked by"))
    approved_by = staff_fk(_("approved by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("tournament refund")
        verbose_name_plural = _("tournament refunds")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0) & models.Q(reason__regex=r"\S"),
                name="refund_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(prize_pool_cents__gte=0)
                & models.Q(fee_cents__gte=0)
                & models.Q(staff_fee_cents__gte=0)
                & models.Q(bounty_cents__gte=0)
                & models.Q(
                    amount_cents=models.F("prize_pool_cents")
                    + models.F("fee_cents")
                    + models.F("staff_fee_cents")
                    + models.F("bounty_cents")
                ),
                name="refund_parts_add_up",
                violation_error_message=_(
                    "TO10: a refund's parts add up to its amount."
                ),
            ),
            models.CheckConstraint(
                condition=~models.Q(approved_by=models.F("requested_by")),
                name="refund_four_eyes",
                violation_error_message=_(
                    "TO10: a refund is approved by another person than who asked."
                ),
            ),
        ]
        triggers = [append_only("refund")]

    def __str__(self) -> str:
        return f"refund {self.purchase}"


class RefundApproval(models.Model):
    """A manager's approval of a purchase's refund, whole or in part, before the
    cage pays it (TO10).

    The cashier who pays the refund is another person than who approved it
    (four-eyes, DC2): the refund names both, and points at its approval. A purchase
    has at most one approval the cage hasn't paid.
    """

    purchase = models.ForeignKey(
        Purchase,
        on_delete=models.PROTECT,
        related_name="refund_approvals",
        related_query_name="refund_approval",
        verbose_name=_("purchase"),
    )
    amount_cents = models.BigIntegerField(_("amount"), default=0)
    reason = models.CharField(_("why"), max_length=500)
    approved_by = staff_fk(_("approved by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("tournament refund approval")
        verbose_name_plural = _("tournament refund approvals")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(reason__regex=r"\S"),
                name="refund_approval_says_why",
            ),
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0),
                name="refund_approval_amount_positive",
            ),
        ]
        triggers = [append_only("refund_approval")]

    def __str__(self) -> str:
        return f"refund approved {self.purchase}"


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


__all__ = [
    "BountyPayment",
    "Bust",
    "ChipCount",
    "ChipMovement",
    "ChipRace",
    "Deal",
    "DealSignature",
    "Entry",
    "Event",
    "EventTable",
    "Level",
    "Payout",
    "PayoutSheet",
    "Purchase",
    "Refund",
    "RefundApproval",
    "Structure",
]

# The floor's records (the clock's log, the seats drawn and moved) are models of
# this app kept in a module of their own.
from tournaments.floor_models import ClockChange, SeatMove  # noqa: E402, F401
