"""CSV and XLSX renderings: one block (CSV) or one sheet (XLSX) per section.

CSV keeps money as integer cents (its columns say so: ``rake (cents)``), for
scripts; XLSX shows it in the currency's unit as exact decimals with two places and
the currency's code, for people. In XLSX, days and times are Excel dates on the
room's clock (Excel has no time zones: the zone is named on the cover sheet),
counts are integers. Headers are the columns' titles in the report's language.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from reports.document import DATE, DATETIME, MONEY
from reports.render.common import meta_label, room_time
from reports.totals import totals

SHEET_NAME_MAX = 31  # Excel's limit
_NOT_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\]")
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss"


def column_header(column: dict[str, Any], *, cents: bool) -> str:
    """A column's title as a header; money says its unit."""
    if column["type"] != MONEY:
        return str(column["title"])
    if cents:
        return _("%(title)s (cents)") % {"title": column["title"]}
    return str(column["title"])


def to_csv(data: dict[str, Any], *, meta: dict[str, str]) -> bytes:
    """Sections one after another: a title line, a header line, the rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([data["title"], data["period"]["first"], data["period"]["last"]])
    for key, value in meta.items():
        writer.writerow([meta_label(key), value])
    for section in data["sections"]:
        writer.writerow([])
        writer.writerow([_("section"), section["key"], section["title"]])
        writer.writerow([column_header(c, cents=True) for c in section["columns"]])
        writer.writerows(
            ["" if v is None else v for v in row] for row in section["rows"]
        )
    return out.getvalue().encode("utf-8")


def sheet_name(title: str, used: set[str]) -> str:
    """A sheet name for ``title``: at most 31 characters, cut between words, none
    of ``[]:*?/\\``, and unlike the names in ``used`` (Excel ignores case), which
    it joins.

    >>> used = {"report"}
    >>> sheet_name("Shift drawers: float, movements, count, over/short", used)
    'Shift drawers float movements'
    >>> sheet_name("Shift drawers float movements", used)
    'Shift drawers float movements 2'
    >>> sheet_name("Report", used)
    'Report 2'
    """
    words = _NOT_IN_SHEET_NAMES.sub(" ", title).replace(",", " ").split()
    taken = {u.casefold() for u in used}

    def fit(limit: int) -> str:
        name = ""
        for word in words:
            longer = f"{name} {word}" if name else word
            if len(longer) > limit:
                break
            name = longer
        # One word longer than the limit is cut: there is no word boundary.
        return (name or (words[0] if words else "sheet")[:limit]).strip("' ")

    name, n = fit(SHEET_NAME_MAX) or "sheet", 2
    while name.casefold() in taken:
        suffix = f" {n}"
        name, n = f"{fit(SHEET_NAME_MAX - len(suffix))}{suffix}", n + 1
    used.add(name)
    return name


def cell_value(data: dict[str, Any], value: Any, kind: str) -> Any:
    """A stored value as an XLSX cell: money in units, days and times as Excel
    dates on the room's clock (timezone-naive, as Excel needs)."""
    if value is None or value == "":
        return None
    if kind == MONEY:
        return Decimal(value).scaleb(-2)
    if kind == DATE:
        return date.fromisoformat(value)
    if kind == DATETIME:
        return room_time(data, value).replace(tzinfo=None)
    return value


def _money_format(currency: str) -> str:
    return f'#,##0.00 "{currency}";-#,##0.00 "{currency}"'


def _cover(book: Any, data: dict[str, Any], meta: dict[str, str]) -> set[str]:
    """The first sheet: who, what, when (on the room's clock) and the totals."""
    from openpyxl.styles import Font

    cover = book.active
    cover.title = sheet_name(_("Report"), set())
    cover.append([data["title"]])
    cover["A1"].font = Font(bold=True, size=14)
    period = data["period"]
    cover.append(
        [
            _("period"),
            date.fromisoformat(period["first"]),
            date.fromisoformat(period["last"]),
        ]
    )
    for cell in cover[cover.max_row][1:]:
        cell.number_format = DATE_FORMAT
    cover.append([_("room"), data["room"]["name"], data["room"]["time_zone"]])
    cover.append([_("currency"), data["currency"]])
    cover.append(
        [_("computed at"), room_time(data, data["as_of"]).replace(tzinfo=None)]
    )
    cover.cell(cover.max_row, 2).number_format = DATETIME_FORMAT
    cover.cell(cover.max_row, 3).value = data["room"]["time_zone"]
    for key, value in meta.items():
        cover.append([meta_label(key), value])
    cover.append([])
    cover.append([_("Totals")])
    cover.cell(cover.max_row, 1).font = Font(bold=True)
    for total in totals(data):
        cover.append([total.label, cell_value(data, total.value, total.type)])
        if total.type == MONEY:
            cover.cell(cover.max_row, 2).number_format = _money_format(data["currency"])
    cover.column_dimensions["A"].width = 36
    cover.column_dimensions["B"].width = 22
    cover.column_dimensions["C"].width = 22
    return {cover.title}


def _section_sheet(
    book: Any, data: dict[str, Any], section: dict[str, Any], used: set[str]
) -> None:
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    sheet = book.create_sheet(sheet_name(section["title"], used))
    columns = section["columns"]
    sheet.append([column_header(c, cents=False) for c in columns])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    formats = {
        MONEY: _money_format(data["currency"]),
        DATE: DATE_FORMAT,
        DATETIME: DATETIME_FORMAT,
    }
    for row in section["rows"]:
        sheet.append(
            [cell_value(data, v, c["type"]) for v, c in zip(row, columns, strict=True)]
        )
        for cell, column in zip(sheet[sheet.max_row], columns, strict=True):
            if column["type"] in formats:
                cell.number_format = formats[column["type"]]
    for i, column in enumerate(columns, start=1):
        wide = 20 if column["type"] in (DATETIME, MONEY) else 10
        sheet.column_dimensions[get_column_letter(i)].width = max(
            wide, min(40, len(column["title"]) + 2)
        )
    sheet.freeze_panes = "A2"
    if section["note"]:
        sheet.append([])
        sheet.append([section["note"]])


def to_xlsx(data: dict[str, Any], *, meta: dict[str, str]) -> bytes:
    """A cover sheet with the report's identity and totals, then a sheet per
    section."""
    from openpyxl import Workbook

    book = Workbook()
    used = _cover(book, data, meta)
    for section in data["sections"]:
        _section_sheet(book, data, section, used)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
