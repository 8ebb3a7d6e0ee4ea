"""Posting plans and the pure chart: codes read back into the accounts they name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounting.domain import accounts
from accounting.domain.postings import Plan, normal, overdrawn

names = st.text(
    alphabet=st.characters(
        codec="ascii", categories=["L", "N"], include_characters="-_"
    ),
    min_size=1,
    max_size=12,
)

CODES = [
    (accounts.player_stack_code, ("player", "table"), "liability", True),
    (accounts.stack_review_hold_code, ("player", "table"), "liability", True),
    (accounts.player_chips_code, ("player",), "liability", True),
    (accounts.custody_code, ("player",), "liability", True),
    (accounts.receivables_code, ("player",), "asset", True),
    (accounts.table_tray_code, ("table",), "asset", True),
    (accounts.table_drop_box_code, ("table",), "asset", True),
    (accounts.table_rake_box_code, ("table",), "asset", True),
    (accounts.table_jackpot_box_code, ("table",), "asset", True),
    (accounts.table_suspense_code, ("table",), "asset", False),
    (accounts.cage_cash_code, ("cage",), "asset", True),
    (accounts.cage_chips_code, ("cage",), "asset", True),
    (accounts.jackpot_pool_code, ("pool",), "liability", True),
    (accounts.jackpot_reserve_code, ("pool",), "liability", True),
]


@pytest.mark.parametrize(("build", "keys", "kind", "floor"), CODES)
@settings(max_examples=25)
@given(values=st.lists(names, min_size=2, max_size=2))
def test_every_code_reads_back_as_the_account_it_names(
    build, keys, kind, floor, values
):
    code = build(**dict(zip(keys, values, strict=False)))
    spec = accounts.spec_of(code)
    assert (spec.code, spec.type, spec.non_negative) == (code, kind, floor)
    assert spec.summed is not floor
    for value in values[: len(keys)]:
        assert value in spec.name


@given(cage=names, shift=st.integers(min_value=1, max_value=10**6))
def test_a_drawer_is_not_read_as_the_cage(cage, shift):
    assert accounts.spec_of(accounts.drawer_cash_code(cage=cage, shift=shift)).name == (
        f"Cage {cage} shift {shift} drawer cash"
    )
    assert (
        "drawer chips"
        in accounts.spec_of(accounts.drawer_chips_code(cage=cage, shift=shift)).name
    )


def test_house_accounts_are_summed_and_an_unknown_code_is_refused():
    for code in (accounts.CHIP_FLOAT, accounts.RAKE_REVENUE, accounts.JACKPOT_DROPS):
        assert accounts.spec_of(code).summed
    assert accounts.spec_of(accounts.JACKPOT_DROPS).non_negative
    with pytest.raises(ValueError, match="No account"):
        accounts.spec_of("nothing:like:this")


@given(amount=st.integers(min_value=1, max_value=10**9), held=st.integers(0, 10**9))
def test_a_plan_that_takes_more_than_a_stack_holds_is_overdrawn(amount, held):
    stack = accounts.player_stack_code(player="P-1", table="T01")
    plan = Plan.of(
        "leave", [(stack, amount), (accounts.player_chips_code(player="P-1"), -amount)]
    )
    assert plan.balanced
    assert normal(stack, amount) == -amount
    assert overdrawn(plan, {stack: held}) == ([stack] if amount > held else [])
