"""Money as the cage shows and types it: the room's currency in the screen's locale.

Amounts are held in integer cents (the currency's minor unit); people see and type
them in units, as the locale writes them:

>>> money_format(123450, "EUR", "fi")
'1\\xa0234,50\\xa0€'
>>> money_format(123450, "EUR", "en")
'€1,234.50'
>>> money_format(-5000, "EUR", "en")
'-€50.00'
>>> money_format(1234500, "KRW", "ko")
'₩1,234,500'

Typing "500" means 500 euros, not 500 cents:

>>> money_parse("500", "EUR", "en")
50000
>>> money_parse("1 234,50 €", "EUR", "fi")
123450
>>> money_parse("€1,234.5", "EUR", "ko")
123450

Plain Python, no Django: the rules are tested by the thousand without a database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NBSP = "\xa0"
# Minor units of the currencies whose cents aren't 2 (ISO 4217).
_DECIMALS = {"KRW": 0, "JPY": 0, "ISK": 0, "HUF": 2}
_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "KRW": "₩", "JPY": "¥"}


@dataclass(frozen=True, slots=True)
class Style:
    """How a locale writes an amount: separators and where the symbol goes."""

    group: str
    decimal: str
    symbol_after: bool
    minus: str


_STYLES = {
    "fi": Style(group=NBSP, decimal=",", symbol_after=True, minus="\u2212"),
    "en": Style(group=",", decimal=".", symbol_after=False, minus="-"),
    "ko": Style(group=",", decimal=".", symbol_after=False, minus="-"),
}


class MoneyInputError(ValueError):
    """What was typed isn't an amount of the currency; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def decimals_of(currency: str) -> int:
    """The number of digits after the decimal separator in ``currency``."""
    return _DECIMALS.get(currency, 2)


def symbol_of(currency: str) -> str:
    """The currency's sign (``€``), or its code when it has no common sign."""
    return _SYMBOLS.get(currency, currency)


def style_of(language: str) -> Style:
    """The locale's style for ``language`` (``fi``, ``fi-FI``…), English otherwise."""
    return _STYLES.get(language.split("-")[0].lower(), _STYLES["en"])


def units_format(cents: int, currency: str, language: str) -> str:
    """Write ``cents`` as units without the currency sign: ``1 234,50`` in fi."""
    style = style_of(language)
    places = decimals_of(currency)
    whole, part = divmod(abs(cents), 10**places)
    digits = f"{whole:,}".replace(",", style.group)
    if places:
        digits += f"{style.decimal}{part:0{places}d}"
    return f"{style.minus}{digits}" if cents < 0 else digits


def money_format(
    cents: int, currency: str, language: str, *, whole: bool = False
) -> str:
    """Write ``cents`` of ``currency`` as ``language`` does, with the currency sign;
    ``whole`` leaves out zero cents (a note or chip: ``€500``, ``500 €``).

    Raises :class:`TypeError` for anything but integer cents (never floats).

    >>> money_format(50000, "EUR", "fi", whole=True)
    '500\xa0€'
    """
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError("money is integer cents")
    style = style_of(language)
    sign = symbol_of(currency)
    text = units_format(abs(cents), currency, language)
    places = decimals_of(currency)
    if whole and places and not cents % 10**places:
        text = text[: -(places + 1)]
    text = f"{text}{NBSP}{sign}" if style.symbol_after else f"{sign}{text}"
    return f"{style.minus}{text}" if cents < 0 else text


_SPACES = re.compile(r"[\s\u00a0\u202f\u2009']")


def money_parse(text: str, currency: str, language: str) -> int:
    """Read an amount typed in units (``500``, ``1 234,50``, ``€1,234.50``) as cents.

    The locale's decimal separator is read as such; in Finnish a point before the
    last one or two digits is taken as a decimal point too (``12.50``), as people
    type on a keypad. Raises :class:`MoneyInputError` for an empty or negative
    amount, letters, or more decimals than the currency has.
    """
    style = style_of(language)
    cleaned = _SPACES.sub("", text or "")
    for sign in {symbol_of(currency), currency, currency.lower()}:
        cleaned = cleaned.replace(sign, "")
    if not cleaned:
        raise MoneyInputError("empty")
    if cleaned[0] in "-\u2212":
        raise MoneyInputError("negative")
    places = decimals_of(currency)
    if style.decimal == ",":
        if "," not in cleaned and re.fullmatch(r"\d+\.\d{1,2}", cleaned):
            cleaned = cleaned.replace(".", ",")
        cleaned = cleaned.replace(".", "")
        whole, _, part = cleaned.partition(",")
    else:
        cleaned = cleaned.replace(",", "")
        whole, _, part = cleaned.partition(".")
    if not whole:
        whole = "0"
    if not whole.isascii() or not whole.isdigit():
        raise MoneyInputError("not_a_number")
    if part and (not part.isascii() or not part.isdigit()):
        raise MoneyInputError("not_a_number")
    if len(part) > places:
        raise MoneyInputError("too_many_decimals")
    if len(whole) > 15:
        raise MoneyInputError("too_large")
    return int(whole) * 10**places + (int(part.ljust(places, "0")) if places else 0)
