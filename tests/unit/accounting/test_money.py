"""Money and splits: exact, by the largest remainder (JD4, BB6, HM2, HS5)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting.domain.money import Money, MoneyError, rate_of, ratio_split

amounts = st.integers(min_value=0, max_value=10**12)
ratio_lists = st.lists(
    st.integers(min_value=0, max_value=1000), min_size=1, max_size=12
).filter(lambda r: sum(r) > 0)


@given(amounts, ratio_lists, st.sampled_from([1, 5, 25, 50, 100]))
def test_shares_add_up_exactly(amount, ratios, unit):
    """The shares always add up to the amount."""
    assert sum(ratio_split(amount, ratios, unit)) == amount


@given(amounts, ratio_lists, st.sampled_from([1, 50, 100]))
def test_shares_are_within_one_unit_of_exact(amount, ratios, unit):
    """Each share is within one unit (plus dust) of its exact proportion."""
    shares = ratio_split(amount, ratios, unit)
    total = sum(ratios)
    dust = amount % unit
    for share, r in zip(shares, ratios, strict=True):
        exact = Decimal(amount - dust) * r / total
        assert abs(Decimal(share) - exact) < unit + dust


@given(
    st.integers(min_value=0, max_value=10**9),
    st.integers(1, 12),
    st.sampled_from([1, 50]),
)
def test_equal_split_differs_by_at_most_one_unit_and_favours_the_first(amount, n, unit):
    """Equal ratios: shares differ by at most one unit; odd units go first in order."""
    shares = ratio_split(amount - amount % unit, [1] * n, unit)
    assert max(shares) - min(shares) <= unit
    assert shares == sorted(shares, reverse=True)


def test_worked_examples():
    """The bad-beat split 50/25/25 of 1,001 cents and an odd chip."""
    assert ratio_split(1001, [50, 25, 25]) == [501, 250, 250]
    assert ratio_split(150, [1, 1], unit=50) == [100, 50]
    assert ratio_split(125, [1, 1], unit=50) == [75, 50]


def test_bad_input_is_refused():
    """Negative amounts, no positive ratio, floats: refused."""
    with pytest.raises(MoneyError):
        ratio_split(-1, [1])
    with pytest.raises(MoneyError):
        ratio_split(1, [0, 0])
    with pytest.raises(MoneyError):
        ratio_split(1.0, [1])  # type: ignore[arg-type]


def test_money_refuses_floats_and_mixed_currencies():
    """Money is integer cents of one currency."""
    with pytest.raises(MoneyError):
        Money(1.5, "EUR")  # type: ignore[arg-type]
    with pytest.raises(MoneyError):
        Money(1, "EUR") + Money(1, "SEK")
    assert Money(250, "EUR") + Money(50, "EUR") == Money(300, "EUR")
    assert str(Money(-1205, "EUR")) == "-12.05 EUR"
    assert Money(100, "EUR").split([1, 1, 1]) == [
        Money(34, "EUR"),
        Money(33, "EUR"),
        Money(33, "EUR"),
    ]


@given(
    st.integers(0, 10**9), st.sampled_from(["5", "10", "2.5"]), st.sampled_from([1, 50])
)
def test_rate_is_rounded_down_to_the_unit(amount, rate, unit):
    """A rate never takes more than its exact value, and is a whole number of units."""
    taken = rate_of(amount, rate, unit)
    assert taken % unit == 0
    assert Decimal(taken) <= Decimal(amount) * Decimal(rate) / 100 < taken + unit
