"""A hand's number and times (cardroom.domain.hand_limits), without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.domain.errors import HandError
from cardroom.domain.hand_limits import (
    CLOCK_SKEW,
    FIRST_HAND_NO_MAX,
    HAND_NO_WINDOW,
    check_hand_no,
    check_hand_times,
    hand_no_allowed,
)

DAY_START = datetime(2026, 11, 29, 4, 0, tzinfo=UTC)  # 06:00 in Helsinki
NOW = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)


@given(last=st.integers(0, 2**62), step=st.integers(1, 2**63))
def test_the_next_hand_is_at_most_the_window_ahead(last, step):
    hand_no = last + step
    if step <= HAND_NO_WINDOW:
        check_hand_no(hand_no, last)
    else:
        with pytest.raises(HandError) as refused:
            check_hand_no(hand_no, last)
        assert refused.value.rule == "HS6"
        assert refused.value.allowed == {
            "min": last + 1,
            "max": last + HAND_NO_WINDOW,
            "last": last,
        }


@given(hand_no=st.integers(1, 2**63 - 1))
def test_the_first_hand_is_bounded(hand_no):
    if hand_no <= FIRST_HAND_NO_MAX:
        check_hand_no(hand_no, None)
    else:
        with pytest.raises(HandError, match="too far ahead"):
            check_hand_no(hand_no, None)
    assert hand_no_allowed(None) == (1, FIRST_HAND_NO_MAX)


@given(last=st.integers(0, 2**62))
def test_a_refused_number_never_blocks_the_table(last):
    """Whatever was refused, the numbers the table may use next remain."""
    low, high = hand_no_allowed(last)
    assert low == last + 1 and high >= low
    check_hand_no(low, last)
    check_hand_no(high, last)


moments = st.integers(-(10**9), 10**9).map(lambda s: NOW + timedelta(seconds=s))


@given(started=st.none() | moments, ended=st.none() | moments)
def test_times_are_within_the_day_and_in_order(started, ended):
    latest = NOW + CLOCK_SKEW
    inside = all(t is None or DAY_START <= t <= latest for t in (started, ended))
    ordered = started is None or ended is None or started <= ended
    if inside and ordered:
        check_hand_times(
            started_at=started, ended_at=ended, day_start=DAY_START, now=NOW
        )
        return
    with pytest.raises(HandError) as refused:
        check_hand_times(
            started_at=started, ended_at=ended, day_start=DAY_START, now=NOW
        )
    assert refused.value.rule == "BI8"
    expected = (
        "hand_time_outside_gaming_day" if not inside else "hand_ends_before_it_starts"
    )
    assert refused.value.code == expected


def test_the_bounds_are_part_of_the_day():
    for moment in (DAY_START, NOW + CLOCK_SKEW):
        check_hand_times(
            started_at=moment, ended_at=moment, day_start=DAY_START, now=NOW
        )
    with pytest.raises(HandError):
        check_hand_times(
            started_at=None,
            ended_at=DAY_START - timedelta(microseconds=1),
            day_start=DAY_START,
            now=NOW,
        )
