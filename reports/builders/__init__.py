"""The reports, assembled from the selectors into stored documents.

Each builder returns the JSON document of :mod:`reports.document`: sections of
figures, the reconciliation checks that tie them to the ledger, and chart data.
``progress`` is told the name of each section as it is done (the management
commands show it as a progress bar). One module a report: :mod:`.daily_audit`,
:mod:`.jackpot`, :mod:`.player_activity`, a tournament's final report
(:mod:`.tournaments`); the sections the daily audit borrows from the jackpots'
sources and the players' protection in :mod:`.jackpot_sources` and
:mod:`.protection`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reports.builders.daily_audit import daily_audit
from reports.builders.jackpot import jackpot_report
from reports.builders.player_activity import player_activity

BUILDERS: dict[str, Callable[..., dict[str, Any]]] = {
    "daily_audit": daily_audit,
    "jackpot": jackpot_report,
    "player_activity": player_activity,
}


def steps(kind: str) -> int:
    """How many progress steps the builder of ``kind`` reports."""
    return {"daily_audit": 8, "jackpot": 4, "player_activity": 4}[kind]


__all__ = ["BUILDERS", "daily_audit", "jackpot_report", "player_activity", "steps"]
