"""A hand's drop, credited to the room's pools by their ratios inside the floor's
booking of the hand (JD1, JD4).
"""

from __future__ import annotations

from collections.abc import Mapping

from accounting import chart
from accounting.models import Account
from accounting.services import Leg
from cardroom.models import Room
from jackpots import selectors
from jackpots.domain.shares import PoolRatio, drop_split


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
    largest-remainder method: the legs always add up to the drop. A room without
    pools credits the one account ``jackpot:drops``, held in trust until a manager
    allocates it (JD5).
    """
    room_id = room if isinstance(room, int) else room.pk
    pools = selectors.drop_pools(room_id=room_id)
    if not pools:
        drops = (accounts or {}).get(chart.JACKPOT_DROPS) or chart.jackpot_drops()
        return [Leg(drops, -amount_cents)]
    parts = drop_split(
        amount_cents, [PoolRatio(p.drop_ratio, p.reserve_percent) for p in pools]
    )
    legs = []
    for pool, (to_pool, to_reserve) in zip(pools, parts, strict=True):
        legs.append(Leg(pool.account, -to_pool))
        if to_reserve:
            legs.append(Leg(pool.reserve_account, -to_reserve))
    return legs
