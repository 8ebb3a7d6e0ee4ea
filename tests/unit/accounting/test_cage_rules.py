"""The cage's arithmetic: reconciliation, sign-off, the CA5 allowance, receipts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting.domain.cage import (
    DrawerMovements,
    Variance,
    identity_allowance,
    needs_sign_off,
    receipt_no,
    receipt_no_parse,
)

CENTS = st.integers(min_value=0, max_value=10**12)


def test_drawer_expectations_follow_each_movement():
    """Cash: float + purchases − redemptions − payouts; chips the other way, with
    fills out and credits in."""
    moves = DrawerMovements(
        opening_cash=500_000,
        opening_chips=400_000,
        purchases=65_000,
        redemptions=15_000,
        payouts=20_000,
        fills=100_000,
        credits=30_000,
    )
    assert moves.expected_cash == 530_000
    assert moves.expected_chips == 280_000


@given(
    cash=CENTS,
    chips=CENTS,
    purchases=CENTS,
    redemptions=CENTS,
    payouts=CENTS,
    fills=CENTS,
    credits=CENTS,
)
def test_house_value_in_the_drawer_moves_only_by_what_leaves_or_enters(
    cash, chips, purchases, redemptions, payouts, fills, credits
):
    """An exchange of cash for chips changes nothing in total; payouts and fills
    leave, credits come in."""
    moves = DrawerMovements(
        cash, chips, purchases, redemptions, payouts, fills, credits
    )
    total = moves.expected_cash + moves.expected_chips
    assert total == cash + chips - payouts - fills + credits


@pytest.mark.parametrize("bad", [-1, 1.5, True, "5"])
def test_movements_are_non_negative_cents(bad):
    """A negative, float, boolean or string amount is refused."""
    with pytest.raises(ValueError):
        DrawerMovements(purchases=bad)


@pytest.mark.parametrize(
    ("variances", "threshold", "needed"),
    [
        ([0, 0], 2_000, False),
        ([-2_000, 0], 2_000, False),
        ([2_001, 0], 2_000, True),
        ([1_500, -1_500], 2_000, True),  # they don't cancel out
        ([1, 0], 0, True),
    ],
)
def test_sign_off_is_needed_above_the_threshold(variances, threshold, needed):
    """Absolute differences are added; more than the threshold needs sign-off."""
    assert needs_sign_off(variances=variances, threshold_cents=threshold) is needed


@given(expected=CENTS, counted=CENTS)
def test_counted_is_expected_plus_over_short(expected, counted):
    """The report adds up: expected + over/short = counted."""
    v = Variance(expected=expected, counted=counted)
    assert v.expected + v.over_short == v.counted


@given(total=CENTS, threshold=st.integers(1, 10**9))
def test_the_allowance_keeps_the_day_below_the_threshold(total, threshold):
    """Without an ID, the day's total plus the allowance stays under the threshold,
    and one cent more would reach it (or the day is already there)."""
    allowed = identity_allowance(
        day_total_cents=total, threshold_cents=threshold, verified=False
    )
    assert allowed is not None and allowed >= 0
    if total < threshold:
        assert total + allowed == threshold - 1
    else:
        assert allowed == 0
    assert (
        identity_allowance(
            day_total_cents=total, threshold_cents=threshold, verified=True
        )
        is None
    )


@given(
    cage=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}", fullmatch=True),
    number=st.integers(1, 10**12 - 1),
)
def test_receipt_numbers_round_trip(cage, number):
    """What is printed parses back to the cage and number, hyphens and all."""
    assert receipt_no_parse(receipt_no(cage, number)) == (cage, number)


def test_receipt_numbers_are_printed_padded_and_refused_when_malformed():
    """MAIN-000123; zero, missing numbers or stray text are not receipts."""
    assert receipt_no("MAIN", 123) == "MAIN-000123"
    for text in ["MAIN", "MAIN-", "MAIN-0", "MAIN-12a", "-12", "MAIN 12"]:
        with pytest.raises(ValueError):
            receipt_no_parse(text)
