"""Times on the floor's screens: time played, and deadlines for the script."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils.translation import get_language

from core.money import money_format

register = template.Library()


@register.filter
def hours_minutes(seconds: int | None) -> str:
    """Seconds as hours and minutes (``1:05``): how long one sat or was away."""
    if seconds is None:
        return ""
    minutes = max(int(seconds), 0) // 60
    return f"{minutes // 60}:{minutes % 60:02d}"


@register.filter
def epoch_ms(moment: datetime | None) -> str:
    """A moment as milliseconds since the epoch, for the countdowns' script."""
    return str(int(moment.timestamp() * 1000)) if moment else ""


@register.filter
def minutes_seconds(seconds: int | None) -> str:
    """Seconds as ``m:ss``, what a countdown shows before its script runs."""
    left = max(int(seconds or 0), 0)
    return f"{left // 60}:{left % 60:02d}"


@register.filter
def stakes(game: Any, currency: str) -> str:
    """A game and its blinds in whole units where they are: ``NLHE €1/€2``."""
    language = get_language() or "en"
    blinds = "/".join(
        money_format(cents, currency, language, whole=True)
        for cents in (game.small_blind_cents, game.big_blind_cents)
    )
    return f"{game.code} {blinds}"
