"""The jackpots' posting plans: every plan balances, and none takes money held in
trust below zero for the inputs it accepts (JD4, JD5, BB5, HM3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting.domain.accounts import (
    AWARDS_PAYABLE,
    HOUSE_CAPITAL,
    JACKPOT_DROPS,
    jackpot_pool_code,
    jackpot_reserve_code,
)
from accounting.domain.postings import overdrawn
from core.errors import Invalid, Refusal
from jackpots.domain import postings
from jackpots.domain.shares import PoolRatio

cents = st.integers(min_value=0, max_value=10**9)
keys = st.sampled_from(["main.bad-beat", "main.royal", "north.month"])


def test_a_seed_comes_from_house_capital():
    plan = postings.seed(pool="main.royal", cents=500, to_reserve=True)
    assert plan.kind == "jackpot_seed"
    assert plan.legs == (
        (HOUSE_CAPITAL, 500),
        (jackpot_reserve_code(pool="main.royal"), -500),
    )


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "5"])
def test_a_seed_is_positive_cents(bad):
    with pytest.raises(Invalid) as refused:
        postings.seed(pool="main.royal", cents=bad)
    assert refused.value.code == "invalid_amount"


@settings(max_examples=40)
@given(
    cents=cents,
    pools=st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=10**6),
            st.integers(min_value=0, max_value=100),
        ),
        max_size=4,
    ),
)
def test_a_drop_credits_the_pools_with_all_of_it(cents, pools):
    named = [(f"main.p{i}", PoolRatio(r, p)) for i, (r, p) in enumerate(pools)]
    plan = postings.drop(cents=cents, pools=named)
    assert sum(amount for _code, amount in plan.legs) == -cents
    assert all(amount <= 0 for _code, amount in plan.legs)
    assert overdrawn(plan, {}) == []
    if not pools:
        assert plan.legs == ((JACKPOT_DROPS, -cents),)
    else:
        # Every pool has its leg, in the order given.
        pool_legs = [code for code, _ in plan.legs if code.endswith(":pool")]
        assert pool_legs == [jackpot_pool_code(pool=key) for key, _ in named]


@settings(max_examples=40)
@given(pool=keys, successor=keys, amount=cents, reserve=cents)
def test_a_retired_pool_moves_all_it_holds(pool, successor, amount, reserve):
    if pool == successor:
        successor += ".next"
    plan = postings.retire(
        pool=pool, successor=successor, amount=amount, reserve=reserve
    )
    held = {
        jackpot_pool_code(pool=pool): amount,
        jackpot_reserve_code(pool=pool): reserve,
    }
    assert plan.balanced
    assert overdrawn(plan, held) == []
    net = plan.net()
    assert net.get(jackpot_pool_code(pool=pool), 0) == amount
    assert net.get(jackpot_pool_code(pool=successor), 0) == -amount
    assert net.get(jackpot_reserve_code(pool=pool), 0) == reserve
    assert net.get(jackpot_reserve_code(pool=successor), 0) == -reserve


@settings(max_examples=60)
@given(pool=keys, amount=st.integers(min_value=-5, max_value=10**6), held=cents)
def test_drops_given_to_a_pool_never_exceed_what_is_held(pool, amount, held):
    try:
        plan = postings.drops_give(pool=pool, amount=amount, held=held)
    except Refusal as refused:
        assert (refused.code, refused.rule) == ("invalid_amount", "JD5")
        assert not 0 < amount <= held
        return
    assert plan.balanced and plan.kind == "jackpot_transfer"
    assert overdrawn(plan, {JACKPOT_DROPS: held}) == []


@settings(max_examples=80)
@given(
    pool=keys,
    total=st.integers(min_value=-5, max_value=10**7),
    reserve=cents,
    held=cents,
)
def test_an_award_is_paid_from_the_pool_and_its_reserve(pool, total, reserve, held):
    balances = {
        jackpot_pool_code(pool=pool): held,
        jackpot_reserve_code(pool=pool): reserve,
        AWARDS_PAYABLE: 0,
    }
    try:
        plan = postings.award(pool=pool, total=total, reserve=reserve, held=held)
    except Refusal as refused:
        assert refused.rule == "JD5"
        assert refused.code in ("nothing_to_pay", "insufficient_funds")
        assert total <= 0 or total - reserve > held
        return
    assert plan.balanced and plan.kind == "jackpot_award"
    assert overdrawn(plan, balances) == []
    # The reserve rolls into the pool: it is empty afterwards.
    assert plan.net()[jackpot_reserve_code(pool=pool)] == reserve
    assert plan.net()[AWARDS_PAYABLE] == -total
