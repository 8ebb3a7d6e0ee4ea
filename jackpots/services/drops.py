"""A hand's drop, credited to the room's pools by their ratios inside the floor's
booking of the hand (JD1, JD4).
"""

from __future__ import annotations

from collections.abc import Mapping

from accounting.models import Account
from accounting.posting import legs_resolve
from accounting.services import Leg
from cardroom.models import Room
from jackpots import selectors
from jackpots.domain import postings
from jackpots.domain.shares import PoolRatio
from jackpots.services._shared import pool_key


def drop_legs(
    *,
    room: Room | int,
    table: object,
    amount_cents: int,
    accounts: Mapping[str, Account] | None = None,
) -> list[Leg]:
    """Return the legs crediting a hand's drop to the room's pools (JD1, JD4).

    The floor calls this inside the hand's booking (``CARDROOM_JACKPOT_DROP_LEGS``),
    with the ``accounts`` it read for the hand. The active pools share the drop by
    their ratios, each pool's part split again with its reserve, by the
    largest-remainder method: the legs always add up to the drop
    (:func:`jackpots.domain.postings.drop`). A room without pools credits the one
    account ``jackpot:drops``, held in trust until a manager allocates it (JD5).
    The pools' accounts come with the pools: no statement more for the hand.
    """
    room_id = room if isinstance(room, int) else room.pk
    pools = selectors.drop_pools(room_id=room_id)
    plan = postings.drop(
        cents=amount_cents,
        pools=[
            (pool_key(p), PoolRatio(p.drop_ratio, p.reserve_percent)) for p in pools
        ],
    )
    known = dict(accounts or {})
    for pool in pools:
        known[pool.account.code] = pool.account
        known[pool.reserve_account.code] = pool.reserve_account
    return legs_resolve(plan.legs, known=known)
