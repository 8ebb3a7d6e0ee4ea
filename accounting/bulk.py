"""Ledger postings written together with a caller's own rows, in one statement.

A hand's booking writes its ledger transaction, its entries, the hand, its seats
and the seats' stacks: through :func:`accounting.services.transaction_post` that is
a statement each (its transaction row, then its entries), and on the hand
path the statements' round trips were most of a request's cost (benchmarks/
README.md, "One statement a booking"). Here the caller collects its postings in
:class:`Postings` (netted and checked as ``transaction_open`` checks them) and
writes them with its own rows in one statement whose ``WITH`` list begins with
:data:`POSTINGS_SQL`. Nothing is weaker: the rows go through the same tables, so
every trigger and constraint of the ledger fires (``ledger_transaction_stamp``,
``ledger_entry_apply`` moving the balances and refusing an overdraft, the
deferred ``ledger_transaction_balanced`` at the commit).

Accounts travel as :class:`AccountRow` values, read with the caller's own
statement (:func:`account_json`), not as model instances: building a model per
account cost more than reading it.

The transactions' ids are drawn before the write (the caller reads them from
the table's sequence), so its rows point at them in the same statement. A
posting is written in the order it was added, and each entry in account order: a
batch of postings moves every balance through the same steps as posting them one
after another.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, NamedTuple

from django.db import IntegrityError

from accounting.errors import InsufficientFunds, insufficient
from accounting.models import Account, Entry, Transaction
from accounting.services import balance_moved, check_netted, net_pairs


class AccountRow(NamedTuple):
    """An account as a posting needs it; ``balance_cents`` is the stored balance
    (a summed account's pending entries are not in it)."""

    pk: int
    code: str
    type: str
    currency: str
    non_negative: bool
    summed: bool
    balance_cents: int

    @classmethod
    def of(cls, account: Account) -> AccountRow:
        """The row of a model instance (an account just opened, a pool's)."""
        return cls(
            account.pk,
            account.code,
            account.type,
            account.currency,
            account.non_negative,
            account.summed,
            # The stored balance: reading a summed one adds its pending entries.
            account.__dict__.get("balance_cents", 0),
        )

    @classmethod
    def of_json(cls, value: list[Any]) -> AccountRow:
        """The row of an account read as :func:`account_json`."""
        return cls(*value)

    def as_account(self) -> Account:
        """A model instance of the row (for the code that takes accounts)."""
        account = Account(
            id=self.pk,
            code=self.code,
            type=self.type,
            currency=self.currency,
            non_negative=self.non_negative,
            summed=self.summed,
            balance_cents=self.balance_cents,
        )
        account._state.adding = False
        account._state.db = "default"
        return account

    def moved(self, amount_cents: int) -> int:
        """How much an entry of ``amount_cents`` moves the balance."""
        return balance_moved(self, amount_cents)


_A = Account._meta.db_table


def account_json(alias: str) -> str:
    """The account ``alias`` of a query as a JSON array, in :class:`AccountRow`'s
    order (:meth:`AccountRow.of_json` reads it)."""
    a = alias
    return (
        f"json_build_array({a}.id, {a}.code, {a}.type, {a}.currency,"
        f" {a}.non_negative, {a}.summed, {a}.balance_cents)"
    )


def accounts_sql(codes_param: str) -> str:
    """A scalar sub-select: the accounts whose code is in the text array parameter
    ``codes_param`` (a ``%(name)s`` placeholder), as a JSON array."""
    return (
        f"(SELECT coalesce(json_agg({account_json('a')}), '[]')::text"  # noqa: S608
        f" FROM {_A} a WHERE a.code = ANY({codes_param}::text[]))"
    )


_T, _E = Transaction._meta.db_table, Entry._meta.db_table
POSTINGS_SQL = f"""
ledger_transactions AS (
    INSERT INTO {_T} (id, kind, reference, external_id, memo, source, posted_at,
                      posted_by_id, xact_id)
    SELECT id, kind, reference, external_id, '', source, posted_at, posted_by, 0
      FROM jsonb_to_recordset(%(ledger_transactions)s::jsonb)
        AS r (id bigint, kind text, reference text, external_id text, source text,
              posted_at timestamptz, posted_by integer)
),
ledger_entries AS (
    INSERT INTO {_E} (transaction_id, account_id, amount_cents, currency)
    SELECT t, a, c, k
      FROM ROWS FROM (jsonb_to_recordset(%(ledger_entries)s::jsonb)
                      AS (t bigint, a bigint, c bigint, k text))
           WITH ORDINALITY AS r (t, a, c, k, n)
     ORDER BY n
)"""  # noqa: S608
"""The first members of a ``WITH`` list writing :class:`Postings`."""


class Postings:
    """Ledger transactions to write with :data:`POSTINGS_SQL`, each balanced.

    :meth:`add` refuses what :func:`accounting.services.transaction_open` refuses
    (:class:`LedgerError`: fewer than two accounts, unbalanced per currency, an
    amount that isn't integer cents); the database refuses the rest as for any
    posting.
    """

    def __init__(self) -> None:
        self.transactions: list[dict[str, Any]] = []
        self.entries: list[dict[str, Any]] = []
        self.netted: dict[int, list[tuple[AccountRow, int]]] = {}

    def __bool__(self) -> bool:
        return bool(self.transactions)

    def add(
        self,
        txn_id: int,
        legs: Iterable[tuple[AccountRow, int]],
        *,
        kind: str,
        reference: str,
        external_id: str | None,
        source: str,
        posted_at: datetime,
        posted_by: int | None,
    ) -> list[tuple[AccountRow, int]]:
        """Add the transaction ``txn_id`` moving ``legs`` (account, debit-positive
        cents); return its entries, netted per account in primary-key order.

        Raises :class:`LedgerError` as ``transaction_open`` does.
        """
        netted = net_pairs(legs)
        check_netted(netted)
        self.transactions.append(
            {
                "id": txn_id,
                "kind": kind,
                "reference": reference,
                "external_id": external_id,
                "source": source,
                "posted_at": posted_at.isoformat(),
                "posted_by": posted_by,
            }
        )
        self.entries += [
            {"t": txn_id, "a": account.pk, "c": amount, "k": account.currency}
            for account, amount in netted
        ]
        self.netted[txn_id] = netted
        return netted

    def overdraft(
        self, error: IntegrityError, balances: Mapping[int, int]
    ) -> InsufficientFunds | None:
        """The refusal naming the account an overdraft by the database was on, or
        ``None`` when ``error`` is no overdraft. ``balances`` are the stored
        balances before the postings, by account id (the failed database
        transaction can't be asked)."""
        cause = error.__cause__
        if "account_non_negative_balance" not in str(cause):
            return None
        held = dict(balances)
        for netted in self.netted.values():
            for account, amount in netted:
                if not account.non_negative or account.pk not in held:
                    continue
                held[account.pk] += account.moved(amount)
                if held[account.pk] < 0:
                    return insufficient(
                        account=account.code,
                        balance=held[account.pk] - account.moved(amount),
                        amount=-account.moved(amount),
                    )
        return insufficient()
