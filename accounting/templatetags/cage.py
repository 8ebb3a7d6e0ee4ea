"""Template filters for the cage's printable pages: money with the one formatter
(:func:`core.money.money_format`) in the page's language."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

from core.money import money_format

register = template.Library()


@register.filter
def money(cents: int | None, currency: str) -> str:
    """Show integer cents as the page's language writes them (``€24.00``,
    ``24,00 €``); ``—`` for ``None``."""
    if cents is None:
        return "—"
    return money_format(int(cents), currency, get_language() or "en")
