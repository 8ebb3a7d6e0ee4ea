"""Writes to the ledger: open accounts, post transactions, reverse them.

Every function here is the only way the application moves money. PostgreSQL refuses
what must never happen (see ``accounting.models``); these checks come first so the
refusal a person reads is friendly, and the database stays the last word.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ParamSpec, Protocol, TypeVar

from django.contrib.auth.models import User
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone
from psycopg import errors as pg_errors

from accounting.errors import (
    Code,
    InsufficientFunds,
    LedgerError,
    conflict,
    insufficient,
    ledger_refuse,
)
from accounting.models import (
    Account,
    AccountType,
    BalanceFold,
    BalanceSnapshot,
    Entry,
    Transaction,
)
from core.db import rows
from core.errors import SharedCode
from core.work import retried

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Leg:
    """One intended movement: ``amount_cents`` (debit positive) on ``account``."""

    account: Account
    amount_cents: int


def account_get_or_open(
    *,
    code: str,
    name: str,
    type: AccountType,
    currency: str,
    non_negative: bool = False,
    summed: bool | None = None,
) -> Account:
    """Return the account ``code``, opening it if new.

    ``summed`` (by default: an account without a floor) keeps its balance as a sum
    of entries, for house accounts every table moves (``accounting.models``).

    Raises :class:`LedgerError` if it exists with another type, currency or flag.
    """
    account, _created = Account.objects.get_or_create(
        code=code,
        defaults={
            "name": name,
            "type": type,
            "currency": currency,
            "non_negative": non_negative,
            "summed": (not non_negative) if summed is None else summed,
        },
    )
    if (account.type, account.currency, account.non_negative) != (
        type,
        currency,
        non_negative,
    ):
        raise ledger_refuse(
            Code.ACCOUNT_MISMATCH,
            code=code,
            type=account.type,
            currency=account.currency,
        )
    return account


def retry_on_conflict(
    attempts: int = 5,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Retry the whole atomic unit on deadlock or serialization failure.

    Must wrap the outermost ``transaction.atomic``: a retry inside a rolled-back
    transaction would be pointless (:func:`core.work.retried`, the unit of work's
    retry).
    """
    return retried(attempts)


class _Keyed(Protocol):
    @property
    def pk(self) -> int: ...


A = TypeVar("A", bound=_Keyed)


def net_pairs(legs: Iterable[tuple[A, int]]) -> list[tuple[A, int]]:
    """Net (account, debit-positive cents) legs per account, drop zeros, order by
    primary key; refuse an amount that isn't integer cents (:class:`LedgerError`).

    One entry per account keeps the non-negative check exact whatever the order of
    rows, and the primary-key order is the lock order that avoids deadlocks.
    """
    sums: dict[int, int] = defaultdict(int)
    accounts: dict[int, A] = {}
    for account, amount in legs:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ledger_refuse(Code.NOT_CENTS)
        sums[account.pk] += amount
        accounts[account.pk] = account
    return [(accounts[pk], sums[pk]) for pk in sorted(sums) if sums[pk]]


def _net(legs: Iterable[Leg]) -> list[tuple[Account, int]]:
    """:func:`net_pairs` of the legs."""
    return net_pairs((leg.account, leg.amount_cents) for leg in legs)


class _Typed(Protocol):
    @property
    def type(self) -> str: ...


def balance_moved(account: _Typed, amount_cents: int) -> int:
    """How much an entry of ``amount_cents`` (debit-positive) moves the balance of
    ``account``, stored in its normal sign."""
    return (
        amount_cents
        if account.type in (AccountType.ASSET, AccountType.EXPENSE)
        else (-amount_cents)
    )


class _InCurrency(Protocol):
    @property
    def currency(self) -> str: ...


