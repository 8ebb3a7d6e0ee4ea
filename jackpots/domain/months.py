"""The hand of the month's calendar and standings (HM1–HM4).

A month is the calendar month in the room's time zone (HM1), named by its first day.
It closes at a configured moment of the next month (default the 1st at 12:00 local,
HM3). Hands are ordered best first; equal hands by the time the hand ended, earlier
first (HM2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, tzinfo
from typing import Protocol, TypeVar


class MonthEntry(Protocol):
    """A hand that counts for a month: its key, when it ended, where it was."""

    @property
    def key(self) -> int: ...

    @property
    def ended_at(self) -> datetime: ...

    @property
    def hand_id(self) -> int: ...

    @property
    def seat(self) -> int: ...

    @property
    def player_id(self) -> int: ...


E = TypeVar("E", bound=MonthEntry)


def parse_month(text: str) -> date:
    """Return the first day of the month ``YYYY-MM``.

    Raises :class:`ValueError` for anything else.

    >>> parse_month("2026-11")
    datetime.date(2026, 11, 1)
    """
    if not re.fullmatch(r"\d{4}-\d{2}", text):
        raise ValueError(f"{text!r} is not a month: write YYYY-MM, e.g. 2026-11")
    return date(int(text[:4]), int(text[5:]), 1)


def month_name(month: date) -> str:
    """Return ``YYYY-MM`` for a month."""
    return f"{month.year:04d}-{month.month:02d}"


def next_month(month: date) -> date:
    """Return the first day of the month after ``month``."""
    if month.month == 12:
        return date(month.year + 1, 1, 1)
    return date(month.year, month.month + 1, 1)


def month_of(at: datetime, tz: tzinfo) -> date:
    """Return the month (its first day) that ``at`` falls in, in time zone ``tz``."""
    return at.astimezone(tz).date().replace(day=1)


def month_bounds(month: date, tz: tzinfo) -> tuple[datetime, datetime]:
    """Return the month's first moment and the first moment after it, in ``tz``."""
    after = next_month(month)
    return (
        datetime(month.year, month.month, 1, tzinfo=tz),
        datetime(after.year, after.month, 1, tzinfo=tz),
    )


def close_moment(month: date, tz: tzinfo, day: int = 1, hour: int = 12) -> datetime:
    """Return when ``month`` closes: ``day`` at ``hour`` o'clock of the next month,
    local time (HM3)."""
    after = next_month(month)
    return datetime(after.year, after.month, day, hour, tzinfo=tz)


def months_due(
    first: date, now: datetime, tz: tzinfo, day: int = 1, hour: int = 12
) -> list[date]:
    """Return the months from ``first`` whose closing moment is at or before ``now``.

    >>> from zoneinfo import ZoneInfo
    >>> hki = ZoneInfo("Europe/Helsinki")
    >>> months_due(date(2026, 10, 1), datetime(2026, 12, 1, 11, tzinfo=hki), hki)
    [datetime.date(2026, 10, 1)]
    >>> months_due(date(2026, 10, 1), datetime(2026, 12, 1, 12, tzinfo=hki), hki)
    [datetime.date(2026, 10, 1), datetime.date(2026, 11, 1)]
    """
    due = []
    month = first
    while close_moment(month, tz, day, hour) <= now:
        due.append(month)
        month = next_month(month)
    return due


def standings(entries: Iterable[E], limit: int) -> list[E]:
    """Return each player's best hand, best first, at most ``limit`` players (HM4).

    ``entries`` come best first, equal hands the earlier first (HM2); they are read
    only as far as needed.
    """
    seen: set[int] = set()
    table: list[E] = []
    for entry in entries:
        if entry.player_id in seen:
            continue
        seen.add(entry.player_id)
        table.append(entry)
        if len(table) >= limit:
            break
    return table
