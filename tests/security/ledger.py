"""What a refused request must leave as it was: the ledger and the floor's records."""

from __future__ import annotations

from typing import Any

from accounting.models import Account, Entry, Receipt, Transaction
from cardroom.models import Hand, HandSeat, SeatSession, StackMovement, Table


def fingerprint() -> dict[str, Any]:
    """Entries, transactions and every balance; hands, sessions, tables, receipts."""
    return {
        "transactions": Transaction.objects.count(),
        "entries": Entry.objects.count(),
        "balances": sorted(Account.objects.values_list("code", "balance_cents")),
        "hands": sorted(Hand.objects.values_list("table__code", "hand_no")),
        "hand_seats": HandSeat.objects.count(),
        "sessions": sorted(
            SeatSession.objects.values_list("pk", "stack_cents", "ended_at")
        ),
        "movements": StackMovement.objects.count(),
        "tables": sorted(Table.objects.values_list("code", "status")),
        "receipts": Receipt.objects.count(),
    }
