"""Helpers shared by the cage's integration and API tests."""

from __future__ import annotations

from accounting import chart
from accounting.models import (
    Account,
    BoxCount,
    Cage,
    CashTransaction,
    Entry,
    Payable,
    Receipt,
    Shift,
    TableSlip,
    Transaction,
)
from accounting.services import Leg, transaction_post


def snapshot() -> dict[str, object]:
    """Every count and balance a refusal must leave as it was."""
    return {
        "transactions": Transaction.objects.count(),
        "entries": Entry.objects.count(),
        "receipts": Receipt.objects.count(),
        "cash_transactions": CashTransaction.objects.count(),
        "slips": list(TableSlip.objects.values_list("pk", "status")),
        "counts": BoxCount.objects.count(),
        "payables": list(Payable.objects.values_list("pk", "status")),
        "shifts": list(Shift.objects.values_list("pk", "status")),
        "receipt_counters": list(Cage.objects.values_list("code", "next_receipt_no")),
        "balances": list(Account.objects.values_list("code", "balance_cents")),
    }


def book_award(player: str, cents: int, pool: str = "badbeat") -> Transaction:
    """Book an award the way the jackpots app will: drop → pool → awards payable."""
    transaction_post(
        kind="jackpot_drop",
        legs=[
            Leg(chart.table_jackpot_box(table="T01"), cents),
            Leg(chart.jackpot_pool(pool=pool), -cents),
        ],
        source="test",
    )
    return transaction_post(
        kind="jackpot_award",
        legs=[
            Leg(chart.jackpot_pool(pool=pool), cents),
            Leg(chart.awards_payable(), -cents),
        ],
        source="test",
        reference=f"award {player}",
    )


def book_table_activity(table: str, *, drop: int = 0, rake: int = 0) -> None:
    """Book what hands at ``table`` leave in its boxes, as the floor will."""
    if drop:
        transaction_post(
            kind="tray_stock",
            legs=[
                Leg(chart.table_tray(table=table), drop),
                Leg(chart.chip_float(), -drop),
            ],
            source="test",
        )
        transaction_post(
            kind="buy_in",
            legs=[
                Leg(chart.table_drop_box(table=table), drop),
                Leg(chart.player_stack(player="P-X", table=table), -drop),
                Leg(chart.table_tray(table=table), -drop),
                Leg(chart.chip_float(), drop),
            ],
            source="test",
        )
    if rake:
        transaction_post(
            kind="hand",
            legs=[
                Leg(chart.player_stack(player="P-X", table=table), rake),
                Leg(chart.rake_revenue(), -rake),
                Leg(chart.table_rake_box(table=table), rake),
                Leg(chart.chip_float(), -rake),
            ],
            source="test",
        )
