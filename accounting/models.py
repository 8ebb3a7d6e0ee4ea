"""The ledger: accounts, transactions and their entries, kept honest by PostgreSQL.

Double entry with signed integer cents, debits positive and credits negative. The
database itself refuses what must never happen (DESIGN.md, "Money and the ledger"):

- a transaction whose entries don't sum to zero per currency at commit (a deferred
  constraint trigger), or that has fewer than two entries;
- any UPDATE or DELETE of a transaction or an entry (append-only; corrections are
  reversing transactions, DC2);
- an entry in another currency than its account's;
- a balance below zero on an account flagged ``non_negative`` (a player's chips, a
  jackpot pool, a cashier's drawer): each entry moves its account's cached balance in
  the same statement, under the CHECK constraint of the account row; on a summed
  account (below) each entry toward the floor moves the row and is checked against
  the row plus the entries still to be folded, under the row's lock;
- a change of an account's code, type, currency or flag, or of its balance by anything
  but an entry (only the entry trigger's own UPDATE may move it: ``pg_trigger_depth``);
- an entry added to a transaction by another database transaction than the one that
  wrote it (``xact_id``): a posted transaction is final;
- a TRUNCATE of accounts, transactions or entries.

House accounts that every table's hands move (chip float, rake revenue, jackpot
drops) are **summed**: an entry that can't break a floor (any entry on an account
without one, an entry away from the floor on one with it) doesn't touch the
account's row, so concurrent hands don't queue on it. Their balance is the stored
one plus their entries still to be folded (``Entry.summed``, read through the
partial index ``entry_summed_by_account``); a :class:`BalanceFold` moves those into
the rows now and then (migration 0011).

Every one of these triggers is ``ENABLE ALWAYS`` (it fires under
``session_replication_role = replica`` too) and none reads a setting a session
could change.
"""

from __future__ import annotations

import contextvars
from typing import Any

import pgtrigger
from django.conf import settings
from django.db import connections, models
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounting.domain.cage import receipt_no
from core.db import triggers as guards
from core.records import append_only, never_deleted, staff_fk

# The ledger's plain SQL triggers (migrations 0002, 0004 and 0007), each in place and
# ENABLE ALWAYS: the daily audit checks them (core.db.guards).
DATABASE_TRIGGERS = {
    "accounting_transaction": {
        "ledger_transaction_balanced",
        "ledger_transaction_append_only",
        "ledger_transaction_stamp",
        "ledger_transaction_no_truncate",
    },
    "accounting_entry": {
        "ledger_entry_apply",
        "ledger_entry_balanced",
        "ledger_entry_append_only",
        "ledger_entry_no_truncate",
    },
    "accounting_account": {"ledger_account_guard", "ledger_account_no_truncate"},
    "accounting_cage": {"cage_receipt_counter_guard", "cage_receipt_number_used"},
    "accounting_receipt": {"cage_receipt_number_taken"},
    "accounting_balancefold": {
        "ledger_fold_apply",
        "ledger_fold_append_only",
        "ledger_fold_no_truncate",
    },
}
# What those triggers refuse whoever asks; the app's role isn't granted it either
# (core.db.roles).
DATABASE_REFUSES = {
    "accounting_transaction": ("UPDATE", "DELETE"),
    "accounting_entry": ("UPDATE", "DELETE"),
    "accounting_account": ("DELETE",),
    "accounting_balancefold": ("UPDATE", "DELETE"),
}

# Raw SQL reads of a summed account's balance: the entries not yet folded into it.
PENDING_SQL = (
    "SELECT coalesce(sum(amount_cents), 0)::bigint FROM accounting_entry"
    " WHERE account_id = %s AND summed AND epoch >= %s"
)
# While set, a summed account's ``balance_cents`` reads as stored (refresh_from_db).
_STORED = contextvars.ContextVar("accounting_balance_stored", default=False)


