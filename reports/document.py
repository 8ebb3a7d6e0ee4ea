"""The shape of a stored report: sections of typed columns, checks and charts.

Every report is one JSON document; the CSV, XLSX and PDF renderers read nothing else.
Money columns hold integer cents (``type: money``); the renderers format them.
Dates and times are ISO text in the room's time (``type: date``, ``datetime``).

    {"kind": "daily_audit", "title": …, "period": {…}, "room": {…}, "currency": "EUR",
     "as_of": "…", "sections": [{"key", "title", "msgid", "note", "columns":
     [{"key", "title", "type"}], "rows": [[…], …]}], "charts": [{"key", "title",
     "type", "x", "series": [{"name", "values"}], "x_label", "y_label"}]}

A section's ``msgid`` is its title's English text, kept so a screen can say the
title in its reader's language (:func:`title_for_reader`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

TEXT, INT, MONEY, BOOL = "text", "int", "money", "bool"
# A gaming day (``2026-11-30``) and a moment on the room's clock with its offset
# (``2026-11-30 23:15:00+02:00``), both stored as ISO text.
DATE, DATETIME = "date", "datetime"


class Said(str):
    """A text of the document in the room's language that remembers its English
    ``msgid``, so a screen can say it again in its reader's language."""

    msgid: str


def said(message: str) -> str:
    """``gettext(message)``, remembering ``message`` (:class:`Said`); the builders
    name their sections with it."""
    text = Said(_(message))
    text.msgid = message
    return text


def title_for_reader(section: dict[str, Any]) -> str:
    """A stored section's title in the reader's language: its ``msgid``
    translated when the document kept it, else the title as stored."""
    msgid = section.get("msgid")
    return _(msgid) if msgid else str(section.get("title", ""))


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    title: str
    type: str = TEXT


@dataclass(slots=True)
class Section:
    """A table of the report: typed columns and rows of plain values."""

    key: str
    title: str
    columns: list[Column]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""

    def add(self, **values: Any) -> None:
        """Append a row given by column key; a missing key is an error."""
        self.rows.append([values[c.key] for c in self.columns])

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            **({"msgid": self.title.msgid} if isinstance(self.title, Said) else {}),
            "note": self.note,
            "columns": [
                {"key": c.key, "title": c.title, "type": c.type} for c in self.columns
            ],
            "rows": self.rows,
        }


class Checks(Section):
    """Figures derived twice, from the floor's and cage's records and from the
    ledger: each row says whether they agree."""

    def __init__(self) -> None:
        super().__init__(
            key="checks",
            title=said(gettext_noop("Reconciliation checks")),
            columns=[
                Column("check", _("check")),
                Column("records", _("records"), MONEY),
                Column("ledger", _("ledger"), MONEY),
                Column("difference", _("difference"), MONEY),
                Column("agrees", _("agrees"), BOOL),
            ],
            note=_(
                "Each figure computed from the records (hands, slips, counts, "
                "shifts) and independently from the ledger's entries."
            ),
        )

    def compare(self, check: str, records: int, ledger: int) -> None:
        self.add(
            check=check,
            records=records,
            ledger=ledger,
            difference=ledger - records,
            agrees=records == ledger,
        )

    @property
    def all_agree(self) -> bool:
        return all(row[-1] for row in self.rows)


def canonical(data: dict[str, Any]) -> bytes:
    """The report's bytes for its digest: sorted keys, no spaces, UTF-8."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    ).encode()


def digest(data: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()


def section_of(data: dict[str, Any], key: str) -> dict[str, Any]:
    """Return the section ``key`` of a stored report. Raises :class:`KeyError`."""
    for section in data["sections"]:
        if section["key"] == key:
            return section
    raise KeyError(key)


def rows_of(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """Return the rows of section ``key`` as dictionaries by column key."""
    section = section_of(data, key)
    keys = [c["key"] for c in section["columns"]]
    return [dict(zip(keys, row, strict=True)) for row in section["rows"]]
