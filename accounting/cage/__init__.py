"""The cashier cage (CA1–CA6): shifts, receipts, fills and credits, counts, awards.

Services (every write; keyword-only, atomic) and selectors (reads) for the cage,
on top of the ledger in ``accounting.services``. Other apps use these:

- ``player_register``, ``player_get`` — players (BI10);
- ``cash_activity_check``, ``cash_activity_record`` — the identity threshold (CA5),
  for cash buy-ins at the tables too;
- ``payable_create`` — an approved award, after booking it into awards payable (CA6);
- ``receipt_issue`` — a numbered receipt for another app's cash at the cage (CA2);
- ``gaming_day_of`` — the gaming day in the room's settings (BI8);
- ``door_check``, ``award_check`` — player protection (PP2–PP6): the one check
  every door where a player asks for play or money calls, with its ``Door``.
"""

from accounting.cage.common import cage_get
from accounting.cage.days import gaming_day_of
from accounting.cage.held_awards import held_award_decide, held_awards
from accounting.cage.players import (
    cash_activity_check,
    cash_activity_day_total,
    cash_activity_record,
    player_get,
    player_identity_verify,
    player_register,
)
from accounting.cage.protection import (
    Door,
    award_check,
    award_held,
    door_check,
)
from accounting.cage.receipts import (
    chip_purchase,
    chip_redemption,
    payable_create,
    payable_pay,
    receipt_issue,
)
from accounting.cage.shifts import (
    cage_vault_fund,
    cage_vault_withdraw,
    shift_close,
    shift_open,
    shift_open_get,
    shift_sign_off,
)
from accounting.cage.tables import (
    box_count_record,
    slip_cancel,
    slip_issue,
    slip_request,
)

__all__ = [
    "Door",
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
    "door_check",
    "gaming_day_of",
    "held_award_decide",
    "held_awards",
    "payable_create",
    "payable_pay",
    "player_get",
    "player_identity_verify",
    "player_register",
    "receipt_issue",
    "shift_close",
    "shift_open",
    "shift_open_get",
    "shift_sign_off",
    "slip_cancel",
    "slip_issue",
    "slip_request",
]
