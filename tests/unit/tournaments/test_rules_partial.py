"""Partial refunds as properties (TO10): each part of a refund is pro rata to what
is left of the purchase's parts, by the largest remainder; refunds of one purchase
in any number of parts add up to it to the cent, part by part."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import Refusal
from tournaments.domain.postings import Price, refund_parts

cents = st.integers(0, 5_000_000)


@st.composite
def purchases_and_parts(draw: st.DrawFn):
    price = Price(draw(cents), draw(cents), draw(cents), draw(cents), 20_000)
    total = price.total_cents
    if total == 0:
        price = Price(1, 0, 0, 0, 20_000)
        total = 1
    amounts = []
    left = total
    for _ in range(draw(st.integers(0, 6))):
        if left <= 1:
            break
        amount = draw(st.integers(1, left - 1))
        amounts.append(amount)
        left -= amount
    amounts.append(left)
    return price, amounts


def _parts(price: Price) -> tuple[int, int, int, int]:
    return (
        price.prize_pool_cents,
        price.fee_cents,
        price.staff_fee_cents,
        price.bounty_cents,
    )


@given(purchases_and_parts())
def test_refunds_in_parts_add_up_to_the_purchase_part_by_part(case) -> None:
    """TO10: every refund's parts add up to its amount, none exceeds what is left
    of its part, and the last refund leaves nothing of any part."""
    price, amounts = case
    left = price
    for amount in amounts:
        parts = refund_parts(left, amount)
        assert parts.total_cents == amount
        assert all(
            0 <= p <= rest for p, rest in zip(_parts(parts), _parts(left), strict=True)
        )
        left = Price(
            *(rest - p for p, rest in zip(_parts(parts), _parts(left), strict=True)),
            left.chips,
        )
    assert _parts(left) == (0, 0, 0, 0)


@given(purchases_and_parts())
def test_a_part_follows_the_parts_left_to_within_a_cent(case) -> None:
    """TO10: pro rata by the largest remainder: each part within one cent of its
    exact share."""
    price, amounts = case
    amount = amounts[0]
    parts = refund_parts(price, amount)
    for part, whole in zip(_parts(parts), _parts(price), strict=True):
        exact = amount * whole
        assert abs(part * price.total_cents - exact) < price.total_cents


def test_more_than_is_left_or_nothing_is_refused() -> None:
    price = Price(10_000, 1_000, 500, 0, 20_000)
    for amount in (0, 11_501):
        with pytest.raises(Refusal, match="TO10"):
            refund_parts(price, amount)
