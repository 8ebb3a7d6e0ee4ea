"""The PDF rendering (ReportLab), with charts drawn by matplotlib.

Landscape A4: a title block with the report's identity and digest, the charts, then
each section as a table that repeats its header on every page.
"""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _

from reports.document import BOOL, INT, MONEY

CHAR = 3.3  # points per character of the table's 6.5 pt Helvetica, roughly
HEADER_CHAR = 4.6  # and of its 7 pt bold header
PADDING = 13  # a cell's left and right padding, 6 pt each, and a point to spare


def _money(cents: int | None) -> str:
    if cents is None:
        return "—"
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{frac:02d}"


def _cell(value: Any, kind: str) -> str:
    if value is None:
        return "—"
    if kind == MONEY:
        return _money(value)
    if kind == BOOL:
        return _("yes") if value else _("NO")
    if kind == INT:
        return f"{value:,}"
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _widths(*, header_texts: list[str], body: list[list[str]]) -> list[float]:
    """Each column's natural width: its longest cell, its title's longest word."""
    widths = []
    for i, title in enumerate(header_texts):
        longest = max((len(row[i]) for row in body), default=1)
        word = max((len(w) for w in title.split()), default=1)
        widths.append(max(longest * CHAR, word * HEADER_CHAR, 4 * CHAR) + PADDING)
    return widths


def chart_png(chart: dict[str, Any], currency: str) -> bytes:
    """Draw one chart of the document as a PNG (stacked bars or lines)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 3.6), dpi=110)
    try:
        x = chart["x"]
        positions = range(len(x))
        if chart["type"] == "stacked_bar":
            bottom = [0.0] * len(x)
            for series in chart["series"]:
                values = [v / 100 for v in series["values"]]
                axes.bar(positions, values, bottom=bottom, label=series["name"])
                bottom = [b + v for b, v in zip(bottom, values, strict=True)]
        else:
            for series in chart["series"]:
                axes.plot(
                    positions,
                    [v / 100 for v in series["values"]],
                    marker="o",
                    markersize=3,
                    label=series["name"],
                )
        step = max(1, len(x) // 16)
        axes.set_xticks(list(positions)[::step])
        axes.set_xticklabels(x[::step], rotation=30 if len(x) > 24 else 0, fontsize=7)
        axes.set_title(chart["title"], fontsize=10)
        axes.set_xlabel(chart.get("x_label", ""), fontsize=8)
        axes.set_ylabel(chart.get("y_label") or currency, fontsize=8)
        axes.tick_params(axis="y", labelsize=7)
        axes.grid(axis="y", alpha=0.3)
        if chart["series"]:
            axes.legend(fontsize=7, ncols=min(6, len(chart["series"])))
        else:
            axes.text(
                0.5, 0.5, "no data", ha="center", va="center", transform=axes.transAxes
            )
        figure.tight_layout()
        out = io.BytesIO()
        figure.savefig(out, format="png")
        return out.getvalue()
    finally:
        plt.close(figure)


def to_pdf(data: dict[str, Any], *, meta: dict[str, str]) -> bytes:
    """Render the document as a PDF."""
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        Image,
        LongTable,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
        TableStyle,
    )

    styles = getSampleStyleSheet()
    small = styles["BodyText"].clone("small", fontSize=7, leading=8.5)
    heading = styles["Heading2"].clone("section", keepWithNext=1)
    note = small.clone("note", keepWithNext=1)
    page = landscape(A4)
    width = page[0] - 24 * mm
    story: list[Any] = [
        Paragraph(escape(data["title"]), styles["Title"]),
        Paragraph(
            escape(
                f"{data['room']['name']} — gaming days {data['period']['first']}"
                f" to {data['period']['last']} ({data['room']['time_zone']},"
                f" cut-off {data['room']['cutoff_hour']:02d}:00),"
                f" amounts in {data['currency']}"
            ),
            styles["BodyText"],
        ),
    ]
    for key, value in meta.items():
        story.append(Paragraph(escape(f"{key}: {value}"), small))
    story.append(Spacer(1, 4 * mm))
    for chart in data["charts"]:
        png = chart_png(chart, data["currency"])
        story.append(Image(io.BytesIO(png), width=width, height=width * 0.36))
        story.append(Spacer(1, 3 * mm))
    for section in data["sections"]:
        story.append(Paragraph(escape(section["title"]), heading))
        if section["note"]:
            story.append(Paragraph(escape(section["note"]), note))
        columns = section["columns"]
        if not section["rows"]:
            story.append(Paragraph("—", small))
            continue
        header = [Paragraph(f"<b>{escape(c['title'])}</b>", small) for c in columns]
        body = [
            [_cell(v, c["type"]) for v, c in zip(row, columns, strict=True)]
            for row in section["rows"]
        ]
        widths = _widths(header_texts=[c["title"] for c in columns], body=body)
        scale = min(1.0, width / sum(widths))
        widths = [w * scale for w in widths]
        if scale < 1.0:
            # Wrap the cells that no longer fit their narrowed column.
            for row in body:
                for i, text in enumerate(row):
                    if len(text) * CHAR + PADDING > widths[i]:
                        row[i] = Paragraph(escape(text), small)
        table = LongTable(
            [header, *body], colWidths=widths, repeatRows=1, hAlign="LEFT"
        )
        style = [
            ("FONTSIZE", (0, 1), (-1, -1), 6.5),
            ("LEADING", (0, 1), (-1, -1), 8),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
        for i, c in enumerate(columns):
            if c["type"] in (MONEY, INT):
                style.append(("ALIGN", (i, 1), (i, -1), "RIGHT"))
        # A check that disagrees stands out in red.
        for r, row in enumerate(section["rows"], start=1):
            for i, c in enumerate(columns):
                if c["key"] == "agrees" and row[i] is False:
                    style.append(("TEXTCOLOR", (i, r), (i, r), colors.red))
        table.setStyle(TableStyle(style))
        story.append(table)
        story.append(Spacer(1, 3 * mm))

    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=page,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=data["title"],
        author="cardroom",
    )

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.drawString(
            12 * mm,
            7 * mm,
            f"{data['title']} {data['period']['first']}–{data['period']['last']}"
            f"  ·  {meta.get('digest', '')}",
        )
        canvas.drawRightString(page[0] - 12 * mm, 7 * mm, f"page {doc.page}")
        canvas.restoreState()

    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()
