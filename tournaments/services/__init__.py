"""Every write of a tournament: entries, rebuys, add-ons and re-entries at the cage,
chips, busts and bounties, deals, payout sheets and payouts, refunds, and the set-up of
structures, events, tables and payout tables (TO1–TO12).

Money moves only in the ledger, through the cage's receipts (CA2): an entry is one
numbered receipt and one balanced posting, cash into the cashier's drawer and out to
the event's prize pool (held in trust), the house's fee revenue and the bounty pool
(TO1, TO8). A payout sheet prepared by one person and approved by another moves the
pool (topped up by the house's overlay, TO7) into awards payable, which the cage pays
to the identified player against his signature (TO9, CA6). A refund is a receipt
whose posting gives back the purchase's parts, all of them or a share of each (TO10,
DC2). Chips are counted, not booked: each issue and removal is a
:class:`ChipMovement` with its cause (TO3).

One module per use case; ``tournaments.services`` names them all. The reads are
``tournaments.selectors``.
"""

from __future__ import annotations

from tournaments.services._shared import event_get
from tournaments.services.busts import BustIn, BustReport, busts_record, busts_report
from tournaments.services.chips import (
    REMOVAL_NEEDS_A_NOTE,
    chip_count_record,
    chip_count_report,
    chip_race_record,
    chips_remove,
    entry_disqualify,
)
from tournaments.services.clock import clock_change
from tournaments.services.deals import deal_approve, deal_propose, deal_sign
from tournaments.services.payouts import (
    payout_forfeit,
    payout_pay,
    payout_release,
    payout_sheet_approve,
    payout_sheet_prepare,
)
from tournaments.services.purchases import (
    Price,
    addon_buy,
    entry_register,
    event_start,
    rebuy_buy,
)
from tournaments.services.refunds import (
    event_cancel,
    purchase_refund,
    refund_approve,
    refund_pay,
)
from tournaments.services.seating import (
    Rebalance,
    entry_seat_draw,
    seats_draw,
    tables_rebalance,
)
from tournaments.services.setup import (
    event_create,
    event_settings_update,
    event_table_add,
    payout_table_set,
    structure_create,
    structure_update,
)

__all__ = [
    "REMOVAL_NEEDS_A_NOTE",
    "BustIn",
    "BustReport",
    "Price",
    "Rebalance",
    "addon_buy",
    "busts_record",
    "busts_report",
    "chip_count_record",
    "chip_count_report",
    "chip_race_record",
    "chips_remove",
    "clock_change",
    "deal_approve",
    "deal_propose",
    "deal_sign",
    "entry_disqualify",
    "entry_register",
    "entry_seat_draw",
    "event_cancel",
    "event_create",
    "event_get",
    "event_settings_update",
    "event_start",
    "event_table_add",
    "payout_forfeit",
    "payout_pay",
    "payout_release",
    "payout_sheet_approve",
    "payout_sheet_prepare",
    "payout_table_set",
    "purchase_refund",
    "rebuy_buy",
    "refund_approve",
    "refund_pay",
    "seats_draw",
    "structure_create",
    "structure_update",
    "tables_rebalance",
]
