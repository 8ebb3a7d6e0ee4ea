"""The room's jackpots in a table terminal's state (JD6, WL11).

``cardroom.selectors.table_state`` calls :func:`table_jackpots` by its import path
(the ``CARDROOM_TABLE_STATE`` setting): each pool the public board shows, with its
amount, the ledger's balance (JD6), in cents.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cardroom.models import Table
from jackpots import selectors


def table_jackpots(*, table: Table, now: datetime) -> dict[str, Any]:
    """``{"jackpots": [...]}``: the pools of ``table``'s room as the board shows
    them (name, kind, amount in cents)."""
    room = table.room.code if table.room is not None else None
    return {
        "jackpots": [
            {
                "code": row.pool.code,
                "name": row.pool.name,
                "kind": row.pool.kind,
                "amount": row.amount_cents,
            }
            for row in selectors.board_pools(room=room)
        ]
    }
