"""Helpers shared by the cage's integration and API tests."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Sum

from accounting import chart
from accounting.models import (
    DEBIT_NORMAL,
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
from accounting.selectors import trial_balance
from accounting.services import Leg, transaction_post
from accounting.services import cage as services
from core.roles import Role


def account_balance(*, account: Account, at: datetime | None = None) -> int:
    """``account``'s balance in its normal sign, summed from its entries (the
    oracle the cached balances are checked against); with ``at``, only the
    transactions posted by then."""
    entries = Entry.objects.filter(account=account)
    if at is not None:
        entries = entries.filter(transaction__posted_at__lte=at)
    total = entries.aggregate(s=Sum("amount_cents"))["s"] or 0
    return total if account.type in DEBIT_NORMAL else -total


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


def cage_desks(make_staff, manager) -> list[tuple[str, User]]:
    """Fund cages MAIN and EAST and open two cashiers' shifts at each (CA1).

    Return the desks as ``(cage code, cashier)``; each drawer holds 100,000 in cash
    and as much in chips.
    """
    desks = []
    for code in ["MAIN", "EAST"]:
        cage = Cage.objects.create(code=code, name=code, currency="EUR")
        services.cage_vault_fund(
            cage=cage, cash_cents=1_000_000, chips_cents=1_000_000, by=manager
        )
        for n in range(2):
            cashier = make_staff(f"{code.lower()}-{n}", Role.CASHIER)
            services.shift_open(
                cage=cage, cashier=cashier, cash_cents=100_000, chips_cents=100_000
            )
            desks.append((code, cashier))
    return desks


def paid_exactly(player: str, *, holding: int, paid: int, each: int) -> None:
    """Check ``paid`` redemptions of ``each`` from ``holding`` chips were booked, and
    no more: the chips left, the receipts, their numbers (CA2), the trial balance."""
    chips = chart.player_chips(player=player)
    assert chips.balance_cents == holding - paid * each, chips.balance_cents
    assert account_balance(account=chips) == chips.balance_cents >= 0
    redemptions = Receipt.objects.filter(kind=Receipt.Kind.REDEMPTION).count()
    assert redemptions == paid, redemptions
    # Each cage's numbers still run 1, 2, 3… without a gap.
    for code in Cage.objects.values_list("code", flat=True):
        got = sorted(
            Receipt.objects.filter(cage__code=code).values_list("number", flat=True)
        )
        assert got == list(range(1, len(got) + 1)), (code, got)
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree, tb


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
