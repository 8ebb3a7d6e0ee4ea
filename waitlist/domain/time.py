"""Time collection: the period, its amount, and who pays it (RULES.md RK6).

A game raked by time (``{"rake": {"scheme": "time"}}``) says in its policy how long
a period is and what a seat pays for it, in a ``time`` section the hand engine
ignores::

    {"rake": {"scheme": "time"}, "time": {"period_minutes": 30, "amount": 600}}

Periods follow the room's clock from local midnight (with 30 minutes: on the hour
and the half hour), so every table of the room collects at the same moments. They
are counted in real time from midnight, so on the nights the clocks change every
period still lasts its minutes: the hour the clocks skip holds no period, and the
hour they repeat holds two of each.

Who pays: with two or more players waiting for the game everyone seated pays. With
zero or one waiting a *new* player may skip the collection until his blind (button
games) or his first hand (stud games). A player is new when he sat down after the
table's previous collection (before the table's first collection: after its first
hand began; before any hand nobody is new, the game is just starting). "Until his
blind" is read from the hands booked for his seat: he has had his blind once a
booked hand placed him in the small or the big blind, counted clockwise from the
hand's ``button`` among the seats dealt in (heads up, the button is the small
blind). A hand without a button tells nothing about blinds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from core.errors import Refusal, refuser
from waitlist.errors import TEXTS, TIME_NOT_WHOLE, TIME_PERIOD_TOO_LONG, Code

EVERYONE_PAYS_FROM = 2
"""RK6: with this many players waiting, new players pay too."""


class TimeRefused(Refusal, ValueError):
    """A collection the policy doesn't allow, with its rule (RK6) and code."""


_refuse = refuser(TEXTS, TimeRefused)


@dataclass(frozen=True, slots=True)
class TimePolicy:
    """A period of ``period_minutes`` costs each paying seat ``amount`` cents."""

    period_minutes: int
    amount: int

    def period(self, local: datetime) -> tuple[datetime, datetime]:
        """Return the period ``[start, end)`` holding ``local`` (aware, room time).

        Counted in real time from the local midnight, so each period lasts
        ``period_minutes`` even across a change of the clocks (Python's own
        arithmetic on two times of one zone would count wall-clock minutes).
        """
        zone = local.tzinfo
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0, fold=0)
        origin = midnight.astimezone(UTC)
        length = timedelta(minutes=self.period_minutes)
        start = origin + (local.astimezone(UTC) - origin) // length * length
        return start.astimezone(zone), (start + length).astimezone(zone)


def _whole(value: Any, what: str) -> int:
    if type(value) is not int or value < 1:
        raise _refuse(
            Code.INVALID_TIME_POLICY,
            rule="RK6",
            text=TIME_NOT_WHOLE,
            what=what,
            value=repr(value),
        )
    return value


def time_policy(document: Mapping[str, Any]) -> TimePolicy:
    """Return the time collection of a game's policy document (RK6).

    Raises :class:`TimeRefused` ``not_time_collection`` when the game rakes pots
    instead, and ``invalid_time_policy`` when the ``time`` section is missing or
    wrong.
    """
    rake = document.get("rake")
    if not isinstance(rake, Mapping) or rake.get("scheme") != "time":
        raise _refuse(Code.NOT_TIME_COLLECTION, rule="RK6")
    section = document.get("time")
    if not isinstance(section, Mapping):
        raise _refuse(Code.INVALID_TIME_POLICY, rule="RK6")
    minutes = _whole(section.get("period_minutes"), "period_minutes")
    if minutes > 24 * 60:
        raise _refuse(Code.INVALID_TIME_POLICY, rule="RK6", text=TIME_PERIOD_TOO_LONG)
    return TimePolicy(minutes, _whole(section.get("amount"), "amount"))


def blind_seats(button: int | None, dealt: Iterable[int]) -> frozenset[int]:
    """Return the seats in the small and big blind of a hand (RK6).

    Counted clockwise (rising seat numbers, wrapping) from the button among the
    seats dealt in; heads up the button posts the small blind.

    >>> sorted(blind_seats(3, [1, 3, 5, 8]))
    [5, 8]
    >>> sorted(blind_seats(8, [1, 3, 5, 8]))
    [1, 3]
    >>> sorted(blind_seats(4, [2, 4]))
    [2, 4]
    """
    seats = sorted(set(dealt))
    if button is None or len(seats) < 2:
        return frozenset()
    if len(seats) == 2:
        other = seats[1] if seats[0] == button else seats[0]
        return frozenset({button, other} if button in seats else set(seats))
    after = [s for s in seats if s > button] + [s for s in seats if s <= button]
    return frozenset(after[:2])


class Exempt(StrEnum):
    NEW_PLAYER = "new_player"  # RK6: before his blind (stud: his first hand)
    NO_CHIPS = "no_chips"  # nothing in front of him to pay with


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """A seat at collection time: is he new, and has he reached his blind yet."""

    seat: int
    player: str
    stack: int
    new: bool
    reached_blind: bool


@dataclass(frozen=True, slots=True)
class Collection:
    charges: dict[int, int]
    exempt: dict[int, Exempt]
    everyone_pays: bool


def time_charges(
    seats: Sequence[SeatFacts], *, waiting: int, amount: int
) -> Collection:
    """Decide what each seat pays for the period (RK6).

    Two or more waiting: everyone pays. Otherwise a new player who hasn't reached
    his blind skips it. A seat pays at most what it has in front of it; an empty
    stack pays nothing.

    >>> old = SeatFacts(1, "A", 9000, new=False, reached_blind=True)
    >>> new = SeatFacts(2, "B", 500, new=True, reached_blind=False)
    >>> seats = [old, new]
    >>> time_charges(seats, waiting=1, amount=600).charges
    {1: 600}
    >>> time_charges(seats, waiting=2, amount=600).charges
    {1: 600, 2: 500}
    """
    everyone = waiting >= EVERYONE_PAYS_FROM
    charges: dict[int, int] = {}
    exempt: dict[int, Exempt] = {}
    for s in sorted(seats, key=lambda s: s.seat):
        if s.stack <= 0:
            exempt[s.seat] = Exempt.NO_CHIPS
        elif not everyone and s.new and not s.reached_blind:
            exempt[s.seat] = Exempt.NEW_PLAYER
        else:
            charges[s.seat] = min(amount, s.stack)
    return Collection(charges, exempt, everyone)
