"""The tournaments' refusals: their codes and their texts, in one translated table.

Pure (no Django): services, the API and ``domain/`` raise them alike. A code keeps
the string API.md and its callers know; its text is a template translated when the
edge reads ``detail`` (``core.errors``), and the edge's exception handler answers
each kind with its status. A code that several rules refuse with has one text per
rule: the table's other keys name them ``(code, variant)``. Codes other apps answer
with too are core's (:class:`core.errors.SharedCode`), said here in the
tournaments' words.

>>> error = refuse(SharedCode.REASON_REQUIRED, text="refund", rule="TO10")
>>> (error.code, error.rule, error.detail)
('reason_required', 'TO10', 'TO10: a refund says why.')
>>> missing(Code.NO_SUCH_EVENT, code="ME1").detail
'No tournament ME1.'
"""

from __future__ import annotations

from enum import StrEnum

from core.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refusal,
    SharedCode,
    variants_refuser,
)
from core.errors import gettext_noop as _


class Code(StrEnum):
    # The domain's own refusals (tournaments.domain), their text as the domain says it.
    BUST_REFUSED = "bust_refused"
    RACE_REFUSED = "race_refused"
    DEAL_REFUSED = "deal_refused"
    PAYOUT_REFUSED = "payout_refused"
    BOUNTY_REFUSED = "bounty_refused"
    CHIPS_REFUSED = "chips_refused"
    # The table's.
    EVENT_CLOSED = "event_closed"
    INVALID_LEVEL = "invalid_level"
    ENTRY_NOT_PLAYING = "entry_not_playing"
    EVENT_NOT_RUNNING = "event_not_running"
    HAND_REQUIRED = "hand_required"
    SOURCE_REQUIRED = "source_required"
    BOUNTY_NEEDS_STAFF = "bounty_needs_staff"
    HAND_RECORDED = "hand_recorded"
    DUPLICATE_BUST = "duplicate_bust"
    BOUNTY_WINNER_REQUIRED = "bounty_winner_required"
    WINNER_NOT_PLAYING = "winner_not_playing"
    UNKNOWN_CAUSE = "unknown_cause"
    INVALID_CHIPS = "invalid_chips"
    NOTE_REQUIRED = "note_required"
    WRONG_EVENT = "wrong_event"
    ENTRY_CLOSED = "entry_closed"
    SHEET_APPROVED = "sheet_approved"
    SATELLITE_DEAL = "satellite_deal"
    DEAL_INCOMPLETE = "deal_incomplete"
    UNKNOWN_METHOD = "unknown_method"
    BUTTON_ORDER = "button_order"
    DEAL_DOES_NOT_ADD_UP = "deal_does_not_add_up"
    DEAL_NOT_OPEN = "deal_not_open"
    NOT_IN_DEAL = "not_in_deal"
    ALREADY_SIGNED = "already_signed"
    EVENT_NOT_OVER = "event_not_over"
    SHEET_EXISTS = "sheet_exists"
    PAYOUTS_DO_NOT_ADD_UP = "payouts_do_not_add_up"
    SATELLITE_CURRENCY = "satellite_currency"
    SATELLITE_TARGET_CLOSED = "satellite_target_closed"
    PRIZE_NOT_PAYABLE = "prize_not_payable"
    TAX_DOCUMENT_REQUIRED = "tax_document_required"
    SATELLITE_SEAT_SHARED = "satellite_seat_shared"
    SATELLITE_WITHOUT_TARGET = "satellite_without_target"
    SATELLITE_SEAT_HELD = "satellite_seat_held"
    REGISTRATION_CLOSED = "registration_closed"
    ALREADY_PLAYING = "already_playing"
    DISQUALIFIED = "disqualified"
    NO_REENTRY_LEFT = "no_reentry_left"
    PLAYER_UNKNOWN = "player_unknown"
    NO_REBUYS = "no_rebuys"
    REBUY_PERIOD_OVER = "rebuy_period_over"
    INVALID_STACK = "invalid_stack"
    STACK_ABOVE_REBUY_LIMIT = "stack_above_rebuy_limit"
    NO_REBUYS_LEFT = "no_rebuys_left"
    NO_ADDON = "no_addon"
    NOT_ADDON_TIME = "not_addon_time"
    ADDON_TAKEN = "addon_taken"
    EVENT_NOT_SCHEDULED = "event_not_scheduled"
    ALREADY_REFUNDED = "already_refunded"
    EVENT_OVER = "event_over"
    NO_SUCH_PURCHASE = "no_such_purchase"
    REFUND_APPROVED = "refund_approved"
    REFUND_NOT_APPROVED = "refund_not_approved"
    NO_TABLES = "no_tables"
    NO_STRUCTURE = "no_structure"
    NO_SEAT_LEFT = "no_seat_left"
    NOT_AN_EVENT_TABLE = "not_an_event_table"
    NO_SUCH_EVENT = "no_such_event"
    NO_SUCH_LEVEL = "no_such_level"
    NOT_AT_THIS_TABLE = "not_at_this_table"
    # The seating's (tournaments.domain.tables).
    DUPLICATE_TABLE = "duplicate_table"
    BAD_BREAKING_ORDER = "bad_breaking_order"
    BAD_TABLE = "bad_table"
    BAD_SEAT = "bad_seat"
    SEATED_TWICE = "seated_twice"
    EMPTY_TABLE = "empty_table"
    TABLE_FULL = "table_full"
    BAD_TOLERANCE = "bad_tolerance"
    # The clock's (tournaments.domain.clock).
    NO_SUCH_PERIOD = "no_such_period"
    BAD_TIME_LEFT = "bad_time_left"
    CLOCK_EVENT_OUT_OF_ORDER = "clock_event_out_of_order"
    BAD_TIME_ADDED = "bad_time_added"
    CLOCK_NOT_STARTED = "clock_not_started"
    CLOCK_RUNNING = "clock_running"
    CLOCK_PAUSED = "clock_paused"
    CLOCK_STOPPED = "clock_stopped"
    # Setting an event up: structures, events, tables, payout tables (TO1, TO7, TO12).
    STRUCTURE_INVALID = "structure_invalid"
    PAYOUT_TABLE_INVALID = "payout_table_invalid"
    SETTINGS_INVALID = "settings_invalid"
    STRUCTURE_EXISTS = "structure_exists"
    NO_SUCH_STRUCTURE = "no_such_structure"
    STRUCTURE_IN_USE = "structure_in_use"
    STRUCTURE_TOO_SHORT = "structure_too_short"
    EVENT_EXISTS = "event_exists"
    EVENT_CODE_RESERVED = "event_code_reserved"
    NO_SUCH_ROOM = "no_such_room"
    SETTINGS_LOCKED = "settings_locked"
    EVENT_TABLE_EXISTS = "event_table_exists"
    BREAK_ORDER_TAKEN = "break_order_taken"
    TABLE_IN_PLAY = "table_in_play"
    PAYOUT_TABLE_FIXED = "payout_table_fixed"
    SATELLITE_TARGET_INVALID = "satellite_target_invalid"
    # Deals approved, held prizes forfeited, partial refunds, races (TO5, TO6,
    # TO8, TO9, TO10).
    DEAL_NOT_SIGNED = "deal_not_signed"
    DEAL_APPROVED = "deal_approved"
    DEAL_NOT_APPROVED = "deal_not_approved"
    DEAL_BINDING = "deal_binding"
    DEAL_BOUNTIES = "deal_bounties"
    UNKNOWN_DESTINATION = "unknown_destination"
    NO_SUCH_POOL = "no_such_pool"
    REFUND_TOO_MUCH = "refund_too_much"
    REFUND_AFTER_BUST = "refund_after_bust"
    RACE_CARDS = "race_cards"
    RACE_SEATS = "race_seats"

    # The server's clock at the cage and the clock's changes (TO1, TO12).
    LEVEL_MISMATCH = "level_mismatch"
    CLOCK_FIELD_NOT_TAKEN = "clock_field_not_taken"
    REBUY_PERIOD_NOT_STARTED = "rebuy_period_not_started"


