"""The prize pool and the places paid (TO7), to the cent.

A payout table is rows of ``(min_entries, shares)``: from that many entries, the
places paid and each one's share of the pool in basis points (1/100 of a percent,
10,000 in all). Prizes are rounded down to the event's unit (its smallest note or
chip); the rounding remainder then goes by the event's stated rule, one unit at a
time from first place down (``top``) or all to first place (``first``); whatever is
below one unit goes to first place. The places paid always add up to the pool.

A satellite (TO7) pays seats of a fixed value, as many as the pool buys, and the
rest in cash to the next place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from core.errors import Refusal, variants_refuser
from tournaments.errors import TEXTS, Code

BASIS = 10_000

# A sensible default shape: about the top 10–15 % paid, first place about a quarter
# to a half of the pool. Rows from the smallest field up.
DEFAULT_TABLE: tuple[tuple[int, tuple[int, ...]], ...] = (
    (1, (10_000,)),
    (2, (10_000,)),
    (4, (6_500, 3_500)),
    (8, (5_000, 3_000, 2_000)),
    (16, (4_000, 2_500, 1_800, 1_000, 700)),
    (28, (3_200, 2_000, 1_400, 1_000, 800, 600, 500, 500)),
    (
        46,
        (2_800, 1_800, 1_200, 900, 700, 550, 450, 350, 300, 250, 250, 225, 225),
    ),
    (
        81,
        (
            2_320, 1_500, 1_100, 850, 650, 520, 420, 350, 300,
            260, 240, 220, 200, 190, 180, 170, 150, 140, 120, 120,
        ),
    ),
)  # fmt: skip


class PayoutError(Refusal):
    """A payout table or amount that can't be paid exactly (TO7)."""


_refuse = variants_refuser(TEXTS, PayoutError)


@dataclass(frozen=True, slots=True)
class SatellitePlace:
    """A satellite place: a seat worth ``seat_cents`` and/or ``cash_cents``."""

    seat_cents: int
    cash_cents: int


def table_check(table: Sequence[tuple[int, Sequence[int]]]) -> None:
    """Refuse a table that can't be paid: rows out of order, shares not adding up to
    10,000 or not from the highest place down, more places than entries.

    Raises :class:`PayoutError` (TO7).
    """
    if not table:
        raise _refuse(Code.PAYOUT_REFUSED, text="rows", rule="TO7")
    previous = 0
    for min_entries, shares in table:
        if min_entries < 1 or min_entries <= previous:
            raise _refuse(Code.PAYOUT_REFUSED, text="order", rule="TO7")
        previous = min_entries
        if not shares or any(s < 0 for s in shares) or sum(shares) != BASIS:
            raise _refuse(
                Code.PAYOUT_REFUSED,
                text="basis",
                rule="TO7",
                entries=min_entries,
                sum=sum(shares),
                basis=BASIS,
            )
        if any(a < b for a, b in pairwise(shares)):
            raise _refuse(Code.PAYOUT_REFUSED, text="lower", rule="TO7")
        if len(shares) > min_entries:
            raise _refuse(
                Code.PAYOUT_REFUSED,
                text="places",
                rule="TO7",
                places=len(shares),
                entries=min_entries,
            )
    if table[0][0] != 1:
        raise _refuse(Code.PAYOUT_REFUSED, text="start", rule="TO7")


def shares_for(
    entries: int, table: Sequence[tuple[int, Sequence[int]]] | None = None
) -> tuple[int, ...]:
    """The shares (basis points) of the places paid for ``entries`` entries (TO7)."""
    rows = table or DEFAULT_TABLE
    table_check(rows)
    if entries < 1:
        raise _refuse(Code.PAYOUT_REFUSED, text="no_entries", rule="TO7")
    chosen: Sequence[int] = rows[0][1]
    for min_entries, shares in rows:
        if entries >= min_entries:
            chosen = shares
    return tuple(chosen)


def prizes(
    pool_cents: int, shares: Sequence[int], *, unit: int = 1, remainder: str = "top"
) -> list[int]:
    """The prize of each place paid, highest first, adding up to ``pool_cents``.

    Each prize is its share of the pool rounded down to ``unit``; the whole units
    left go one each to the places from the first down (``top``, cycling) or all to
    first place (``first``); less than a unit left goes to first place (TO7). A
    lower place never gets more than a higher one when the shares don't.

    >>> prizes(100_000, [5_000, 3_000, 2_000], unit=500)
    [50000, 30000, 20000]
    >>> prizes(100_100, [5_000, 3_000, 2_000], unit=500)
    [50100, 30000, 20000]
    >>> sum(prizes(123_457, [6_500, 3_500], unit=100))
    123457
    """
    if (
        isinstance(pool_cents, bool)
        or not isinstance(pool_cents, int)
        or pool_cents < 0
    ):
        raise _refuse(
            Code.PAYOUT_REFUSED, text="cents", rule="TO7", pool=repr(pool_cents)
        )
    if unit < 1:
        raise _refuse(Code.PAYOUT_REFUSED, text="unit", rule="TO7")
    if not shares or sum(shares) != BASIS or any(s < 0 for s in shares):
        raise _refuse(Code.PAYOUT_REFUSED, text="shares", rule="TO7", basis=BASIS)
    if remainder not in ("top", "first"):
        raise _refuse(
            Code.PAYOUT_REFUSED, text="remainder", rule="TO7", remainder=repr(remainder)
        )
    amounts = [(pool_cents * share // BASIS) // unit * unit for share in shares]
    left = pool_cents - sum(amounts)
    units, below = divmod(left, unit)
    if remainder == "first":
        amounts[0] += units * unit
    else:
        rounds, extra = divmod(units, len(amounts))
        for i in range(len(amounts)):
            amounts[i] += (rounds + (1 if i < extra else 0)) * unit
    amounts[0] += below
    return amounts


def pool_of(buy_ins_cents: int, guarantee_cents: int) -> tuple[int, int]:
    """The prize pool and the overlay (TO7): the buy-ins, topped up to the guarantee
    by the house. Returns ``(pool, overlay)``; ``pool == buy_ins + overlay``.

    >>> pool_of(80_000, 100_000)
    (100000, 20000)
    >>> pool_of(120_000, 100_000)
    (120000, 0)
    """
    if buy_ins_cents < 0 or guarantee_cents < 0:
        raise _refuse(Code.PAYOUT_REFUSED, text="negative", rule="TO7")
    overlay = max(0, guarantee_cents - buy_ins_cents)
    return buy_ins_cents + overlay, overlay


def satellite(pool_cents: int, seat_cents: int) -> list[SatellitePlace]:
    """The places of a satellite (TO7): seats while the pool buys them, then the rest
    in cash to the next place. The values add up to the pool.

    >>> [(p.seat_cents, p.cash_cents) for p in satellite(25_000, 10_000)]
    [(10000, 0), (10000, 0), (0, 5000)]
    """
    if seat_cents < 1:
        raise _refuse(Code.PAYOUT_REFUSED, text="seat", rule="TO7")
    if pool_cents < 0:
        raise _refuse(Code.PAYOUT_REFUSED, text="pool", rule="TO7")
    seats, cash = divmod(pool_cents, seat_cents)
    places = [SatellitePlace(seat_cents, 0) for _ in range(seats)]
    if cash:
        places.append(SatellitePlace(0, cash))
    return places
