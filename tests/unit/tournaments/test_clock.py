"""The tournament clock as a pure function of structure, log and moment (TO12)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.api.errors import status_of
from core.errors import Invalid, Refusal
from tournaments.domain.clock import (
    TAKES,
    Action,
    Break,
    ClockEvent,
    Level,
    Status,
    addon_open,
    check_event,
    check_fields,
    clock_state,
    level_for_hand,
    rebuys_open,
    registration_open,
)

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)

STRUCTURE = (
    Level(100, 200, 0, 20),
    Level(200, 400, 400, 20, big_blind_ante=True),
    Break(10),
    Level(300, 600, 600, 20, big_blind_ante=True),
    Level(400, 800, 800, 15, big_blind_ante=True),
)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def ev(action: Action, minutes: float, **kw) -> ClockEvent:
    return ClockEvent(action, at(minutes), **kw)


def state(log, minutes):
    return clock_state(STRUCTURE, log, at(minutes))


class TestRunning:
    def test_before_the_start_the_first_level_waits_whole(self):
        """TO12: an unstarted clock shows level 1 with all its time."""
        s = state([], 0)
        assert (s.status, s.level_number, s.seconds_left) == (
            Status.NOT_STARTED,
            1,
            1200,
        )

    def test_levels_follow_each_other_on_time(self):
        """TO12: the clock runs on the server from the start across levels."""
        log = [ev(Action.START, 0)]
        assert state(log, 19.5).seconds_left == 30
        s = state(log, 20)
        assert (s.level_number, s.level.big_blind, s.seconds_left) == (2, 400, 1200)

    def test_break_then_the_next_level(self):
        """TO12: a break shows as a break, numbered after the last level."""
        log = [ev(Action.START, 0)]
        s = state(log, 45)
        assert s.on_break and s.level_number == 2 and s.seconds_left == 300
        assert s.playing == STRUCTURE[3]
        assert state(log, 50).level == STRUCTURE[3]

    def test_next_break_counts_every_level_between(self):
        """TO12: the time to the next break runs to its first second."""
        log = [ev(Action.START, 0)]
        s = state(log, 5)
        assert (s.next_break, s.next_break_in_seconds) == (2, 35 * 60)
        assert state(log, 55).next_break is None

    def test_the_last_level_runs_on_at_zero(self):
        """TO12: after the last level's time the clock stays at 0 on that level."""
        log = [ev(Action.START, 0)]
        s = state(log, 500)
        assert (s.period, s.seconds_left, s.next_level) == (4, 0, None)


class TestFloor:
    def test_a_pause_stops_time_until_resumed(self):
        """TO12: the floor pauses the clock; the time left holds."""
        log = [ev(Action.START, 0), ev(Action.PAUSE, 10)]
        assert state(log, 90).seconds_left == 600
        log.append(ev(Action.RESUME, 90))
        assert state(log, 95).seconds_left == 300
        assert state(log, 95).status is Status.RUNNING

    def test_move_to_a_level_with_time_left(self):
        """TO12: the floor moves the clock to a period and time."""
        log = [ev(Action.START, 0), ev(Action.MOVE, 3, period=3, seconds=120)]
        s = state(log, 4)
        assert (s.period, s.seconds_left) == (3, 60)

    def test_adding_and_taking_time(self):
        """TO12: time is added to or taken from the current period."""
        log = [ev(Action.START, 0), ev(Action.ADD_TIME, 10, seconds=-300)]
        assert state(log, 10).seconds_left == 300
        log.append(ev(Action.ADD_TIME, 11, seconds=600))
        assert state(log, 11).seconds_left == 840

    @pytest.mark.parametrize(
        ("log", "event", "code"),
        [
            ([], ev(Action.PAUSE, 1), "clock_not_started"),
            ([ev(Action.START, 0)], ev(Action.START, 1), "clock_running"),
            ([ev(Action.START, 0)], ev(Action.RESUME, 1), "clock_running"),
            (
                [ev(Action.START, 0), ev(Action.PAUSE, 1)],
                ev(Action.PAUSE, 2),
                "clock_paused",
            ),
            ([ev(Action.STOP, 0)], ev(Action.START, 1), "clock_stopped"),
            ([ev(Action.START, 5)], ev(Action.PAUSE, 4), "clock_event_out_of_order"),
            ([ev(Action.START, 0)], ev(Action.MOVE, 1, period=5), "no_such_period"),
            (
                [ev(Action.START, 0)],
                ev(Action.MOVE, 1, period=1, seconds=1201),
                "bad_time_left",
            ),
            (
                [ev(Action.START, 0)],
                ev(Action.ADD_TIME, 1, seconds=120),
                "bad_time_added",
            ),
            (
                [ev(Action.START, 0)],
                ev(Action.ADD_TIME, 1, seconds=-1141),
                "bad_time_added",
            ),
        ],
    )
    def test_changes_that_dont_fit_are_refused(self, log, event, code):
        """TO12: a change the clock can't take is refused with the rule."""
        with pytest.raises(Refusal) as caught:
            check_event(STRUCTURE, log, event)
        assert (caught.value.code, caught.value.rule) == (code, "TO12")

    def test_a_refused_change_leaves_the_allowed_actions(self):
        """TO12: the refusal says what the clock can take instead."""
        with pytest.raises(Refusal) as caught:
            check_event(STRUCTURE, [ev(Action.START, 0)], ev(Action.RESUME, 1))
        assert caught.value.allowed == {
            "actions": ["add_time", "move", "pause", "stop"]
        }


