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
  the same statement, under the CHECK constraint of the account row;
- a change of an account's code, type, currency or flag, or of its balance by anything
  but an entry.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
    is moved only by entries, in the same statement.
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
    balance_cents = models.BigIntegerField(_("balance"), default=0, editable=False)
    created_at = models.DateTimeField(_("opened"), auto_now_add=True)

    class Meta:
        verbose_name = _("account")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(non_negative=False) | models.Q(balance_cents__gte=0),
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

    class Meta:
        verbose_name = _("ledger transaction")
        ordering = ["-posted_at", "-id"]
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
        indexes = [models.Index(fields=["account", "transaction"])]

    def __str__(self) -> str:
        return f"{self.account.code} {self.amount_cents:+d}"
