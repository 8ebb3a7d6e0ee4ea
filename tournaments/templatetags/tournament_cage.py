"""Money on the cage's tournament screens: euros, in the reader's locale."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils import formats

register = template.Library()


def euros(cents: int | None, currency: str = "EUR") -> str:
    """Show integer cents as euros in the active locale: ``1,150.00 €`` in
    English, ``1 150,00 €`` in Finnish; another currency by its code."""
    if cents is None:
        return "—"
    amount = formats.number_format(
        Decimal(int(cents)) / 100, decimal_pos=2, use_l10n=True, force_grouping=True
    )
    return f"{amount} {'€' if currency == 'EUR' else currency}"


register.filter("euros", euros)
