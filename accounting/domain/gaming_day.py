"""The gaming day ("night"): the room's business date with a cut-off hour (BI8).

Plain Python with no Django import. A room that closes at 06:00 local time books
everything between 06:00 on the 29th and 06:00 on the 30th to the gaming day of the
29th. Daylight-saving changes are handled on the local wall clock: the cut-off is
"when the room's clocks show the hour", so a gaming day is 23 or 25 hours long on the
nights the clocks change.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def _check_cutoff(cutoff_hour: int) -> None:
    if isinstance(cutoff_hour, bool) or not 0 <= cutoff_hour <= 23:
        raise ValueError(f"The cut-off is an hour from 0 to 23, not {cutoff_hour!r}.")


def gaming_day(at: datetime, tz: ZoneInfo, cutoff_hour: int) -> date:
    """Return the gaming day that the moment ``at`` belongs to (BI8).

    Before the cut-off hour, local time, it is still the previous day's night.
    Raises :class:`ValueError` for a naive ``at`` or an hour outside 0–23.

    >>> from datetime import timezone
    >>> helsinki = ZoneInfo("Europe/Helsinki")
    >>> gaming_day(datetime(2026, 11, 30, 3, 59, tzinfo=timezone.utc), helsinki, 6)
    datetime.date(2026, 11, 29)
    >>> gaming_day(datetime(2026, 11, 30, 4, 0, tzinfo=timezone.utc), helsinki, 6)
    datetime.date(2026, 11, 30)
    """
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError("A gaming day needs an aware datetime.")
    _check_cutoff(cutoff_hour)
    local = at.astimezone(tz)
    day = local.date()
    return day - timedelta(days=1) if local.hour < cutoff_hour else day


def gaming_day_start(day: date, tz: ZoneInfo, cutoff_hour: int) -> datetime:
    """Return the moment gaming day ``day`` begins: its cut-off hour, local time.

    When the clocks skip that hour (spring forward), the day begins at the moment
    the skipped hour would have begun, so every moment belongs to exactly one day.
    The answer is in UTC: Python subtracts and compares two datetimes of the same
    zone by their wall clocks, which would make every gaming day 24 hours long.
    """
    _check_cutoff(cutoff_hour)
    # fold=0 reads a skipped or repeated wall time with the offset in force before
    # the change: the earliest instant that is on or after the cut-off.
    local = datetime.combine(day, time(cutoff_hour), tzinfo=tz)
    return local.astimezone(UTC)


def gaming_day_bounds(
    day: date, tz: ZoneInfo, cutoff_hour: int
) -> tuple[datetime, datetime]:
    """Return ``[start, end)`` of gaming day ``day`` as aware datetimes in UTC."""
    return (
        gaming_day_start(day, tz, cutoff_hour),
        gaming_day_start(day + timedelta(days=1), tz, cutoff_hour),
    )
