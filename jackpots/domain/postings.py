"""What each jackpot money move books, as posting plans (JD4, JD5, BB5, HM3).

Pure: each function returns an :class:`accounting.domain.postings.Plan` whose legs
name accounts by code (:mod:`accounting.domain.accounts`); the service resolves and
posts it (:func:`accounting.services.plan_post`). A pool is named by its key, the
room's code and the pool's (``"main.bad-beat"``), as its accounts are. A plan that
debits money held in trust takes the balance it may move and refuses rather than
take the account below zero (JD5).

>>> move = award(pool="main.bad-beat", total=9_000, reserve=1_000, held=20_000)
>>> move.net()["jackpot:main.bad-beat:pool"], move.balanced
(8000, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from accounting.domain.accounts import (
    AWARDS_PAYABLE,
    HOUSE_CAPITAL,
    JACKPOT_DROPS,
    PROMOTIONS_EXPENSE,
    jackpot_pool_code,
    jackpot_reserve_code,
)
from accounting.domain.postings import Plan
from core.errors import SharedCode
from jackpots.domain.shares import PoolRatio, drop_split
from jackpots.errors import Code, invalid, refuse

SEED_KIND = "jackpot_seed"
TRANSFER_KIND = "jackpot_transfer"
AWARD_KIND = "jackpot_award"
DROP_KIND = "jackpot_drop"
"""The drop's legs go into the hand's own transaction; the kind names them only."""
PROMOTION_CARRY_KIND = "promotion_carry"
"""The house's part of a carried-over prize, booked into the pool at the period's
close (PR1, PR2)."""
PROMOTION_AWARD_KIND = "promotion_award"
"""An approved prize: pool (and house) → awards payable (PR5)."""


def _cents(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _covered(code: str, held: int, amount: int) -> None:
    """Refuse (JD5) to take ``amount`` from ``code``, which holds ``held``."""
    if amount > held:
        raise refuse(
            SharedCode.INSUFFICIENT_FUNDS,
            rule="JD5",
            allowed={"max": held},
            account=code,
            balance=held,
            amount=amount,
        )


def seed(*, pool: str, cents: int, to_reserve: bool = False) -> Plan:
    """The house's money into a pool or its reserve: house capital → pool (JD5).

    Raises :class:`core.errors.Invalid` for an amount that isn't positive cents.
    """
    if not _cents(cents) or cents <= 0:
        raise invalid(SharedCode.INVALID_AMOUNT)
    target = (
        jackpot_reserve_code(pool=pool) if to_reserve else jackpot_pool_code(pool=pool)
    )
    return Plan.of(SEED_KIND, [(HOUSE_CAPITAL, cents), (target, -cents)])


def retire(*, pool: str, successor: str, amount: int, reserve: int) -> Plan:
    """All a retired pool holds to its successor: amount to amount, reserve to
    reserve (JD5). ``amount`` and ``reserve`` are what the pool holds."""
    return Plan.of(
        TRANSFER_KIND,
        [
            (jackpot_pool_code(pool=pool), amount),
            (jackpot_pool_code(pool=successor), -amount),
            (jackpot_reserve_code(pool=pool), reserve),
            (jackpot_reserve_code(pool=successor), -reserve),
        ],
    )


def drops_give(*, pool: str, amount: int, held: int) -> Plan:
    """Drops that reached no pool (``jackpot:drops``, holding ``held``) to a pool.

    Raises :class:`core.errors.Refusal` (JD5) unless ``amount`` is from 1 to
    ``held`` cents.
    """
    if not _cents(amount) or not 0 < amount <= held:
        raise refuse(
            SharedCode.INVALID_AMOUNT,
            text="drops",
            rule="JD5",
            allowed={"min": 1 if held else 0, "max": held},
            held=held,
        )
    return Plan.of(
        TRANSFER_KIND,
        [(JACKPOT_DROPS, amount), (jackpot_pool_code(pool=pool), -amount)],
    )


def drop(*, cents: int, pools: Sequence[tuple[str, PoolRatio]]) -> Plan:
    """A hand's drop credited to the room's ``pools`` (key, ratio) by their ratios,
    each pool's part split again with its reserve (JD1, JD4). The legs always add
    up to the drop; without pools it is held in ``jackpot:drops`` (JD5). Only
    credits: the hand's own legs debit the table's box."""
    if not pools:
        return Plan(DROP_KIND, ((JACKPOT_DROPS, -cents),))
    parts = drop_split(cents, [ratio for _key, ratio in pools])
    legs: list[tuple[str, int]] = []
    for (key, _ratio), (to_pool, to_reserve) in zip(pools, parts, strict=True):
        # Each pool has its leg, of zero too; a reserve only when it takes a part.
        legs.append((jackpot_pool_code(pool=key), -to_pool))
        if to_reserve:
            legs.append((jackpot_reserve_code(pool=key), -to_reserve))
    return Plan(DROP_KIND, tuple(legs))


def award(*, pool: str, total: int, reserve: int, held: int) -> Plan:
    """An approved hit's or month's awards: ``total`` from the pool into awards
    payable, the pool receiving its ``reserve`` as the next jackpot's seed (BB5,
    HM3). ``held`` is what the pool holds.

    Raises :class:`core.errors.Refusal` (JD5) when there is nothing to pay, or when
    the pool and its reserve hold less than ``total``.
    """
    if total <= 0:
        raise refuse(Code.NOTHING_TO_PAY, rule="JD5")
    code = jackpot_pool_code(pool=pool)
    _covered(code, held, total - reserve)
    return Plan(
        AWARD_KIND,
        (
            (code, total - reserve),
            (jackpot_reserve_code(pool=pool), reserve),
            (AWARDS_PAYABLE, -total),
        ),
    )


def promotion_carry(*, pool: str, house: int) -> Plan:
    """The house's part of a prize nobody won, into the promotion's pool, held
    for players from then on (PR1, PR2): an expense of the house."""
    return Plan.of(
        PROMOTION_CARRY_KIND,
        [(PROMOTIONS_EXPENSE, house), (jackpot_pool_code(pool=pool), -house)],
    )


def promotion_award(*, pool: str, house: int, from_pool: int, held: int) -> Plan:
    """An approved prize (PR1, PR5): ``from_pool`` from the promotion's pool,
    which holds ``held``, and ``house`` from the house's expense, into awards
    payable.

    Raises :class:`core.errors.Refusal` (JD5) when the pool holds less than its
    part.

    >>> plan = promotion_award(pool="main.hh", house=100, from_pool=50, held=60)
    >>> plan.net()["liability:awards_payable"], plan.balanced
    (-150, True)
    """
    code = jackpot_pool_code(pool=pool)
    _covered(code, held, from_pool)
    return Plan.of(
        PROMOTION_AWARD_KIND,
        [
            (PROMOTIONS_EXPENSE, house),
            (code, from_pool),
            (AWARDS_PAYABLE, -(house + from_pool)),
        ],
    )
