"""The tournaments' posting plans: every plan balances, and none takes money held
in trust below zero once :func:`covered` accepts it (TO1, TO7–TO10)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from accounting.domain.accounts import AWARDS_PAYABLE, drawer_cash_code
from core.errors import Refusal
from tournaments.domain import accounts, postings
from tournaments.domain.postings import Price, covered, overdrawn

cents = st.integers(min_value=0, max_value=10**8)
prices = st.builds(Price, cents, cents, cents, cents, st.integers(0, 10**6))
events = st.sampled_from(["ME1", "sat", "turbo"])
CASH = drawer_cash_code(cage="C1", shift=7)


def plans(event, other, price, amount, held):
    return [
        postings.purchase(event=event, cash=CASH, price=price),
        postings.refund(event=event, cash=CASH, price=price),
        postings.satellite_seat(satellite=other, target=event, price=price),
        postings.overlay(event=event, cents=amount),
        postings.payouts(event=event, payable=amount, held=held),
        postings.release(event=event, cents=amount),
        postings.bounty(event=event, cents=amount),
    ]


def balances_of(plan, draw):
    """A balance for each non-negative account the plan names."""
    return {code: draw(cents) for code, _ in plan.legs if postings.non_negative(code)}


@settings(max_examples=40)
@given(
    event=events,
    price=prices,
    amount=cents,
    held=cents,
    data=st.data(),
)
def test_every_plan_balances_and_covered_ones_never_overdraw(
    event, price, amount, held, data
):
    for plan in plans(event, f"{event}-sat", price, amount, held):
        assert plan.balanced, plan
        balances = balances_of(plan, data.draw)
        try:
            covered(plan, balances, rule="TO7")
        except Refusal as refused:
            assert (refused.code, refused.rule) == ("insufficient_funds", "TO7")
            assert overdrawn(plan, balances) != []
            continue
        assert overdrawn(plan, balances) == []


@given(price=prices)
def test_a_purchase_pays_the_drawer_and_a_refund_gives_it_back(price):
    entry = postings.purchase(event="ME1", cash=CASH, price=price)
    back = postings.refund(event="ME1", cash=CASH, price=price)
    assert entry.net()[CASH] == price.total_cents
    assert entry.net()[accounts.prize_pool(event="ME1")] == -price.prize_pool_cents
    assert {c: -v for c, v in entry.net().items()} == back.net()
    # Income only: a sale never overdraws anything.
    assert overdrawn(entry, {}) == []


def test_a_refund_the_prize_pool_no_longer_holds_is_refused():
    plan = postings.refund(event="ME1", cash=CASH, price=Price(10_000, 1_000, 0, 0, 1))
    pool = accounts.prize_pool(event="ME1")
    try:
        covered(plan, {pool: 9_999, CASH: 50_000}, rule="TO10")
    except Refusal as refused:
        assert (refused.code, refused.rule, refused.allowed) == (
            "insufficient_funds",
            "TO10",
            {"max": 9_999},
        )
    else:
        raise AssertionError("a refund took the prize pool below zero")
    assert covered(plan, {pool: 10_000, CASH: 11_000}, rule="TO10") is plan


def test_the_sheet_empties_the_pool_into_awards_payable_and_held():
    plan = postings.payouts(event="ME1", payable=7_000, held=3_000)
    assert plan.net() == {
        accounts.prize_pool(event="ME1"): 10_000,
        AWARDS_PAYABLE: -7_000,
        accounts.held_prizes(event="ME1"): -3_000,
    }
