"""The PDF rendering (ReportLab), with charts drawn by matplotlib.

Landscape A4: a first page with the report's identity and digest and the period's
totals (:mod:`reports.totals`) and the checks that disagree, and for a daily audit
the ledger's signed digest of each day (root, previous, digest, signature, key);
then the charts and each other section as a table that repeats its header on
every page. Amounts are written
as the report's language writes them; times are the room's.
"""

from __future__ import annotations

import io
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from core.money import money_format, units_format
from reports.document import BOOL, INT, MONEY, rows_of
from reports.render.common import meta_label
from reports.totals import Total, failed_checks, totals

CHAR = 3.3  # points per character of the table's 6.5 pt Helvetica, roughly
HEADER_CHAR = 4.6  # and of its 7 pt bold header
PADDING = 13  # a cell's left and right padding, 6 pt each, and a point to spare


def _cell(value: Any, kind: str, currency: str) -> str:
    if value is None:
        return "—"
    if kind == MONEY:
        # The column's title names the currency: units, with the one formatter.
        return units_format(int(value), currency, get_language() or "en")
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


# Fonts a chart falls back on for Hangul and the other CJK scripts, when the machine
# has them (Debian's fonts-noto-cjk).
CJK_FALLBACK = ("Noto Sans CJK KR", "Noto Sans CJK JP", "NanumGothic")


def _chart_fonts() -> list[str]:
    from matplotlib import font_manager

    found = {f.name for f in font_manager.fontManager.ttflist}
    return ["DejaVu Sans", *(name for name in CJK_FALLBACK if name in found)]


