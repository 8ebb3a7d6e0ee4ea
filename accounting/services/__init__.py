"""The ledger's services and the cage's: every write of accounting (L1–L6, CA1–CA6).

- :mod:`~accounting.services.ledger`: open accounts, post transactions, reverse
  them, fold the balances, take a snapshot; the only way money moves.
- :mod:`~accounting.services.posting`: a posting plan's codes resolved to accounts
  (opened on first use) and posted; every app's services post through it.
- :mod:`~accounting.services.bulk`: postings written with a caller's own rows in
  one statement (the floor's hand path), netted and checked as the ledger checks.
- :mod:`~accounting.services.cage`: the cage's use cases (shifts, receipts, slips
  and counts, players and their identity, receivables, player protection, held
  awards), its public names importable from the package.

The reads are :mod:`accounting.selectors`'s; the chart's accounts by name, each
opened on first use, are :mod:`accounting.chart`'s, beside the skeleton as
:mod:`tournaments.chart` is. Other apps import from this package
(``from accounting.services import plan_post``) or its ``cage`` package.
"""

from accounting.services.bulk import AccountRow, Postings, account_json
from accounting.services.ledger import (
    InsufficientFunds,
    LedgerError,
    Leg,
    Posting,
    account_get_or_open,
    balances_fold,
    retry_on_conflict,
    snapshot_at,
    transaction_open,
    transaction_post,
    transaction_reverse,
)
from accounting.services.posting import account_for, legs_resolve, plan_post

__all__ = [
    "AccountRow",
    "InsufficientFunds",
    "LedgerError",
    "Leg",
    "Posting",
    "Postings",
    "account_for",
    "account_get_or_open",
    "account_json",
    "balances_fold",
    "legs_resolve",
    "plan_post",
    "retry_on_conflict",
    "snapshot_at",
    "transaction_open",
    "transaction_post",
    "transaction_reverse",
]
