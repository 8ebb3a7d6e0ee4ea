"""The cage's posting plans: each balances, and never takes a non-negative account
below zero for the balances it accepts; what it refuses would have."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting.domain import cage_postings as cp
from accounting.domain.accounts import spec_of
from accounting.domain.postings import overdrawn
from accounting.errors import InsufficientFunds

names = st.text(alphabet="ABCDEFGHJKMNPQRSTUVWXYZ0123456789-", min_size=1, max_size=8)
shifts = st.integers(min_value=1, max_value=10**6)
cents = st.integers(min_value=0, max_value=10**9)
signed = st.integers(min_value=-(10**9), max_value=10**9)

PLANS = {
    "vault": st.builds(
        lambda cage, cash, chips, sign: {
            "build": cp.vault_plan,
            "kind": "vault_fund" if sign > 0 else "vault_withdraw",
            "cage": cage,
            "cash": cash,
            "chips": chips,
            "sign": sign,
        },
        names,
        cents,
        cents,
        st.sampled_from([1, -1]),
    ),
    "shift open": st.builds(
        lambda cage, shift, cash, chips: {
            "build": cp.shift_open_plan,
            "cage": cage,
            "shift": shift,
            "cash": cash,
            "chips": chips,
        },
        names,
        shifts,
        cents,
        cents,
    ),
    "over/short": st.builds(
        lambda cage, shift, what, variance: {
            "build": cp.over_short_plan,
            "cage": cage,
            "shift": shift,
            "what": what,
            "variance": variance,
        },
        names,
        shifts,
        st.sampled_from(["cash", "chips"]),
        signed,
    ),
    "shift close": st.builds(
        lambda cage, shift, cash, chips: {
            "build": cp.drawer_return_plan,
            "cage": cage,
            "shift": shift,
            "cash": cash,
            "chips": chips,
        },
        names,
        shifts,
        cents,
        cents,
    ),
    "fill or credit": st.builds(
        lambda kind, cage, shift, table, amount: {
            "build": cp.slip_plan,
            "kind": kind,
            "cage": cage,
            "shift": shift,
            "table": table,
            "cents": amount,
        },
        st.sampled_from(["fill", "credit"]),
        names,
        shifts,
        names,
        cents,
    ),
    "box count": st.builds(
        lambda cage, table, box, recorded, counted: {
            "build": cp.box_count_plan,
            "cage": cage,
            "table": table,
            "box": box,
            "recorded": recorded,
            "counted": counted,
        },
        names,
        names,
        st.sampled_from(["drop", "rake", "jackpot"]),
        cents,
        cents,
    ),
    "purchase or redemption": st.builds(
        lambda cage, shift, player, amount: {
            "build": cp.exchange_plan,
            "cage": cage,
            "shift": shift,
            "player": player,
            "cents": amount,
        },
        names,
        shifts,
        names,
        signed,
    ),
    "award payout": st.builds(
        lambda cage, shift, amount: {
            "build": cp.award_payout_plan,
            "cage": cage,
            "shift": shift,
            "cents": amount,
        },
        names,
        shifts,
        cents,
    ),
    "receivable collection": st.builds(
        lambda cage, shift, player, amount: {
            "build": cp.collection_plan,
            "cage": cage,
            "shift": shift,
            "player": player,
            "cents": amount,
        },
        names,
        shifts,
        names,
        cents,
    ),
}


@pytest.mark.parametrize("move", PLANS.values(), ids=PLANS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_plan_balances_and_overdraws_nothing_it_accepts(move, data):
    args = data.draw(move)
    build = args.pop("build")
    raw = build(**args)
    assert raw.balanced
    assert all(cents for _code, cents in raw.legs)
    floors = sorted(c for c in raw.net() if spec_of(c).non_negative)
    balances = {
        code: data.draw(st.integers(min_value=0, max_value=2 * 10**9), label=code)
        for code in floors
    }
    try:
        plan = build(**args, balances=balances)
    except InsufficientFunds as refused:
        assert overdrawn(raw, balances), "refused a plan that overdraws nothing"
        assert refused.code == "insufficient_funds"
        assert refused.allowed == {"max": balances[refused.params["account"]]}
        return
    assert plan == raw
    assert overdrawn(plan, balances) == []


def test_a_box_count_empties_the_box_by_what_was_recorded():
    plan = cp.box_count_plan(
        cage="MAIN", table="T01", box="drop", recorded=5_000, counted=4_900
    )
    assert plan.kind == "drop_count"
    assert plan.net() == {
        "table:T01:drop_box": -5_000,
        "cage:MAIN:cash": 4_900,
        "expense:over_short": 100,
    }
