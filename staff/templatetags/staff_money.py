"""Money and receipts' moments on the staff screens: cents shown in the room's
currency and dates on the room's clock, the locale's way (Babel's CLDR data)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_time, get_datetime_format
from django import template
from django.conf import settings
from django.utils.translation import get_language

from core.money import locale_of, money_format

register = template.Library()


@register.filter
def money(cents: int | None, currency: str) -> str:
    """Show integer cents as the current language writes them (``1 234,50 €``)."""
    if cents is None:
        return "—"
    return money_format(cents, currency, get_language() or "en")


@register.filter
def signed_money(cents: int | None, currency: str) -> str:
    """Like :func:`money`, with a plus sign on an amount over zero (an over)."""
    text = money(cents, currency)
    return f"+{text}" if cents and cents > 0 else text


@register.filter
def receipt_time(moment: datetime | None, room: Any) -> str:
    """A receipt's moment on the room's clock, as the receipt's language writes it
    (Babel's CLDR date and time formats): ``4.12.2026 17.30`` in fi,
    ``2026. 12. 4. 오후 5:30`` in ko, ``Dec 4, 2026, 5:30 PM`` in en."""
    if moment is None:
        return "—"
    locale = locale_of(get_language())
    zone = ZoneInfo(getattr(room, "time_zone", "") or settings.TIME_ZONE)
    local = moment.astimezone(zone)
    pattern = str(get_datetime_format("medium", locale=locale))
    return (
        pattern.replace("'", "")
        .replace("{1}", str(format_date(local, "medium", locale=locale)))
        .replace("{0}", str(format_time(local, "short", locale=locale)))
    )
