"""Ledger postings written together with a caller's own rows, in one statement.

A hand's booking writes its ledger transaction, its entries, the hand, its seats
and the seats' stacks: through :func:`accounting.services.transaction_post` that is
a statement each (its transaction row, then its entries), and on the hand
path the statements' round trips were most of a request's cost (benchmarks/
README.md, "One statement a booking"). Here the caller collects its postings in
:class:`Postings`, netted and checked as ``transaction_open`` checks them, and
writes them with its own rows in one statement of its own, which inserts
:attr:`Postings.transactions` and :attr:`Postings.entries` as they are. Nothing
is weaker: the rows go through the same tables, so every trigger and constraint
of the ledger fires (``ledger_transaction_stamp``, ``ledger_entry_apply`` moving
the balances and refusing an overdraft, the deferred
``ledger_transaction_balanced`` at the commit).

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
from accounting.models import Account
from accounting.services.ledger import balance_moved, check_netted, net_pairs


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


def account_json(alias: str) -> str:
    """The account ``alias`` of a query as a JSON array, in :class:`AccountRow`'s
    order (:meth:`AccountRow.of_json` reads it)."""
    a = alias
    return (
        f"json_build_array({a}.id, {a}.code, {a}.type, {a}.currency,"
        f" {a}.non_negative, {a}.summed, {a}.balance_cents)"
    )


class Postings:
    """Ledger transactions to write with the caller's rows, each balanced.

    :meth:`add` refuses what :func:`accounting.services.transaction_open` refuses
    (:class:`LedgerError`: fewer than two accounts, unbalanced per currency, an
    amount that isn't integer cents); the database refuses the rest as for any
    posting.
    """

    def __init__(self) -> None:
        self.transactions: list[dict[str, Any]] = []
        """The transactions' rows: ``id``, ``kind``, ``reference``,
        ``external_id``, ``source``, ``posted_at`` (ISO text), ``posted_by``."""
        self.entries: list[dict[str, Any]] = []
        """The entries' rows, in order: transaction ``t``, account ``a``, cents
        ``c`` (debit positive), currency ``k``."""
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
