"""Money on the staff screens: cents shown in the room's currency, the locale's way."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

from staff.money import money_format

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