class _BalanceDescriptor:
    """``Account.balance_cents``: the stored balance, plus for a summed account the
    entries not yet folded into it (read on first use, once per loaded row).

    A data descriptor, so the stored value stays in the instance's ``__dict__``
    under the field's name, as Django expects of a loaded field.
    """

    def __init__(self, field: BalanceField) -> None:
        self.field = field

    def __get__(self, instance: Account | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        data = instance.__dict__
        name = self.field.attname
        if name not in data:
            instance.refresh_from_db(fields=[name, "summed_through"])
        stored = data[name]
        if _STORED.get() or instance.pk is None or not instance.summed:
            return stored
        if "_pending_cents" not in data:
            with connections[instance._state.db or "default"].cursor() as cursor:
                cursor.execute(PENDING_SQL, [instance.pk, instance.summed_through])
                (raw,) = cursor.fetchone()
            data["_pending_cents"] = raw if instance.type in DEBIT_NORMAL else -raw
        return stored + data["_pending_cents"]

    def __set__(self, instance: Account, value: Any) -> None:
        instance.__dict__[self.field.attname] = value
        instance.__dict__.pop("_pending_cents", None)


class BalanceField(models.BigIntegerField):
    """An account's stored balance; reads add a summed account's pending entries,
    saves write what was loaded (only the ledger's triggers move it)."""

    descriptor_class = _BalanceDescriptor

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        return model_instance.__dict__.get(self.attname)


class AccountType(models.TextChoices):
    ASSET = "asset", _("asset")
    LIABILITY = "liability", _("liability")
    EQUITY = "equity", _("equity")
    REVENUE = "revenue", _("revenue")
    EXPENSE = "expense", _("expense")


# Debit-normal types show sum(entries) as their balance; the others its negation.
DEBIT_NORMAL = (AccountType.ASSET, AccountType.EXPENSE)


class Account(models.Model):
    """An account of the room's books, in one currency.

    ``code`` names what it holds, e.g. ``player:P-1001:chips``, ``table:T01:tray``,
    ``cage:MAIN:cash``, ``revenue:rake``. ``balance_cents`` is in the account's
    normal sign (positive for an asset holding money, for a liability owing it) and
    is moved only by entries, in the same statement. On a ``summed`` account only
    the entries toward its floor move the row; reading ``balance_cents`` adds the
    others, posted since ``summed_through`` (see the module's docstring).
    """

    code = models.CharField(_("code"), max_length=120, unique=True)
    name = models.CharField(_("name"), max_length=200)
    type = models.CharField(_("type"), max_length=16, choices=AccountType.choices)
    currency = models.CharField(_("currency"), max_length=3)
    non_negative = models.BooleanField(
        _("never below zero"),
        default=False,
        help_text=_("The database refuses any entry that takes it below zero."),
    )
    balance_cents = BalanceField(_("balance"), default=0, editable=False)
    summed = models.BooleanField(
        _("kept as a sum"),
        default=False,
        db_default=False,
        editable=False,
        help_text=_(
            "A house account every table moves: entries that can't take it below "
            "zero don't lock its row; its balance adds them up."
        ),
    )
    summed_through = models.BigIntegerField(
        _("folded through"),
        default=0,
        db_default=0,
        editable=False,
        help_text=_(
            "The fold epoch from which this account's summed entries are not yet "
            "in its stored balance."
        ),
    )
    created_at = models.DateTimeField(_("opened"), auto_now_add=True)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        ordering = ["code"]
        constraints = [
            # A summed account's floor is checked by ledger_entry_apply against the
            # row plus its pending entries (migration 0011).
            models.CheckConstraint(
                condition=models.Q(non_negative=False)
                | models.Q(summed=True)
                | models.Q(balance_cents__gte=0),
                name="account_non_negative_balance",
                violation_error_message=_("This account can't go below zero."),
            ),
            models.CheckConstraint(
                condition=models.Q(type__in=AccountType.values),
                name="account_known_type",
            ),
            models.CheckConstraint(
                condition=models.Q(currency__regex=r"^[A-Z]{3}$"),
                name="account_currency_code",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.currency})"

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        # Copy the stored balance, not the stored one plus the pending entries.
        token = _STORED.set(True)
        try:
            super().refresh_from_db(*args, **kwargs)
        finally:
            _STORED.reset(token)


class Transaction(models.Model):
    """A balanced set of entries, with what caused it, who posted it and when."""

    kind = models.CharField(_("kind"), max_length=32, db_index=True)
    reference = models.CharField(
        _("reference"),
        max_length=120,
        blank=True,
        db_index=True,
        help_text=_("What caused it: hand T01#1042, receipt MAIN-000123, shift 7…"),
    )
    external_id = models.CharField(
        _("unique key"),
        max_length=160,
        null=True,
        blank=True,
        unique=True,
        help_text=_("Makes a retry of the same posting harmless."),
    )
    memo = models.CharField(_("memo"), max_length=500, blank=True)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("posted by"),
    )
    source = models.CharField(
        _("source"),
        max_length=64,
        blank=True,
        help_text=_("The terminal or process that posted it, when no person did."),
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("approved by"),
    )
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    posted_at = models.DateTimeField(_("posted at"), db_index=True)
    xact_id = models.BigIntegerField(
        _("database transaction"),
        default=0,
        editable=False,
        help_text=_(
            "Set by PostgreSQL when the row is written: the database transaction "
            "that posted it, the only one that may add its entries."
        ),
    )

    class Meta:
        verbose_name = _("ledger transaction")
        verbose_name_plural = _("ledger transactions")
        ordering = ["-posted_at", "-id"]
        # The postings made since a balance snapshot, whatever their date.
        indexes = [models.Index(fields=["xact_id"], name="transaction_by_xact")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(posted_by__isnull=False) | ~models.Q(source=""),
                name="transaction_has_poster",
                violation_error_message=_("A posting names who or what posted it."),
            ),
            models.CheckConstraint(
                condition=models.Q(reverses__isnull=True) | ~models.Q(memo=""),
                name="transaction_reversal_says_why",
                violation_error_message=_("DC2: a reversal says why."),
            ),
            models.CheckConstraint(
                condition=models.Q(approved_by__isnull=True)
                | ~models.Q(approved_by=models.F("posted_by")),
                name="transaction_four_eyes",
                violation_error_message=_(
                    "DC2: the approver must be another person than the poster."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.reference}".strip()


class Entry(models.Model):
    """One leg of a transaction: signed cents on one account (debit positive)."""

    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries"
    )
    amount_cents = models.BigIntegerField(_("amount"))
    currency = models.CharField(_("currency"), max_length=3)
    summed = models.BooleanField(
        _("summed"),
        default=False,
        db_default=False,
        editable=False,
        help_text=_(
            "Set by PostgreSQL: the entry didn't move its account's stored balance; "
            "balance reads add it until a fold does."
        ),
    )
    epoch = models.BigIntegerField(
        _("fold epoch"),
        default=0,
        db_default=0,
        editable=False,
        help_text=_(
            "Set by PostgreSQL on a summed entry: the last balance fold begun when "
            "it was written; the folds after it add it to the stored balance."
        ),
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount_cents=0), name="entry_not_zero"
            ),
            models.UniqueConstraint(
                fields=["transaction", "account"], name="entry_one_per_account"
            ),
        ]
        indexes = [
            models.Index(fields=["account", "transaction"]),
            models.Index(
                fields=["account", "epoch"],
                include=["amount_cents"],
                condition=models.Q(summed=True),
                name="entry_summed_by_account",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account.code} {self.amount_cents:+d}"


class BalanceSnapshot(models.Model):
    """Every account's balance from the postings dated before ``at``, stored.

    ``balances`` maps account ids to the raw sum (debits positive) of the entries
    of the transactions posted before ``at`` and written by a database transaction
    below ``horizon`` (every one below it had ended when the snapshot was taken).
    The balances at ``at`` are then these plus the entries of the transactions
    dated before ``at`` from ``horizon`` on, found through ``transaction_by_xact``:
    a back-dated posting made after the snapshot counts, and the work is what was
    posted since, not the history (``accounting.selectors.balances_at``).
    """

    at = models.DateTimeField(_("balances at"), unique=True)
    horizon = models.BigIntegerField(_("database transactions below"))
    balances = models.JSONField(_("balances"))
    taken_at = models.DateTimeField(_("taken"), db_default=Now())

    class Meta:
        verbose_name = _("balance snapshot")
        verbose_name_plural = _("balance snapshots")
        ordering = ["-at"]
        triggers = [append_only("balance_snapshot")]

    def __str__(self) -> str:
        return f"balances at {self.at:%Y-%m-%d %H:%M %Z}"


class BalanceFold(models.Model):
    """A fold of the summed accounts' pending entries into their stored balances.

    Inserting a row is the whole operation: the ``ledger_fold_apply`` trigger waits
    for the database transactions writing summed entries to end, adds each summed
    account's entries of the epochs before this fold's id to its row, and records
    how many accounts moved. Nothing the client sends changes that; the rows are
    append-only (migration 0011).
    """

    accounts = models.IntegerField(_("accounts moved"), default=0)
    at = models.DateTimeField(_("at"), db_default=Now())

    class Meta:
        verbose_name = _("balance fold")
        verbose_name_plural = _("balance folds")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"fold #{self.pk}"


# --- The cage (CA1–CA6) -------------------------------------------------------------
#
# Records of the cashier's day. Money moves only in the ledger above; these rows say
# who moved it, for whom and under which receipt or slip, and point at the posting.
# PostgreSQL keeps them honest too: CHECK constraints for the four-eyes rules, unique
# keys for "one open shift" and "paid once", and triggers (django-pgtrigger) that
# freeze a record once it is final and refuse every DELETE (DC2).

CA5_DEFAULT_THRESHOLD_CENTS = 200_000  # €2,000, the EU casino threshold (CA5)
CA1_DEFAULT_SIGN_OFF_CENTS = 2_000  # €20 over or short needs a supervisor (CA1)
_CODE_REGEX = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


def _now() -> Any:
    """The time now, read when a record is made (the clock a test moves too)."""
    return timezone.now()


def _room_currency() -> str:
    return settings.CARDROOM_CURRENCY


class Player(models.Model):
    """A registered player (BI10), known to terminals and the cage by ``code``.

    The public board shows only ``nickname`` or initials (WL11). ``id_verified``
    says an identity document was checked; CA5 needs it above the cash threshold.
    """

    class Document(models.TextChoices):
        PASSPORT = "passport", _("passport")
        ID_CARD = "id_card", _("identity card")
        DRIVING_LICENCE = "driving_licence", _("driving licence")
        OTHER = "other", _("other document")

    code = models.CharField(
        _("player id"),
        max_length=32,
        unique=True,
        help_text=_("What terminals and the cage send, e.g. P-1001."),
    )
    name = models.CharField(_("name"), max_length=200)
    nickname = models.CharField(
        _("nickname"),
        max_length=40,
        blank=True,
        help_text=_("Shown on the public board; initials when blank."),
    )
    id_verified = models.BooleanField(_("identity verified"), default=False)
    id_document_type = models.CharField(
        _("identity document"), max_length=16, choices=Document.choices, blank=True
    )
    id_document_number = models.CharField(
        _("document number"), max_length=64, blank=True
    )
    id_verified_at = models.DateTimeField(
        _("identity verified at"), null=True, blank=True
    )
    id_verified_by = staff_fk(_("identity verified by"), optional=True)
    birth_date = models.DateField(
        _("date of birth"),
        null=True,
        blank=True,
        help_text=_("PP1, PP2: without one, every door refuses the player."),
    )
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    registered_by = staff_fk(_("registered by"), optional=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(code__regex=_CODE_REGEX),
                name="player_code_format",
                violation_error_message=_(
                    "A player id is letters, digits, '-' and '_'."
                ),
            ),
        ]
        triggers = [
            never_deleted("player"),
            guards.ReadOnly(name="player_code_fixed", fields=["code"]),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class PlayerChange(models.Model):
    """A change of a player's identity data: who, when, why, the old and the new
    value (PP7). Never edited, never deleted (DC2)."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="changes")
    field = models.CharField(_("field"), max_length=32)
    old = models.CharField(_("was"), max_length=200, blank=True)
    new = models.CharField(_("is now"), max_length=200, blank=True)
    reason = models.CharField(_("why"), max_length=500)
    at = models.DateTimeField(_("at"), default=_now)
    by = staff_fk(_("by"))

    class Meta:
        verbose_name = _("change of player data")
        verbose_name_plural = _("changes of player data")
        ordering = ["player", "at", "id"]
        triggers = [append_only("player_change")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.field} {self.at:%Y-%m-%d %H:%M}"


class IdentityDocument(models.Model):
    """An identity document a staff member checked (PP1): kind, number, expiry,
    who checked it and when. Never edited; a new check is a new record (PP7)."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="documents"
    )
    kind = models.CharField(
        _("identity document"), max_length=16, choices=Player.Document.choices
    )
    number = models.CharField(_("document number"), max_length=64)
    expires = models.DateField(_("expires"), null=True, blank=True)
    checked_at = models.DateTimeField(_("checked at"), default=_now)
    checked_by = staff_fk(_("checked by"))

    class Meta:
        verbose_name = _("identity document")
        verbose_name_plural = _("identity documents")
        ordering = ["player", "-checked_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(number=""), name="identity_document_number"
            ),
        ]
        triggers = [append_only("identity_document")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.checked_at:%Y-%m-%d})"


