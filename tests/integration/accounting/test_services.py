"""Posting, reversing, balances and the trial balance through the services."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.utils import timezone

from accounting import chart
from accounting.models import Account, Transaction
from accounting.selectors import trial_balance
from accounting.services import (
    InsufficientFunds,
    LedgerError,
    Leg,
    retry_on_conflict,
    transaction_post,
    transaction_reverse,
)
from core.api.errors import status_of
from core.errors import ApplicationError, Conflict
from tests.integration.cage.helpers import account_balance


def buy_chips(player: str, cents: int, **kwargs) -> Transaction:
    """A cage chip purchase: cash in, chips out of the cage to the player."""
    return transaction_post(
        kind="chip_purchase",
        legs=[
            Leg(chart.cage_cash(cage="MAIN"), cents),
            Leg(chart.player_chips(player=player), -cents),
            Leg(chart.cage_chips(cage="MAIN"), -cents),
            Leg(chart.chip_float(), cents),
        ],
        source="test",
        **kwargs,
    )


def stock_cage(cents: int = 1_000_000) -> None:
    transaction_post(
        kind="chip_stock",
        legs=[
            Leg(chart.cage_chips(cage="MAIN"), cents),
            Leg(chart.chip_float(), -cents),
        ],
        source="test",
    )
    transaction_post(
        kind="cash_float",
        legs=[
            Leg(chart.cage_cash(cage="MAIN"), cents),
            Leg(chart.house_capital(), -cents),
        ],
        source="test",
    )


def redeem(player: str, cents: int) -> Transaction:
    return transaction_post(
        kind="redemption",
        legs=[
            Leg(chart.player_chips(player=player), cents),
            Leg(chart.cage_cash(cage="MAIN"), -cents),
            Leg(chart.cage_chips(cage="MAIN"), cents),
            Leg(chart.chip_float(), -cents),
        ],
        source="test",
    )


@pytest.mark.django_db
class TestPosting:
    def test_balanced_posting_moves_balances_in_normal_sign(self):
        """A purchase raises the player's chips and the cage cash, both positive."""
        stock_cage()
        buy_chips("P-1", 20_000)
        assert chart.player_chips(player="P-1").balance_cents == 20_000
        assert chart.cage_cash(cage="MAIN").balance_cents == 1_020_000
        assert account_balance(account=chart.player_chips(player="P-1")) == 20_000

    def test_unbalanced_legs_are_refused_before_the_database(self):
        """Legs that don't sum to zero are refused with the sums, nothing written."""
        with pytest.raises(LedgerError) as refused:
            transaction_post(
                kind="x",
                legs=[
                    Leg(chart.cage_cash(cage="MAIN"), 1),
                    Leg(chart.rake_revenue(), 0),
                ],
                source="test",
            )
        assert refused.value.code == "too_few_entries"
        assert not Transaction.objects.exists()

    def test_float_amounts_are_refused(self):
        """Cents are integers; a float never reaches the ledger."""
        with pytest.raises(LedgerError):
            transaction_post(
                kind="x",
                legs=[
                    Leg(chart.cage_cash(cage="MAIN"), 1.5),
                    Leg(chart.rake_revenue(), -1.5),
                ],
                source="test",
            )

    def test_overdraw_is_refused_with_what_is_available(self):
        """Redeeming more than the player holds is refused, saying how much he has."""
        stock_cage()
        buy_chips("P-1", 5_000)
        with pytest.raises(InsufficientFunds) as refused:
            redeem("P-1", 5_001)
        assert refused.value.allowed == {"max": 5_000}
        assert chart.player_chips(player="P-1").balance_cents == 5_000

    def test_external_id_makes_a_retry_harmless(self):
        """The same posting under the same key books once; other amounts conflict."""
        stock_cage()
        first = buy_chips("P-1", 5_000, external_id="receipt:MAIN:1")
        again = buy_chips("P-1", 5_000, external_id="receipt:MAIN:1")
        assert first.pk == again.pk
        assert chart.player_chips(player="P-1").balance_cents == 5_000
        with pytest.raises(Conflict):
            buy_chips("P-1", 6_000, external_id="receipt:MAIN:1")

    def test_legs_on_one_account_are_netted(self):
        """Two legs on one account become one entry with their sum."""
        stock_cage()
        txn = transaction_post(
            kind="x",
            legs=[
                Leg(chart.cage_cash(cage="MAIN"), 300),
                Leg(chart.cage_cash(cage="MAIN"), -100),
                Leg(chart.house_capital(), -200),
            ],
            source="test",
        )
        assert sorted(txn.entries.values_list("amount_cents", flat=True)) == [-200, 200]

    def test_balance_at_a_time(self):
        """Balances at a past moment count only what was posted by then."""
        stock_cage()
        buy_chips("P-1", 1_000, posted_at=timezone.now() - timedelta(hours=2))
        buy_chips("P-1", 2_000)
        chips = chart.player_chips(player="P-1")
        assert (
            account_balance(account=chips, at=timezone.now() - timedelta(hours=1))
            == 1_000
        )
        assert account_balance(account=chips) == 3_000