def check_netted(netted: Sequence[tuple[_InCurrency, int]]) -> None:
    """Refuse netted legs that name fewer than two accounts or don't balance per
    currency (:class:`LedgerError`)."""
    if len(netted) < 2:
        raise ledger_refuse(Code.TOO_FEW_ENTRIES)
    per_currency: dict[str, int] = defaultdict(int)
    for account, amount in netted:
        per_currency[account.currency] += amount
    unbalanced = {c: s for c, s in per_currency.items() if s}
    if unbalanced:
        raise ledger_refuse(Code.UNBALANCED, allowed={"sum": 0}, sums=unbalanced)


def _insufficient(
    netted: list[tuple[Account, int]], balances: dict[int, int] | None = None
) -> InsufficientFunds:
    """Name the account the posting would overdraw.

    ``balances`` (account id to balance) when the caller can't query any more (its
    database transaction failed); read from the accounts otherwise.
    """
    if balances is None:
        ids = [a.pk for a, _amount in netted if a.non_negative]
        balances = {a.pk: a.balance_cents for a in Account.objects.filter(pk__in=ids)}
    for account, amount in netted:
        balance = balances.get(account.pk)
        if account.non_negative and balance is not None:
            if balance + balance_moved(account, amount) >= 0:
                continue
            return insufficient(
                account=account.code,
                balance=balance,
                amount=-balance_moved(account, amount),
            )
    return insufficient()


def _overdrawn(exc: IntegrityError) -> bool:
    cause = exc.__cause__
    return isinstance(cause, pg_errors.CheckViolation) and (
        "account_non_negative_balance" in str(cause)
    )


def _entries_insert(txn: Transaction, netted: list[tuple[Account, int]]) -> None:
    """Write the entries in one statement; ``ledger_entry_apply`` moves the balances."""
    rows.insert_rows(
        Entry,
        [
            {
                "transaction_id": txn.pk,
                "account_id": account.pk,
                "amount_cents": amount,
                "currency": account.currency,
            }
            for account, amount in netted
        ],
    )


@dataclass(frozen=True, slots=True)
class Posting:
    """A transaction whose row is written and whose entries are still to come.

    Made by :func:`transaction_open`; :func:`transaction_post` writes its entries.
    """

    transaction: Transaction
    netted: list[tuple[Account, int]]


def transaction_open(
    *,
    kind: str,
    legs: Iterable[Leg],
    posted_by: User | None = None,
    source: str = "",
    reference: str = "",
    memo: str = "",
    external_id: str | None = None,
    approved_by: User | None = None,
    reverses: Transaction | None = None,
    posted_at: datetime | None = None,
) -> Posting:
    """Check the legs and write the transaction's row, without its entries yet.

    For a booking whose own rows point at the transaction and whose entries should
    come last: entries lock the accounts they move until the commit, and some
    accounts (chip float, rake revenue, jackpot drops) are moved by every table's
    hands. The caller writes the entries before its database transaction commits
    (:func:`transaction_post` does); the deferred ``ledger_transaction_balanced``
    trigger refuses a transaction without entries.

    No savepoint and no look-up of ``external_id``: the caller holds a lock that
    makes the key new, and a failure fails its whole database transaction.

    Raises :class:`LedgerError` when the legs don't balance per currency or name
    fewer than two accounts.
    """
    netted = _net(legs)
    check_netted(netted)
    txn = Transaction(
        kind=kind,
        reference=reference,
        memo=memo,
        external_id=external_id,
        posted_by=posted_by,
        source=source,
        approved_by=approved_by,
        reverses=reverses,
        posted_at=posted_at or timezone.now(),
    )
    rows.insert(txn)
    return Posting(txn, netted)


