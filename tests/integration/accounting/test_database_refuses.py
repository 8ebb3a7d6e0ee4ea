"""PostgreSQL itself refuses what the ledger must never hold.

These tests commit for real (a rolled-back test never fires a deferred trigger) and
attack the tables with raw SQL, going around every Python check.
"""

from __future__ import annotations

import pytest
from django.db import (
    IntegrityError,
    InternalError,
    ProgrammingError,
    connection,
    transaction,
)

from accounting.models import Account, Entry, Transaction
from accounting.services import Leg, transaction_post

pytestmark = pytest.mark.django_db(transaction=True)

# A trigger or constraint (IntegrityError, InternalError), or a privilege the app
# lacks (ProgrammingError).
REFUSED = (IntegrityError, InternalError, ProgrammingError)


def sql(statement: str, params: list | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params or [])


def new_transaction_sql() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO accounting_transaction (kind, reference, memo, source, "
            "posted_at) VALUES ('test', '', '', 'raw-sql', now()) RETURNING id"
        )
        return cursor.fetchone()[0]


def entry_sql(txn: int, account: Account, amount: int, currency: str = "EUR") -> None:
    sql(
        "INSERT INTO accounting_entry (transaction_id, account_id, amount_cents, "
        "currency) VALUES (%s, %s, %s, %s)",
        [txn, account.pk, amount, currency],
    )


def fund(accounts, cents: int = 10_000) -> Transaction:
    return transaction_post(
        kind="float",
        legs=[Leg(accounts["cash"], cents), Leg(accounts["float"], -cents)],
        source="test",
    )


def test_unbalanced_transaction_is_refused_at_commit(accounts):
    """Entries summing to +1 cent are refused when the transaction commits."""
    with pytest.raises(REFUSED, match="does not balance"), transaction.atomic():
        txn = new_transaction_sql()
        entry_sql(txn, accounts["cash"], 101)
        entry_sql(txn, accounts["float"], -100)
    assert not Transaction.objects.exists()
    assert Account.objects.get(pk=accounts["cash"].pk).balance_cents == 0


def test_transaction_without_entries_is_refused(accounts):
    """A transaction row alone, with no entries, doesn't commit."""
    with pytest.raises(REFUSED, match="at least two"), transaction.atomic():
        new_transaction_sql()
    assert not Transaction.objects.exists()


def test_balanced_transaction_commits(accounts):
    """Balanced raw entries commit and move the cached balances."""
    with transaction.atomic():
        txn = new_transaction_sql()
        entry_sql(txn, accounts["cash"], 500)
        entry_sql(txn, accounts["float"], -500)
    assert Account.objects.get(pk=accounts["cash"].pk).balance_cents == 500
    assert Account.objects.get(pk=accounts["float"].pk).balance_cents == 500


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE accounting_entry SET amount_cents = amount_cents + 1",
        "DELETE FROM accounting_entry",
        "UPDATE accounting_transaction SET memo = 'edited'",
        "DELETE FROM accounting_transaction",
    ],
)
def test_posted_rows_are_append_only(accounts, statement):
    """No UPDATE or DELETE of transactions or entries."""
    fund(accounts)
    with pytest.raises(REFUSED), transaction.atomic():
        sql(statement)
    assert Entry.objects.count() == 2
    assert sorted(Entry.objects.values_list("amount_cents", flat=True)) == [
        -10_000,
        10_000,
    ]


def test_non_negative_account_never_goes_below_zero(accounts):
    """A drawer holding 100.00 can't pay out 100.01, even by raw SQL."""
    fund(accounts)
    refused = pytest.raises(REFUSED, match="account_non_negative_balance")
    with refused, transaction.atomic():
        txn = new_transaction_sql()
        entry_sql(txn, accounts["cash"], -10_001)
        entry_sql(txn, accounts["float"], 10_001)
    assert Account.objects.get(pk=accounts["cash"].pk).balance_cents == 10_000


def test_liability_flagged_non_negative_is_checked_in_its_own_sign(accounts):
    """A player's chips (a liability) can't be debited past what he holds."""
    refused = pytest.raises(REFUSED, match="account_non_negative_balance")
    with refused, transaction.atomic():
        txn = new_transaction_sql()
        entry_sql(txn, accounts["chips"], 1)
        entry_sql(txn, accounts["rake"], -1)


def test_entry_currency_must_be_its_accounts(accounts):
    """A euro account takes no crown entry."""
    with pytest.raises(REFUSED, match="currency"), transaction.atomic():
        txn = new_transaction_sql()
        entry_sql(txn, accounts["cash"], 100, currency="SEK")
        entry_sql(txn, accounts["float"], -100)


def test_balances_per_currency(accounts):
    """+100 EUR against −100 SEK sums to zero but is refused: per currency."""
    with pytest.raises(REFUSED, match="does not balance"), transaction.atomic():
        txn = new_transaction_sql()
        entry_sql(txn, accounts["cash"], 100)
        entry_sql(txn, accounts["sek"], -100, currency="SEK")


def test_balance_moves_only_by_entries(accounts):
    """The cached balance can't be set by hand."""
    with pytest.raises(REFUSED), transaction.atomic():
        sql("UPDATE accounting_account SET balance_cents = 1000000")
    assert Account.objects.get(pk=accounts["cash"].pk).balance_cents == 0


@pytest.mark.parametrize(
    "change",
    ["type = 'asset'", "currency = 'SEK'", "non_negative = false", "code = 'x'"],
)
def test_account_identity_is_fixed(accounts, change):
    """An account's code, type, currency and flag can't change once opened."""
    with pytest.raises(REFUSED), transaction.atomic():
        sql(f"UPDATE accounting_account SET {change} WHERE code = 'player:P-1:chips'")


def test_accounts_are_never_deleted(accounts):
    """Deleting an account, even an empty one, is refused."""
    with pytest.raises(REFUSED), transaction.atomic():
        sql("DELETE FROM accounting_account WHERE code = 'cage:SEK:cash'")


def test_account_is_opened_empty(accounts):
    """A new account can't be inserted with a balance."""
    with pytest.raises(REFUSED), transaction.atomic():
        sql(
            "INSERT INTO accounting_account (code, name, type, currency, "
            "non_negative, balance_cents, created_at) "
            "VALUES ('x', 'x', 'asset', 'EUR', false, 5, now())"
        )


def test_reversal_needs_a_reason_and_happens_once(accounts):
    """A reversal row without a memo, or a second reversal, is refused."""
    original = fund(accounts)
    with pytest.raises(REFUSED), transaction.atomic():
        sql(
            "INSERT INTO accounting_transaction (kind, reference, memo, source, "
            "posted_at, reverses_id) VALUES ('reversal', '', '', 'x', now(), %s)",
            [original.pk],
        )