@pytest.mark.django_db
class TestReversal:
    def test_reversal_restores_every_balance_and_points_at_the_original(self):
        """DC2: a reversal is a new transaction mirroring the original."""
        alice = User.objects.create(username="alice")
        bob = User.objects.create(username="bob")
        stock_cage()
        original = buy_chips("P-1", 4_000)
        reversal = transaction_reverse(
            original=original,
            requested_by=alice,
            approved_by=bob,
            reason="wrong player",
        )
        assert reversal.reverses == original
        assert chart.player_chips(player="P-1").balance_cents == 0
        assert Transaction.objects.count() == 4

    def test_reversal_needs_a_reason_two_people_and_happens_once(self):
        """DC2 refusals: no reason, same approver, twice, a reversal of a reversal."""
        alice = User.objects.create(username="alice")
        bob = User.objects.create(username="bob")
        stock_cage()
        original = buy_chips("P-1", 4_000)
        with pytest.raises(LedgerError) as no_reason:
            transaction_reverse(original=original, requested_by=alice, reason=" ")
        assert no_reason.value.rule == "DC2"
        with pytest.raises(LedgerError):
            transaction_reverse(
                original=original, requested_by=alice, approved_by=alice, reason="x"
            )
        reversal = transaction_reverse(
            original=original, requested_by=alice, reason="x"
        )
        with pytest.raises(ApplicationError) as twice:
            transaction_reverse(original=original, requested_by=bob, reason="again")
        assert status_of(twice.value) == 409
        with pytest.raises(LedgerError):
            transaction_reverse(original=reversal, requested_by=bob, reason="undo")

    def test_reversal_that_would_overdraw_is_refused(self):
        """Chips already redeemed can't be taken back by reversing the purchase."""
        stock_cage()
        purchase = buy_chips("P-1", 4_000)
        redeem("P-1", 4_000)
        with pytest.raises(InsufficientFunds):
            transaction_reverse(original=purchase, requested_by=None, reason="x")


@pytest.mark.django_db
def test_trial_balance_is_zero_and_agrees_with_cached_balances():
    """Debits equal credits per currency; cached balances equal their entries."""
    stock_cage()
    buy_chips("P-1", 4_000)
    buy_chips("P-2", 9_000)
    redeem("P-2", 1_000)
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
    assert tb.debits["EUR"] == tb.credits["EUR"] > 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_redemptions_pay_exactly_what_is_covered():
    """Twelve cashiers redeem 3,000 each of a 10,000 stack at once: three succeed."""
    stock_cage()
    buy_chips("P-1", 10_000)
    barrier = threading.Barrier(12)
    results: list[str] = []

    @retry_on_conflict()
    def redeem_once() -> None:
        from django.db import transaction

        with transaction.atomic():
            redeem("P-1", 3_000)

    def cashier() -> None:
        try:
            barrier.wait(10)
            redeem_once()
            results.append("paid")
        except InsufficientFunds:
            results.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=cashier) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["paid"] * 3 + ["refused"] * 9
    chips = Account.objects.get(code="player:P-1:chips")
    assert chips.balance_cents == 1_000 == account_balance(account=chips)
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
