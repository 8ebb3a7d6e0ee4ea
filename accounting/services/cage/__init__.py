"""The cashier cage (CA1–CA6): shifts, receipts, fills and credits, counts, awards.

The cage's use cases (every write; keyword-only, atomic), one module each, on top
of the ledger in ``accounting.services``; their reads are ``accounting.selectors``'
(``cage``, ``protection``). Other apps import from this package:

- ``player_register``, ``player_get`` — players (BI10);
- ``cash_activity_check``, ``cash_activity_record`` — the identity threshold (CA5),
  for cash buy-ins at the tables too;
- ``payable_create`` — an approved award, after booking it into awards payable (CA6);
- ``receipt_issue`` — a numbered receipt for another app's cash at the cage (CA2);
- ``gaming_day_of`` — the gaming day in the room's settings (BI8);
- ``door_check``, ``award_check`` — player protection (PP2–PP6): the one check
  every door where a player asks for play or money calls, with its ``Door``;
- ``restriction_set``, ``restriction_end``, ``restricted_now``,
  ``protection_settings`` and the rest of :mod:`.protection` — bars,
  self-exclusions and the room's protection settings (PP3–PP5);
- ``receivable_check``, ``receivables_open`` — what a player owes the house (DC3).
"""

from accounting.services.cage.common import cage_get
from accounting.services.cage.days import gaming_day_of
from accounting.services.cage.held_awards import held_award_decide, held_awards
from accounting.services.cage.identity import (
    document_number_show,
    document_record,
    player_correct,
)
from accounting.services.cage.players import (
    cash_activity_check,
    cash_activity_day_total,
    cash_activity_record,
    player_get,
    player_identity_verify,
    player_register,
)
from accounting.services.cage.protection import (
    Door,
    Settings,
    award_check,
    award_held,
    door_check,
    protection_settings,
    protection_settings_change,
    restricted_now,
    restriction_active,
    restriction_end,
    restriction_end_of,
    restriction_set,
    self_exclusion_lapse,
)
from accounting.services.cage.receipts import (
    chip_purchase,
    chip_redemption,
    payable_create,
    payable_pay,
    receipt_issue,
    receivable_collect,
)
from accounting.services.cage.receivables import (
    receivable_check,
    receivable_standing,
    receivables_open,
)
from accounting.services.cage.shifts import (
    cage_vault_fund,
    cage_vault_withdraw,
    shift_close,
    shift_open,
    shift_open_get,
    shift_sign_off,
)
from accounting.services.cage.tables import (
    box_count_record,
    slip_cancel,
    slip_issue,
    slip_request,
)

__all__ = [
    "Door",
    "Settings",
    "award_check",
    "award_held",
    "box_count_record",
    "cage_get",
    "cage_vault_fund",
    "cage_vault_withdraw",
    "cash_activity_check",
    "cash_activity_day_total",
    "cash_activity_record",
    "chip_purchase",
    "chip_redemption",
    "document_number_show",
    "document_record",
    "door_check",
    "gaming_day_of",
    "held_award_decide",
    "held_awards",
    "payable_create",
    "payable_pay",
    "player_correct",
    "player_get",
    "player_identity_verify",
    "player_register",
    "protection_settings",
    "protection_settings_change",
    "receipt_issue",
    "receivable_check",
    "receivable_collect",
    "receivable_standing",
    "receivables_open",
    "restricted_now",
    "restriction_active",
    "restriction_end",
    "restriction_end_of",
    "restriction_set",
    "self_exclusion_lapse",
    "shift_close",
    "shift_open",
    "shift_open_get",
    "shift_sign_off",
    "slip_cancel",
    "slip_issue",
    "slip_request",
]
