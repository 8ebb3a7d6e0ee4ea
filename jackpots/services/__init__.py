"""Writes of the jackpots: pools and their money, categories, qualification, hits,
months and awards.

Every function is keyword-only and atomic; money moves only through the ledger
(``accounting.services.transaction_post``), in the same database transaction as the
rows that say why:

- a hand's drop: credited to the room's pools and reserves by their ratios (JD4),
  inside the floor's booking of the hand (:func:`drop_legs`);
- a seed from the house: house capital → pool or reserve (``jackpot_seed``);
- an approved hit or month: pool → awards payable, for each recipient a cage
  payable, and the reserve rolled into the pool as the next jackpot's seed
  (``jackpot_award``, BB5, HM3). The cashier pays the payables (CA6);
- a promotion's approved prize: pool and house (an expense) → awards payable
  (``promotion_award``, PR1, PR5); an empty period's carried prize, the house's
  part into the pool (``promotion_carry``, PR2);
- a promotion ended: pool → its successor, or drops that reached no pool → a pool,
  with a manager's reason (``jackpot_transfer``, JD5).

Nothing else takes money out of a pool, and the ledger refuses a pool below zero
(JD5).

One module per use case; ``jackpots.services`` names them all.
"""

from __future__ import annotations

from jackpots.domain.postings import AWARD_KIND, SEED_KIND, TRANSFER_KIND
from jackpots.services.categories import categories_ensure, category_publish
from jackpots.services.drops import drop_legs
from jackpots.services.hits import hit_approve, hit_reject, hit_verify, void_check
from jackpots.services.months import (
    month_approve,
    month_close,
    month_reject,
    months_close_due,
)
from jackpots.services.pools import pool_create, pool_seed, pool_update
from jackpots.services.promotion_decisions import (
    prize_approve,
    prize_reject,
    prize_verify,
    prizes_cancel_voided,
    prizes_void_check,
)
from jackpots.services.promotion_prizes import (
    CLOSE_AFTER,
    period_close,
    periods_close_due,
)
from jackpots.services.promotions import promotion_create, promotion_publish
from jackpots.services.qualification import (
    HandFailed,
    hand_facts,
    hand_qualify,
    hand_runs_facts,
    hands_qualify_batch,
)
from jackpots.services.sweep import (
    SWEEP,
    SWEEP_BATCH,
    SWEEP_LOOKBACK,
    hands_qualify_missed,
    hands_qualify_new,
)
from jackpots.services.transfers import drops_allocate, pool_retire

__all__ = [
    "AWARD_KIND",
    "CLOSE_AFTER",
    "SEED_KIND",
    "SWEEP",
    "SWEEP_BATCH",
    "SWEEP_LOOKBACK",
    "TRANSFER_KIND",
    "HandFailed",
    "categories_ensure",
    "category_publish",
    "drop_legs",
    "drops_allocate",
    "hand_facts",
    "hand_qualify",
    "hand_runs_facts",
    "hands_qualify_batch",
    "hands_qualify_missed",
    "hands_qualify_new",
    "hit_approve",
    "hit_reject",
    "hit_verify",
    "month_approve",
    "month_close",
    "month_reject",
    "months_close_due",
    "period_close",
    "periods_close_due",
    "pool_create",
    "pool_retire",
    "pool_seed",
    "pool_update",
    "prize_approve",
    "prize_reject",
    "prize_verify",
    "prizes_cancel_voided",
    "prizes_void_check",
    "promotion_create",
    "promotion_publish",
    "void_check",
]