def chart_png(chart: dict[str, Any], currency: str) -> bytes:
    """Draw one chart of the document as a PNG (stacked bars or lines)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    with plt.rc_context({"font.family": _chart_fonts()}):
        return _chart_drawn(plt, chart, currency)


def _chart_drawn(plt: Any, chart: dict[str, Any], currency: str) -> bytes:
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
                0.5,
                0.5,
                _("no data"),
                ha="center",
                va="center",
                transform=axes.transAxes,
            )
        figure.tight_layout()
        out = io.BytesIO()
        figure.savefig(out, format="png")
        return out.getvalue()
    finally:
        plt.close(figure)


def money_text(cents: int, currency: str) -> str:
    """Cents as the report's language writes the amount, with the one formatter
    (core.money): ``1 234,50 €`` in fi."""
    return money_format(int(cents), currency, get_language() or "en")


def _total_text(total: Total, currency: str) -> str:
    if total.type == MONEY:
        return money_text(total.value, currency)
    return str(number_format(total.value, 0, use_l10n=True, force_grouping=True))


def _heading(data: dict[str, Any], meta: dict[str, str], styles: Any) -> list[Any]:
    """The report's identity: title, room and period, the zone, the file's meta."""
    from xml.sax.saxutils import escape

    from reportlab.platypus import Paragraph

    small = styles["small"]
    room = data["room"]
    story = [
        Paragraph(escape(data["title"]), styles["Title"]),
        Paragraph(
            escape(
                _(
                    "%(room)s — gaming days %(first)s to %(last)s (times in "
                    "%(zone)s, the day ends at %(cutoff)02d:00), amounts in "
                    "%(currency)s"
                )
                % {
                    "room": room["name"],
                    "first": data["period"]["first"],
                    "last": data["period"]["last"],
                    "zone": room["time_zone"],
                    "cutoff": room["cutoff_hour"],
                    "currency": data["currency"],
                }
            ),
            styles["BodyText"],
        ),
    ]
    for key, value in meta.items():
        story.append(Paragraph(escape(f"{meta_label(key)}: {value}"), small))
    return story


def _totals_page(data: dict[str, Any], styles: Any, width: float) -> list[Any]:
    """The first page's figures: the period's totals, then the checks that
    disagree (or that all agree)."""
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    found, currency = totals(data), data["currency"]
    story: list[Any] = [Spacer(1, 4 * mm)]
    story.append(Paragraph(escape(_("Totals")), styles["section"]))
    if found:
        cells = [[t.label, _total_text(t, currency)] for t in found]
        half = (len(cells) + 1) // 2
        left, right = cells[:half], cells[half:] + [["", ""]] * (2 * half - len(cells))
        table = Table(
            [[*one, "", *two] for one, two in zip(left, right, strict=True)],
            colWidths=[w * width for w in (0.26, 0.17, 0.06, 0.26, 0.17)],
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), styles["BodyText"].fontName),
                    ("FONTSIZE", (0, 0), (-1, -1), 10),
                    ("LEADING", (0, 0), (-1, -1), 12),
                    ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                    ("ALIGN", (4, 0), (4, -1), "RIGHT"),
                    ("LINEBELOW", (0, 0), (1, -1), 0.25, colors.lightgrey),
                    (
                        "LINEBELOW",
                        (3, 0),
                        (4, len(cells) - half - 1),
                        0.25,
                        colors.lightgrey,
                    ),
                ]
            )
        )
        story.append(table)
    failed = failed_checks(data)
    story.append(Spacer(1, 4 * mm))
    if failed:
        story.append(
            Paragraph(
                escape(
                    ngettext(
                        "%(n)d reconciliation check disagrees:",
                        "%(n)d reconciliation checks disagree:",
                        len(failed),
                    )
                    % {"n": len(failed)}
                ),
                styles["alarm"],
            )
        )
        for row in failed[:SHOWN_FAILED]:
            story.append(
                Paragraph(
                    escape(
                        f"{row['check']}: {money_text(row['difference'], currency)}"
                    ),
                    styles["small"],
                )
            )
    elif any(t.key == "checks" for t in found):
        story.append(
            Paragraph(
                escape(_("Every reconciliation check agrees.")), styles["BodyText"]
            )
        )
    return story


def _charts(data: dict[str, Any], width: float) -> list[Any]:
    from reportlab.lib.units import mm
    from reportlab.platypus import Image, Spacer

    story: list[Any] = []
    for chart in data["charts"]:
        png = chart_png(chart, data["currency"])
        story.append(Image(io.BytesIO(png), width=width, height=width * 0.36))
        story.append(Spacer(1, 3 * mm))
    return story


def _section_table(
    section: dict[str, Any], styles: Any, width: float, currency: str
) -> list[Any]:
    """A section as a table that repeats its header on every page."""
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import LongTable, Paragraph, Spacer, TableStyle

    small = styles["small"]
    story: list[Any] = [Paragraph(escape(section["title"]), styles["section"])]
    if section["note"]:
        story.append(Paragraph(escape(section["note"]), styles["note"]))
    columns = section["columns"]
    if not section["rows"]:
        story.append(Paragraph("—", small))
        return story
    header = [Paragraph(f"<b>{escape(c['title'])}</b>", small) for c in columns]
    body: list[list[Any]] = [
        [_cell(v, c["type"], currency) for v, c in zip(row, columns, strict=True)]
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
    table = LongTable([header, *body], colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = [
        ("FONTNAME", (0, 1), (-1, -1), small.fontName),
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
    return [*story, table, Spacer(1, 3 * mm)]


SHOWN_FAILED = 10  # the checks that disagree listed on the first page; the rest follow
DIGEST_KEY = "ledger_digest"  # reports.builders.digest.KEY
ON_THE_FIRST_PAGE = {DIGEST_KEY}  # printed whole there, not again as a table


def ledger_digest_block(data: dict[str, Any], styles: Any, width: float) -> list[Any]:
    """The first page's signed digest of each gaming day (docs/digest.md): the
    digest to keep, as ``books_verify --digest`` takes it, the Merkle root, the
    day before's digest, the Ed25519 signature and the key, each in full."""
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    try:
        days = rows_of(data, DIGEST_KEY)
    except KeyError:
        return []
    story: list[Any] = [Spacer(1, 1 * mm)]
    story.append(Paragraph(escape(_("The ledger's signed digest")), styles["section"]))
    if not days:
        story.append(
            Paragraph(
                escape(_("No day of this period is sealed: it is before the first.")),
                styles["small"],
            )
        )
        return story
    mono = styles["mono"]
    for day in days:
        cells = [
            (_("gaming day"), day["gaming_day"]),
            (_("transactions"), f"{day['transactions']:,}"),
            (_("digest (keep it)"), f"{day['gaming_day']}:{day['digest']}"),
            (_("Merkle root"), day["root"]),
            (_("digest of the day before"), day["previous"]),
            (_("Ed25519 signature"), day["signature"]),
            (_("key"), f"{day['key']} ({day['public_key']})"),
        ]
        table = Table(
            [
                [Paragraph(escape(label), styles["small"]), Paragraph(value, mono)]
                for label, value in cells
            ],
            colWidths=[0.2 * width, 0.8 * width],
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("TOPPADDING", (0, 0), (-1, -1), 0.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.lightgrey),
                ]
            )
        )
        story += [table, Spacer(1, 1 * mm)]
    story.append(
        Paragraph(
            escape(
                _(
                    "Keep the digest outside the system. manage.py books_verify "
                    "--digest DAY:DIGEST proves nothing of that day or before has "
                    "changed since, or names the day and the transaction that did; "
                    "scripts/verify_proof.py checks a hand's, a receipt's or an "
                    "award's proof with the public key alone (docs/digest.md)."
                )
            ),
            styles["note"],
        )
    )
    return story


