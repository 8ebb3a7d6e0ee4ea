"""Writes of waiting lists and seating (RULES.md WL1–WL10), time collection (RK6).

One module per use case, with the helpers they share in private modules
(``_shared``: event records, row locks and refusals; ``_steps``: the
changes several use cases make, such as the timers, a released lockup or a call taken
back). Everything is imported from this package, never from its modules.

Every function is keyword-only and atomic and records what it decided as an
:class:`~waitlist.models.Event`: who (``by`` a staff member, or ``source`` a terminal
or the scheduled sweep, as every app's services name who acts), when, and why (the
rule and a reason).

Concurrency: a change first locks the rows of the lists it touches, in primary-key
order, then the entries it reads, in primary-key order, and only then calls the
cash games' services (``cardroom.services``), which lock tables, players and seat
sessions. Those never lock a list, so every path takes locks in the same order; two
floor terminals calling one list at the same moment act one after the other, and
the second sees the first one's call holding its seat.

Moves go through the cash games' services (``seat_leave`` then ``seat_take`` in one
transaction), which apply the buy-in rules: a house move (closed table, must-move,
a seat change the floor grants) keeps the stack (BI7); a seated player called from
another game's list moves under BI5 or buys in afresh (WL5).
"""

from __future__ import annotations

from waitlist.services._shared import (
    HOUSE_MOVE_WHY,
    HOUSE_MOVES,
    list_for_game,
)
from waitlist.services.answering import (
    entry_answer,
    entry_remove,
)
from waitlist.services.balancing import (
    table_balance,
)
from waitlist.services.calling import (
    CallResult,
    list_call,
)
from waitlist.services.joining import (
    entry_join,
)
from waitlist.services.lockups import (
    lockup_release,
    lockup_take,
)
from waitlist.services.must_moves import (
    must_move_end,
    must_move_start,
)
from waitlist.services.pairs import (
    kept_apart_end,
    kept_apart_start,
)
from waitlist.services.seat_changes import (
    seat_change_request,
)
from waitlist.services.seat_checks import (
    seat_check,
)
from waitlist.services.seating import (
    entry_called_to,
    entry_seat,
)
from waitlist.services.table_breaks import (
    BreakResult,
    table_break,
)
from waitlist.services.time_collection import (
    time_collect,
)
from waitlist.services.timers import (
    list_refresh,
    timers_sweep,
)

__all__ = [
    "HOUSE_MOVES",
    "HOUSE_MOVE_WHY",
    "BreakResult",
    "CallResult",
    "entry_answer",
    "entry_called_to",
    "entry_join",
    "entry_remove",
    "entry_seat",
    "kept_apart_end",
    "kept_apart_start",
    "list_call",
    "list_for_game",
    "list_refresh",
    "lockup_release",
    "lockup_take",
    "must_move_end",
    "must_move_start",
    "seat_change_request",
    "seat_check",
    "table_balance",
    "table_break",
    "time_collect",
    "timers_sweep",
]
