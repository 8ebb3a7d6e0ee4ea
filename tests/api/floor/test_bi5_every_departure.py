"""BI5 through the terminal API: every departure of the night counts (RULES.md BI5).

The two cases found live, where only the night's last departure was remembered:
each refused with the rule and what is allowed, and nothing booked.
"""

from __future__ import annotations

import pytest

from accounting.models import Account, Entry, Transaction
from cardroom.models import SeatSession, StackMovement
from tests.api.floor.conftest import leave, seat

pytestmark = pytest.mark.django_db

FIVE_TEN = {
    "small_blind": 500,
    "big_blind": 1_000,
    "min_buy_in": 40_000,
    "max_buy_in": 300_000,
}
TWO_FIVE_SMALL = {"max_buy_in": 40_000}


def ledger() -> tuple[object, ...]:
    """Entries, transactions, every balance, and the floor's rows."""
    return (
        Entry.objects.count(),
        Transaction.objects.count(),
        tuple(Account.objects.order_by("code").values_list("code", "balance_cents")),
        StackMovement.objects.count(),
        SeatSession.objects.count(),
    )


def refused(answer, rule: str) -> dict:
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert error["rule"] == rule, error
    return error


def test_back_to_t1_after_plo_more_than_an_hour_later(clock, open_table, players):
    """Left T1 with €350, played PLO, back to T1 over an hour later for €100."""
    t1, plo = open_table("T1", "NL12"), open_table("P1", "PLO12")
    assert seat(t1, "T1", 1, "P-1", 35_000).status_code == 201
    assert leave(t1, "T1", 1, 35_000).status_code == 200
    clock.advance(minutes=5)
    # BI5 d: to another structure he may start with the minimum.
    assert seat(plo, "P1", 1, "P-1", 10_000, method="chips").status_code == 201
    clock.advance(minutes=50)
    assert leave(plo, "P1", 1, 10_000).status_code == 200
    clock.advance(minutes=20)  # 75 minutes after T1: BI6's hour is over

    before = ledger()
    error = refused(seat(t1, "T1", 2, "P-1", 10_000, method="chips"), "BI5")
    assert error["allowed"] == {"min": 35_000, "max": 40_000}
    assert ledger() == before
    back = seat(t1, "T1", 2, "P-1", 35_000, method="chips")
    assert back.status_code == 201 and back.json()["kind"] == "return"


def test_back_to_five_ten_after_moving_down(clock, open_table, players):
    """Left 5/10 with €3,000, moved down with €400, back to 5/10 for €500."""
    high = open_table("H1", "NL25", **FIVE_TEN)
    low = open_table("L1", "NL25", **TWO_FIVE_SMALL)
    assert seat(high, "H1", 1, "P-1", 300_000).status_code == 201
    assert leave(high, "H1", 1, 300_000).status_code == 200
    clock.advance(minutes=10)
    # BI5 c: down in stakes, his stack capped at the new maximum of €400.
    assert seat(low, "L1", 1, "P-1", 40_000, method="chips").status_code == 201
    clock.advance(minutes=80)
    assert leave(low, "L1", 1, 40_000).status_code == 200
    clock.advance(minutes=5)

    before = ledger()
    error = refused(seat(high, "H1", 2, "P-1", 50_000, method="chips"), "BI5")
    assert error["allowed"] == {"min": 300_000, "max": 300_000}
    assert ledger() == before
    back = seat(high, "H1", 2, "P-1", 300_000, method="chips")
    assert back.status_code == 201, back.content
