"""The tournament clock (RULES.md TO12), as a pure function of its structure, its log
and the moment asked about.

The structure is the event's periods in order: blind levels (blinds, ante, minutes)
and breaks between them. The log is what the floor did to the clock: started it,
paused and resumed it, moved it to a period, added or took away time. Nothing else
is stored: the state at any moment is replayed from the log, so the server, the board
and an auditor agree on it, and every change the floor made is on record.

A new level starts with the next hand (TDA): a hand takes the blinds of the level on
the clock when it began (:func:`level_for_hand`), whatever the clock says when it
ends.

>>> from datetime import UTC, datetime, timedelta
>>> structure = (
...     Level(small_blind=100, big_blind=200, ante=0, minutes=20),
...     Level(small_blind=200, big_blind=400, ante=400, minutes=20),
...     Break(minutes=10),
...     Level(small_blind=300, big_blind=600, ante=600, minutes=20),
... )
>>> t0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
>>> log = [ClockEvent(Action.START, t0)]
>>> state = clock_state(structure, log, t0 + timedelta(minutes=25))
>>> state.level_number, state.level.big_blind, state.seconds_left
(2, 400, 900)
>>> state.next_break_in_seconds, state.next_level.big_blind
(900, 600)
>>> log.append(ClockEvent(Action.PAUSE, t0 + timedelta(minutes=25)))
>>> clock_state(structure, log, t0 + timedelta(hours=2)).seconds_left
900
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from tournaments.errors import Code, invalid, refuse

RULE = "TO12"


@dataclass(frozen=True, slots=True)
class Level:
    """A blind level: blinds and ante in chips, and how long it lasts.

    ``big_blind_ante``: the ante is one big-blind ante paid by the big blind
    (TDA), not one ante from every player.
    """

    small_blind: int
    big_blind: int
    ante: int
    minutes: int
    big_blind_ante: bool = False

    @property
    def is_break(self) -> bool:
        return False

    @property
    def duration(self) -> timedelta:
        return timedelta(minutes=self.minutes)


@dataclass(frozen=True, slots=True)
class Break:
    """A break between levels; the clock runs through it like a level."""

    minutes: int

    @property
    def is_break(self) -> bool:
        return True

    @property
    def duration(self) -> timedelta:
        return timedelta(minutes=self.minutes)


Period = Level | Break
Structure = Sequence[Period]


class Action(StrEnum):
    """What the floor does to the clock; each is one entry of the log (TO12)."""

    START = "start"  # the clock starts running, at a period (default the first)
    PAUSE = "pause"
    RESUME = "resume"
    MOVE = "move"  # to a period, with the time left there (default all of it)
    ADD_TIME = "add_time"  # seconds added to (or, negative, taken from) the period
    # The clock stops for good: nothing is sold by it any more (TO1). The event
    # goes on until its winner is known; stopping the clock doesn't finish it.
    STOP = "stop"


TAKES: dict[Action, frozenset[str]] = {
    Action.START: frozenset({"level", "seconds"}),
    Action.MOVE: frozenset({"level", "seconds"}),
    Action.ADD_TIME: frozenset({"seconds"}),
    Action.PAUSE: frozenset(),
    Action.RESUME: frozenset(),
    Action.STOP: frozenset(),
}
"""What each action takes besides itself: START and MOVE a period and the time
left there, ADD_TIME the seconds added; the others nothing."""


def check_fields(action: Action, *, level: object, seconds: object) -> None:
    """Refuse a level or seconds that ``action`` doesn't take (TO12), before the
    change is checked against the clock or logged.

    Raises :class:`Invalid` (rule TO12) naming the field, with the fields the
    action takes in ``allowed``.

    >>> check_fields(Action.MOVE, level=3, seconds=None)
    >>> check_fields(Action.PAUSE, level=1, seconds=None)
    Traceback (most recent call last):
    ...
    core.errors.Invalid: TO12: pause takes no level.
    """
    takes = TAKES[action]
    allowed = {"fields": sorted(takes)}
    for name, value in (("level", level), ("seconds", seconds)):
        if value is not None and name not in takes:
            raise invalid(
                Code.CLOCK_FIELD_NOT_TAKEN,
                rule=RULE,
                allowed=allowed,
                action=action.value,
                field=name,
            )


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """One entry of the clock's log.

    ``period`` is the index into the structure for START and MOVE; ``seconds`` the
    time left in that period for START and MOVE (None: the whole period), or the
    seconds added for ADD_TIME (negative to take time away).
    """

    action: Action
    at: datetime
    period: int | None = None
    seconds: int | None = None


class Status(StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock at one moment: what the board shows and the hands are dealt at.

    ``period`` indexes the structure; ``level`` is the period on the clock (a
    :class:`Break` during a break); ``level_number`` counts blind levels from 1 (the
    number of the last level during a break, 0 before the first). ``seconds_left``
    is rounded up, so the board shows 0 only when the time is up. In the last
    period the clock stays at 0 when its time runs out: the level goes on until the
    floor moves the clock or the event ends. ``playing`` is the level the hands are
    dealt at: during a break, the level after it.
    """

    status: Status
    period: int
    level: Period
    level_number: int
    time_left: timedelta
    next_level: Level | None
    next_break: int | None
    next_break_in: timedelta | None

    @property
    def seconds_left(self) -> int:
        return math.ceil(self.time_left.total_seconds())

    @property
    def next_break_in_seconds(self) -> int | None:
        if self.next_break_in is None:
            return None
        return math.ceil(self.next_break_in.total_seconds())

    @property
    def on_break(self) -> bool:
        return self.level.is_break

    @property
    def playing(self) -> Level | None:
        if isinstance(self.level, Level):
            return self.level
        return self.next_level


