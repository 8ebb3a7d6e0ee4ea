"""Template filters for the cage's printable pages."""

from __future__ import annotations

from django import template

from accounting.domain.money import Money

register = template.Library()


@register.filter
def money(cents: int | None, currency: str) -> str:
    """Show integer cents as ``24.00 EUR``; nothing for ``None``."""
    if cents is None:
        return "—"
    return str(Money(cents, currency))
