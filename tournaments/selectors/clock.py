"""The event's clock as the server keeps it, replayed from its log, and what the
clocks and the public board show (TO1, TO12): the level a hand is played at, what
the clock opens at the cage, whether an event or its structure has started.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounting.models import Account
from core.money import money_format
from tournaments import chart
from tournaments.domain import clock as clock_rules
from tournaments.domain.payouts import PayoutError, shares_for
from tournaments.errors import Code, refuse
from tournaments.models import ClockChange, Entry, Event, Level, Structure
from tournaments.selectors.chips import chips_in_play


def structure_of(event: Event) -> tuple[list[Level], clock_rules.Structure]:
    """Return the event's level rows in order and the clock's structure from them."""
    rows = list(Level.objects.filter(structure=event.structure_id).order_by("number"))
    periods: list[clock_rules.Period] = [
        clock_rules.Break(row.minutes)
        if row.is_break
        else clock_rules.Level(
            small_blind=int(row.small_blind),
            big_blind=int(row.big_blind),
            ante=int(row.ante),
            minutes=row.minutes,
            big_blind_ante=row.big_blind_ante,
        )
        for row in rows
    ]
    return rows, tuple(periods)


def clock_log(event: Event, rows: Sequence[Level]) -> list[clock_rules.ClockEvent]:
    """The event's clock log, its levels as indexes into ``rows``."""
    index = {row.number: i for i, row in enumerate(rows)}
    return [
        clock_rules.ClockEvent(
            clock_rules.Action(change.action),
            change.at,
            period=None if change.level is None else index.get(change.level, -1),
            seconds=change.seconds,
        )
        for change in ClockChange.objects.filter(event=event).order_by("at", "pk")
    ]


@dataclass(frozen=True, slots=True)
class Clock:
    """The clock at a moment, with the level row it is at."""

    state: clock_rules.ClockState
    level: Level

    @property
    def number(self) -> int:
        """The structure's number of the period on the clock (breaks counted), 0
        before the start: what the event's late-registration, rebuy and add-on
        levels name (TO1)."""
        if self.state.status is clock_rules.Status.NOT_STARTED:
            return 0
        return int(self.level.number)


def clock_of(event: Event, *, now: datetime | None = None) -> Clock:
    """Return the event's clock at ``now`` (TO12), replayed from its log.

    Raises :class:`Refusal` (TO12) if the event's structure has no levels.
    """
    rows, structure = structure_of(event)
    if not rows:
        raise refuse(Code.NO_STRUCTURE, rule="TO12")
    state = clock_rules.clock_state(
        structure, clock_log(event, rows), now or timezone.now()
    )
    return Clock(state=state, level=rows[state.period])


@dataclass(frozen=True, slots=True)
class CageWindows:
    """What the server's clock opens at the cage at a moment (TO1, TO12)."""

    status: clock_rules.Status
    number: int
    on_break: bool
    registration: bool
    rebuys: bool
    addon: bool


def cage_windows(*, event: Event, at: datetime) -> CageWindows:
    """Whether late registration, the rebuy period and the add-on are open at
    ``at``, by the event's clock on the server, never by a client (TO1, TO12).

    ``number`` is the structure's level number on the clock (breaks counted, 0
    before the start). A structure without levels has a clock that never starts:
    registration is open until the event's level 0 closes it, nothing else.
    """
    rows, structure = structure_of(event)
    if rows:
        state = clock_rules.clock_state(structure, clock_log(event, rows), at)
        status, number = state.status, Clock(state, rows[state.period]).number
        on_break = status is not clock_rules.Status.NOT_STARTED and state.on_break
    else:
        status, number, on_break = clock_rules.Status.NOT_STARTED, 0, False
    return CageWindows(
        status=status,
        number=number,
        on_break=on_break,
        registration=clock_rules.registration_open(
            status, number, until=event.late_registration_level
        ),
        rebuys=bool(event.rebuy_max)
        and clock_rules.rebuys_open(status, number, until=event.rebuy_until_level),
        addon=bool(event.addon_chips)
        and clock_rules.addon_open(status, number, at=event.addon_level),
    )


def scheduled_level(*, event: Event, at: datetime | None = None) -> int:
    """The level the event's schedule gives at ``at`` (now by default), counting
    from its start without pauses; 0 before the start. The event's clock
    (:func:`clock_of`), which knows of pauses and moves (TO12), is the one the room
    reads."""
    at = at or timezone.now()
    if at < event.starts_at:
        return 0
    elapsed = at - event.starts_at
    number = 0
    for level in Level.objects.filter(structure=event.structure_id).order_by("number"):
        number = level.number
        length = timedelta(minutes=level.minutes)
        if elapsed < length:
            return number
        elapsed -= length
    return number


