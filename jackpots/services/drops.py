"""A hand's drop, credited to the room's pools by their ratios inside the floor's
booking of the hand (JD1, JD4).
"""

from __future__ import annotations

from collections.abc import Mapping

from accounting.models import Account
from accounting.services import Leg, legs_resolve
from cardroom.models import Room
from jackpots import selectors
from jackpots.domain import postings
from jackpots.domain.shares import PoolRatio
from jackpots.services._shared import pool_key_of


def drop_legs(
    *,
    room: Room | int,
    table: object,
    amount_cents: int,
    accounts: Mapping[str, Account] | None = None,
    pools: str | None = None,
) -> list[Leg]:
    """Return the legs crediting a hand's drop to the room's pools (JD1, JD4).

    The floor calls this inside the hand's booking (``CARDROOM_JACKPOT_DROP_LEGS``),
    with the ``accounts`` it read for the hand and the room's ``pools`` as
    :func:`jackpots.selectors.drop_pools_sql` gives them, read along with its own
    rows (``drop_legs.pools_sql``). The active pools share the drop by their
    ratios, each pool's part split again with its reserve, by the
    largest-remainder method: the legs always add up to the drop
    (:func:`jackpots.domain.postings.drop`). A room without pools credits the one
    account ``jackpot:drops``, held in trust until a manager allocates it (JD5).
    The pools' accounts come with the pools: no statement more for the hand.
    """
    if pools is not None:
        shares = selectors.drop_pools_read(pools)
    else:
        room_id = room if isinstance(room, int) else room.pk
        shares = [
            (p.drop_ratio, p.reserve_percent, p.account, p.reserve_account)
            for p in selectors.drop_pools(room_id=room_id)
        ]
    plan = postings.drop(
        cents=amount_cents,
        pools=[
            (pool_key_of(account.code), PoolRatio(ratio, reserve))
            for ratio, reserve, account, _reserve in shares
        ],
    )
    known = dict(accounts or {})
    for _ratio, _reserve, account, reserve_account in shares:
        known[account.code] = account
        known[reserve_account.code] = reserve_account
    return legs_resolve(plan.legs, known=known)


# The floor reads the pools in its own statement (cardroom.hooks).
drop_legs.pools_sql = selectors.drop_pools_sql  # type: ignore[attr-defined]