class TestHands:
    def test_a_hand_begun_before_the_level_ends_keeps_its_blinds(self):
        """TO12 (TDA): a new level starts with the next hand."""
        log = [ev(Action.START, 0)]
        assert level_for_hand(STRUCTURE, log, at(19.99)).big_blind == 200
        assert level_for_hand(STRUCTURE, log, at(20)).big_blind == 400

    def test_a_hand_begun_on_the_break_plays_the_level_after(self):
        """TO12: a hand dealt during the break plays the next level."""
        log = [ev(Action.START, 0)]
        assert level_for_hand(STRUCTURE, log, at(41)) == STRUCTURE[3]

    def test_no_hand_before_the_clock_starts(self):
        """TO12: no level before the start."""
        with pytest.raises(Refusal):
            level_for_hand(STRUCTURE, [], at(1))


actions = st.lists(
    st.tuples(
        st.integers(1, 240),
        st.sampled_from([Action.PAUSE, Action.RESUME, Action.ADD_TIME]),
        st.integers(-120, 120),
    ),
    max_size=12,
)


# The machine is shared: a slow example is no failure.
@settings(deadline=None)
@given(steps=actions, probe=st.integers(0, 600))
def test_the_clock_never_runs_faster_than_time(steps, probe):
    """TO12: the time played is the running time, whatever the floor did."""
    log = [ev(Action.START, 0)]
    running_since, played, t, added = at(0), timedelta(0), at(0), timedelta(0)
    for gap, action, seconds in steps:
        t += timedelta(seconds=gap)
        event = ClockEvent(
            action, t, seconds=seconds if action is Action.ADD_TIME else None
        )
        try:
            check_event(STRUCTURE, log, event)
        except Refusal:
            continue
        log.append(event)
        if action is Action.PAUSE:
            played += t - running_since
            running_since = None
        elif action is Action.RESUME:
            running_since = t
        else:
            added += timedelta(seconds=seconds)
    end = t + timedelta(seconds=probe)
    if running_since is not None:
        played += end - running_since
    s = clock_state(STRUCTURE, log, end)
    total = sum((p.duration for p in STRUCTURE), timedelta(0))
    consumed = sum((p.duration for p in STRUCTURE[: s.period]), timedelta(0)) + (
        STRUCTURE[s.period].duration - s.time_left
    )
    # The structure is longer than any run here, so nothing is clamped at its end.
    assert consumed < total
    assert consumed == played - added
    assert timedelta(0) <= s.time_left <= STRUCTURE[s.period].duration


# --- What the clock opens at the cage (TO1) ----------------------------------------

periods = st.lists(
    st.one_of(
        st.builds(Level, st.just(100), st.just(200), st.just(0), st.integers(1, 30)),
        st.builds(Break, st.integers(1, 15)),
    ),
    min_size=1,
    max_size=8,
).filter(lambda ps: not ps[-1].is_break)


def _cage(structure, log, t, *, until, rebuys, addon):
    s = clock_state(structure, log, t)
    number = 0 if s.status is Status.NOT_STARTED else s.period + 1
    return (
        registration_open(s.status, number, until=until),
        rebuys_open(s.status, number, until=rebuys),
        addon_open(s.status, number, at=addon),
    )


@settings(deadline=None)
@given(
    structure=periods,
    until=st.integers(0, 9),
    rebuys=st.integers(0, 9),
    addon=st.one_of(st.none(), st.integers(1, 9)),
    pause=st.one_of(st.none(), st.tuples(st.integers(0, 200), st.integers(0, 300))),
    probes=st.lists(st.integers(0, 400), min_size=1, max_size=20),
)
def test_what_closes_never_reopens_unless_the_floor_moves_the_clock(
    structure, until, rebuys, addon, pause, probes
):
    """TO1, TO12: on a clock that runs (and may pause) but isn't moved, late
    registration and the rebuy period, once closed, stay closed; the add-on is
    open over one stretch of time at most. Before the start registration is open,
    rebuys and the add-on are not."""
    log = [ev(Action.START, 0)]
    if pause is not None:
        log += [ev(Action.PAUSE, pause[0]), ev(Action.RESUME, pause[0] + pause[1])]
    # The clock is asked about moments after its last change, as the server asks.
    last = 0 if pause is None else pause[0] + pause[1]
    moments = [last + m for m in sorted(probes)]
    seen = [
        _cage(structure, log, at(m), until=until, rebuys=rebuys, addon=addon)
        for m in moments
    ]
    registration = [r for r, _b, _a in seen]
    assert registration == sorted(registration, reverse=True)  # never reopens
    for flags in ([b for _r, b, _a in seen], [a for _r, _b, a in seen]):
        opened = [i for i, flag in enumerate(flags) if flag]
        if opened:  # one stretch, no reopening
            assert all(flags[opened[0] : opened[-1] + 1])
    not_started = _cage(structure, [], at(0), until=until, rebuys=rebuys, addon=addon)
    assert not_started == (True, False, False)


@pytest.mark.parametrize("action", list(Action))
def test_each_action_takes_only_its_fields(action):
    """TO12: a level or seconds an action doesn't take is refused before the clock
    is asked (the database's check would refuse it as a 500)."""
    for field in ("level", "seconds"):
        values = {"level": None, "seconds": None, field: 1}
        if field in TAKES[action]:
            check_fields(action, **values)
        else:
            with pytest.raises(Invalid) as error:
                check_fields(action, **values)
            assert (error.value.code, status_of(error.value)) == (
                "clock_field_not_taken",
                400,
            )
