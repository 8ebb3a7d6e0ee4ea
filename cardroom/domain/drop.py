"""Jackpot drop (RULES.md JD1-JD3)."""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.domain.hand_record import DropPolicy, Seat


def participants(seats: Iterable[Seat]) -> int:
    """Return the hand's participants: seats dealt in *and* present (JD1)."""
    return [s.present for s in seats].count(True)


def jackpot_drop(
    policy: DropPolicy | None,
    participant_count: int,
    past_initial_deal: bool,
    main_pot_left: int,
    pots_total: int = 0,
) -> int:
    """Return the drop to the jackpot fund from this hand (JD1-JD3).

    The policy's amount when the hand has at least ``min_participants``
    participants (JD1), went past the initial deal (JD2, RK4) and its pots, before
    rake, add up to at least the policy's ``min_pot`` (JD3); it comes from the main
    pot after rake and is never more than ``main_pot_left`` (JD3).
    """
    if (
        policy is None
        or not past_initial_deal
        or participant_count < policy.min_participants
        or pots_total < policy.min_pot
    ):
        return 0
    return max(0, min(policy.amount, main_pot_left))
