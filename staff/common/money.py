"""Money on the staff screens: :mod:`core.money` is the one formatter and the one
strict parser (Babel's CLDR formats); here is what the screens add to it.

:func:`money_in` writes amounts of one currency in the page's language, for the
messages a view says (every screen used to make its own).

>>> from django.utils import translation
>>> with translation.override("fi"):
...     money_in("EUR")(123450)
'1\\xa0234,50\\xa0€'

The screens' scripts and labels need to know where the sign goes and which
separator is the decimal one: :func:`style_of` reads that from the same CLDR data.

>>> style_of("fi")
Style(group='\\xa0', decimal=',', symbol_after=True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from babel.numbers import get_decimal_symbol, get_group_symbol
from django.utils.translation import get_language

from core.money import locale_of, money_format

Money = Callable[[int], str]


def money_in(currency: str) -> Money:
    """Write cents of ``currency`` as the page's language does (core.money)."""
    language = get_language() or "en"
    return lambda cents: money_format(int(cents), currency, language)


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
