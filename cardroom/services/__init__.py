"""Writes of the floor: tables, seats, buy-ins, hands, and their corrections.

Every function is keyword-only and atomic; each movement of chips or cash is one
balanced ledger transaction posted in the same database transaction as the floor's
own rows, so a failure anywhere leaves nothing behind.

One module (or package: ``hands``) per use case; ``tables`` and ``sessions`` hold
what they share (the open table, the open seat, a stack movement). Every name the
other apps (and the tests) use is re-exported here, so ``from cardroom.services
import x`` and ``cardroom.services.x`` keep working. The floor's reads are in
:mod:`cardroom.selectors`.
"""

from __future__ import annotations

from cardroom.services.corrections import correction_decide, correction_request
from cardroom.services.hand_refusals import hand_refusal_handle, hand_refusal_keep
from cardroom.services.hands import Booked, hand_preview, hand_record, hands_record
from cardroom.services.leaving import (
    LONG_BREAK,
    custody_return,
    seat_away,
    seat_back,
    seat_leave,
    seat_pick_up,
)
from cardroom.services.reviews import stack_review_approve, stack_review_propose
from cardroom.services.sessions import player_require
from cardroom.services.sittings import (
    HOUSE_MOVES,
    seat_move,
    seat_take,
    seat_top_up,
)
from cardroom.services.tables import (
    policy_publish,
    room_default,
    table_close,
    table_get_open,
    table_open,
)
from cardroom.services.terminal_keys import (
    terminal_key_create,
    terminal_key_revoke,
    terminal_pairing_create,
    terminal_pairing_redeem,
)
from cardroom.services.time_collection import seat_time_charge
from cardroom.services.voids import hand_void, hand_void_decide

__all__ = [
    "HOUSE_MOVES",
    "LONG_BREAK",
    "Booked",
    "correction_decide",
    "correction_request",
    "custody_return",
    "hand_preview",
    "hand_record",
    "hand_refusal_handle",
    "hand_refusal_keep",
    "hand_void",
    "hand_void_decide",
    "hands_record",
    "player_require",
    "policy_publish",
    "room_default",
    "seat_away",
    "seat_back",
    "seat_leave",
    "seat_move",
    "seat_pick_up",
    "seat_take",
    "seat_time_charge",
    "seat_top_up",
    "stack_review_approve",
    "stack_review_propose",
    "table_close",
    "table_get_open",
    "table_open",
    "terminal_key_create",
    "terminal_key_revoke",
    "terminal_pairing_create",
    "terminal_pairing_redeem",
]