class DocumentLookup(models.Model):
    """Who was shown an identity document's number, and when (PP7)."""

    document = models.ForeignKey(
        IdentityDocument, on_delete=models.PROTECT, related_name="lookups"
    )
    at = models.DateTimeField(_("at"), default=_now)
    by = staff_fk(_("by"))
    purpose = models.CharField(_("why"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("identity document look-up")
        verbose_name_plural = _("identity document look-ups")
        ordering = ["-at", "-id"]
        triggers = [append_only("document_lookup")]

    def __str__(self) -> str:
        return f"{self.document_id} {self.at:%Y-%m-%d %H:%M}"


class ProtectionRules(models.Model):
    """A version of the room's player-protection settings (PP2, PP4): the
    minimum age, the shortest self-exclusion and the cooling-off time. Append-only:
    a change is a new version, in force from when it is recorded."""

    version = models.PositiveIntegerField(_("version"), unique=True)
    min_age = models.PositiveSmallIntegerField(_("minimum age"))
    min_self_exclusion_days = models.PositiveIntegerField(
        _("shortest self-exclusion (days)")
    )
    cooling_off_hours = models.PositiveIntegerField(_("cooling-off time (hours)"))
    note = models.CharField(_("why"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), default=_now)
    created_by = staff_fk(_("created by"), optional=True)

    class Meta:
        verbose_name = _("player-protection rules")
        verbose_name_plural = _("player-protection rules")
        ordering = ["-version"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_age__gte=16, min_age__lte=25)
                & models.Q(min_self_exclusion_days__gte=1),
                name="protection_rules_bounds",
            ),
        ]
        triggers = [append_only("protection_rules")]

    def __str__(self) -> str:
        return f"v{self.version}"


