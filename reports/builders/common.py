"""What the reports' builders share: the stored document's frame, the hours of a
gaming day, a progress that shows nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from cardroom.models import StackMovement
from reports.document import (
    Section,
)
from reports.selectors import Period

Progress = Callable[[str], None]
CASH, CHIPS = StackMovement.Method.CASH, StackMovement.Method.CHIPS


def quiet(step: str) -> None:
    """No progress to show."""


def report_document(
    *,
    kind: str,
    title: str,
    period: Period,
    now: datetime,
    sections: list[Section],
    charts: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "kind": kind,
        "title": title,
        "period": {
            "first": period.first.isoformat(),
            "last": period.last.isoformat(),
            "start": period.start.isoformat(),
            "end": period.end.isoformat(),
        },
        "room": {
            "name": str(period.room.name),
            "time_zone": period.room.time_zone,
            "cutoff_hour": period.room.gaming_day_cutoff_hour,
        },
        "currency": period.room.currency,
        "as_of": now.isoformat(),
        "sections": [s.as_json() for s in sections],
        "charts": charts,
    }


def gaming_day_hours(room_cutoff: int) -> list[int]:
    """The local hours of a gaming day in order, from the cut-off (BI8)."""
    return [(room_cutoff + h) % 24 for h in range(24)]
