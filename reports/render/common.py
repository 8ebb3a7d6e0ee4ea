"""What every rendering of a report shares: the labels heading a file, the
report's language and the room's clock (:mod:`reports.render`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# What heads a file, by the key ``meta`` gives it under.
META_LABELS = {
    "report": gettext_noop("report"),
    "version": gettext_noop("version"),
    "generated": gettext_noop("generated"),
    "digest": gettext_noop("digest"),
    "reason": gettext_noop("reason"),
}


def meta_label(key: str) -> str:
    """The translated label of a ``meta`` key (the key itself when unknown)."""
    return _(META_LABELS[key]) if key in META_LABELS else key


def language_of(data: dict[str, Any]) -> str:
    """The language a stored report was computed in; the active one for a report
    stored before reports said so."""
    return str(data.get("language") or translation.get_language() or "en")


def room_time(data: dict[str, Any], at: datetime | str) -> datetime:
    """``at`` (aware, or ISO text with its offset) on the room's clock."""
    moment = datetime.fromisoformat(at) if isinstance(at, str) else at
    return moment.astimezone(ZoneInfo(data["room"]["time_zone"]))


def room_time_text(data: dict[str, Any], at: datetime | str) -> str:
    """``at`` on the room's clock, to the second, with the zone's name:
    ``2026-11-30 07:00:00 (Europe/Helsinki)``."""
    local = room_time(data, at).strftime("%Y-%m-%d %H:%M:%S")
    return f"{local} ({data['room']['time_zone']})"
