"""Concurrent redemptions of the same chips: exactly the covered ones are paid."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from accounting.services import InsufficientFunds
from accounting.services import cage as services
from tests.integration.cage.helpers import cage_desks, paid_exactly

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 16
EACH = 3_000
HOLDING = 20_000  # covers six redemptions of 3,000 (18,000); 2,000 stay


def test_many_desks_redeem_the_same_chips_at_once(make_staff, manager, player):
    """16 desks at two cages redeem 3,000 each of 20,000 at once: 6 are paid."""
    desks = cage_desks(make_staff, manager)
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
    paid_exactly(player.code, holding=HOLDING, paid=paid, each=EACH)
