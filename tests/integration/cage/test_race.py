"""Concurrent redemptions of the same chips: exactly the covered ones are paid."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from accounting import cage as services
from accounting import chart
from accounting.models import Cage, Receipt
from accounting.selectors import account_balance, trial_balance
from accounting.services import InsufficientFunds
from core.roles import Role

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 16
EACH = 3_000
HOLDING = 20_000  # covers six redemptions of 3,000 (18,000); 2,000 stay


def test_many_desks_redeem_the_same_chips_at_once(make_staff, manager, player):
    """16 desks at two cages redeem 3,000 each of 20,000 at once: 6 are paid."""
    desks = []
    for code in ["MAIN", "EAST"]:
        cage = Cage.objects.create(code=code, name=code, currency="EUR")
        services.cage_vault_fund(
            cage=cage, cash_cents=1_000_000, chips_cents=1_000_000, funded_by=manager
        )
        for n in range(2):
            cashier = make_staff(f"{code.lower()}-{n}", Role.CASHIER)
            services.shift_open(
                cage=cage, cashier=cashier, cash_cents=100_000, chips_cents=100_000
            )
            desks.append((code, cashier))
    services.chip_purchase(
        cage="MAIN", cashier=desks[0][1], player=player.code, amount_cents=HOLDING
    )
    barrier = threading.Barrier(THREADS)
    results: list[str] = []
    lock = threading.Lock()

    def desk(n: int) -> None:
        code, cashier = desks[n % len(desks)]
        try:
            barrier.wait(10)
            services.chip_redemption(
                cage=code, cashier=cashier, player=player.code, amount_cents=EACH
            )
            outcome = "paid"
        except InsufficientFunds:
            outcome = "refused"
        finally:
            connections.close_all()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=desk, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    paid = HOLDING // EACH
    assert sorted(results) == ["paid"] * paid + ["refused"] * (THREADS - paid)
    chips = chart.player_chips(player=player.code)
    assert chips.balance_cents == HOLDING - paid * EACH
    assert account_balance(account=chips) == chips.balance_cents >= 0
    assert Receipt.objects.filter(kind=Receipt.Kind.REDEMPTION).count() == paid
    # Each cage's numbers still run 1, 2, 3… without a gap.
    for code in ["MAIN", "EAST"]:
        got = sorted(
            Receipt.objects.filter(cage__code=code).values_list("number", flat=True)
        )
        assert got == list(range(1, len(got) + 1))
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
