"""The periods of a promotion, in room time (PR2).

A period is a stretch of the room's wall clock: every ``minutes`` minutes from
``anchor`` minutes after local midnight (a daily promotion anchored at the gaming
day's cut-off runs from cut-off to cut-off, BI8). ``minutes`` divides a day, so the
boundaries are the same wall-clock times every day. They are instants: a wall time
that happens twice (the night the clocks go back) is two boundaries, one for each
time it happens, and a wall time that never happens (the night they go forward)
is the instant the gap ends. So an hourly promotion has 25 periods of an hour the
night the clocks go back and 23 the night they go forward, and every instant is
in exactly one period: the one between the last boundary at or before it and the
first after it. A longer period with a boundary in the repeated hour has that
stretch cut off as a period of its own: each boundary counts each time the clock
shows it.

The time a hand was tabled (its end) decides its period (PR2).

>>> from zoneinfo import ZoneInfo
>>> hki = ZoneInfo("Europe/Helsinki")
>>> start, end = period_of(datetime(2026, 10, 25, 1, 30, tzinfo=UTC), hki, 60, 0)
>>> start.isoformat(), end.isoformat()
('2026-10-25T01:00:00+00:00', '2026-10-25T02:00:00+00:00')
>>> [s.astimezone(hki).strftime("%H:%M") for s in (start, end)]
['03:00', '04:00']
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo

DAY_MINUTES = 24 * 60

#: The period lengths a promotion may have: the divisors of a day from a quarter
#: of an hour, so that every day has the same wall-clock boundaries.
PERIOD_MINUTES: tuple[int, ...] = tuple(
    m for m in range(15, DAY_MINUTES + 1) if DAY_MINUTES % m == 0
)


def _boundaries_near(
    at: datetime, tz: tzinfo, minutes: int, anchor: int
) -> list[datetime]:
    """The boundaries (UTC) within a few hours of ``at``, sorted, each once."""
    local = at.astimezone(tz).replace(tzinfo=None, fold=0)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    since = (local - midnight) // timedelta(minutes=1) - anchor % minutes
    grid = midnight + timedelta(minutes=anchor % minutes + since // minutes * minutes)
    # A clock change moves wall time by at most a few hours: look that far around.
    reach = 3 * 60 // minutes + 2
    found: set[datetime] = set()
    for step in range(-reach, reach + 1):
        found.update(_instants(grid + timedelta(minutes=step * minutes), tz))
    return sorted(found)


def _instants(wall: datetime, tz: tzinfo) -> list[datetime]:
    """The instants (UTC) at which the room's clock shows the naive ``wall``: one,
    two the night the clocks go back; the night they go forward, a wall time in
    the gap never shows, and its boundary is the instant the gap ends."""
    found = []
    for fold in (0, 1):
        instant = wall.replace(tzinfo=tz, fold=fold).astimezone(UTC)
        if instant.astimezone(tz).replace(tzinfo=None) == wall:
            found.append(instant)
    if found:
        return found
    # In a gap: the first instant whose wall time is past it, to the second.
    low = wall.replace(tzinfo=tz, fold=1).astimezone(UTC)
    high = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
    low, high = min(low, high), max(low, high)
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if middle.astimezone(tz).replace(tzinfo=None) >= wall:
            high = middle
        else:
            low = middle
    return [high.replace(microsecond=0)]


def period_of(
    at: datetime, tz: tzinfo, minutes: int, anchor: int = 0
) -> tuple[datetime, datetime]:
    """Return the period ``[start, end)`` (UTC) that ``at`` is in (PR2).

    ``minutes`` is one of :data:`PERIOD_MINUTES`; ``anchor`` the minutes after
    local midnight at which a period starts (the cut-off's hour × 60 for periods
    of the gaming day).

    Raises :class:`ValueError` for a length that doesn't divide a day.
    """
    if minutes not in PERIOD_MINUTES:
        raise ValueError(f"a period of {minutes} minutes does not divide a day")
    if at.tzinfo is None:
        raise ValueError("a naive time has no period")
    at = at.astimezone(UTC)
    marks = _boundaries_near(at, tz, minutes, anchor)
    start = max(m for m in marks if m <= at)
    end = min(m for m in marks if m > at)
    return start, end


def periods_between(
    since: datetime, until: datetime, tz: tzinfo, minutes: int, anchor: int = 0
) -> list[tuple[datetime, datetime]]:
    """Return the periods from the one ``since`` is in to the last that ends at
    or before ``until``, in order: what the scheduler closes when it catches up."""
    found = []
    start, end = period_of(since, tz, minutes, anchor)
    while end <= until:
        found.append((start, end))
        start, end = end, period_of(end, tz, minutes, anchor)[1]
    return found
