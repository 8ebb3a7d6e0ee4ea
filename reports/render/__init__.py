"""Renderings of a stored report: CSV, XLSX and PDF (with charts).

Each takes the stored document (``Report.data``) and returns bytes; nothing here
reads the database, so a file made today and one made next year show the same
figures. The libraries are imported when a file is asked for, not with the app:
the Celery worker that computes reports never loads matplotlib.

A file is written in the language its report was computed in (the document's
``language``, the room's), so its own words and the stored titles agree; times are
on the room's clock, labelled with its zone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}

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


def render(data: dict[str, Any], fmt: str, *, meta: dict[str, str]) -> bytes:
    """Render ``data`` as ``fmt`` (csv, xlsx or pdf); ``meta`` heads the file
    (keys of :data:`META_LABELS`).

    Raises :class:`KeyError` for another format.
    """
    if fmt not in FORMATS:
        raise KeyError(fmt)
    with translation.override(language_of(data)):
        if fmt == "csv":
            from reports.render.tabular import to_csv

            return to_csv(data, meta=meta)
        if fmt == "xlsx":
            from reports.render.tabular import to_xlsx

            return to_xlsx(data, meta=meta)
        from reports.render.pdf import to_pdf

        return to_pdf(data, meta=meta)
