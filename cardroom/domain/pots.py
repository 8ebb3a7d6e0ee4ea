"""Uncalled bets and pots (RULES.md RK5, HS2): live bets by levels, dead money."""

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

    ``put_ins`` are ``(seat, live)``: what each seat put in less its dead money
    (HS2), which matches no bet and so is never returned. The part of the biggest
    live amount above the second biggest was matched by nobody and goes back to its
    bettor before any pot is formed, so it is never raked. Two seats sharing the
    biggest amount were matched in full.
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
    return pots_by_levels(contributions, levels)


def pots_by_levels(
    contributions: Sequence[tuple[int, int, bool]], levels: list[int] | None = None
) -> list[Pot]:
    """Return :func:`build_pots`'s pots level by level, one pot a level (HS2): its
    general way, which the one pot of a single level shortcuts. ``levels`` are the
    sorted amounts of the seats still in, found when not given."""
    if levels is None:
        levels = sorted({a for _, a, folded in contributions if a > 0 and not folded})
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


def add_dead_money(
    pots: list[Pot],
    dead: Sequence[tuple[int, int, bool]],
    live: Sequence[tuple[int, int, bool]],
    bettor: int | None = None,
) -> list[Pot]:
    """Return the pots with every seat's dead money in them (HS2).

    ``dead`` are ``(seat, dead, out)`` and ``live`` the ``(seat, amount, out)`` that
    :func:`build_pots` formed ``pots`` from. Antes, a big-blind ante, dead blinds and
    posts are dead money: they go into the main pot, which every seat still in with
    a live bet contests. A seat still in whose only money is dead (all in on the
    ante) contests the dead money up to its own amount from each seat: those pots
    come first, by levels of such amounts, and the dead money above them joins the
    main pot (the pots "their amount reaches"). ``bettor`` is the seat whose bet
    came back uncalled: still in, it contests the dead money even with no live
    chips left in a pot (everyone folded to his raise). Pots with the same eligible
    seats merge into one.
    """
    if not any(d for _, d, _ in dead):
        return pots
    with_live = {seat for seat, a, out in live if a and not out}
    if bettor is not None and not any(s == bettor and out for s, _, out in live):
        with_live.add(bettor)
    dead_only = {seat for seat, d, out in dead if d and not out} - with_live
    levels = sorted({d for seat, d, _ in dead if seat in dead_only})
    front: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(d, level) - min(d, below) for _, d, _ in dead)
        eligible = with_live | {s for s, d, _ in dead if s in dead_only and d >= level}
        front.append(Pot(amount, tuple(sorted(eligible))))
        below = level
    rest = sum(d - min(d, below) for _, d, _ in dead)
    if pots:
        main = pots[0]
        pots = [Pot(main.amount + rest, main.eligible), *pots[1:]]
    elif with_live:
        # Everyone folded to the bettor: the dead money is his pot.
        rest += sum(a for _, a, _ in live)
        if rest:
            front.append(Pot(rest, tuple(sorted(with_live))))
    elif front:
        # No seat still in has a live bet: folded seats' live money (they folded
        # to an all-in on the ante) is dead money too, in the last pot.
        rest += sum(a for _, a, _ in live)
        last = front.pop()
        front.append(Pot(last.amount + rest, last.eligible))
    merged: list[Pot] = []
    for pot in front + pots:
        if merged and merged[-1].eligible == pot.eligible:
            merged[-1] = Pot(merged[-1].amount + pot.amount, pot.eligible)
        else:
            merged.append(pot)
    return merged
