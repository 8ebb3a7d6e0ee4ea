"""The event's clock (TO12): changes logged with who made them and why, the level a
hand is played at, and what the clocks and the public board show.

Each change locks the event's row, turns the rows into the pure values of
``tournaments.domain.clock``, asks it, and records what it decided. The clock's
state is never stored, only replayed from its log (``selectors.clock_of``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounting.models import Account
from core.money import money_format
from tournaments import chart
from tournaments.domain import clock as clock_rules
from tournaments.domain.payouts import PayoutError, shares_for
from tournaments.errors import Code, refuse
from tournaments.models import ChipMovement, ClockChange, Entry, Event, Level
from tournaments.selectors import (
    Clock,
    cage_windows,
    clock_log,
    clock_of,
    structure_of,
)
from tournaments.services._shared import event_get
from tournaments.services.purchases import event_start


@transaction.atomic
def clock_change(
    *,
    event_code: str,
    action: str,
    level: int | None = None,
    seconds: int | None = None,
    reason: str = "",
    by: User | None,
    source: str = "",
    now: datetime | None = None,
) -> Clock:
    """Start, pause, resume, move or stop the event's clock, or add time (TO12).

    ``level`` is the structure's level number to move (or start) at; ``seconds``
    the time left there, or the seconds added. Every change is logged with who
    made it and why.

    Starting the clock starts a scheduled event (scheduled → running, in the same
    transaction): busts are taken from then on (TO4). Stopping it stops the clock
    only: registration, rebuys and the add-on close with it (TO1), and the event
    finishes when its winner is known, as the busts decide.

    Raises :class:`NotFound` for an unknown event; :class:`Invalid` (TO12) for a
    level or seconds the action doesn't take (``clock.check_fields``);
    :class:`Refusal` (TO12) for a change the clock can't take now (see
    ``clock.check_event``), an unknown level, or an event that is over or
    cancelled. A refusal writes nothing.
    """
    now = now or timezone.now()
    act = clock_rules.Action(action)
    clock_rules.check_fields(act, level=level, seconds=seconds)
    event = event_get(code=event_code, lock=True)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise refuse(
            Code.EVENT_OVER,
            text="clock",
            rule="TO12",
            status=event.get_status_display(),
        )
    rows, structure = structure_of(event)
    numbers = [row.number for row in rows]
    period = None
    if level is not None:
        if level not in numbers:
            raise refuse(
                Code.NO_SUCH_LEVEL, rule="TO12", allowed={"levels": numbers}, n=level
            )
        period = numbers.index(level)
    entry = clock_rules.ClockEvent(act, now, period=period, seconds=seconds)
    clock_rules.check_event(structure, clock_log(event, rows), entry)
    if act is clock_rules.Action.START and event.status == Event.Status.SCHEDULED:
        event = event_start(event=event)
    ClockChange.objects.create(
        event=event,
        action=act.value,
        level=level,
        seconds=seconds,
        reason=reason[:200],
        by=by,
        source=source[:64],
        at=now,
    )
    return clock_of(event, now=now)


def level_for_hand(event: Event, *, started_at: datetime) -> Level:
    """Return the level row a hand begun at ``started_at`` is played at (TO12).

    Raises :class:`Refusal` (TO12) before the clock starts.
    """
    rows, structure = structure_of(event)
    level = clock_rules.level_for_hand(structure, clock_log(event, rows), started_at)
    return rows[list(structure).index(level)]


def chips_in_play(event: Event) -> int:
    """Return the chips issued less the chips removed (TO3)."""
    total = ChipMovement.objects.filter(event=event).aggregate(s=Sum("chips"))["s"]
    return int(total or 0)


def clock_display(event: Event, *, now: datetime | None = None) -> dict[str, Any]:
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


def board_events(*, now: datetime, language: str) -> list[dict[str, Any]]:
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
        clock = clock_display(event, now=now)
        for name in ("prize_pool", "guarantee"):
            clock[f"{name}_text"] = money_format(
                clock[name], event.currency, language, whole=True
            )
        clocks.append(clock)
    return clocks
