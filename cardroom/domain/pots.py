"""Uncalled bets and pots (RULES.md RK5, HS2)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

_amount = itemgetter(1)


class Pot(NamedTuple):
    """A main or side pot: its chips and the seats still in that can win it."""

    amount: int
    eligible: tuple[int, ...]


def uncalled_bet(put_ins: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """Return ``(seat, amount)`` of the bet nobody called, or None (RK5).

    ``put_ins`` are ``(seat, put_in)``. The part of the biggest ``put_in`` above the
    second biggest was matched by nobody and goes back to its bettor before any pot
    is formed, so it is never raked. Two seats sharing the biggest amount were
    matched in full.
    """
    if len(put_ins) < 2:
        return None
    ranked = sorted(put_ins, key=_amount)
    seat, top = ranked[-1]
    second = ranked[-2][1]
    return (seat, top - second) if top > second else None


def build_pots(contributions: Sequence[tuple[int, int, bool]]) -> list[Pot]:
    """Return the pots in the order they formed, main pot first (HS2).

    ``contributions`` are ``(seat, amount, folded)`` after RK5's return. The levels
    are the amounts of the seats still in: every seat puts into each pot what it put
    in between that pot's level and the one below, so a folded seat's money is dead
    money in the pots it reached, and a pot's eligible seats are those still in that
    reached its level. Folded money above the top level (possible only when folded
    seats matched each other above everyone still in) is dead money in the top pot,
    where the last seats still in compete for it.

    Seats still in that put in nothing share in no pot. No seat still in having put
    in anything leaves no pots; :func:`~cardroom.domain.settlement.settle_record`
    refuses such a hand when chips were put in.
    """
    levels = sorted({a for _, a, folded in contributions if a > 0 and not folded})
    if len(levels) == 1:
        # Nobody still in is all in for less: one pot, and the common case.
        eligible = [seat for seat, a, folded in contributions if a and not folded]
        total = sum(map(_amount, contributions))
        return [Pot(total, tuple(sorted(eligible)))]
    pots: list[Pot] = []
    below = 0
    top = levels[-1] if levels else 0
    for level in levels:
        amount = 0
        eligible = []
        for seat, a, folded in contributions:
            if a > below:
                if a >= level:
                    if not folded:
                        eligible.append(seat)
                    # The top pot also takes folded money above its level.
                    amount += (a if level == top else level) - below
                else:
                    amount += a - below
        pots.append(Pot(amount, tuple(sorted(eligible))))
        below = level
    return pots
