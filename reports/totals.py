"""The figures a report opens with: the period's totals, read from its document.

Read from the stored sections, not from the database, so a report stored last
year opens with the totals of what it stored. Labels are translated when read:
the PDF's first page and the auditor's preview show them in their own language.

>>> data = {"kind": "player_activity", "sections": [
...     {"key": "players", "columns": [{"key": "hands", "type": "int"}],
...      "rows": [[3], [4]]}]}
>>> [(t.key, t.value) for t in totals(data)][:2]
[('players', 2), ('hands', 7)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from reports.document import INT, MONEY, rows_of

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Total:
    """One figure of the period: ``value`` is cents (``money``) or a count."""

    key: str
    label: str
    value: int
    type: str


@dataclass(frozen=True, slots=True)
class Figure:
    """How a total is read: the sum of ``column`` in ``section``'s rows that
    ``where`` keeps (``column`` None counts the rows)."""

    key: str
    label: Any
    section: str
    column: str | None = None
    type: str = MONEY
    where: Callable[[Row], bool] | None = None


def _cash(row: Row) -> bool:
    return bool(row.get("side") == "cash")


def _chips(row: Row) -> bool:
    return bool(row.get("side") == "chips")


def _open(row: Row) -> bool:
    return bool(row.get("status") == "open")


def _disagrees(row: Row) -> bool:
    return row.get("agrees") is False


def _unverified(row: Row) -> bool:
    return not row.get("id_verified")


CHECKS = [
    Figure("checks", _("reconciliation checks"), "checks", type=INT),
    Figure("checks_failed", _("checks that disagree"), "checks", None, INT, _disagrees),
]

FIGURES: dict[str, list[Figure]] = {
    "daily_audit": [
        Figure("hands", _("hands dealt"), "tables_hands", "dealt", INT),
        Figure("voided", _("hands voided"), "tables_hands", "voided", INT),
        Figure("pots", _("pots"), "tables_hands", "pots"),
        Figure("rake", _("rake"), "tables_hands", "rake"),
        Figure("time", _("time collection"), "tables_hands", "time"),
        Figure("jackpot_drop", _("jackpot drops"), "tables_hands", "drop"),
        Figure("drop", _("drop (cash buy-ins)"), "tables_chips", "buy_ins_cash"),
        Figure(
            "buy_ins_chips", _("buy-ins with chips"), "tables_chips", "buy_ins_chips"
        ),
        Figure("fills", _("fills"), "tables_chips", "fills"),
        Figure("credits", _("credits"), "tables_chips", "credits"),
        Figure("box_variance", _("box count variance"), "box_counts", "variance"),
        Figure(
            "over_short_cash",
            _("cage over/short, cash"),
            "shift_drawers",
            "over_short",
            where=_cash,
        ),
        Figure(
            "over_short_chips",
            _("cage over/short, chips"),
            "shift_drawers",
            "over_short",
            where=_chips,
        ),
        Figure("shifts", _("cashier shifts"), "shifts", type=INT),
        Figure("exceptions", _("exceptions"), "exceptions_summary", "count", INT),
        Figure(
            "exceptions_open",
            _("exceptions still open"),
            "exceptions_summary",
            "count",
            INT,
            _open,
        ),
        Figure("receivables", _("open receivables"), "receivables", "open"),
        Figure(
            "promotion_awards",
            _("promotion awards out of the pools"),
            "promotion_funds",
            "awards_out",
        ),
        Figure(
            "promotion_expense",
            _("the house's promotion expense"),
            "promotion_expense",
            "total",
        ),
        *CHECKS,
    ],
    "jackpot": [
        Figure("jackpot_drop", _("jackpot drops"), "jackpot_funds", "drops"),
        Figure("awards", _("awards and other out"), "jackpot_funds", "awards"),
        Figure("pools", _("pools at the end"), "jackpot_funds", "closing"),
        Figure("awarded", _("awards of the hits and months"), "hits_awards", "amount"),
        Figure(
            "promotion_awards",
            _("promotion awards out of the pools"),
            "promotion_funds",
            "awards_out",
        ),
        Figure(
            "promotion_pools",
            _("promotion pools at the end"),
            "promotion_funds",
            "closing",
        ),
        *CHECKS,
    ],
    "player_activity": [
        Figure("players", _("players"), "players", type=INT),
        Figure("hands", _("hands played"), "players", "hands", INT),
        Figure("buy_ins_cash", _("buy-ins, cash"), "players", "buy_ins_cash"),
        Figure("cash_total", _("cash transactions (CA5)"), "players", "cash_total"),
        Figure("ca5", _("players at the identity threshold"), "ca5_review", type=INT),
        Figure(
            "ca5_unverified",
            _("of them without a verified identity"),
            "ca5_review",
            None,
            INT,
            _unverified,
        ),
    ],
}


def totals(data: dict[str, Any]) -> list[Total]:
    """The totals of a stored report, in order; a section it lacks is left out
    (a tournament's report has its checks only)."""
    found = []
    for figure in FIGURES.get(data.get("kind", ""), CHECKS):
        try:
            rows = rows_of(data, figure.section)
        except KeyError:
            continue
        kept = [r for r in rows if figure.where is None or figure.where(r)]
        if figure.column is None:
            value = len(kept)
        else:
            value = sum(r.get(figure.column) or 0 for r in kept)
        found.append(Total(figure.key, str(figure.label), value, figure.type))
    return found


def failed_checks(data: dict[str, Any]) -> list[Row]:
    """The reconciliation checks that disagree."""
    try:
        return [r for r in rows_of(data, "checks") if _disagrees(r)]
    except KeyError:
        return []
