"""Reads of a tournament, for the API, the screens, the reports and the use cases:
its clock and what the clocks and the board show, who is left and where they sit,
the final standings and bounties, the chips in play and their reconciliation, the
pools, the payout table, the prizes, a payout preview, the deals offered and what
a purchase costs or has left to refund (TO1–TO12).

One module a subject; every name is here, ``tournaments.selectors.x``.
"""

from __future__ import annotations

from tournaments.selectors.chips import ChipReport, chip_reconciliation, chips_in_play
from tournaments.selectors.clock import (
    CageWindows,
    Clock,
    board_clocks,
    cage_windows,
    clock_log,
    clock_of,
    clock_shown,
    event_started,
    level_for_hand,
    scheduled_level,
    structure_of,
    structure_started_by,
)
from tournaments.selectors.entries import (
    bounty_of,
    entries_counted,
    entries_left,
    entry_seat_drawn,
    event_standings,
    table_map,
    tables_open,
)
from tournaments.selectors.prizes import (
    PayoutPreview,
    PreviewPlace,
    buy_ins_cents,
    deal_offers,
    deal_players,
    payout_preview,
    payout_table,
    payout_table_paid,
    place_prizes,
    pool_and_overlay,
    price_of,
    prize_pool_cents,
    prizes_left,
    refund_left,
)

__all__ = [
    "CageWindows",
    "ChipReport",
    "Clock",
    "PayoutPreview",
    "PreviewPlace",
    "board_clocks",
    "bounty_of",
    "buy_ins_cents",
    "cage_windows",
    "chip_reconciliation",
    "chips_in_play",
    "clock_log",
    "clock_of",
    "clock_shown",
    "deal_offers",
    "deal_players",
    "entries_counted",
    "entries_left",
    "entry_seat_drawn",
    "event_standings",
    "event_started",
    "level_for_hand",
    "payout_preview",
    "payout_table",
    "payout_table_paid",
    "place_prizes",
    "pool_and_overlay",
    "price_of",
    "prize_pool_cents",
    "prizes_left",
    "refund_left",
    "scheduled_level",
    "structure_of",
    "structure_started_by",
    "table_map",
    "tables_open",
]
