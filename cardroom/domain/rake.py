"""Rake: the house's share of the pots (RULES.md RK1-RK4, RK6, RK7)."""

from __future__ import annotations

from collections.abc import Sequence

from accounting.domain.money import rate_of
from cardroom.domain.hand_record import RakePolicy


def rake_units(
    total: int, rake: RakePolicy, smallest_chip: int, dealt_in: int = 0
) -> int:
    """Return how many rake units a hand with ``total`` in its pots pays (RK1, RK7).

    ``pot_order``: one unit per full step, at most ``cap // unit``. ``percent``: the
    percentage of the total rounded down to the smallest chip, in chips, at most the
    cap rounded down to the chip. ``time`` and ``none``: no pot rake (RK6). The cap
    is the one for ``dealt_in`` seats when the policy caps by number of players,
    and pots below the policy's ``min_pot`` pay nothing (RK7).
    """
    if rake.unit <= 0 or total < rake.min_pot:  # no pot rake (takes_pot_rake)
        return 0
    if rake.percent is not None:
        units = rate_of(total, rake.percent, smallest_chip) // smallest_chip
    else:
        units = int(total // rake.step)
    cap = rake.cap_for(dealt_in) if rake.caps_by_players else rake.cap
    if cap is not None:
        units = min(units, cap // rake.unit)
    return units


def rake_by_pot(
    pots: Sequence[int], rake: RakePolicy, smallest_chip: int, dealt_in: int = 0
) -> list[int]:
    """Return the rake each pot pays, pots in formation order (RK1-RK3).

    The pots lie end to end, main pot first; rake unit ``k`` is taken from the pot
    that holds the offset ``k * step`` (RK2). A pot never pays more than it holds:
    what the pot at the offset can't cover after what it already paid is taken from
    the next pots in formation order (RK3). With a unit no bigger than the step
    (:func:`~cardroom.domain.hand_record.parse_policy` refuses others) the pots
    always cover the units; were they ever to run dry, the house would take less,
    never from a pot that formed earlier.

    ``dealt_in`` is the number of seats dealt in, for RK7's caps by players. The
    caller applies RK4 (no flop, no drop) by not calling this.
    """
    units = rake_units(sum(pots), rake, smallest_chip, dealt_in)
    if not units:
        return [0] * len(pots)
    step, unit = rake.step, rake.unit
    taken = []
    start = 0
    short = 0  # what earlier pots could not cover, owed by the next ones (RK3)
    for amount in pots:
        end = start + amount
        # Units whose offset k * step lies in [start, end): this pot started them.
        first = min(units, -(-start // step))
        after = min(units, -(-end // step))
        owed = (after - first) * unit + short
        paid = owed if owed < amount else amount
        short = owed - paid
        taken.append(paid)
        start = end
    return taken


def rake_of_one_pot(
    amount: int, rake: RakePolicy, smallest_chip: int, dealt_in: int = 0
) -> int:
    """Return the rake of a hand with one pot: ``rake_by_pot([amount], ...)[0]``.

    RK1's units of the pot, capped (RK7's caps by players included), and never
    more than the pot holds (RK3), without the lists of :func:`rake_by_pot`.
    """
    unit = rake.unit
    if unit <= 0 or amount < rake.min_pot:  # no pot rake (takes_pot_rake)
        return 0
    step = rake.step
    if rake.percent is not None:
        units = rate_of(amount, rake.percent, smallest_chip) // smallest_chip
    else:
        units = int(amount // step)
    cap = rake.cap_for(dealt_in) if rake.caps_by_players else rake.cap
    if cap is not None and units > cap // unit:
        units = cap // unit
    if not units:
        return 0
    # The units whose offset k * step lies in the pot, as rake_by_pot counts them.
    owed = min(units, -(-amount // step)) * unit
    return owed if owed < amount else amount
