"""The accounting app's records, one module by aggregate.

- :mod:`.ledger`: accounts, transactions and their entries, kept honest by
  PostgreSQL (DESIGN.md, "Money and the ledger");
- :mod:`.players`: the players and their protection (PP1-PP7);
- :mod:`.cage`: cages, shifts, payables, receipts, cash transactions, table slips
  and box counts (CA1-CA6);
- :mod:`.common`: what they share (the code pattern, the record clock, the room's
  currency).
"""

from accounting.models.cage import (
    CA1_DEFAULT_SIGN_OFF_CENTS,
    CA5_DEFAULT_THRESHOLD_CENTS,
    BoxCount,
    Cage,
    CashTransaction,
    Payable,
    Receipt,
    Shift,
    TableSlip,
)
from accounting.models.common import CODE_REGEX, record_time, room_currency
from accounting.models.ledger import (
    DATABASE_REFUSES,
    DATABASE_TRIGGERS,
    DEBIT_NORMAL,
    PENDING_SQL,
    Account,
    AccountType,
    BalanceField,
    BalanceFold,
    BalanceSnapshot,
    Entry,
    Transaction,
)
from accounting.models.players import (
    AwardDecision,
    DocumentLookup,
    DoorRefusal,
    IdentityDocument,
    Player,
    PlayerChange,
    ProtectionRules,
    Restriction,
    RestrictionEnd,
)

# The names the migrations written before this split give the defaults.
_now = record_time
_room_currency = room_currency

__all__ = [
    "CA1_DEFAULT_SIGN_OFF_CENTS",
    "CA5_DEFAULT_THRESHOLD_CENTS",
    "CODE_REGEX",
    "DATABASE_REFUSES",
    "DATABASE_TRIGGERS",
    "DEBIT_NORMAL",
    "PENDING_SQL",
    "Account",
    "AccountType",
    "AwardDecision",
    "BalanceField",
    "BalanceFold",
    "BalanceSnapshot",
    "BoxCount",
    "Cage",
    "CashTransaction",
    "DocumentLookup",
    "DoorRefusal",
    "Entry",
    "IdentityDocument",
    "Payable",
    "Player",
    "PlayerChange",
    "ProtectionRules",
    "Receipt",
    "Restriction",
    "RestrictionEnd",
    "Shift",
    "TableSlip",
    "Transaction",
    "record_time",
    "room_currency",
]
