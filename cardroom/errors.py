"""The floor's error codes and their texts, in one translated table.

Pure (no Django, no DRF): services, models, domain code and hooks raise with
``refuse(Code.X, rule=..., **params)`` (422 under a rule, 400 without),
``conflict`` (409), ``missing`` (404) or ``invalid`` (400). Each text is a
template translated when the edge reads it (``core.errors``); the msgids sit in
locale/fi and locale/ko.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from core.errors import (
    ApplicationError,
    Conflict,
    Invalid,
    NotFound,
    Refusal,
    Unauthenticated,
    Unprocessable,
    refuser,
)
from core.errors import gettext_noop as _


class Code(StrEnum):
    KEY_NO_LONGER_VALID = "authentication_failed"
    ALREADY_SEATED = "already_seated"
    INVALID_AMOUNT = "invalid_amount"
    ABOVE_MAXIMUM = "above_maximum"
    BELOW_MINIMUM = "below_minimum"
    SHORT_BUY_IN_NOT_ALLOWED = "short_buy_in_not_allowed"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    STACK_MISMATCH = "stack_mismatch"
    NOTHING_IN_CUSTODY = "nothing_in_custody"
    TIME_NOT_PAYABLE = "time_not_payable"
    SEAT_NOT_HELD = "seat_not_held"
    STACK_ABOVE_LEDGER = "stack_above_ledger"
    NOT_FOUND = "not_found"
    TABLE_OPEN = "table_open"
    TABLE_CLOSED = "table_closed"
    TABLE_HAS_PLAYERS = "table_has_players"
    UNKNOWN_PLAYER = "unknown_player"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_TAKEN = "seat_taken"
    SEAT_EMPTY = "seat_empty"
    NOTHING_TO_MOVE = "nothing_to_move"
    WRONG_TABLE = "wrong_table"
    WRONG_GAME = "wrong_game"
    HAND_CONFLICT = "hand_conflict"
    HAND_OUT_OF_ORDER = "hand_out_of_order"
    MALFORMED_HAND = "malformed_hand"
    ALREADY_AWAY = "already_away"
    NOT_AWAY = "not_away"
    LONG_BREAK_USED = "long_break_used"
    NOT_AWAY_LONG_ENOUGH = "not_away_long_enough"
    KEY_REVOKED = "key_revoked"
    HAND_VOIDED = "hand_voided"
    RULING_TOO_LATE = "ruling_too_late"
    REASON_REQUIRED = "reason_required"
    INVALID = "invalid"
    NO_SUCH_HOLD = "no_such_hold"
    ABOVE_HELD = "above_held"
    DECIDED = "decided"
    FOUR_EYES = "four_eyes"
    CORRECTION_PENDING = "correction_pending"
    RECEIVABLE_BOOKED = "receivable_booked"
    TRAY_SHORT = "tray_short"
    CHIPS_SHORT = "chips_short"
    PAIRING_CODE_UNKNOWN = "pairing_code_unknown"
    PAIRING_CODE_USED = "pairing_code_used"
    PAIRING_CODE_EXPIRED = "pairing_code_expired"
    ALREADY_HANDLED = "already_handled"


KEY_REVOKED_TEXT = _("Unknown or revoked terminal key.")
BELOW = "The amount of %(amount)d is below the %(minimum)d required."
TEXTS = {
    Code.KEY_NO_LONGER_VALID: _("This terminal key was revoked or has expired."),
    Code.ALREADY_SEATED: _(
        "The player already has a seat at %(table)s; one seat at a time."
    ),
    Code.INVALID_AMOUNT: _("The amount is a positive number of cents."),
    Code.ABOVE_MAXIMUM: _("The amount of %(amount)d is above the %(maximum)d allowed."),
    Code.BELOW_MINIMUM: _(BELOW),
    Code.SHORT_BUY_IN_NOT_ALLOWED: _(
        "The amount of %(amount)d is below the %(minimum)d required. A short buy-in"
        " is allowed once per gaming day, in pot-limit games only, after running"
        " out, and never as the first buy-in of the day."
    ),
    Code.INSUFFICIENT_FUNDS: _(
        "The move would take %(accounts)s below zero; nothing was booked."
    ),
    Code.STACK_MISMATCH: _(
        "The stack reported (%(r)d) differs from the recorded %(k)d."
    ),
    Code.NOTHING_IN_CUSTODY: _("BI9: no chips are held for %(p)s."),
    Code.TIME_NOT_PAYABLE: _("Seat %(s)d can't pay %(a)d of time."),
    Code.SEAT_NOT_HELD: _("Seat %(s)d is not held by %(p)s at this table."),
    Code.STACK_ABOVE_LEDGER: _(
        "HS6: seat %(s)d reports a stack of %(r)d and puts in %(p)d; the"
        " ledger holds %(k)d. Read the seats (GET seats) and post the hand"
        " with the ledger's stacks."
    ),
    Code.NOT_FOUND: _("No table %(t)s."),
    Code.TABLE_OPEN: _("Table %(t)s is already open."),
    Code.TABLE_CLOSED: _("Table %(t)s is closed."),
    Code.TABLE_HAS_PLAYERS: _(
        "%(n)d players still sit at the table; move or cash them out first."
    ),
    Code.UNKNOWN_PLAYER: _("Player %(p)s is not registered; register him first."),
    Code.NO_SUCH_SEAT: _("Seat %(s)d doesn't exist at this table (1–%(n)d)."),
    Code.SEAT_TAKEN: _("Seat %(s)d is taken."),
    Code.SEAT_EMPTY: _("Nobody sits in seat %(s)d."),
    Code.NOTHING_TO_MOVE: _(
        "BI7: %(p)s has no chips at %(t)s to move; a player who brings nothing buys in."
    ),
    Code.WRONG_TABLE: _("The record names table %(r)s but was posted for %(t)s."),
    Code.WRONG_GAME: _("The table deals %(g)s, not %(r)s."),
    Code.HAND_CONFLICT: _("Hand %(n)s was already recorded with other content."),
    Code.HAND_OUT_OF_ORDER: _("Hand numbers increase at a table; the last was %(n)d."),
    Code.MALFORMED_HAND: _("hand_no must be a whole number from 1 up, not %(n)d."),
    Code.ALREADY_AWAY: _("The player is already away."),
    Code.NOT_AWAY: _("The player is not away."),
    Code.LONG_BREAK_USED: _("BI9: one long break per gaming day; he had his tonight."),
    Code.NOT_AWAY_LONG_ENOUGH: _(
        "BI9: chips are picked up only after 30 minutes away."
    ),
    Code.KEY_REVOKED: _("This terminal key was revoked already."),
    Code.HAND_VOIDED: _("The hand was voided."),
    Code.RULING_TOO_LATE: _(
        "DC1: a pot ruling is asked for before the next hand at the table"
        " starts; hand %(n)d was dealt since."
    ),
    Code.REASON_REQUIRED: _("DC2: a correction says why."),
    Code.INVALID: _("A %(k)s needs: %(m)s."),
    Code.NO_SUCH_HOLD: _("HS8: no approved hold %(id)s."),
    Code.ABOVE_HELD: _("HS8: the hold has %(left)d left to release."),
    Code.DECIDED: _("This correction was decided already."),
    Code.FOUR_EYES: _("DC2: corrections of money need two different staff."),
    Code.CORRECTION_PENDING: _(
        "RK8: correction %(id)d of hand %(n)d waits for a decision; decide it "
        "before the hand is voided, so the void is decided with it in view (DC2)."
    ),
    Code.TRAY_SHORT: _(
        "CA3: the tray of %(t)s holds %(held)d in chips and can't pay a cash buy-in"
        " of %(amount)d; the floor asks the cage for a fill first."
    ),
    Code.CHIPS_SHORT: _(
        "CA2: %(p)s carries chips worth %(held)d; a buy-in in his own chips is at"
        " most %(held)d."
    ),
    Code.PAIRING_CODE_UNKNOWN: _(
        "No such pairing code. Check it on the floor screen, or ask for a new one."
    ),
    Code.PAIRING_CODE_USED: _(
        "This pairing code was used already; a code pairs one tablet. Ask for a new"
        " one on the floor screen."
    ),
    Code.PAIRING_CODE_EXPIRED: _(
        "This pairing code has expired (a code is valid %(minutes)d minutes). Ask"
        " for a new one on the floor screen."
    ),
    Code.ALREADY_HANDLED: _("This refused hand was marked handled already."),
    Code.RECEIVABLE_BOOKED: _(
        "RK8: hand %(n)d has receivable %(id)d booked (DC3); money owed at the cage"
        " doesn't go back with the chips, so the hand can't be voided."
    ),
}

VOIDED_NO_CORRECTION = _(
    "RK8: hand %(n)d was voided and every contribution went back: there is no pot "
    "left to correct. Correction %(id)d can only be rejected."
)
"""``hand_voided`` when a pot correction or hold of a voided hand is approved."""

BELOW_BUT_SHORT = _(
    "The amount of %(amount)d is below the %(minimum)d required. A short buy-in is"
    " at least %(short)d."
)
"""``below_minimum`` when a short buy-in would do (BI4)."""
BELOW_AS_LEFT = _(
    "The amount of %(amount)d is below the %(minimum)d required. He left"
    " %(table)s with %(stack)d this gaming day (BI5)."
)
"""``below_minimum`` under one night, one stack (BI5)."""

refuse: Callable[..., Refusal] = refuser(TEXTS)


def overdraft_said(
    error: ApplicationError, *, table: str, player: str, amount: int
) -> ApplicationError:
    """The ledger's overdraft of a buy-in, said as the floor's rule (CA2, CA3).

    The ledger names the account it found short (``table:T04:tray``): a terminal
    or a screen is told which rule refused and what was there instead, never the
    account. Any other refusal is returned as it is.
    """
    params = error.params or {}
    account = params.get("account")
    held = int(params.get("balance") or 0)
    if account == f"table:{table}:tray":
        return refuse(
            Code.TRAY_SHORT,
            rule="CA3",
            allowed={"max": held},
            t=table,
            held=held,
            amount=amount,
        )
    if account == f"player:{player}:chips":
        return refuse(
            Code.CHIPS_SHORT, rule="CA2", allowed={"max": held}, p=player, held=held
        )
    return error


conflict = refuser(TEXTS, Conflict)
missing = refuser(TEXTS, NotFound)
invalid = refuser(TEXTS, Invalid)
unprocessable = refuser(TEXTS, Unprocessable)
unauthenticated = refuser(TEXTS, Unauthenticated)