def transaction_post(
    *,
    kind: str,
    legs: Iterable[Leg],
    posted_by: User | None = None,
    source: str = "",
    reference: str = "",
    memo: str = "",
    external_id: str | None = None,
    approved_by: User | None = None,
    reverses: Transaction | None = None,
    posted_at: datetime | None = None,
) -> Transaction:
    """Post a balanced transaction and move its accounts' balances.

    Runs in the caller's database transaction (a savepoint), so a caller booking a
    hand or a receipt commits it together with its own rows. ``external_id``, when
    given, makes a retry return the transaction already posted under it.

    Raises :class:`LedgerError` when the legs don't balance per currency or name
    fewer than two accounts, :class:`InsufficientFunds` when an account flagged
    non-negative would go below zero, :class:`Conflict` when ``external_id`` was
    used for other entries.
    """
    legs = list(legs)
    netted = _net(legs)
    check_netted(netted)
    if external_id is not None:
        existing = Transaction.objects.filter(external_id=external_id).first()
        if existing is not None:
            return _same_or_conflict(existing, netted)
    try:
        with transaction.atomic():
            txn = transaction_open(
                kind=kind,
                legs=legs,
                posted_by=posted_by,
                source=source,
                reference=reference,
                memo=memo,
                external_id=external_id,
                approved_by=approved_by,
                reverses=reverses,
                posted_at=posted_at,
            ).transaction
            _entries_insert(txn, netted)
    except IntegrityError as exc:
        if _overdrawn(exc):
            raise _insufficient(netted) from exc
        if external_id is not None and isinstance(
            exc.__cause__, pg_errors.UniqueViolation
        ):
            existing = Transaction.objects.get(external_id=external_id)
            return _same_or_conflict(existing, netted)
        raise
    return txn


def _same_or_conflict(
    existing: Transaction, netted: list[tuple[Account, int]]
) -> Transaction:
    have = sorted(existing.entries.values_list("account_id", "amount_cents"))
    want = sorted((account.pk, amount) for account, amount in netted)
    if have != want:
        raise conflict(Code.POSTING_CONFLICT, key=existing.external_id)
    return existing


def transaction_reverse(
    *,
    original: Transaction,
    requested_by: User | None,
    reason: str,
    approved_by: User | None = None,
    source: str = "",
    kind: str = "reversal",
) -> Transaction:
    """Post the mirror image of ``original`` (DC2): every entry back, pointing at it.

    Raises :class:`LedgerError` (rule DC2) without a reason, when ``original`` is
    already reversed or is itself a reversal, or when the approver is the requester.
    """
    if not reason.strip():
        raise ledger_refuse(SharedCode.REASON_REQUIRED, rule="DC2")
    if (
        approved_by is not None
        and requested_by is not None
        and (approved_by.pk == requested_by.pk)
    ):
        raise ledger_refuse(SharedCode.FOUR_EYES, rule="DC2")
    if original.reverses_id is not None:
        raise ledger_refuse(Code.REVERSAL_OF_REVERSAL, rule="DC2")
    if Transaction.objects.filter(reverses=original).exists():
        raise conflict(Code.ALREADY_REVERSED, rule="DC2", id=original.pk)
    legs = [
        Leg(entry.account, -entry.amount_cents)
        for entry in original.entries.select_related("account")
    ]
    try:
        return transaction_post(
            kind=kind,
            legs=legs,
            posted_by=requested_by,
            source=source or ("" if requested_by else "system"),
            approved_by=approved_by,
            reference=original.reference,
            memo=reason,
            reverses=original,
        )
    except IntegrityError as exc:
        if isinstance(exc.__cause__, pg_errors.UniqueViolation):
            raise conflict(Code.ALREADY_REVERSED, rule="DC2", id=original.pk) from exc
        raise


def balances_fold(*, attempts: int = 5) -> BalanceFold | None:
    """Move the summed accounts' pending entries into their stored balances.

    Folds every summed entry written before the fold began (migration 0011), so
    a summed balance is read from a few recent entries whatever the history. Runs
    in its own database transaction, READ COMMITTED. The fold waits at most
    200 ms for the postings in flight (the next ones wait for it); it is tried
    ``attempts`` times, and ``None`` says it never got its turn, which changes no
    balance: the next fold does the work. Called by the schedule
    (``accounting.tasks``) and the daily audit.
    """
    for attempt in range(attempts):
        try:
            with transaction.atomic():
                fold = BalanceFold.objects.create()
        except OperationalError as exc:
            if not isinstance(exc.__cause__, pg_errors.LockNotAvailable):
                raise
            time.sleep(0.05 * (attempt + 1))
            continue
        fold.refresh_from_db()
        return fold
    return None


