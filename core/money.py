"""The one way money is written and read by people: Babel's CLDR formats.

Amounts are held in integer cents (the currency's minor unit, its CLDR digits);
people see and type them in units, as the locale writes them. Every screen,
receipt, report and admin list formats money with :func:`money_format` (or
:func:`units_format` without the currency sign) and reads what a person typed with
:func:`money_parse`; none of them formats or parses money by hand
(tests/staff/test_money_one_way.py keeps it so); a game's stakes are written by
:func:`stakes_format`.

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

The parser is strict (Babel's ``parse_decimal(strict=True)``): an amount that can be
read more than one way is refused with the readings it could have, never guessed.
On an English screen ``115,50`` is not €11,550:

>>> money_parse("115,50", "EUR", "en")
Traceback (most recent call last):
...
core.money.MoneyInputError: ambiguous

Plain Python with Babel and no Django: the rules are tested by the thousand
without a database.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from babel import Locale, UnknownLocaleError
from babel.numbers import (
    NumberFormatError,
    format_currency,
    get_currency_precision,
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
    parse_decimal,
    parse_pattern,
)

# What people type between the groups of a Finnish amount: a space of any kind.
_SPACES = "\u0020\u00a0\u202f\u2009"
_MOST_DIGITS = 15


class MoneyInputError(ValueError):
    """What was typed isn't an amount of the currency; ``reason`` says why, and
    ``meant`` holds the amounts it could have been (written as the locale writes
    them), when it could be read more than one way."""

    def __init__(self, reason: str, meant: tuple[str, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.meant = meant


def locale_of(language: str | None) -> Locale:
    """The Babel locale for a Django language code (``fi``, ``ko``, ``en-us``);
    English for one Babel doesn't know."""
    try:
        return Locale.parse((language or "en").replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def decimals_of(currency: str) -> int:
    """The number of digits after the decimal separator in ``currency`` (CLDR)."""
    return int(get_currency_precision(currency))


def symbol_of(currency: str, language: str = "en") -> str:
    """The currency's sign (``€``) as ``language`` writes it."""
    return str(get_currency_symbol(currency, locale=locale_of(language)))


def _signed(text: str, cents: int, locale: Locale) -> str:
    """Babel writes a hyphen for the minus of every locale; CLDR's own sign is the
    locale's (``−`` in Finnish)."""
    return (
        text.replace("-", str(get_minus_sign_symbol(locale)), 1) if cents < 0 else text
    )


def _units(cents: int, currency: str) -> Decimal:
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError("money is integer cents")
    return Decimal(cents).scaleb(-decimals_of(currency))


def money_format(
    cents: int, currency: str, language: str | None, *, whole: bool = False
) -> str:
    """Write ``cents`` of ``currency`` as ``language`` does, with the currency sign;
    ``whole`` leaves out zero cents (a note or chip: ``€500``, ``500 €``).

    Raises :class:`TypeError` for anything but integer cents (never floats).

    >>> money_format(50000, "EUR", "fi", whole=True)
    '500\\xa0€'
    """
    value = _units(cents, currency)
    locale = locale_of(language)
    if whole and value == value.to_integral_value():
        pattern = parse_pattern(locale.currency_formats["standard"].pattern)
        pattern.frac_prec = (0, 0)
        text = format_currency(
            value, currency, format=pattern, locale=locale, currency_digits=False
        )
    else:
        text = format_currency(value, currency, locale=locale)
    return _signed(str(text), cents, locale)


def units_format(
    cents: int, currency: str, language: str | None, *, whole: bool = False
) -> str:
    """Write ``cents`` as units without the currency sign: ``1 234,50`` in fi,
    as a person would type it back; ``whole`` leaves out zero cents (``500``).

    >>> units_format(50, "EUR", "fi", whole=True)
    '0,50'
    """
    value = _units(cents, currency)
    locale = locale_of(language)
    places = decimals_of(currency)
    if whole and value == value.to_integral_value():
        places = 0
    pattern = "#,##0" + ("." + "0" * places if places else "")
    text = format_currency(
        value, currency, format=pattern, locale=locale, currency_digits=False
    )
    return _signed(str(text), cents, locale)


def stakes_format(
    small_cents: int, big_cents: int, currency: str, language: str | None
) -> str:
    """Write a game's blinds as the room says its stakes: units without the
    currency sign, whole units without decimals, the locale's separators (CLDR).

    >>> stakes_format(100, 200, "EUR", "en")
    '1/2'
    >>> stakes_format(50, 100, "EUR", "en")
    '0.50/1'
    >>> stakes_format(50, 100, "EUR", "fi")
    '0,50/1'
    >>> stakes_format(1_000, 2_000, "KRW", "ko")
    '1,000/2,000'
    """
    return "/".join(
        units_format(cents, currency, language, whole=True)
        for cents in (small_cents, big_cents)
    )


def _strip_currency(text: str, currency: str, locale: Locale) -> str:
    cleaned = text.strip()
    for sign in sorted(
        {
            str(get_currency_symbol(currency, locale=locale)),
            str(get_currency_symbol(currency, locale="en")),
            currency,
            currency.lower(),
        },
        key=len,
        reverse=True,
    ):
        cleaned = cleaned.replace(sign, "")
    return cleaned.strip(_SPACES)


def _meant(suggestions: list[str] | None, currency: str, locale: Locale) -> tuple:
    """The readings Babel suggests that are amounts of ``currency``, the ones
    with decimals first, written back as units."""
    places = decimals_of(currency)
    readings: list[Decimal] = []
    for suggestion in suggestions or []:
        try:
            value = parse_decimal(suggestion, locale=locale, strict=True)
        except NumberFormatError:
            continue
        cents = value.scaleb(places)
        if cents == cents.to_integral_value() and value not in readings:
            readings.append(value)
    readings.sort(key=lambda v: v == v.to_integral_value())
    return tuple(
        units_format(int(v.scaleb(places)), currency, str(locale)) for v in readings
    )


def money_parse(text: str, currency: str, language: str | None) -> int:
    """Read an amount typed in units (``500``, ``1 234,50``, ``€1,234.50``) as cents.

    Strict: the locale's separators only where the locale writes them (Babel's
    ``parse_decimal(strict=True)``). A space groups thousands where the locale
    groups them with one (Finnish); a point before the last one or two digits is
    read as the decimal point in a locale whose decimal is a comma (``12.50``, as
    people type on a keypad), but ``1.150`` there could be two amounts and is
    refused. Raises :class:`MoneyInputError` with ``reason`` ``empty``,
    ``negative``, ``not_a_number``, ``ambiguous`` (with the readings in ``meant``),
    ``too_many_decimals`` or ``too_large``.
    """
    locale = locale_of(language)
    cleaned = _strip_currency(text or "", currency, locale)
    if not cleaned:
        raise MoneyInputError("empty")
    if cleaned[0] in "-\u2212" or cleaned.startswith(get_minus_sign_symbol(locale)):
        raise MoneyInputError("negative")
    group = str(get_group_symbol(locale))
    decimal = str(get_decimal_symbol(locale))
    if group in _SPACES:
        cleaned = re.sub(f"[{_SPACES}]", group, cleaned)
    if not re.fullmatch(f"[0-9{re.escape(group + decimal)}.,]+", cleaned):
        raise MoneyInputError("not_a_number")
    if decimal != "." and group != "." and "." in cleaned:
        whole, _, part = cleaned.rpartition(".")
        if decimal in cleaned or not whole or not re.fullmatch(r"\d{1,2}", part):
            if decimal in cleaned:
                readings = [cleaned.replace(".", group)]
            else:
                readings = [whole + decimal + part]
            if re.fullmatch(r"\d{1,3}", whole) and re.fullmatch(r"\d{3}", part):
                readings.insert(0, whole + part)
            meant = _meant(readings, currency, locale)
            raise MoneyInputError("ambiguous" if meant else "not_a_number", meant)
        cleaned = whole + decimal + part
    try:
        value = parse_decimal(cleaned, locale=locale, strict=True)
    except NumberFormatError as error:
        meant = _meant(error.suggestions, currency, locale)
        raise MoneyInputError(
            "ambiguous" if meant else "not_a_number", meant
        ) from error
    except InvalidOperation as error:  # pragma: no cover - Babel wraps these
        raise MoneyInputError("not_a_number") from error
    if not value.is_finite():
        raise MoneyInputError("not_a_number")
    if value < 0:
        raise MoneyInputError("negative")
    places = decimals_of(currency)
    cents = value.scaleb(places)
    if -int(value.as_tuple().exponent) > places:
        raise MoneyInputError("too_many_decimals")
    if len(str(int(value))) > _MOST_DIGITS:
        raise MoneyInputError("too_large")
    return int(cents)
