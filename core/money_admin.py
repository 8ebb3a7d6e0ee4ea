"""Money in the admin's lists: integer cents shown with the one formatter
(:func:`core.money.money_format`) in the admin's language, never as raw cents and
never by float division.

>>> class PayableAdmin(ReadOnlyAdmin):
...     list_display = ["player", "amount", "status"]
...     amount = money_column("amount_cents", _("amount"))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.utils.translation import get_language

from core.money import money_format


def money_text(cents: int | None, currency: str) -> str:
    """``cents`` of ``currency`` as the admin's language writes them; ``—`` for
    none."""
    if cents is None:
        return "—"
    return money_format(int(cents), currency, get_language() or "en")


def _follow(obj: Any, path: str) -> Any:
    for name in path.split("."):
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return obj


def money_column(
    field: str, description: Any, *, currency: str = "currency"
) -> Callable[[Any, Any], str]:
    """A list column showing ``field`` (integer cents) with the one formatter, in
    the currency found at ``currency`` (a dotted path from the row: ``cage.currency``;
    the room's, ``settings.CARDROOM_CURRENCY``, when the row has none); sorted by
    the field."""

    def column(self: Any, obj: Any) -> str:
        code = _follow(obj, currency) or settings.CARDROOM_CURRENCY
        return money_text(getattr(obj, field), str(code))

    column.__name__ = field.removesuffix("_cents")
    return admin.display(description=description, ordering=field)(column)
