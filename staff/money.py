"""Money as the cage shows and types it: :mod:`core.money`, the one formatter and
the one strict parser (Babel's CLDR formats), seen from the staff screens.

>>> money_format(123450, "EUR", "fi")
'1\\xa0234,50\\xa0€'
>>> money_parse("500", "EUR", "en")
50000

The screens' scripts and labels need to know where the sign goes and which
separator is the decimal one: :func:`style_of` reads that from the same CLDR data.
"""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import get_decimal_symbol, get_group_symbol

from core.money import (
    MoneyInputError,
    decimals_of,
    locale_of,
    money_format,
    money_parse,
    symbol_of,
    units_format,
)

__all__ = [
    "MoneyInputError",
    "Style",
    "decimals_of",
    "money_format",
    "money_parse",
    "style_of",
    "symbol_of",
    "units_format",
]


@dataclass(frozen=True, slots=True)
class Style:
    """How a locale writes an amount: separators and where the symbol goes."""

    group: str
    decimal: str
    symbol_after: bool


def style_of(language: str | None) -> Style:
    """The CLDR style for ``language`` (``fi``, ``fi-FI``…), English otherwise."""
    locale = locale_of(language)
    pattern = locale.currency_formats["standard"].pattern
    return Style(
        group=str(get_group_symbol(locale)),
        decimal=str(get_decimal_symbol(locale)),
        symbol_after=not pattern.lstrip().startswith("¤"),
    )
