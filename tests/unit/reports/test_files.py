"""The files of a report without a database: typed XLSX cells, sheet names that
fit, translated CSV headers and a PDF whose first page is the totals."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from decimal import Decimal

import pypdfium2
import pytest
from django.utils import translation
from openpyxl import load_workbook

from reports.render import render
from reports.render.tabular import sheet_name

META = {"report": "#7 daily audit 2026-11-28", "generated": "2026-11-29 07:00:00"}


def document(language: str = "en") -> dict:
    return {
        "kind": "daily_audit",
        "title": "Daily audit",
        "language": language,
        "period": {
            "first": "2026-11-28",
            "last": "2026-11-28",
            "start": "2026-11-28T04:00:00+00:00",
            "end": "2026-11-29T04:00:00+00:00",
        },
        "room": {"name": "Casino", "time_zone": "Europe/Helsinki", "cutoff_hour": 6},
        "currency": "EUR",
        "as_of": "2026-11-29T05:00:00+00:00",
        "sections": [
            {
                "key": "tables_hands",
                "title": "Tables: hands, rake and drop",
                "note": "",
                "columns": [
                    {"key": "table", "title": "table", "type": "text"},
                    {"key": "dealt", "title": "hands dealt", "type": "int"},
                    {"key": "rake", "title": "rake", "type": "money"},
                ],
                "rows": [["A1", 120, 123450], ["A2", 80, 50000]],
            },
            {
                "key": "shifts",
                "title": "Shift drawers: float, movements, count, over/short",
                "note": "",
                "columns": [
                    {"key": "shift", "title": "shift", "type": "int"},
                    {"key": "opened_at", "title": "opened", "type": "datetime"},
                    {"key": "gaming_day", "title": "gaming day", "type": "date"},
                ],
                "rows": [[3, "2026-11-28 23:15:00+02:00", "2026-11-28"]],
            },
        ],
        "charts": [],
    }


def test_xlsx_cells_are_typed_dates_money_and_counts():
    book = load_workbook(io.BytesIO(render(document(), "xlsx", meta=META)))
    hands = book["Tables hands rake and drop"]
    assert [c.value for c in hands[1]] == ["table", "hands dealt", "rake"]
    assert [c.value for c in hands[2]] == ["A1", 120, Decimal("1234.5")]
    assert isinstance(hands["B2"].value, int)
    assert "EUR" in hands["C2"].number_format and "0.00" in hands["C2"].number_format
    shifts = book["Shift drawers float movements"]
    opened, day = shifts["B2"], shifts["C2"]
    assert opened.is_date and opened.value == datetime(2026, 11, 28, 23, 15)
    assert opened.number_format == "yyyy-mm-dd hh:mm:ss"
    assert day.is_date and day.value == datetime(2026, 11, 28)
    cover = book.worksheets[0]
    rows = {r[0].value: r for r in cover.iter_rows()}
    assert rows["period"][1].is_date
    # 07:00 in Helsinki, not 05:00 UTC.
    assert rows["computed at"][1].value == datetime(2026, 11, 29, 7, 0)
    assert rows["rake"][1].value == Decimal("1734.5")
    assert rows["hands dealt"][1].value == 200


def test_sheet_names_fit_excel_whole_words_and_unique():
    used: set[str] = set()
    long = "Drop, rake and jackpot box counts (CA4)"
    names = [sheet_name(long, used), sheet_name(long, used), sheet_name("a/b", used)]
    assert names == ["Drop rake and jackpot box", "Drop rake and jackpot box 2", "a b"]
    assert all(len(n) <= 31 for n in names)
    assert len(sheet_name("x" * 40, used)) == 31


def test_csv_headers_are_in_the_report_language_and_money_says_cents():
    text = render(document("fi"), "csv", meta=META).decode()
    lines = list(csv.reader(io.StringIO(text)))
    with translation.override("fi"):
        cents = translation.gettext("%(title)s (cents)") % {"title": "rake"}
        section = translation.gettext("section")
    assert cents != "rake (cents)" and section != "section"
    assert [section, "tables_hands", "Tables: hands, rake and drop"] in lines
    assert ["table", "hands dealt", cents] in lines


@pytest.mark.parametrize("language", ["en", "fi", "ko"])
def test_the_pdf_opens_with_a_page_of_totals_in_room_time(language):
    pdf = pypdfium2.PdfDocument(render(document(language), "pdf", meta=META))
    first = pdf[0].get_textpage().get_text_range()
    with translation.override(language):
        totals = translation.gettext("Totals")
        dealt = translation.gettext("hands dealt")
    assert totals in first and dealt in first
    assert "Europe/Helsinki" in first
    if language == "en":
        assert "€1,734.50" in first and "200" in first
