"""The drawer's lines (CA1): every receipt and slip kind on one, each line on a side
with its direction, and the expected balances their signed sum."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting.domain.cage import (
    CASH_LINES,
    CHIPS_LINES,
    RECEIPT_LINES,
    SLIP_LINES,
    DrawerMovements,
    receipt_line,
    slip_line,
)

CENTS = st.integers(min_value=0, max_value=10**12)
OPENINGS = {"opening_cash", "opening_chips"}
LINES = [f.name for f in dataclasses.fields(DrawerMovements) if f.name not in OPENINGS]


def test_every_movement_is_a_line_of_a_side_and_every_line_a_movement():
    """No total is left off both sides, and no side names a total that isn't one."""
    sides = {name for name, _sign in CASH_LINES} | {name for name, _ in CHIPS_LINES}
    assert sides == set(LINES)
    assert all(sign in (1, -1) for _name, sign in CASH_LINES + CHIPS_LINES)
    assert len(CASH_LINES) == len(dict(CASH_LINES))
    assert len(CHIPS_LINES) == len(dict(CHIPS_LINES))


def test_every_receipt_and_slip_kind_lands_on_a_movement():
    """Whatever a receipt or slip is, its line is a total the report adds."""
    landed = {*RECEIPT_LINES.values(), *SLIP_LINES.values()}
    landed |= {
        receipt_line("award_payout", booked_as=kind)
        for kind in ("tournament_payouts", "tournament_bounty", "jackpot_award", "")
    }
    assert landed == set(LINES)


@pytest.mark.parametrize(
    ("kind", "booked_as", "line"),
    [
        ("chip_purchase", "", "purchases"),
        ("chip_redemption", "", "redemptions"),
        ("collection", "", "collections"),
        ("tournament_entry", "", "tournament_entries"),
        ("entry_refund", "", "tournament_refunds"),
        ("award_payout", "", "payouts"),
        ("award_payout", "jackpot_award", "payouts"),
        ("award_payout", "tournament_payouts", "tournament_prizes"),
        ("award_payout", "tournament_release", "tournament_prizes"),
        ("award_payout", "tournament_satellite_seat", "tournament_prizes"),
        ("award_payout", "tournament_bounty", "tournament_bounties"),
        # What booked the award names the line of an award payout only.
        ("tournament_entry", "tournament_bounty", "tournament_entries"),
    ],
)
def test_a_receipt_is_on_the_line_of_its_kind(kind, booked_as, line):
    """An award payout goes by what booked the award: a tournament's bounty, its
    prizes, or the room's awards (CA6, TO8, TO9)."""
    assert receipt_line(kind, booked_as=booked_as) == line


def test_a_kind_on_no_line_is_refused_not_dropped():
    """An unknown kind raises instead of being left out of the reconciliation."""
    with pytest.raises(ValueError, match="no line"):
        receipt_line("marker_issued")
    with pytest.raises(ValueError, match="no line"):
        slip_line("transfer")
    assert (slip_line("fill"), slip_line("credit")) == ("fills", "credits")


def test_a_tournament_shift_expects_its_entries_less_refunds_prizes_and_bounties():
    """€500 float; 4 × €135 entries, a €105 rebuy, a €105 add-on in; a €135 refund,
    a €300 prize and a €10 bounty out. The chips don't move."""
    moves = DrawerMovements(
        opening_cash=50_000,
        opening_chips=40_000,
        purchases=10_000,
        redemptions=4_000,
        tournament_entries=4 * 13_500 + 10_500 + 10_500,
        tournament_refunds=13_500,
        tournament_prizes=30_000,
        tournament_bounties=1_000,
    )
    assert moves.expected_cash == (
        50_000 + 10_000 - 4_000 + 75_000 - 13_500 - 30_000 - 1_000
    )
    assert moves.expected_chips == 40_000 - 10_000 + 4_000
    assert moves.cash_lines() == {
        "purchases": 10_000,
        "redemptions": 4_000,
        "payouts": 0,
        "collections": 0,
        "tournament_entries": 75_000,
        "tournament_refunds": 13_500,
        "tournament_prizes": 30_000,
        "tournament_bounties": 1_000,
    }
    assert moves.chips_lines() == {
        "purchases": 10_000,
        "redemptions": 4_000,
        "fills": 0,
        "credits": 0,
    }


@given(
    opening=st.tuples(CENTS, CENTS),
    amounts=st.fixed_dictionaries({name: CENTS for name in LINES}),
)
def test_each_side_expects_its_float_plus_its_signed_lines(opening, amounts):
    """Cash in adds and cash out takes away, line by line; a line of one side
    never moves the other (tournament money is cash only)."""
    moves = DrawerMovements(opening[0], opening[1], **amounts)
    cash_in = ("purchases", "collections", "tournament_entries")
    cash_out = (
        "redemptions",
        "payouts",
        "tournament_refunds",
        "tournament_prizes",
        "tournament_bounties",
    )
    assert moves.expected_cash == opening[0] + sum(amounts[n] for n in cash_in) - sum(
        amounts[n] for n in cash_out
    )
    assert moves.expected_chips == (
        opening[1]
        - amounts["purchases"]
        + amounts["redemptions"]
        - amounts["fills"]
        + amounts["credits"]
    )


@pytest.mark.parametrize("name", LINES)
@pytest.mark.parametrize("bad", [-1, 1.5, True, "5"])
def test_every_line_takes_non_negative_cents_only(name, bad):
    """A negative, float, boolean or string total is refused on any line."""
    with pytest.raises(ValueError):
        DrawerMovements(**{name: bad})
