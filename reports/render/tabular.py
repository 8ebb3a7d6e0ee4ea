"""CSV and XLSX renderings: one block (CSV) or one sheet (XLSX) per section.

CSV keeps money as integer cents (columns named ``…_cents``), for scripts; XLSX
shows it in the currency's unit as exact decimals with two places, for people.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

from reports.document import MONEY


def to_csv(data: dict[str, Any], *, meta: dict[str, str]) -> bytes:
    """Sections one after another: a title line, a header line, the rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([data["title"], data["period"]["first"], data["period"]["last"]])
    for key, value in meta.items():
        writer.writerow([key, value])
    for section in data["sections"]:
        writer.writerow([])
        writer.writerow(["section", section["key"], section["title"]])
        writer.writerow(
            [
                f"{c['key']}_cents" if c["type"] == MONEY else c["key"]
                for c in section["columns"]
            ]
        )
        writer.writerows(
            ["" if v is None else v for v in row] for row in section["rows"]
        )
    return out.getvalue().encode("utf-8")


def _sheet_name(title: str, used: set[str]) -> str:
    name = "".join(ch for ch in title if ch not in "[]:*?/\\")[:28] or "sheet"
    candidate, n = name, 2
    while candidate in used:
        candidate, n = f"{name[:26]} {n}", n + 1
    used.add(candidate)
    return candidate


def to_xlsx(data: dict[str, Any], *, meta: dict[str, str]) -> bytes:
    """A cover sheet with the report's identity, then a sheet per section."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    cover = book.active
    cover.title = "report"
    cover.append([data["title"]])
    cover["A1"].font = Font(bold=True, size=14)
    cover.append(["period", data["period"]["first"], data["period"]["last"]])
    cover.append(["room", data["room"]["name"], data["room"]["time_zone"]])
    cover.append(["currency", data["currency"]])
    for key, value in meta.items():
        cover.append([key, value])
    used = {"report"}
    for section in data["sections"]:
        sheet = book.create_sheet(_sheet_name(section["title"], used))
        columns = section["columns"]
        sheet.append([c["title"] for c in columns])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        money = [i for i, c in enumerate(columns) if c["type"] == MONEY]
        for row in section["rows"]:
            values = list(row)
            for i in money:
                if values[i] is not None:
                    values[i] = Decimal(values[i]).scaleb(-2)
            sheet.append(values)
        for i in money:
            letter = get_column_letter(i + 1)
            for cell in sheet[letter][1:]:
                cell.number_format = "#,##0.00"
        for i, column in enumerate(columns, start=1):
            sheet.column_dimensions[get_column_letter(i)].width = max(
                10, min(40, len(column["title"]) + 2)
            )
        sheet.freeze_panes = "A2"
        if section["note"]:
            sheet.append([])
            sheet.append([section["note"]])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
