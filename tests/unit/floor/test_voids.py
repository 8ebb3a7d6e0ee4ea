"""RK8: whether a deal can still be cancelled, read from its record (no database)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.domain.voids import first_round

SB, BB = 100, 200


def record(streets: int, button: int | None, *seats: dict[str, Any]) -> dict:
    return {"streets": streets, "button": button, "seats": list(seats)}


def s(n: int, put_in: int = 0, folded: bool = False, stack: int = 20_000, **kw):
    return {"seat": n, "put_in": put_in, "folded": folded, "stack": stack, **kw}


def cancellable(hand: dict) -> bool:
    return first_round(hand, small_blind=SB, big_blind=BB).cancellable


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # Heads-up, the button (small blind) folds: one player acted, no call.
        (record(1, 1, s(1, SB, folded=True), s(2, BB)), True),
        # Everyone folds to the big blind: folds only.
        (record(1, 1, s(1, folded=True), s(2, SB, folded=True), s(3, BB)), True),
        # A misdeal before anyone acted: only the blinds are in.
        (record(1, 1, s(1), s(2, SB), s(3, BB)), True),
        # A raise and a fold before the flop.
        (record(1, 1, s(1, 600), s(2, SB, folded=True), s(3, BB, folded=True)), False),
        # The small blind completes and the big blind checks: a flop is dealt.
        (record(2, 1, s(1, BB), s(2, BB)), False),
        # Heads-up, the button raises, the big blind calls, the board comes.
        (record(4, 1, s(1, 800), s(2, 800)), False),
        # Both all in on their blinds, the board run out: nobody could act.
        (
            record(
                4,
                1,
                s(1, folded=True),
                s(2, SB, stack=SB),
                s(3, BB, stack=BB),
                s(4, folded=True),
            ),
            True,
        ),
        # Antes are dead money, never an action.
        (
            record(
                1, 1, s(1, 25, dead=25), s(2, SB + 25, dead=25), s(3, BB + 25, dead=25)
            ),
            True,
        ),
        # A straddle is forced too.
        (record(1, 1, s(1, 400, straddle=400), s(2, SB), s(3, BB)), True),
        # Stud: the bring-in, then everyone folds.
        (record(1, None, s(1, 50), s(2, folded=True), s(3, folded=True)), True),
        # Stud: the bring-in is completed and called.
        (record(1, None, s(1, 50, folded=True), s(2, 200), s(3, 200)), False),
    ],
)
def test_examples(hand, expected):
    assert cancellable(hand) is expected


seat_numbers = st.lists(
    st.integers(min_value=1, max_value=12), min_size=2, max_size=12, unique=True
).map(sorted)


@st.composite
def forced_only(draw: st.DrawFn) -> dict:
    """A button game where nobody put in voluntary chips: folds and checks."""
    numbers = draw(seat_numbers)
    button = draw(st.sampled_from(numbers))
    hand = record(draw(st.integers(1, 4)), button)
    for n in numbers:
        hand["seats"].append(s(n, 0, folded=draw(st.booleans())))
    return hand


@given(forced_only())
def test_no_voluntary_chips_is_always_cancellable(hand):
    """Folds and checks alone never stop a void (RK8)."""
    assert cancellable(hand)


@given(forced_only(), st.data())
def test_a_call_bet_or_raise_and_another_action_stop_it(hand, data):
    """Once one seat put in voluntary chips and another acted, no void (RK8)."""
    rows = hand["seats"]
    caller, other = data.draw(st.permutations(rows))[:2]
    caller["put_in"] = data.draw(st.integers(BB + 1, caller["stack"]))
    caller["folded"] = data.draw(st.booleans())
    other["folded"] = True
    assert not cancellable(hand)
    assert caller["seat"] in first_round(hand, small_blind=SB, big_blind=BB).callers
