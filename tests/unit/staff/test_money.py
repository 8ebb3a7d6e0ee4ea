"""Money as the cage shows and types it (core.money, staff.common.money): no
database."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.money import MoneyInputError, money_format, money_parse
from staff.common import money

LANGUAGES = ("en", "fi", "ko")


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(money).failed == 0


@settings(max_examples=150)
@given(
    cents=st.integers(min_value=0, max_value=10**13),
    currency=st.sampled_from(["EUR", "KRW", "USD"]),
    language=st.sampled_from(LANGUAGES),
)
def test_what_is_shown_reads_back_as_the_same_cents(cents, currency, language):
    """An amount shown on a screen, typed back as it is shown, is the same money."""
    assert money_parse(money_format(cents, currency, language), currency, language) == (
        cents
    )


@pytest.mark.parametrize(
    ("typed", "language", "cents"),
    [
        ("500", "en", 50_000),
        ("500", "fi", 50_000),
        ("1,234.50", "en", 123_450),
        ("1 234,50", "fi", 123_450),
        ("12.5", "fi", 1_250),
        ("€ 20", "ko", 2_000),
        (",50", "fi", 50),
    ],
)
def test_amounts_are_typed_in_units_as_the_locale_writes_them(typed, language, cents):
    assert money_parse(typed, "EUR", language) == cents


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "empty"),
        ("€", "empty"),
        ("-5", "negative"),
        ("12.345", "too_many_decimals"),
        ("abc", "not_a_number"),
        ("5e3", "not_a_number"),
        ("١٢", "not_a_number"),
    ],
)
def test_what_isnt_an_amount_is_refused_with_the_reason(typed, reason):
    with pytest.raises(MoneyInputError) as refused:
        money_parse(typed, "EUR", "en")
    assert refused.value.reason == reason


def test_won_have_no_cents_and_floats_are_never_money():
    assert money_format(1_234_500, "KRW", "ko") == "₩1,234,500"
    with pytest.raises(MoneyInputError):
        money_parse("1,000.5", "KRW", "ko")
    with pytest.raises(TypeError):
        money_format(12.5, "EUR", "en")  # type: ignore[arg-type]
