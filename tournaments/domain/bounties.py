"""Bounties (TO8): paid from their own pool to the player who busts the bounty.

- A standard bounty is paid whole to the player who busted its owner; the winner of
  the event collects his own.
- A progressive knockout pays half of the busted player's bounty to the winner of it
  and adds the other half to the winner's own bounty (the odd cent or unit goes to
  his bounty); the event's winner collects his whole bounty.
- A bounty won by several players (a split pot) is split between them by
  ``ratio_split`` in the order the caller gives (the seat nearest the button first).
- On a chop, the bounty chips left go to the biggest stack, a tie to the seat nearest
  the button (APL, TDA R21).

Nothing is created or lost: what is paid plus what is added to bounties equals the
bounties knocked out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from accounting.domain.money import ratio_split
from core.errors import Refusal, variants_refuser
from tournaments.errors import TEXTS, Code

K = TypeVar("K", bound=Hashable)


class BountyError(Refusal):
    """A bounty that can't be paid as asked (TO8)."""


_refuse = variants_refuser(TEXTS, BountyError)


@dataclass(frozen=True, slots=True)
class Knockout:
    """What one winner gets from one bounty: ``paid`` now, ``added`` to his head."""

    paid: int
    added: int


def knockout(
    bounty_cents: int,
    winners: Sequence[K],
    *,
    progressive: bool,
    unit: int = 1,
) -> dict[K, Knockout]:
    """Share the bounty of a busted player among ``winners`` (TO8).

    >>> knockout(2_000, ["a"], progressive=False)
    {'a': Knockout(paid=2000, added=0)}
    >>> knockout(2_500, ["a"], progressive=True, unit=100)
    {'a': Knockout(paid=1200, added=1300)}
    """
    if bounty_cents < 0:
        raise _refuse(Code.BOUNTY_REFUSED, text="negative", rule="TO8")
    if not winners or len(set(winners)) != len(winners):
        raise _refuse(Code.BOUNTY_REFUSED, text="winners", rule="TO8")
    shares = (
        ratio_split(bounty_cents, [1] * len(winners), unit)
        if bounty_cents
        else [0] * len(winners)
    )
    result: dict[K, Knockout] = {}
    for winner, share in zip(winners, shares, strict=True):
        if progressive:
            paid = share // 2 // unit * unit
            result[winner] = Knockout(paid, share - paid)
        else:
            result[winner] = Knockout(share, 0)
    return result


def chop_leftover(stacks: Mapping[K, int], button_order: Sequence[K]) -> K:
    """Who gets the bounty chips left on a chop: the biggest stack, a tie going to
    the seat nearest the button (``button_order``: left of the button first) (TO8).

    >>> chop_leftover({"a": 500, "b": 900, "c": 900}, ["c", "a", "b"])
    'c'
    """
    if not stacks:
        raise _refuse(Code.BOUNTY_REFUSED, text="chop", rule="TO8")
    if set(button_order) != set(stacks) or len(button_order) != len(stacks):
        raise _refuse(Code.BOUNTY_REFUSED, text="button", rule="TO8")
    biggest = max(stacks.values())
    return next(k for k in button_order if stacks[k] == biggest)