TEXTS: dict[Code | SharedCode | tuple[Code | SharedCode, str], str] = {
    # The domain's refusals (tournaments.domain), one text per check.
    (Code.PAYOUT_REFUSED, "rows"): _("TO7: a payout table has at least one row."),
    (Code.PAYOUT_REFUSED, "order"): _(
        "TO7: the rows of a payout table go up by field size from 1."
    ),
    (Code.PAYOUT_REFUSED, "basis"): _(
        "TO7: the shares from %(entries)d entries add up to %(sum)d basis points,"
        " not %(basis)d."
    ),
    (Code.PAYOUT_REFUSED, "lower"): _(
        "TO7: a lower place never pays more than a higher one."
    ),
    (Code.PAYOUT_REFUSED, "places"): _(
        "TO7: %(places)d places can't be paid from %(entries)d entries."
    ),
    (Code.PAYOUT_REFUSED, "start"): _("TO7: a payout table starts at one entry."),
    (Code.PAYOUT_REFUSED, "no_entries"): _(
        "TO7: there are no places to pay without entries."
    ),
    (Code.PAYOUT_REFUSED, "cents"): _(
        "TO7: a prize pool is whole cents, not %(pool)s."
    ),
    (Code.PAYOUT_REFUSED, "unit"): _("TO7: prizes are rounded to at least one cent."),
    (Code.PAYOUT_REFUSED, "shares"): _(
        "TO7: the shares must add up to %(basis)d basis points."
    ),
    (Code.PAYOUT_REFUSED, "remainder"): _("TO7: unknown remainder rule %(remainder)s."),
    (Code.PAYOUT_REFUSED, "negative"): _(
        "TO7: buy-ins and guarantees can't be negative."
    ),
    (Code.PAYOUT_REFUSED, "seat"): _("TO7: a satellite's seat has a value."),
    (Code.PAYOUT_REFUSED, "pool"): _("TO7: a prize pool can't be negative."),
    (Code.DEAL_REFUSED, "two"): _("TO5: a deal is among at least two players."),
    (Code.DEAL_REFUSED, "chips"): _("TO5: every player in a deal has chips."),
    (Code.DEAL_REFUSED, "places"): _(
        "TO5: %(players)d players deal the prizes of %(players)d places,"
        " not %(prizes)d."
    ),
    (Code.DEAL_REFUSED, "order"): _("TO5: the prizes go down from first place."),
    (Code.DEAL_REFUSED, "icm"): _("TO5: ICM is offered for up to %(max)d players."),
    (Code.DEAL_REFUSED, "no_chips"): _("TO5: a deal is among players with chips."),
    (Code.BOUNTY_REFUSED, "negative"): _("TO8: a bounty can't be negative."),
    (Code.BOUNTY_REFUSED, "winners"): _(
        "TO8: a bounty goes to the players who won the pot."
    ),
    (Code.BOUNTY_REFUSED, "chop"): _("TO8: a chop is among players."),
    (Code.BOUNTY_REFUSED, "button"): _(
        "TO8: every player of the chop has a seat from the button."
    ),
    (Code.BUST_REFUSED, "none"): _("TO4: a bust names at least one player."),
    (Code.BUST_REFUSED, "out"): _(
        "TO4: %(out)d players can't be out with %(left)d left."
    ),
    (Code.BUST_REFUSED, "winner"): _("TO4: one player is left to win; he isn't out."),
    (Code.BUST_REFUSED, "stack"): _("TO4: a stack can't be negative."),
    (Code.BUST_REFUSED, "end"): _(
        "TO4: the players left at the end take places 1, 2, 3…"
    ),
    (Code.BUST_REFUSED, "once"): _("TO4: a player busts once."),
    (Code.BUST_REFUSED, "shared"): _(
        "TO4: %(places)d places are shared by as many players, not %(players)d."
    ),
    (Code.BUST_REFUSED, "share_once"): _("TO4: a player shares a place once."),
    (Code.CHIPS_REFUSED, "issues"): _("TO3: %(cause)s issues chips; %(chips)d isn't."),
    (Code.CHIPS_REFUSED, "removes"): _(
        "TO3: %(cause)s removes chips; %(chips)d doesn't."
    ),
    (Code.CHIPS_REFUSED, "cause"): _(
        "TO3: chips leave play only for a recorded cause: %(cause)s"
    ),
    (Code.CHIPS_REFUSED, "count"): _("TO3: a count can't be negative."),
    (Code.CHIPS_REFUSED, "larger"): _(
        "TO6: chips are coloured up into a larger denomination."
    ),
    (Code.CHIPS_REFUSED, "multiple"): _(
        "TO6: the new denomination is a multiple of the old one."
    ),
    (Code.CHIPS_REFUSED, "no_stack"): _("TO6: %(key)s holds chips but has no stack."),
    (Code.CHIPS_REFUSED, "hold"): _(
        "TO6: %(key)s can't hold %(count)d chips of %(denomination)d."
    ),
    (Code.CHIPS_REFUSED, "race"): _(
        "TO6: every player with odd chips draws once in the race."
    ),
    SharedCode.INSUFFICIENT_FUNDS: _(
        "Account %(account)s holds %(balance)d cents; it can't give %(amount)d."
    ),
    Code.EVENT_CLOSED: _("TO1: event %(code)s is %(status)s."),
    (Code.EVENT_CLOSED, "refund"): _("TO10: the event is over."),
    Code.INVALID_LEVEL: _("A level is a whole number from 0."),
    Code.ENTRY_NOT_PLAYING: _("TO1: entry %(no)d is %(status)s."),
    (Code.ENTRY_NOT_PLAYING, "bust"): _("TO4: entry %(no)d isn't playing."),
    (Code.ENTRY_NOT_PLAYING, "report"): _(
        "TO4: %(player)s isn't playing in %(event)s."
    ),
    Code.EVENT_NOT_RUNNING: _("TO4: busts are recorded while it runs."),
    (Code.EVENT_NOT_RUNNING, "payouts"): _("TO7: the event isn't running."),
    Code.HAND_REQUIRED: _("A bust names its hand."),
    Code.SOURCE_REQUIRED: _("A bust says who recorded it."),
    Code.BOUNTY_NEEDS_STAFF: _(
        "TO8: in a bounty event the floor records busts: a bounty is an "
        "award a person approves (CA6)."
    ),
    Code.HAND_RECORDED: _("TO4: hand %(hand)s's busts are recorded."),
    (Code.HAND_RECORDED, "other"): _(
        "TO4: hand %(hand)s's busts are recorded with other players or stacks."
    ),
    Code.DUPLICATE_BUST: _("A player busts once."),
    Code.BOUNTY_WINNER_REQUIRED: _(
        "TO8: in a bounty event a bust names who won the bounty."
    ),
    Code.WINNER_NOT_PLAYING: _("TO8: a bounty goes to a player still in the event."),
    Code.UNKNOWN_CAUSE: _("TO3: chips leave play only for a recorded cause."),
    Code.INVALID_CHIPS: _("Chips removed are a positive number."),
    (Code.INVALID_CHIPS, "count"): _("A count is a whole number of chips."),
    Code.NOTE_REQUIRED: _(
        "TO3: say what happened when chips are removed for %(cause)s."
    ),
    Code.WRONG_EVENT: _("That entry plays another event."),
    SharedCode.REASON_REQUIRED: _("TO3: a disqualification says why."),
    (SharedCode.REASON_REQUIRED, "release"): _("TO9: say why the prize is released."),
    (SharedCode.REASON_REQUIRED, "cancel"): _("TO10: say why the event is cancelled."),
    (SharedCode.REASON_REQUIRED, "refund"): _("TO10: a refund says why."),
    Code.ENTRY_CLOSED: _("TO1: entry %(no)d is %(status)s."),
    Code.SHEET_APPROVED: _(
        "TO9: the prizes are approved; hold or release them instead."
    ),
    (Code.SHEET_APPROVED, "sheet"): _("TO9: this payout sheet is approved."),
    Code.SATELLITE_DEAL: _(
        "TO5: a satellite's places are seats; it plays on to the seats."
    ),
    Code.DEAL_INCOMPLETE: _("TO5: a deal includes every player left, and only them."),
    Code.UNKNOWN_METHOD: _("A deal is a chip chop, ICM or agreed figures."),
    Code.BUTTON_ORDER: _("The seats from the button name every player."),
    SharedCode.INVALID_AMOUNT: _("Amounts are integer cents."),
    Code.DEAL_DOES_NOT_ADD_UP: _(
        "TO5: the deal shares %(pool)d cents; these add up to %(sum)d."
    ),
    Code.DEAL_NOT_OPEN: _("TO5: this deal is %(s)s."),
    Code.NOT_IN_DEAL: _("TO5: this player isn't in the deal."),
    Code.ALREADY_SIGNED: _("TO5: this player has signed."),
    Code.EVENT_NOT_OVER: _("TO7: prizes are paid when every entry has finished."),
    Code.SHEET_EXISTS: _("TO9: this event has its payout sheet."),
    Code.PAYOUTS_DO_NOT_ADD_UP: _(
        "TO7: the places paid add up to %(total)d, the pool is %(pool)d."
    ),
    Code.SATELLITE_CURRENCY: _(
        "TO7: a satellite's seats are in an event of its currency."
    ),
    Code.SATELLITE_TARGET_CLOSED: _("TO7: the seats' event %(code)s is %(status)s."),
    SharedCode.FOUR_EYES: _(
        "TO9: a payout sheet is approved by another person than who prepared it."
    ),
    (SharedCode.FOUR_EYES, "release"): _(
        "TO9: a held prize is released by another person than the sheet's preparer."
    ),
    (SharedCode.FOUR_EYES, "refund"): _(
        "TO10: a refund is approved by another person than the cashier."
    ),
    SharedCode.NOT_HELD: _("TO9: this prize isn't held."),
    SharedCode.ALREADY_PAID: _("TO9: this prize is paid."),
    Code.PRIZE_NOT_PAYABLE: _("TO9: this prize is %(status)s."),
    Code.TAX_DOCUMENT_REQUIRED: _(
        "TO9: a prize of %(threshold)d cents or more is paid with a tax document."
    ),
    Code.SATELLITE_SEAT_SHARED: _(
        "TO7: places %(high)d–%(low)d share seats and cash; the players agree "
        "a deal for them."
    ),
    Code.SATELLITE_WITHOUT_TARGET: _(
        "TO7: a satellite names the event its seats are in."
    ),
    Code.SATELLITE_SEAT_HELD: _(
        "TO9: a satellite seat isn't held; its place is paid on."
    ),
    Code.REGISTRATION_CLOSED: _("TO1: registration closed after level %(level)d."),
    Code.ALREADY_PLAYING: _("TO1: %(player)s is already playing in this event."),
    Code.DISQUALIFIED: _("TO1: %(player)s was disqualified from this event."),
    Code.NO_REENTRY_LEFT: _("TO1: this event allows %(max)d re-entries per player."),
    Code.PLAYER_UNKNOWN: _("CA2: player %(code)s isn't registered."),
    Code.NO_REBUYS: _("TO1: this event has no rebuys (freezeout)."),
    Code.REBUY_PERIOD_OVER: _("TO1: rebuys ended with level %(level)d."),
    Code.INVALID_STACK: _("A stack is a whole number of chips."),
    Code.STACK_ABOVE_REBUY_LIMIT: _(
        "TO1: a rebuy is for a stack of at most %(limit)d chips."
    ),
    Code.NO_REBUYS_LEFT: _("TO1: %(max)d rebuys per entry."),
    Code.NO_ADDON: _("TO1: this event has no add-on."),
    Code.NOT_ADDON_TIME: _("TO1: the add-on is sold at level %(level)d."),
    Code.ADDON_TAKEN: _("TO1: one add-on per entry."),
    Code.EVENT_NOT_SCHEDULED: _("Event %(code)s has started already."),
    SharedCode.WRONG_CURRENCY: _("TO1: event %(code)s is played in %(currency)s."),
    Code.ALREADY_REFUNDED: _("TO10: this purchase is refunded."),
    Code.EVENT_OVER: _("TO10: the event is over."),
    (Code.EVENT_OVER, "clock"): _(
        "TO12: the event is %(status)s; its clock is stopped."
    ),
    Code.NO_SUCH_PURCHASE: _("TO10: no purchase of %(event)s on receipt %(receipt)s."),
    Code.REFUND_APPROVED: _("TO10: this purchase's refund is approved."),
    Code.REFUND_NOT_APPROVED: _(
        "TO10: a manager approves a refund before the cage pays it."
    ),
    Code.NO_TABLES: _("TO11: %(event)s has no open table."),
    Code.NO_STRUCTURE: _("TO12: the event's structure has no levels."),
    Code.NO_SEAT_LEFT: _("TO11: %(n)d seats are left for %(m)d players."),
    Code.NOT_AN_EVENT_TABLE: _("TO3: %(table)s doesn't play in %(event)s."),
    (Code.NOT_AN_EVENT_TABLE, "terminal"): _(
        "TO11: table %(table)s doesn't play in %(event)s."
    ),
    Code.NO_SUCH_EVENT: _("No tournament %(code)s."),
    Code.NO_SUCH_LEVEL: _("TO12: the structure has no level %(n)s."),
    Code.NOT_AT_THIS_TABLE: _("TO4: %(player)s isn't seated at %(table)s."),
    Code.DUPLICATE_TABLE: _("A table is listed twice."),
    Code.BAD_BREAKING_ORDER: _(
        "The breaking order must name each of the event's tables once."
    ),
    Code.BAD_TABLE: _("%(table)s has fewer than 2 seats."),
    Code.BAD_SEAT: _("%(table)s has no seat %(seat)d."),
    Code.SEATED_TWICE: _("%(player)s is seated twice."),
    (Code.SEATED_TWICE, "draw"): _("A player would have two seats."),
    Code.EMPTY_TABLE: _("%(table)s has no players."),
    Code.TABLE_FULL: _("%(table)s has no empty seat."),
    (Code.NO_SEAT_LEFT, "taken"): _("Every seat of the event's tables is taken."),
    Code.BAD_TOLERANCE: _("Tables can't be closer than one player."),
    Code.NO_SUCH_PERIOD: _("The structure has periods 1 to %(n)d."),
    Code.BAD_TIME_LEFT: _(
        "The time left must be more than nothing and no more than the period."
    ),
    Code.CLOCK_EVENT_OUT_OF_ORDER: _(
        "A clock change can't be dated before the one logged last."
    ),
    Code.BAD_TIME_ADDED: _(
        "Time added leaves the period between nothing and its length."
    ),
    Code.CLOCK_NOT_STARTED: _("No hand is dealt before the tournament clock starts."),
    (Code.CLOCK_NOT_STARTED, "action"): _(
        "The clock is not started: it can't take %(action)s."
    ),
    (Code.CLOCK_RUNNING, "action"): _(
        "The clock is running: it can't take %(action)s."
    ),
    (Code.CLOCK_PAUSED, "action"): _("The clock is paused: it can't take %(action)s."),
    (Code.CLOCK_STOPPED, "action"): _(
        "The clock is stopped: it can't take %(action)s."
    ),
    # The server's clock at the cage and the clock's changes (TO1, TO12).
    Code.LEVEL_MISMATCH: _(
        "TO12: the clock is at level %(level)d, not %(believed)d: "
        "the server's clock decides."
    ),
    Code.CLOCK_FIELD_NOT_TAKEN: _("TO12: %(action)s takes no %(field)s."),
    Code.REBUY_PERIOD_NOT_STARTED: _("TO1: rebuys open when the clock starts."),
    (Code.REGISTRATION_CLOSED, "stopped"): _(
        "TO1: registration is closed: the clock is stopped."
    ),
    (Code.REBUY_PERIOD_OVER, "stopped"): _(
        "TO1: rebuys are over: the clock is stopped."
    ),
    (Code.NOT_ADDON_TIME, "stopped"): _(
        "TO1: the add-on is over: the clock is stopped."
    ),
    # Setting an event up: structures, events, tables, payout tables (TO1, TO7, TO12).
    (Code.STRUCTURE_INVALID, "empty"): _("TO12: a structure has at least one level."),
    (Code.STRUCTURE_INVALID, "long"): _(
        "TO12: a structure has at most %(max)d levels."
    ),
    (Code.STRUCTURE_INVALID, "first"): _(
        "TO12: a structure starts with a level of play, not a break."
    ),
    (Code.STRUCTURE_INVALID, "minutes"): _("TO12: level %(n)d lasts no time."),
    (Code.STRUCTURE_INVALID, "break_blinds"): _(
        "TO12: level %(n)d is a break: it has no blinds and no ante."
    ),
    (Code.STRUCTURE_INVALID, "retire"): _(
        "TO6: the chip coloured up at level %(n)d has a value."
    ),
    (Code.STRUCTURE_INVALID, "retire_play"): _(
        "TO6: chips are coloured up at a break; level %(n)d isn't one."
    ),
    (Code.STRUCTURE_INVALID, "blinds"): _("TO12: level %(n)d has no big blind."),
    (Code.STRUCTURE_INVALID, "small"): _(
        "TO12: at level %(n)d the small blind is above the big blind."
    ),
    (Code.PAYOUT_TABLE_INVALID, "rows"): _("TO7: a payout table has at least one row."),
    (Code.PAYOUT_TABLE_INVALID, "long"): _(
        "TO7: a payout table has at most %(max)d rows."
    ),
    (Code.PAYOUT_TABLE_INVALID, "start"): _(
        "TO7: the first row of a payout table is for 1 entry, not %(entries)d: "
        "every field size needs a row."
    ),
    (Code.PAYOUT_TABLE_INVALID, "order"): _(
        "TO7: row %(row)d is for %(entries)d entries; the row before it for "
        "%(previous)d. The rows go up by field size, each size once."
    ),
    (Code.PAYOUT_TABLE_INVALID, "empty"): _("TO7: row %(row)d pays no place."),
    (Code.PAYOUT_TABLE_INVALID, "many"): _(
        "TO7: row %(row)d pays more than %(max)d places."
    ),
    (Code.PAYOUT_TABLE_INVALID, "positive"): _(
        "TO7: row %(row)d gives place %(place)d no share; every place paid has a share."
    ),
    (Code.PAYOUT_TABLE_INVALID, "basis"): _(
        "TO7: the shares of row %(row)d add up to %(sum)d basis points, not %(basis)d."
    ),
    (Code.PAYOUT_TABLE_INVALID, "lower"): _(
        "TO7: in row %(row)d place %(place)d pays more than the place above it."
    ),
    (Code.PAYOUT_TABLE_INVALID, "places"): _(
        "TO7: row %(row)d pays %(places)d places from %(entries)d entries."
    ),
    (Code.SETTINGS_INVALID, "bounty"): _(
        "TO8: a bounty event has a bounty, and only a bounty event."
    ),
    (Code.SETTINGS_INVALID, "late"): _(
        "TO1: late registration closes after level %(level)d; the structure has "
        "%(levels)d."
    ),
    (Code.SETTINGS_INVALID, "rebuy"): _(
        "TO1: rebuys give chips and last until a level from 1."
    ),
    (Code.SETTINGS_INVALID, "rebuy_level"): _(
        "TO1: rebuys last until level %(level)d; the structure has %(levels)d."
    ),
    (Code.SETTINGS_INVALID, "freezeout"): _(
        "TO1: rebuy terms need rebuys allowed (rebuy_max); a freezeout has none."
    ),
    (Code.SETTINGS_INVALID, "addon"): _("TO1: the add-on gives chips."),
    (Code.SETTINGS_INVALID, "addon_level"): _(
        "TO1: the add-on is sold at level %(level)d; the structure has %(levels)d."
    ),
    (Code.SETTINGS_INVALID, "no_addon"): _(
        "TO1: add-on terms need the add-on's level (addon_level)."
    ),
    Code.STRUCTURE_EXISTS: _("There is a structure %(code)s."),
    Code.NO_SUCH_STRUCTURE: _("No structure %(code)s."),
    Code.STRUCTURE_IN_USE: _(
        "TO12: %(event)s has started with structure %(code)s; its levels are "
        "fixed. Create a new structure instead."
    ),
    Code.STRUCTURE_TOO_SHORT: _(
        "TO1: %(event)s needs level %(level)d of this structure, which would "
        "have %(levels)d."
    ),
    Code.EVENT_EXISTS: _("There is an event %(code)s."),
    Code.EVENT_CODE_RESERVED: _(
        "%(code)s names a list of the API; choose another code."
    ),
    Code.NO_SUCH_ROOM: _("No room %(code)s."),
    Code.SETTINGS_LOCKED: _(
        "TO1: %(fields)s can't change: entries are sold at these terms."
    ),
    (Code.SETTINGS_LOCKED, "started"): _(
        "TO1: %(fields)s can't change: the event has started."
    ),
    (Code.SETTINGS_LOCKED, "sheet"): _(
        "TO7: the settings are fixed: the payout sheet is prepared."
    ),
    (Code.SETTINGS_LOCKED, "over"): _(
        "TO1: event %(code)s is %(status)s; its settings are fixed."
    ),
    Code.EVENT_TABLE_EXISTS: _("%(table)s already plays in %(event)s."),
    Code.BREAK_ORDER_TAKEN: _("TO11: %(table)s is broken in place %(order)d already."),
    Code.TABLE_IN_PLAY: _("TO11: %(table)s is playing %(other)s now."),
    Code.PAYOUT_TABLE_FIXED: _(
        "TO9: %(event)s's payout sheet is prepared; its payout table is fixed."
    ),
    Code.SATELLITE_TARGET_INVALID: _(
        "TO7: a satellite's seats are in another event of its currency that "
        "hasn't finished: %(code)s isn't one."
    ),
    # Deals approved, held prizes forfeited, partial refunds, races (TO5, TO6,
    # TO8, TO9, TO10).
    Code.DEAL_NOT_SIGNED: _(
        "TO5: every player signs the deal before it is approved; %(left)d to sign."
    ),
    (SharedCode.FOUR_EYES, "deal"): _(
        "TO5: a deal is approved by another person than who recorded it."
    ),
    Code.DEAL_APPROVED: _("TO5: this deal is approved."),
    Code.DEAL_NOT_APPROVED: _(
        "TO5: the deal is signed; a second person approves it before the payouts."
    ),
    Code.DEAL_BINDING: _("TO5: this event has a signed deal already."),
    Code.DEAL_BOUNTIES: _(
        "TO8: the deal shares the %(heads)d cents of bounties still on the "
        "players' heads; these add up to %(sum)d."
    ),
    (Code.DEAL_BOUNTIES, "play_on"): _(
        "TO8: a deal that leaves prize money to play for leaves the bounties on "
        "the players' heads, to be won by busting them."
    ),
    (Code.DEAL_BOUNTIES, "none"): _("TO8: this event has no bounties."),
    (Code.DEAL_BOUNTIES, "players"): _(
        "TO8: a deal's bounties go to the players in it, in whole cents."
    ),
    (SharedCode.REASON_REQUIRED, "forfeit"): _("TO9: say why the prize is forfeited."),
    (SharedCode.FOUR_EYES, "forfeit"): _(
        "TO9: a held prize is forfeited by another person than the sheet's preparer."
    ),
    Code.UNKNOWN_DESTINATION: _(
        "TO9: a forfeited prize goes to the house or to a jackpot pool."
    ),
    Code.NO_SUCH_POOL: _(
        "TO9: the room has no active jackpot pool %(pool)s in %(currency)s."
    ),
    Code.REFUND_TOO_MUCH: _(
        "TO10: %(left)d cents of this purchase are left to refund, not %(amount)d."
    ),
    Code.REFUND_AFTER_BUST: _(
        "TO10: entry %(no)d is %(status)s while the event runs; its money stays "
        "in the pools its chips still play for. The event's setting "
        "%(setting)s allows such a refund."
    ),
    (Code.REFUND_APPROVED, "pending"): _(
        "TO10: a refund of this purchase is approved and not paid yet."
    ),
    Code.RACE_CARDS: _(
        "TO6: each player with odd chips draws one card, every card different."
    ),
    (Code.RACE_CARDS, "way"): _(
        "TO6: a race is ordered by the cards drawn, by the order they give or by "
        "a seeded draw: one of them."
    ),
    (Code.RACE_SEATS, "twice"): _("TO6: each seat of the race is listed once."),
    (Code.RACE_SEATS, "cards"): _(
        "TO6: the cards are drawn by the seats listed in the race."
    ),
}

refuse = variants_refuser(TEXTS, Refusal)
conflict = variants_refuser(TEXTS, Conflict)
invalid = variants_refuser(TEXTS, Invalid)
missing = variants_refuser(TEXTS, NotFound)
forbidden = variants_refuser(TEXTS, Forbidden)


def refused_as(code: Code, error: Refusal, *, rule: str) -> Refusal:
    """The domain's refusal ``error`` answered under the use case's ``code`` and
    ``rule``: the same text, still translated when it is read."""
    return Refusal(
        code, error.template, rule=rule, allowed=error.allowed, params=error.params
    )
