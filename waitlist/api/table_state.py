"""The floor's calls to a table, in its terminal's state (WL2, WL5, BI1–BI7).

``cardroom.selectors.table_state`` calls :func:`table_calls` by its import path
(the ``CARDROOM_TABLE_STATE`` setting): each player called to a seat of the table
and not yet seated, with the buy-in the table's terminal may seat him with
(``POST seats``), as the floor decides it (``cardroom.selectors.seat_allowed``).
A house move (a closed table, a must-move, a seat change: BI7) is the floor's to
seat; the terminal shows it and waits.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cardroom.models import Table
from cardroom.selectors import seat_allowed
from waitlist.domain.seating import Kind
from waitlist.models import Entry

HOUSE_MOVES = frozenset({Kind.CLOSED_TABLE, Kind.MUST_MOVE, Kind.SEAT_CHANGE})


def table_calls(*, table: Table, now: datetime) -> dict[str, Any]:
    """``{"calls": [...]}``: the waiting-list entries called to ``table``, oldest
    call first, each with the buy-in allowed (or why he can't buy in here)."""
    calls = []
    entries = Entry.objects.filter(
        status=Entry.Status.CALLED, call_table=table
    ).select_related("player")
    for entry in entries.order_by("called_at", "pk"):
        house = entry.kind in HOUSE_MOVES
        allowed, refused = (
            (None, None)
            if house or table.game is None
            else seat_allowed(table=table, player=entry.player, now=now)
        )
        calls.append(
            {
                "entry": entry.pk,
                "player": entry.player.code,
                "name": entry.player.name,
                "seat": entry.call_seat,
                "kind": entry.kind,
                "house_move": house,
                "called_at": entry.called_at,
                "expires_at": entry.expires_at,
                "buy_in": allowed,
                "refused": refused,
            }
        )
    return {"calls": calls}