@dataclass(slots=True)
class _Replay:
    """The clock as the log is replayed: running from ``since`` with ``left``."""

    status: Status = Status.NOT_STARTED
    period: int = 0
    left: timedelta = timedelta(0)
    since: datetime | None = None


def _advance(structure: Structure, replay: _Replay, until: datetime) -> None:
    """Run the clock from ``replay.since`` to ``until``, across periods."""
    if replay.status is not Status.RUNNING or replay.since is None:
        return
    elapsed = until - replay.since
    replay.since = until
    while elapsed > timedelta(0):
        if elapsed < replay.left or replay.period == len(structure) - 1:
            replay.left = max(replay.left - elapsed, timedelta(0))
            return
        elapsed -= replay.left
        replay.period += 1
        replay.left = structure[replay.period].duration


def _period_time(structure: Structure, event: ClockEvent) -> tuple[int, timedelta]:
    period = 0 if event.period is None else event.period
    if not 0 <= period < len(structure):
        raise refuse(
            Code.NO_SUCH_PERIOD,
            rule=RULE,
            allowed={"min": 0, "max": len(structure) - 1},
            n=len(structure),
        )
    full = structure[period].duration
    if event.seconds is None:
        return period, full
    left = timedelta(seconds=event.seconds)
    if not timedelta(0) < left <= full:
        raise refuse(
            Code.BAD_TIME_LEFT,
            rule=RULE,
            allowed={"min": 1, "max": int(full.total_seconds())},
        )
    return period, left


_ALLOWED = {
    Action.START: {Status.NOT_STARTED},
    Action.PAUSE: {Status.RUNNING},
    Action.RESUME: {Status.PAUSED},
    Action.MOVE: {Status.RUNNING, Status.PAUSED},
    Action.ADD_TIME: {Status.RUNNING, Status.PAUSED},
    Action.STOP: {Status.NOT_STARTED, Status.RUNNING, Status.PAUSED},
}


def _apply(structure: Structure, replay: _Replay, event: ClockEvent) -> None:
    if replay.since is not None and event.at < replay.since:
        raise refuse(
            Code.CLOCK_EVENT_OUT_OF_ORDER,
            rule=RULE,
            allowed={"from": replay.since.isoformat()},
        )
    _advance(structure, replay, event.at)
    if replay.status not in _ALLOWED[event.action]:
        raise refuse(
            Code(f"clock_{replay.status}"),
            text="action",
            rule=RULE,
            action=event.action.value,
            allowed={
                "actions": sorted(a for a, s in _ALLOWED.items() if replay.status in s)
            },
        )
    replay.since = event.at
    match event.action:
        case Action.START | Action.MOVE:
            replay.period, replay.left = _period_time(structure, event)
            if event.action is Action.START:
                replay.status = Status.RUNNING
        case Action.PAUSE:
            replay.status = Status.PAUSED
        case Action.RESUME:
            replay.status = Status.RUNNING
        case Action.ADD_TIME:
            seconds = event.seconds or 0
            full = structure[replay.period].duration
            left = replay.left + timedelta(seconds=seconds)
            if seconds == 0 or not timedelta(0) <= left <= full:
                raise refuse(
                    Code.BAD_TIME_ADDED,
                    rule=RULE,
                    allowed={
                        "min": -math.floor(replay.left.total_seconds()),
                        "max": math.floor((full - replay.left).total_seconds()),
                    },
                )
            replay.left = left
        case Action.STOP:
            replay.status = Status.STOPPED


