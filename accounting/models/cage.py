"""The cage (CA1-CA6): cages, shifts, payables, receipts, cash transactions, table
slips and box counts.

Records of the cashier's day. Money moves only in the ledger above; these rows say
who moved it, for whom and under which receipt or slip, and point at the posting.
PostgreSQL keeps them honest too: CHECK constraints for the four-eyes rules, unique
keys for "one open shift" and "paid once", and triggers (django-pgtrigger) that
freeze a record once it is final and refuse every DELETE (DC2).
"""

from __future__ import annotations

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounting.domain.cage import receipt_no
from accounting.models.common import CODE_REGEX, room_currency
from accounting.models.ledger import Transaction
from accounting.models.players import Player
from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk

CA5_DEFAULT_THRESHOLD_CENTS = 200_000  # €2,000, the EU casino threshold (CA5)
CA1_DEFAULT_SIGN_OFF_CENTS = 2_000  # €20 over or short needs a supervisor (CA1)


class Cage(models.Model):
    """A cashier cage: its vault, its receipt counter and its thresholds."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=100)
    currency = models.CharField(_("currency"), max_length=3, default=room_currency)
    next_receipt_no = models.PositiveBigIntegerField(
        _("next receipt number"),
        default=1,
        editable=False,
        help_text=_("Moved under a row lock with each receipt: no gaps (CA2)."),
    )
    over_short_signoff_cents = models.BigIntegerField(
        _("over/short needing sign-off"),
        default=CA1_DEFAULT_SIGN_OFF_CENTS,
        help_text=_(
            "A shift closing with more than this over or short (in cents) waits for "
            "a supervisor's sign-off (CA1)."
        ),
    )
    identity_threshold_cents = models.BigIntegerField(
        _("identity threshold"),
        default=CA5_DEFAULT_THRESHOLD_CENTS,
        help_text=_(
            "A player's cash transactions of a gaming day reaching this amount (in "
            "cents) need a verified identity document (CA5)."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("cage")
        verbose_name_plural = _("cages")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(over_short_signoff_cents__gte=0)
                & models.Q(identity_threshold_cents__gt=0)
                & models.Q(next_receipt_no__gte=1),
                name="cage_thresholds_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"),
                name="cage_currency_code",
            ),
        ]
        triggers = [
            never_deleted("cage"),
            guards.ReadOnly(name="cage_identity_fixed", fields=["code", "currency"]),
        ]

    def __str__(self) -> str:
        return self.code


class Shift(models.Model):
    """A cashier's shift at a cage, from the counted float to the closing count (CA1).

    Its drawer is two ledger accounts (``chart.drawer_cash`` and
    ``chart.drawer_chips``); the expected balance at close is theirs.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PENDING_SIGN_OFF = "pending_sign_off", _("waiting for sign-off")
        CLOSED = "closed", _("closed")

    cage = models.ForeignKey(
        Cage, on_delete=models.PROTECT, related_name="shifts", verbose_name=_("cage")
    )
    cashier = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="cage_shifts",
        verbose_name=_("cashier"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    gaming_day = models.DateField(_("gaming day"))
    opened_at = models.DateTimeField(_("opened"))
    opening_cash_cents = models.BigIntegerField(_("opening cash"))
    opening_chips_cents = models.BigIntegerField(_("opening chips"))
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    expected_cash_cents = models.BigIntegerField(_("expected cash"), null=True)
    expected_chips_cents = models.BigIntegerField(_("expected chips"), null=True)
    counted_cash_cents = models.BigIntegerField(_("counted cash"), null=True)
    counted_chips_cents = models.BigIntegerField(_("counted chips"), null=True)
    needs_sign_off = models.BooleanField(_("needs sign-off"), default=False)
    signed_off_by = staff_fk(_("signed off by"), optional=True)
    signed_off_at = models.DateTimeField(_("signed off"), null=True, blank=True)
    sign_off_note = models.CharField(_("sign-off note"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("cashier shift")
        verbose_name_plural = _("cashier shifts")
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["cage", "cashier"],
                condition=models.Q(status="open"),
                name="shift_one_open_per_cashier",
                violation_error_message=_(
                    "CA1: a cashier has one open shift per cage."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["open", "pending_sign_off", "closed"]),
                name="shift_known_status",
            ),
            models.CheckConstraint(
                condition=models.Q(opening_cash_cents__gte=0)
                & models.Q(opening_chips_cents__gte=0),
                name="shift_float_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(status="open")
                | (
                    models.Q(closed_at__isnull=False)
                    & models.Q(expected_cash_cents__isnull=False)
                    & models.Q(expected_chips_cents__isnull=False)
                    & models.Q(counted_cash_cents__gte=0)
                    & models.Q(counted_chips_cents__gte=0)
                ),
                name="shift_closed_with_a_count",
                violation_error_message=_("CA1: closing needs a count."),
            ),
            models.CheckConstraint(
                condition=~models.Q(status="closed")
                | models.Q(needs_sign_off=False)
                | models.Q(signed_off_by__isnull=False),
                name="shift_signed_off_when_needed",
                violation_error_message=_(
                    "CA1: this over/short needs a supervisor's sign-off."
                ),
            ),
            models.CheckConstraint(
                condition=models.Q(signed_off_by__isnull=True)
                | ~models.Q(signed_off_by=models.F("cashier")),
                name="shift_sign_off_by_another",
                violation_error_message=_(
                    "CA1: a cashier can't sign off his own shift."
                ),
            ),
        ]
        triggers = [
            never_deleted("shift"),
            guards.FSM(
                name="shift_status_moves_forward",
                field="status",
                transitions=[
                    ("open", "pending_sign_off"),
                    ("open", "closed"),
                    ("pending_sign_off", "closed"),
                ],
            ),
            guards.Protect(
                name="shift_closed_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status="closed"),
            ),
            guards.ReadOnly(
                name="shift_opening_fixed",
                fields=[
                    "cage",
                    "cashier",
                    "gaming_day",
                    "opened_at",
                    "opening_cash_cents",
                    "opening_chips_cents",
                ],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.cage.code} #{self.pk}"

    @property
    def over_short_cash_cents(self) -> int | None:
        if self.counted_cash_cents is None or self.expected_cash_cents is None:
            return None
        return self.counted_cash_cents - self.expected_cash_cents

    @property
    def over_short_chips_cents(self) -> int | None:
        if self.counted_chips_cents is None or self.expected_chips_cents is None:
            return None
        return self.counted_chips_cents - self.expected_chips_cents


class Payable(models.Model):
    """An approved award owed to a player, paid once at the cage (CA6, BB5).

    The jackpots app books the award from its pool to ``awards_payable`` and creates
    this; a cashier pays it against the player's identity and signature.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PAID = "paid", _("paid")
        FORFEITED = "forfeited", _("forfeited (PP6)")

    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="payables",
        verbose_name=_("player"),
    )
    amount_cents = models.BigIntegerField(_("amount"))
    currency = models.CharField(_("currency"), max_length=3, default=room_currency)
    reference = models.CharField(
        _("reference"),
        max_length=120,
        help_text=_("What it is for: bad beat hit 12, hand of the month 2026-11…"),
    )
    memo = models.CharField(_("memo"), max_length=500, blank=True)
    approved_by = staff_fk(_("approved by"))
    created_by = staff_fk(_("created by"), optional=True)
    booking = models.ForeignKey(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("booked by posting"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)

    class Meta:
        verbose_name = _("award payable")
        verbose_name_plural = _("award payables")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="payable_amount_positive"
            ),
            models.CheckConstraint(
                condition=(models.Q(status="open") & models.Q(paid_at__isnull=True))
                | (
                    models.Q(status__in=["paid", "forfeited"])
                    & models.Q(paid_at__isnull=False)
                ),
                name="payable_paid_has_a_date",
            ),
            models.CheckConstraint(
                condition=models.Q(created_by__isnull=True)
                | ~models.Q(created_by=models.F("approved_by")),
                name="payable_four_eyes",
                violation_error_message=_(
                    "CA6: an award is approved by another person than who made it."
                ),
            ),
        ]
        triggers = [
            never_deleted("payable"),
            guards.FSM(
                name="payable_paid_once",
                field="status",
                transitions=[("open", "paid"), ("open", "forfeited")],
            ),
            guards.ReadOnly(name="payable_terms_fixed", exclude=["status", "paid_at"]),
            guards.Protect(
                name="payable_paid_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status__in=["paid", "forfeited"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reference} → {self.player.code}"


class Receipt(models.Model):
    """A numbered cage receipt: a chip purchase, a redemption, an award payout, or a
    tournament entry and its refund (the tournaments app's, TO1 and TO10).

    Numbers run 1, 2, 3… per cage without gaps (CA2): taken from ``Cage`` under a
    row lock in the same database transaction as the posting, so a rollback gives
    the number back.
    """

    class Kind(models.TextChoices):
        PURCHASE = "chip_purchase", _("chip purchase")
        REDEMPTION = "chip_redemption", _("chip redemption")
        AWARD_PAYOUT = "award_payout", _("award payout")
        COLLECTION = "collection", _("receivable paid back")
        TOURNAMENT_ENTRY = "tournament_entry", _("tournament entry")
        ENTRY_REFUND = "entry_refund", _("tournament refund")

    cage = models.ForeignKey(
        Cage, on_delete=models.PROTECT, related_name="receipts", verbose_name=_("cage")
    )
    number = models.PositiveBigIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    shift = models.ForeignKey(
        Shift,
        on_delete=models.PROTECT,
        related_name="receipts",
        verbose_name=_("shift"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="receipts",
        verbose_name=_("player"),
    )
    amount_cents = models.BigIntegerField(_("amount"))
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        related_name="receipt",
        verbose_name=_("posting"),
    )
    payable = models.OneToOneField(
        Payable,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="receipt",
        verbose_name=_("award paid"),
    )
    player_signed = models.BooleanField(_("signed by the player"), default=False)
    issued_by = staff_fk(_("cashier"))
    issued_at = models.DateTimeField(_("issued"))

    class Meta:
        verbose_name = _("receipt")
        verbose_name_plural = _("receipts")
        ordering = ["cage", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["cage", "number"], name="receipt_number_unique_per_cage"
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1) & models.Q(amount_cents__gt=0),
                name="receipt_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    kind__in=[
                        "chip_purchase",
                        "chip_redemption",
                        "award_payout",
                        "collection",
                        "tournament_entry",
                        "entry_refund",
                    ]
                ),
                name="receipt_known_kind",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="award_payout")
                    & models.Q(payable__isnull=False)
                    & models.Q(player_signed=True)
                )
                | (~models.Q(kind="award_payout") & models.Q(payable__isnull=True)),
                name="receipt_award_paid_against_signature",
                violation_error_message=_(
                    "CA6: an award is paid against an approved award and the "
                    "player's signature."
                ),
            ),
        ]
        triggers = [append_only("receipt")]

    def __str__(self) -> str:
        return self.no

    @property
    def no(self) -> str:
        """The printed receipt number, ``MAIN-000123``."""
        return receipt_no(self.cage.code, self.number)


class CashTransaction(models.Model):
    """A player's cash movement, for the identity threshold (CA5).

    Written by every cash purchase, redemption and award payout at the cage, and by
    the floor for cash buy-ins at the tables.
    """

    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="cash_transactions",
        verbose_name=_("player"),
    )
    gaming_day = models.DateField(_("gaming day"))
    kind = models.CharField(_("kind"), max_length=32)
    amount_cents = models.BigIntegerField(_("amount"))
    reference = models.CharField(_("reference"), max_length=120, blank=True)
    cage = models.ForeignKey(
        Cage,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("cage"),
    )
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("cash transaction")
        verbose_name_plural = _("cash transactions")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0),
                name="cash_transaction_positive",
            ),
        ]
        indexes = [models.Index(fields=["player", "gaming_day"])]
        triggers = [append_only("cash_transaction")]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.kind} {self.amount_cents}"


class TableSlip(models.Model):
    """A fill (chips cage → table) or credit (table → cage) slip (CA3).

    A floor person requests and signs it; a cashier, another person, issues it and
    posts the chips. Both signatures are on the posting too (posted by the cashier,
    approved by the floor person). A slip not issued can be cancelled, with who,
    when and why; no chips moved, and the record stays.
    """

    class Kind(models.TextChoices):
        FILL = "fill", _("fill")
        CREDIT = "credit", _("credit")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the cashier")
        ISSUED = "issued", _("issued")
        CANCELLED = "cancelled", _("cancelled")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=9, choices=Status.choices, default=Status.PENDING
    )
    cage = models.ForeignKey(
        Cage, on_delete=models.PROTECT, related_name="slips", verbose_name=_("cage")
    )
    table = models.CharField(_("table"), max_length=16)
    amount_cents = models.BigIntegerField(_("amount"))
    requested_by = staff_fk(_("requested by (floor)"))
    requested_at = models.DateTimeField(_("requested"))
    shift = models.ForeignKey(
        Shift,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="slips",
        verbose_name=_("shift"),
    )
    issued_by = staff_fk(_("issued by (cashier)"), optional=True)
    issued_at = models.DateTimeField(_("issued"), null=True, blank=True)
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="slip",
        verbose_name=_("posting"),
    )
    cancelled_by = staff_fk(_("cancelled by"), optional=True)
    cancelled_at = models.DateTimeField(_("cancelled"), null=True, blank=True)
    cancel_reason = models.CharField(_("why cancelled"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("fill or credit slip")
        verbose_name_plural = _("fill or credit slips")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0)
                & models.Q(kind__in=["fill", "credit"])
                & models.Q(table__regex=CODE_REGEX),
                name="slip_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(issued_by__isnull=True)
                | ~models.Q(issued_by=models.F("requested_by")),
                name="slip_two_signatures",
                violation_error_message=_(
                    "CA3: a fill or credit is signed by two different people."
                ),
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status__in=["pending", "cancelled"])
                    & models.Q(issued_by__isnull=True)
                    & models.Q(issued_at__isnull=True)
                    & models.Q(shift__isnull=True)
                    & models.Q(transaction__isnull=True)
                )
                | (
                    models.Q(status="issued")
                    & models.Q(issued_by__isnull=False)
                    & models.Q(issued_at__isnull=False)
                    & models.Q(shift__isnull=False)
                    & models.Q(transaction__isnull=False)
                ),
                name="slip_issued_completely",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(status="cancelled")
                    & models.Q(cancelled_by__isnull=False)
                    & models.Q(cancelled_at__isnull=False)
                    & models.Q(cancel_reason__regex=r"\S")
                )
                | (
                    ~models.Q(status="cancelled")
                    & models.Q(cancelled_by__isnull=True)
                    & models.Q(cancelled_at__isnull=True)
                    & models.Q(cancel_reason="")
                ),
                name="slip_cancelled_with_a_reason",
            ),
        ]
        triggers = [
            never_deleted("slip"),
            guards.FSM(
                name="slip_issued_once",
                field="status",
                transitions=[("pending", "issued"), ("pending", "cancelled")],
            ),
            guards.Protect(
                name="slip_issued_is_final",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status__in=["issued", "cancelled"]),
            ),
            guards.ReadOnly(
                name="slip_request_fixed",
                fields=[
                    "kind",
                    "cage",
                    "table",
                    "amount_cents",
                    "requested_by",
                    "requested_at",
                ],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} {self.table}"


class BoxCount(models.Model):
    """The count of one table box for a gaming day, against the ledger (CA4).

    ``recorded_cents`` is the box account's balance when counted; the variance is
    ``counted − recorded`` (positive over, negative short), booked to over/short.
    """

    class Box(models.TextChoices):
        DROP = "drop", _("drop box (cash)")
        RAKE = "rake", _("rake box (chips)")
        JACKPOT = "jackpot", _("jackpot box (chips)")

    cage = models.ForeignKey(
        Cage,
        on_delete=models.PROTECT,
        related_name="box_counts",
        verbose_name=_("cage"),
    )
    shift = models.ForeignKey(
        Shift,
        on_delete=models.PROTECT,
        related_name="box_counts",
        verbose_name=_("shift"),
    )
    table = models.CharField(_("table"), max_length=16)
    box = models.CharField(_("box"), max_length=8, choices=Box.choices)
    gaming_day = models.DateField(_("gaming day"))
    recorded_cents = models.BigIntegerField(_("recorded"))
    counted_cents = models.BigIntegerField(_("counted"))
    variance_cents = models.BigIntegerField(_("variance"))
    counted_by = staff_fk(_("counted by"))
    counted_at = models.DateTimeField(_("counted"))
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="box_count",
        verbose_name=_("posting"),
    )

    class Meta:
        verbose_name = _("box count")
        verbose_name_plural = _("box counts")
        ordering = ["-gaming_day", "table", "box"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "box", "gaming_day"],
                name="box_counted_once_a_day",
                violation_error_message=_("CA4: this box was already counted."),
            ),
            models.CheckConstraint(
                condition=models.Q(recorded_cents__gte=0)
                & models.Q(counted_cents__gte=0)
                & models.Q(
                    variance_cents=models.F("counted_cents")
                    - models.F("recorded_cents")
                )
                & models.Q(box__in=["drop", "rake", "jackpot"])
                & models.Q(table__regex=CODE_REGEX),
                name="box_count_adds_up",
            ),
        ]
        triggers = [append_only("box_count")]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.table} {self.box}"
