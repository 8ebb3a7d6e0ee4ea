"""Renderings of a stored report: CSV, XLSX and PDF (with charts).

Each takes the stored document (``Report.data``) and returns bytes; nothing here
reads the database, so a file made today and one made next year show the same
figures. The libraries are imported when a file is asked for, not with the app:
the Celery worker that computes reports never loads matplotlib.
"""

from __future__ import annotations

from typing import Any

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}


def render(data: dict[str, Any], fmt: str, *, meta: dict[str, str]) -> bytes:
    """Render ``data`` as ``fmt`` (csv, xlsx or pdf); ``meta`` heads the file.

    Raises :class:`KeyError` for another format.
    """
    if fmt == "csv":
        from reports.render.tabular import to_csv

        return to_csv(data, meta=meta)
    if fmt == "xlsx":
        from reports.render.tabular import to_xlsx

        return to_xlsx(data, meta=meta)
    if fmt == "pdf":
        from reports.render.pdf import to_pdf

        return to_pdf(data, meta=meta)
    raise KeyError(fmt)
