"""Figures for a deal among the remaining players (TO5): chip chop and ICM.

The product computes, the players choose: these are offers, never a decision. Every
figure is in whole units of the event's payout unit and the figures of one offer add
up to the prize money dealt, to the cent.

- **Chip chop**: each player is first given the smallest prize still to be paid (the
  "saver"), and the rest is split in proportion to the chips.
- **ICM** (Malmuth–Harville): a player's chance to finish first is his share of the
  chips; the chance of each later place follows by removing the players above. A
  player's equity is the sum of each place's prize times his chance of it, computed
  exactly with fractions and then rounded by the largest remainder.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import pairwise
from typing import TypeVar

from accounting.domain.money import ratio_split
from core.errors import Refusal, variants_refuser
from tournaments.errors import TEXTS, Code

K = TypeVar("K", bound=Hashable)

ICM_MAX_PLAYERS = 12


class DealError(Refusal):
    """A deal that can't be computed (no chips, more prizes than players, …; TO5)."""


_refuse = variants_refuser(TEXTS, DealError)


def _check(stacks: Mapping[K, int], prizes: Sequence[int]) -> list[K]:
    if len(stacks) < 2:
        raise _refuse(Code.DEAL_REFUSED, text="two", rule="TO5")
    if any(s <= 0 for s in stacks.values()):
        raise _refuse(Code.DEAL_REFUSED, text="chips", rule="TO5")
    if len(prizes) != len(stacks):
        raise _refuse(
            Code.DEAL_REFUSED,
            text="places",
            rule="TO5",
            players=len(stacks),
            prizes=len(prizes),
        )
    if any(p < 0 for p in prizes) or any(a < b for a, b in pairwise(prizes)):
        raise _refuse(Code.DEAL_REFUSED, text="order", rule="TO5")
    # Ties of chips keep the caller's order (the seat nearest the button first).
    return sorted(stacks, key=lambda k: -stacks[k])


def chip_chop(
    stacks: Mapping[K, int], prizes: Sequence[int], *, unit: int = 1
) -> dict[K, int]:
    """Each player gets the last prize, and the rest of the prizes by chips (TO5).

    >>> chip_chop({"a": 600, "b": 300, "c": 100}, [5_000, 3_000, 2_000], unit=100)
    {'a': 4400, 'b': 3200, 'c': 2400}
    """
    order = _check(stacks, prizes)
    saver = prizes[-1]
    rest = sum(prizes) - saver * len(prizes)
    shares = (
        ratio_split(rest, [stacks[k] for k in order], unit)
        if rest
        else [0] * len(order)
    )
    return {k: saver + share for k, share in zip(order, shares, strict=True)}


def icm_fractions(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's exact ICM equity (Malmuth–Harville), in stack order given."""
    n = len(stacks)
    if n > ICM_MAX_PLAYERS:
        raise _refuse(Code.DEAL_REFUSED, text="icm", rule="TO5", max=ICM_MAX_PLAYERS)
    total = sum(stacks)

    @cache
    def equity(remaining: frozenset[int], place: int) -> tuple[Fraction, ...]:
        # The equity of each player from ``place`` down, given ``remaining`` players.
        result = [Fraction(0)] * n
        if place >= len(prizes) or not remaining:
            return tuple(result)
        chips = sum(stacks[i] for i in remaining)
        for i in remaining:
            chance = Fraction(stacks[i], chips)
            result[i] += chance * prizes[place]
            below = equity(remaining - {i}, place + 1)
            for j in remaining - {i}:
                result[j] += chance * below[j]
        return tuple(result)

    if total <= 0:
        raise _refuse(Code.DEAL_REFUSED, text="no_chips", rule="TO5")
    return list(equity(frozenset(range(n)), 0))


def icm(
    stacks: Mapping[K, int], prizes: Sequence[int], *, unit: int = 1
) -> dict[K, int]:
    """The ICM figures of ``stacks`` for ``prizes``, adding up to their sum (TO5).

    Rounded down to ``unit``; the units left go by the largest remainder, ties to the
    bigger stack; less than a unit to the biggest stack.

    >>> icm({"a": 5_000, "b": 5_000}, [7_000, 3_000])
    {'a': 5000, 'b': 5000}
    >>> sum(icm({"a": 7, "b": 2, "c": 1}, [5_001, 3_000, 2_000], unit=100).values())
    10001
    """
    order = _check(stacks, prizes)
    exact = icm_fractions([stacks[k] for k in order], prizes)
    pool = sum(prizes)
    units, below = divmod(pool, unit)
    floors = [int(e / unit) for e in exact]
    rests = [e / unit - f for e, f in zip(exact, floors, strict=True)]
    left = units - sum(floors)
    ranked = sorted(range(len(order)), key=lambda i: (-rests[i], i))
    for i in ranked[:left]:
        floors[i] += 1
    amounts = [f * unit for f in floors]
    amounts[0] += below
    return dict(zip(order, amounts, strict=True))
