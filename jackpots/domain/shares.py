"""Splitting jackpot money so that the parts always add up (JD4, BB6, HM2).

Every split is :func:`accounting.domain.money.ratio_split`, the largest-remainder
method: whatever can't be shared exactly goes to the earliest largest remainders,
so callers list the parts in priority order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from accounting.domain.money import ratio_split


@dataclass(frozen=True, slots=True)
class PoolRatio:
    """A pool's part of each drop (JD4) and the percent of it set aside in its
    reserve, the next jackpot's seed."""

    ratio: int
    reserve_percent: int = 0


def drop_split(amount: int, pools: Sequence[PoolRatio]) -> list[tuple[int, int]]:
    """Split a hand's drop between pools by their ratios (JD4).

    Return ``(to the pool, to its reserve)`` for each pool, in order. Each pool's
    part is split again between the pool and its reserve, in one largest-remainder
    split of all parts, so the whole always adds up to ``amount``.

    >>> drop_split(100, [PoolRatio(2), PoolRatio(1)])
    [(67, 0), (33, 0)]
    >>> drop_split(100, [PoolRatio(3, reserve_percent=10), PoolRatio(1)])
    [(68, 7), (25, 0)]
    """
    parts: list[int] = []
    for pool in pools:
        parts += [
            pool.ratio * (100 - pool.reserve_percent),
            pool.ratio * pool.reserve_percent,
        ]
    shares = ratio_split(amount, parts)
    return [(shares[i], shares[i + 1]) for i in range(0, len(shares), 2)]


def percent_of(amount: int, percent: int) -> int:
    """Return ``percent`` % of ``amount`` cents, rounded down to the cent.

    What a payout leaves behind stays in the pool as the next jackpot's seed (BB2).

    >>> percent_of(10_001, 90)
    9000
    """
    return amount * percent // 100


def role_shares(payout: int, roles: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Split ``payout`` between roles by their parts, then equally within each (BB6).

    ``roles`` lists ``(part, members)`` in priority order (loser, winner, table).
    A role with no member drops out: the others share its part in proportion, so
    the whole payout is always paid. Without any role to pay, nothing is paid.

    >>> role_shares(10_000, [(50, 1), (25, 1), (25, 3)])
    [[5000], [2500], [834, 833, 833]]
    >>> role_shares(1_000, [(50, 1), (25, 2), (25, 0)])
    [[667], [167, 166], []]
    """
    live = [i for i, (part, members) in enumerate(roles) if part > 0 and members > 0]
    result: list[list[int]] = [[0] * members for _part, members in roles]
    if not live:
        return result
    per_role = ratio_split(payout, [roles[i][0] for i in live])
    for i, amount in zip(live, per_role, strict=True):
        result[i] = tie_shares(amount, roles[i][1])
    return result


def tie_shares(amount: int, count: int) -> list[int]:
    """Split ``amount`` equally between ``count`` tied recipients, the first first
    (HM2: the earlier hand gets the odd cent).

    >>> tie_shares(1_000, 3)
    [334, 333, 333]
    """
    return ratio_split(amount, [1] * count)