# One statement, so one snapshot: every account's balance now, less the entries
# of the transactions dated from ``at`` on or written from the horizon on. The
# horizon is the oldest transaction of this database the snapshot saw running, its
# own or its xmax: every one below it has ended. Transaction ids are the server's, so
# the snapshot's own xmin would also wait for the other databases' transactions,
# which never write here: one left open anywhere on the server held the horizon
# back, and the audits from the stored sums re-read every entry written since. A
# transaction is another database's when pg_locks has its id held by a backend
# connected there (both readable without privileges); one ended meanwhile counts.
# The entries are found from the transactions after ``at`` through their index, one
# lookup a transaction (``OFFSET 0`` keeps the lateral join from being flattened):
# the horizon's value is unknown when the plan is made, and a hash join over every
# entry ever posted took 13 s of 45 million entries with a day after ``at``.
SNAPSHOT_SQL = """
WITH s AS MATERIALIZED (SELECT pg_current_snapshot() AS s),
elsewhere AS (
    SELECT l.transactionid
      FROM pg_locks l JOIN pg_stat_activity b ON b.pid = l.pid
     WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock'
       AND b.datid <> (SELECT oid FROM pg_database
                        WHERE datname = current_database())
),
h AS (
    SELECT least(
               pg_current_xact_id_if_assigned(),
               (SELECT min(r) FROM s, pg_snapshot_xip(s.s) AS r
                 WHERE NOT EXISTS (SELECT FROM elsewhere e
                                    WHERE e.transactionid = r::xid)),
               (SELECT pg_snapshot_xmax(s.s) FROM s)
           )::text::bigint AS x
),
after AS (
    SELECT t.id FROM accounting_transaction t WHERE t.posted_at >= %(at)s
    UNION
    SELECT t.id FROM accounting_transaction t WHERE t.xact_id >= (SELECT x FROM h)
),
since AS (
    SELECT e.account_id, sum(e.amount_cents) AS raw
      FROM after CROSS JOIN LATERAL (
           SELECT account_id, amount_cents FROM accounting_entry
            WHERE transaction_id = after.id OFFSET 0) e
     GROUP BY e.account_id
)
SELECT a.id,
       CASE WHEN a.type IN ('asset', 'expense') THEN 1 ELSE -1 END * a.balance_cents
       + CASE WHEN a.summed THEN coalesce((
             SELECT sum(p.amount_cents) FROM accounting_entry p
              WHERE p.account_id = a.id AND p.summed
                AND p.epoch >= a.summed_through), 0) ELSE 0 END
       - coalesce(since.raw, 0),
       (SELECT x FROM h)
  FROM accounting_account a LEFT JOIN since ON since.account_id = a.id
"""


def snapshot_at(at: datetime) -> BalanceSnapshot:
    """The stored balances of the postings dated before ``at``, taken if new.

    Taken from the accounts' balances now less what was posted since (dated from
    ``at`` on, or written after the snapshot's horizon): the cost is what came
    after ``at``, not the history. The daily audit takes the one at its day's
    opening and at its end (the next day's opening).
    """
    found = BalanceSnapshot.objects.filter(at=at).first()
    if found is not None:
        return found
    with connection.cursor() as cursor:
        cursor.execute(SNAPSHOT_SQL, {"at": at})
        rows = cursor.fetchall()
    horizon = rows[0][2] if rows else 0
    balances = {str(pk): int(raw) for pk, raw, _x in rows if raw}
    try:
        with transaction.atomic():
            return BalanceSnapshot.objects.create(
                at=at, horizon=horizon, balances=balances
            )
    except IntegrityError:  # taken meanwhile by another audit
        return BalanceSnapshot.objects.get(at=at)


__all__ = [
    "InsufficientFunds",
    "LedgerError",
    "Leg",
    "Posting",
    "account_get_or_open",
    "balances_fold",
    "retry_on_conflict",
    "snapshot_at",
    "transaction_open",
    "transaction_post",
    "transaction_reverse",
]