def level_for_hand(event: Event, *, started_at: datetime) -> Level:
    """Return the level row a hand begun at ``started_at`` is played at (TO12).

    Raises :class:`Refusal` (TO12) before the clock starts.
    """
    rows, structure = structure_of(event)
    level = clock_rules.level_for_hand(structure, clock_log(event, rows), started_at)
    return rows[list(structure).index(level)]


def structure_started_by(*, structure: Structure) -> Event | None:
    """An event using ``structure`` that has started (its status, or its clock),
    if there is one (TO12)."""
    using = Event.objects.filter(structure=structure)
    started = using.exclude(status=Event.Status.SCHEDULED).order_by("code").first()
    if started is not None:
        return started
    clocked = ClockChange.objects.filter(event__structure=structure)
    first = clocked.select_related("event").order_by("event__code").first()
    return first.event if first is not None else None


def event_started(*, event: Event) -> bool:
    """Whether ``event`` has started: running or over, or its clock started
    (TO12)."""
    return (
        event.status != Event.Status.SCHEDULED
        or ClockChange.objects.filter(event=event).exists()
    )


def clock_shown(event: Event, *, now: datetime | None = None) -> dict[str, Any]:
    """Return what a tournament clock shows (TO12): the level, blinds and ante, the
    time left, the next break, players left, the average stack, the prize pool and
    the places paid, and what the clock opens at the cage (TO1). No player's name
    or stack.

    ``prize_pool`` is the real pool (TO7): the buy-ins the pool holds, with the
    house's overlay only once a payout sheet has fixed it; ``guarantee`` is shown
    beside it, never in its place.
    """
    now = now or timezone.now()
    clock = clock_of(event, now=now)
    state = clock.state
    windows = cage_windows(event=event, at=now)
    entries = Entry.objects.filter(event=event)
    field_size = entries.exclude(status=Entry.Status.REFUNDED).count()
    left = entries.filter(status=Entry.Status.ACTIVE).count()
    chips = chips_in_play(event)
    sheet = getattr(event, "payout_sheet", None)
    if sheet is not None:
        pool_cents = int(sheet.pool_cents)
    else:
        # Read, not opened: a clock's GET writes nothing.
        pool = Account.objects.filter(code=chart.prize_pool_code(event=event.code))
        pool_cents = int(pool.values_list("balance_cents", flat=True).first() or 0)
    try:
        rows = [(int(r["min_entries"]), tuple(r["shares"])) for r in event.payout_table]
        paid = len(shares_for(field_size, rows or None)) if field_size else 0
    except (PayoutError, KeyError, TypeError, ValueError):
        paid = 0
    level = state.level if isinstance(state.level, clock_rules.Level) else None
    following = state.next_level
    return {
        "event": event.code,
        "name": event.name,
        "status": state.status.value,
        "level": state.level_number,
        "on_break": state.on_break,
        "small_blind": level.small_blind if level else None,
        "big_blind": level.big_blind if level else None,
        "ante": level.ante if level else None,
        "big_blind_ante": level.big_blind_ante if level else False,
        "seconds_left": state.seconds_left,
        "next_level": (
            {
                "level": state.level_number + 1,
                "small_blind": following.small_blind,
                "big_blind": following.big_blind,
                "ante": following.ante,
                "big_blind_ante": following.big_blind_ante,
            }
            if following
            else None
        ),
        "next_break_in": state.next_break_in_seconds,
        "players_left": left,
        "entries": field_size,
        "average_stack": chips // left if left else 0,
        "chips_in_play": chips,
        "prize_pool": pool_cents,
        "currency": event.currency,
        "places_paid": paid,
        "guarantee": int(event.guarantee_cents),
        "structure_level": clock.number,
        "registration_open": windows.registration,
        "rebuys_open": windows.rebuys,
        "addon_open": windows.addon,
    }


def board_clocks(*, now: datetime, language: str) -> list[dict[str, Any]]:
    """Return the clocks of the events running now, for the public board (TO12),
    with the prize pool and the guarantee written in ``language`` by core.money
    (``prize_pool_text``, ``guarantee_text``: whole units without cents)."""
    events = Event.objects.filter(status=Event.Status.RUNNING).order_by(
        "starts_at", "code"
    )
    clocks = []
    for event in events:
        if not event.structure_id:
            continue
        clock = clock_shown(event, now=now)
        for name in ("prize_pool", "guarantee"):
            clock[f"{name}_text"] = money_format(
                clock[name], event.currency, language, whole=True
            )
        clocks.append(clock)
    return clocks
