"""A tournament table's event and level, in its terminal's state (TO12).

``cardroom.selectors.table_state`` calls :func:`table_tournament` by its import
path (the ``CARDROOM_TABLE_STATE`` setting): for a table playing in a running
event, the event and what its clock shows now (level, blinds and ante in the
event's chips, time left), as the event's clocks show it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cardroom.models import Table
from core.errors import ApplicationError
from tournaments import selectors
from tournaments.models import Event, EventTable

SHOWN = (
    "event",
    "name",
    "status",
    "level",
    "on_break",
    "small_blind",
    "big_blind",
    "ante",
    "big_blind_ante",
    "seconds_left",
)


def table_tournament(*, table: Table, now: datetime) -> dict[str, Any]:
    """``{"tournament": {...}}`` for a table open in a running event, else
    ``{"tournament": None}``."""
    playing = (
        EventTable.objects.filter(
            table=table.code,
            status=EventTable.Status.OPEN,
            event__status=Event.Status.RUNNING,
        )
        .select_related("event")
        .order_by("event__starts_at", "pk")
        .first()
    )
    if playing is None or not playing.event.structure_id:
        return {"tournament": None}
    try:
        shown = selectors.clock_shown(playing.event, now=now)
    except ApplicationError:  # a structure without levels: no clock (TO12)
        return {"tournament": None}
    return {"tournament": {name: shown[name] for name in SHOWN}}
