"""The gaming day with its cut-off hour, across midnight and DST changes (BI8)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounting.domain.gaming_day import (
    gaming_day,
    gaming_day_bounds,
    gaming_day_start,
)

HELSINKI = ZoneInfo("Europe/Helsinki")
ZONES = st.sampled_from(
    [
        HELSINKI,
        ZoneInfo("Asia/Seoul"),
        ZoneInfo("America/New_York"),
        ZoneInfo("Australia/Lord_Howe"),  # a 30-minute DST shift
        ZoneInfo("UTC"),
    ]
)
MOMENTS = st.datetimes(
    min_value=datetime(2000, 1, 1),
    max_value=datetime(2040, 1, 1),
    timezones=st.just(UTC),
)


def helsinki(*args: int) -> datetime:
    return datetime(*args, tzinfo=HELSINKI)


@pytest.mark.parametrize(
    ("at", "day"),
    [
        (helsinki(2026, 11, 29, 21, 0), date(2026, 11, 29)),
        (helsinki(2026, 11, 30, 0, 0), date(2026, 11, 29)),
        (helsinki(2026, 11, 30, 5, 59, 59), date(2026, 11, 29)),
        (helsinki(2026, 11, 30, 6, 0), date(2026, 11, 30)),
        (helsinki(2027, 1, 1, 3, 0), date(2026, 12, 31)),
    ],
)
def test_before_the_cut_off_it_is_still_last_night(at, day):
    """Until 06:00 local time the gaming day is the previous date."""
    assert gaming_day(at, HELSINKI, 6) == day


def test_the_room_clock_decides_not_utc():
    """04:30 UTC is 06:30 in Helsinki in winter: the new day has begun."""
    at = datetime(2026, 11, 30, 4, 30, tzinfo=UTC)
    assert gaming_day(at, HELSINKI, 6) == date(2026, 11, 30)
    assert gaming_day(at, ZoneInfo("UTC"), 6) == date(2026, 11, 29)


@pytest.mark.parametrize(
    ("cutoff", "spring", "autumn"),
    [
        (6, date(2026, 3, 28), date(2026, 10, 24)),
        # A cut-off at 03:00, the very hour the clocks change.
        (3, date(2026, 3, 29), date(2026, 10, 25)),
    ],
)
def test_the_nights_the_clocks_change_are_23_and_25_hours(cutoff, spring, autumn):
    """Finland's clocks jump an hour on the last Sundays of March and October:
    that gaming day is 23 or 25 hours long; the others are 24."""

    def hours(day: date) -> float:
        start, end = gaming_day_bounds(day, HELSINKI, cutoff)
        return (end - start) / timedelta(hours=1)

    assert hours(spring) == 23
    assert hours(autumn) == 25
    assert hours(spring - timedelta(days=1)) == hours(spring + timedelta(days=1)) == 24
    assert hours(autumn - timedelta(days=1)) == hours(autumn + timedelta(days=1)) == 24


def test_skipped_and_repeated_cut_off_hours():
    """Cut-off at 03:00: 03:30 doesn't exist on 29 March and happens twice on
    25 October; each real moment still has one gaming day."""
    # 01:30 UTC on 29 March is 04:30 summer time: the new day has begun.
    assert gaming_day(datetime(2026, 3, 29, 1, 30, tzinfo=UTC), HELSINKI, 3) == date(
        2026, 3, 29
    )
    assert gaming_day(datetime(2026, 3, 29, 0, 59, tzinfo=UTC), HELSINKI, 3) == date(
        2026, 3, 28
    )
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 03:30 summer time
    second = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 03:30 winter time
    assert first.astimezone(HELSINKI).hour == second.astimezone(HELSINKI).hour == 3
    assert gaming_day(first, HELSINKI, 3) == gaming_day(second, HELSINKI, 3)
    assert gaming_day(first - timedelta(minutes=31), HELSINKI, 3) == date(2026, 10, 24)


@given(at=MOMENTS, tz=ZONES, cutoff=st.integers(0, 23))
def test_every_moment_lies_within_its_gaming_days_bounds(at, tz, cutoff):
    """start(day) ≤ at < start(day + 1), whatever the zone, hour or DST."""
    day = gaming_day(at, tz, cutoff)
    start, end = gaming_day_bounds(day, tz, cutoff)
    assert start <= at < end


@given(at=MOMENTS, tz=ZONES, cutoff=st.integers(0, 23))
def test_gaming_days_never_go_backwards(at, tz, cutoff):
    """A later moment never has an earlier gaming day, and a day ahead is at
    most one date later."""
    later = at + timedelta(hours=1)
    assert 0 <= (gaming_day(later, tz, cutoff) - gaming_day(at, tz, cutoff)).days <= 1


@given(
    day=st.dates(date(2000, 1, 1), date(2040, 1, 1)),
    tz=ZONES,
    cutoff=st.integers(0, 23),
)
def test_a_day_begins_in_itself(day, tz, cutoff):
    """The start of a gaming day belongs to that gaming day."""
    assert gaming_day(gaming_day_start(day, tz, cutoff), tz, cutoff) == day


def test_naive_moments_and_bad_hours_are_refused():
    """A gaming day needs an aware datetime and an hour 0–23."""
    with pytest.raises(ValueError):
        gaming_day(datetime(2026, 11, 29, 12, 0), HELSINKI, 6)
    for hour in [-1, 24, True]:
        with pytest.raises(ValueError):
            gaming_day(helsinki(2026, 11, 29, 12, 0), HELSINKI, hour)
