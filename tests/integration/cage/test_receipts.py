"""Receipt numbers run without gaps per cage, whatever rolls back (CA2)."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import Cage, Receipt
from accounting.selectors import trial_balance
from accounting.services import InsufficientFunds
from accounting.services import cage as services
from accounting.services.cage import receipts as receipts_module
from core.api.errors import status_of

from .helpers import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def numbers(cage: Cage) -> list[int]:
    return list(
        Receipt.objects.filter(cage=cage)
        .order_by("number")
        .values_list("number", flat=True)
    )


def test_a_failure_after_the_counter_moved_gives_the_number_back(
    cage, shift, cashier, player, monkeypatch
):
    """A posting that fails after the number was taken leaves no gap (CA2)."""
    real_post = receipts_module.plan_post
    seen_counter: list[int] = []

    def failing_post(plan, **kwargs):
        # The counter has already moved inside this database transaction.
        seen_counter.append(Cage.objects.get(pk=cage.pk).next_receipt_no)
        raise RuntimeError("injected failure after the counter increment")

    buy = {"cage": "MAIN", "cashier": cashier, "player": "P-1001"}
    services.chip_purchase(amount_cents=10_000, **buy)
    before = snapshot()
    monkeypatch.setattr(receipts_module, "plan_post", failing_post)
    with pytest.raises(RuntimeError):
        services.chip_purchase(amount_cents=20_000, **buy)
    assert seen_counter == [3], "the failure came after the counter moved"
    assert snapshot() == before
    monkeypatch.setattr(receipts_module, "plan_post", real_post)
    services.chip_purchase(amount_cents=30_000, **buy)
    services.chip_redemption(amount_cents=5_000, **buy)
    assert numbers(cage) == [1, 2, 3]
    assert Cage.objects.get(pk=cage.pk).next_receipt_no == 4
    assert list(
        Receipt.objects.order_by("number").values_list("amount_cents", flat=True)
    ) == [10_000, 30_000, 5_000]


def test_a_refused_redemption_takes_no_number(cage, shift, cashier, player):
    """Redeeming more than the player holds is refused and the number stays free."""
    buy = {"cage": "MAIN", "cashier": cashier, "player": "P-1001"}
    services.chip_purchase(amount_cents=10_000, **buy)
    before = snapshot()
    with pytest.raises(InsufficientFunds) as refused:
        services.chip_redemption(amount_cents=10_001, **buy)
    assert status_of(refused.value) == 422
    assert refused.value.code == "insufficient_funds"
    assert refused.value.allowed == {"max": 10_000}
    assert snapshot() == before
    services.chip_redemption(amount_cents=10_000, **buy)
    assert numbers(cage) == [1, 2]
    assert chart.player_chips(player="P-1001").balance_cents == 0
    assert trial_balance().balanced


def test_each_cage_numbers_its_own_receipts(cage, shift, cashier, player, manager):
    """Two cages both start at 1 and count on their own."""
    east = Cage.objects.create(code="EAST", name="East cage", currency="EUR")
    services.cage_vault_fund(
        cage=east, cash_cents=100_000, chips_cents=100_000, by=manager
    )
    services.shift_open(cage=east, cashier=cashier, cash_cents=0, chips_cents=50_000)
    for code in ["MAIN", "EAST", "MAIN", "EAST", "EAST"]:
        services.chip_purchase(
            cage=code, cashier=cashier, player="P-1001", amount_cents=1_000
        )
    assert numbers(cage) == [1, 2]
    assert numbers(east) == [1, 2, 3]
    assert Receipt.objects.get(cage=east, number=3).no == "EAST-000003"
