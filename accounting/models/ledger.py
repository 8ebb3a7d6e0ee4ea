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

from django.conf import settings
from django.db import connections, models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _

from core.records import append_only

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