def _replay(structure: Structure, log: Iterable[ClockEvent]) -> _Replay:
    replay = _Replay()
    for event in log:
        _apply(structure, replay, event)
    return replay


def check_event(
    structure: Structure, log: Iterable[ClockEvent], event: ClockEvent
) -> None:
    """Refuse a change the clock can't take now (TO12), before it is logged.

    Raises :class:`Refusal` (rule TO12) when the action doesn't fit the clock's
    status (pausing a paused clock, resuming a running one, anything after STOP),
    when it is dated before the last entry, when the period doesn't exist, or when
    the time left or added doesn't fit the period.
    """
    replay = _replay(structure, log)
    _apply(structure, replay, event)


def clock_state(
    structure: Structure, log: Iterable[ClockEvent], now: datetime
) -> ClockState:
    """Return the clock at ``now`` from its structure and its log (TO12).

    Raises :class:`Refusal` when the log itself breaks the rules of
    :func:`check_event` (a log written through the services never does).
    """
    replay = _replay(structure, log)
    if replay.since is not None and now > replay.since:
        _advance(structure, replay, now)
    if replay.status is Status.NOT_STARTED:
        replay.left = structure[0].duration
    period = replay.period
    level_number = sum(1 for p in structure[: period + 1] if not p.is_break)
    next_level = next(
        (p for p in structure[period + 1 :] if isinstance(p, Level)), None
    )
    next_break = next(
        (i for i in range(period + 1, len(structure)) if structure[i].is_break),
        None,
    )
    next_break_in = None
    if next_break is not None:
        next_break_in = replay.left + sum(
            (p.duration for p in structure[period + 1 : next_break]), timedelta(0)
        )
    return ClockState(
        status=replay.status,
        period=period,
        level=structure[period],
        level_number=level_number,
        time_left=replay.left,
        next_level=next_level,
        next_break=next_break,
        next_break_in=next_break_in,
    )


def level_for_hand(
    structure: Structure, log: Iterable[ClockEvent], started_at: datetime
) -> Level:
    """Return the level a hand is played at: the one on the clock when it began.

    A new level starts with the next hand (TDA, TO12): a hand begun a second before
    the level ends plays the old blinds to its end. A hand begun during a break (a
    table finishing its orbit) plays the level after the break.

    Raises :class:`Refusal` (TO12) for a hand begun before the clock started.
    """
    state = clock_state(structure, log, started_at)
    if state.status is Status.NOT_STARTED:
        raise refuse(
            Code.CLOCK_NOT_STARTED,
            rule=RULE,
        )
    playing = state.playing
    assert playing is not None  # a structure ends with a level
    return playing


# --- What the clock opens at the cage (TO1) ----------------------------------------
#
# The event names its late registration, rebuy period and add-on by the structure's
# level numbers, breaks counted (a structure 1, 2, 3, break 4, 5: "registration
# closes after level 3" is closed from the first second of break 4). ``number``
# below is the structure's number of the period on the clock, 0 before the start.
# A paused clock stays where it is: what was open stays open.


def registration_open(status: Status, number: int, *, until: int) -> bool:
    """Whether late registration is open (TO1, TDA "MLR"): before the start (level
    0) and through level ``until``; never on a stopped clock.

    >>> registration_open(Status.NOT_STARTED, 0, until=0)
    True
    >>> registration_open(Status.RUNNING, 4, until=3)
    False
    """
    return status is not Status.STOPPED and number <= until


def rebuys_open(status: Status, number: int, *, until: int) -> bool:
    """Whether the rebuy period is on (TO1): from the clock's start through level
    ``until``, while it runs or is paused. Not before the start: a player rebuys
    chips he has played with.

    >>> rebuys_open(Status.PAUSED, 3, until=3)
    True
    >>> rebuys_open(Status.NOT_STARTED, 0, until=3)
    False
    """
    return status in (Status.RUNNING, Status.PAUSED) and 1 <= number <= until


def addon_open(status: Status, number: int, *, at: int | None) -> bool:
    """Whether the add-on is sold now (TO1): during the period numbered ``at`` (a
    break, usually, that ends the rebuys), while the clock runs or is paused.

    >>> addon_open(Status.RUNNING, 4, at=4), addon_open(Status.RUNNING, 5, at=4)
    (True, False)
    """
    return at is not None and status in (Status.RUNNING, Status.PAUSED) and number == at