class Restriction(models.Model):
    """A bar by the house (PP3) or a player's self-exclusion (PP4). Never edited:
    how it ends is a :class:`RestrictionEnd` (PP7).

    ``until`` is the first gaming day the player is let in again (None: for good).
    """

    class Kind(models.TextChoices):
        BAR = "bar", _("bar")
        SELF_EXCLUSION = "self_exclusion", _("self-exclusion")

    class Scope(models.TextChoices):
        ROOM = "room", _("the room")
        CASH = "cash", _("cash games")
        TOURNAMENTS = "tournaments", _("tournaments")

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="restrictions"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    scope = models.CharField(_("scope"), max_length=16, choices=Scope.choices)
    starts = models.DateTimeField(_("starts"), default=_now)
    until = models.DateField(_("until"), null=True, blank=True)
    reason = models.CharField(_("why"), max_length=500)
    set_by = staff_fk(_("recorded by"))

    class Meta:
        verbose_name = _("restriction")
        verbose_name_plural = _("restrictions")
        ordering = ["player", "-starts", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="restriction_reason"
            ),
        ]
        triggers = [append_only("restriction")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.get_scope_display()})"


class RestrictionEnd(models.Model):
    """How a restriction ends: a bar ended early by a second manager (PP3), or a
    player's request that his ended self-exclusion lapse, in force after the
    cooling-off time (PP4). One a restriction; never edited."""

    class Kind(models.TextChoices):
        ENDED = "ended", _("ended early")
        LAPSE = "lapse", _("lapse asked by the player")

    restriction = models.OneToOneField(
        Restriction, on_delete=models.PROTECT, related_name="end"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    at = models.DateTimeField(_("at"), default=_now)
    effective = models.DateTimeField(_("in force from"))
    reason = models.CharField(_("why"), max_length=500)
    by = staff_fk(_("by"))

    class Meta:
        verbose_name = _("end of a restriction")
        verbose_name_plural = _("ends of restrictions")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="restriction_end_reason"
            ),
        ]
        triggers = [append_only("restriction_end")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.restriction_id}"