# Hangul is in none of the PDF's standard fonts; ReportLab's Korean CID font needs
# no file on the machine (a PDF reader supplies its glyphs).
CID_FONTS = {"ko": "HYGothic-Medium"}


def font_of(language: str) -> tuple[str, str]:
    """The regular and bold font names for ``language``, registered."""
    name = CID_FONTS.get(language.split("-")[0])
    if name is None:
        return "Helvetica", "Helvetica-Bold"
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(name))
        for bold in (0, 1):
            for italic in (0, 1):
                addMapping(name, bold, italic, name)
    return name, name


def _styles() -> Any:
    from reportlab.lib import colors
    from reportlab.lib.styles import getSampleStyleSheet

    styles = getSampleStyleSheet()
    regular, bold = font_of(get_language() or "en")
    for style in styles.byName.values():
        is_bold = "Bold" in getattr(style, "fontName", "")
        style.fontName = bold if is_bold else regular
    styles.add(styles["BodyText"].clone("small", fontSize=7, leading=8.5))
    styles.add(styles["Heading2"].clone("section", keepWithNext=1))
    styles.add(styles["small"].clone("note", keepWithNext=1))
    styles.add(styles["BodyText"].clone("alarm", textColor=colors.red))
    # Hex digits of the digests, in a fixed-width font every PDF reader has.
    styles.add(
        styles["BodyText"].clone("mono", fontName="Courier", fontSize=7.5, leading=9)
    )
    return styles


def to_pdf(data: dict[str, Any], *, meta: dict[str, str]) -> bytes:
    """Render the document as a PDF: a first page of totals, then the charts and
    every section."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, SimpleDocTemplate

    styles = _styles()
    page = landscape(A4)
    width = page[0] - 24 * mm
    story = [*_heading(data, meta, styles), *_totals_page(data, styles, width)]
    story += ledger_digest_block(data, styles, width)
    story.append(PageBreak())
    story += _charts(data, width)
    for section in data["sections"]:
        if section["key"] in ON_THE_FIRST_PAGE:
            continue
        story += _section_table(section, styles, width, data["currency"])

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
    first, last = data["period"]["first"], data["period"]["last"]
    footer_text = f"{data['title']} {first}–{last}  ·  {meta.get('digest', '')}"

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(styles["small"].fontName, 7)
        canvas.drawString(12 * mm, 7 * mm, footer_text)
        canvas.drawRightString(
            page[0] - 12 * mm, 7 * mm, _("page %(n)d") % {"n": doc.page}
        )
        canvas.restoreState()

    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()
