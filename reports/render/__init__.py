"""Renderings of a stored report: CSV, XLSX and PDF (with charts).

Each takes the stored document (``Report.data``) and returns bytes; nothing here
reads the database, so a file made today and one made next year show the same
figures. The libraries (openpyxl, reportlab, matplotlib) are imported when a file
is asked for, not with the app: the Celery worker that computes reports never loads
matplotlib.

A file is written in the language its report was computed in (the document's
``language``, the room's), so its own words and the stored titles agree; times are
on the room's clock, labelled with its zone.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from reports.render.common import (
    META_LABELS,
    language_of,
    meta_label,
    room_time,
    room_time_text,
)
from reports.render.pdf import to_pdf
from reports.render.tabular import to_csv, to_xlsx

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}

__all__ = [
    "FORMATS",
    "META_LABELS",
    "language_of",
    "meta_label",
    "render",
    "room_time",
    "room_time_text",
]


def render(data: dict[str, Any], fmt: str, *, meta: dict[str, str]) -> bytes:
    """Render ``data`` as ``fmt`` (csv, xlsx or pdf); ``meta`` heads the file
    (keys of :data:`META_LABELS`).

    Raises :class:`KeyError` for another format.
    """
    if fmt not in FORMATS:
        raise KeyError(fmt)
    with translation.override(language_of(data)):
        if fmt == "csv":
            return to_csv(data, meta=meta)
        if fmt == "xlsx":
            return to_xlsx(data, meta=meta)
        return to_pdf(data, meta=meta)
