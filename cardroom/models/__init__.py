"""The floor's rows: rooms, games and their policies, tables and their terminals'
keys, seat sessions, hands and what follows them (:mod:`.floor`), and the
reference terminal's pairing codes and refused hands (:mod:`.terminals`)."""

from cardroom.models.floor import (
    GAME_CODES,
    MAX_SEATS,
    Absence,
    Correction,
    Game,
    Hand,
    HandException,
    HandSeat,
    HandVoid,
    Policy,
    Room,
    SeatSession,
    StackMovement,
    StackReview,
    Table,
    TerminalKey,
    TerminalKeyManager,
)
from cardroom.models.terminals import HandRefusal, TerminalPairing

__all__ = [
    "GAME_CODES",
    "MAX_SEATS",
    "Absence",
    "Correction",
    "Game",
    "Hand",
    "HandException",
    "HandRefusal",
    "HandSeat",
    "HandVoid",
    "Policy",
    "Room",
    "SeatSession",
    "StackMovement",
    "StackReview",
    "Table",
    "TerminalKey",
    "TerminalKeyManager",
    "TerminalPairing",
]
