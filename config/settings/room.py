"""The room's defaults: for new rooms; each room keeps its own, versioned (BI8). The
floor's hooks, by which the apps above it are told of its events."""

from __future__ import annotations

from .environment import env

TIME_ZONE = env.str("CARDROOM_TIME_ZONE", default="Europe/Helsinki")
CARDROOM_CURRENCY = env.str("CARDROOM_CURRENCY", default="EUR")
# The language receipts print in (en, fi, ko): empty, the room's language (the
# board's), whatever language each cashier's screen is in.
CARDROOM_RECEIPT_LANGUAGE = env.str("CARDROOM_RECEIPT_LANGUAGE", default="")
CARDROOM_GAMING_DAY_CUTOFF_HOUR = env.int("CARDROOM_GAMING_DAY_CUTOFF_HOUR", default=6)
# CA5: cash in a gaming day reaching this needs a verified identity document.
CARDROOM_IDENTITY_THRESHOLD_CENTS = env.int(
    "CARDROOM_IDENTITY_THRESHOLD_CENTS", default=200_000
)
# PP2, PP4: the defaults of the player-protection settings, until a manager
# records a version of them (accounting.models.ProtectionRules).
CARDROOM_MIN_AGE = env.int("CARDROOM_MIN_AGE", default=18)
CARDROOM_SELF_EXCLUSION_MIN_DAYS = env.int(
    "CARDROOM_SELF_EXCLUSION_MIN_DAYS", default=180
)
CARDROOM_COOLING_OFF_HOURS = env.int("CARDROOM_COOLING_OFF_HOURS", default=24)
# DC3: days a player has to pay a receivable back before he can't buy in. RULES.md
# gives none: by default a receivable is due the moment it is booked.
CARDROOM_DC3_TERMS_DAYS = env.int("CARDROOM_DC3_TERMS_DAYS", default=0)
# The cage counts by denomination (CA1), in cents: the room's chips and the notes
# of its currency (euro notes; €500 notes are no longer issued but still taken).
CARDROOM_CHIP_DENOMINATIONS_CENTS = env.list(
    "CARDROOM_CHIP_DENOMINATIONS_CENTS",
    cast=int,
    default=[100, 500, 2_500, 10_000, 50_000, 100_000, 500_000],
)
CARDROOM_NOTE_DENOMINATIONS_CENTS = env.list(
    "CARDROOM_NOTE_DENOMINATIONS_CENTS",
    cast=int,
    default=[500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000],
)

# The floor's hooks (cardroom/hooks.py): the jackpots split each drop between the
# room's pools (JD4). They qualify hands by a sweep every two seconds
# (jackpots.tasks.qualify_new_task, BB1, HM1), not by a message a hand.
CARDROOM_JACKPOT_DROP_LEGS = "jackpots.services.drop_legs"
CARDROOM_HAND_BOOKED: list[str] = []
CARDROOM_SEAT_CHECKS = ["waitlist.services.seat_check"]
CARDROOM_VOID_CHECKS = [
    "jackpots.services.void_check",
    "jackpots.services.prizes_void_check",
]
# PR4: a promotion's pending prize goes with its voided hand.
CARDROOM_HAND_VOIDED = ["jackpots.services.prizes_cancel_voided"]
# PP5: told once a restriction commits
# (accounting.services.cage.protection.restriction_set).
CARDROOM_RESTRICTION_HOOKS = ["cardroom.services.protection.restriction_started"]
# The cage asks the floor whether a table is open before a fill (CA3).
CAGE_TABLE_OPEN = "cardroom.services.tables.table_open_for_cage"
# A table's state for its terminal (cardroom.selectors.table_state): the floor's
# calls to the table, the room's jackpots, a tournament's level.
CARDROOM_TABLE_STATE = [
    "waitlist.api.table_state.table_calls",
    "jackpots.api.table_state.table_jackpots",
    "tournaments.api.table_state.table_tournament",
]
# The public board's panels beside the jackpots (waitlist.views.board_panels).
WAITLIST_BOARD_PANELS = [
    "tournaments.api.board.clock_panel",
    "jackpots.api.board.promotion_panel",
]