class DoorRefusal(models.Model):
    """A door that refused a player (PP2–PP4), for the daily audit. Written in a
    transaction of its own, so the refusal is kept while the refused request
    changes nothing."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="refusals"
    )
    door = models.CharField(_("door"), max_length=16)
    rule = models.CharField(_("rule"), max_length=8)
    code = models.CharField(_("code"), max_length=32)
    gaming_day = models.DateField(_("gaming day"))
    at = models.DateTimeField(_("at"), default=_now)

    class Meta:
        verbose_name = _("refusal at a door")
        verbose_name_plural = _("refusals at doors")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["gaming_day"], name="door_refusal_day")]
        triggers = [append_only("door_refusal")]

    def __str__(self) -> str:
        return f"{self.rule} {self.code} {self.gaming_day}"


class AwardDecision(models.Model):
    """A manager's decision on an award held for a restricted player (PP6): pay
    it to him after all, or forfeit it (booked out of awards payable into
    forfeited awards). One a payable; never edited."""

    class Decision(models.TextChoices):
        PAY = "pay", _("pay to the player")
        FORFEIT = "forfeit", _("forfeit")

    payable = models.OneToOneField(
        "Payable", on_delete=models.PROTECT, related_name="decision"
    )
    decision = models.CharField(_("decision"), max_length=8, choices=Decision.choices)
    held_by = models.ForeignKey(
        Restriction,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("held because of"),
    )
    reason = models.CharField(_("why"), max_length=500)
    at = models.DateTimeField(_("at"), default=_now)
    by = staff_fk(_("decided by"))
    booking = models.ForeignKey(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("booked by posting"),
    )

    class Meta:
        verbose_name = _("decision on a held award")
        verbose_name_plural = _("decisions on held awards")
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="award_decision_reason"
            ),
            models.CheckConstraint(
                condition=models.Q(decision="pay", booking__isnull=True)
                | models.Q(decision="forfeit", booking__isnull=False),
                name="award_decision_forfeit_is_booked",
            ),
        ]
        triggers = [append_only("award_decision")]

    def __str__(self) -> str:
        return f"{self.get_decision_display()} #{self.payable_id}"


class Cage(models.Model):
    """A cashier cage: its vault, its receipt counter and its thresholds."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=100)
    currency = models.CharField(_("currency"), max_length=3, default=_room_currency)
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
    currency = models.CharField(_("currency"), max_length=3, default=_room_currency)
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
                & models.Q(table__regex=_CODE_REGEX),
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
                & models.Q(table__regex=_CODE_REGEX),
                name="box_count_adds_up",
            ),
        ]
        triggers = [append_only("box_count")]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.table} {self.box}"
