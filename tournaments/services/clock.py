"""The event's clock (TO12): changes logged with who made them and why.

Each change locks the event's row, turns the rows into the pure values of
``tournaments.domain.clock``, asks it, and records what it decided. The clock's
state is never stored, only replayed from its log (``selectors.clock_of``); what
the clocks and the public board show, and the level a hand is played at, are
read there too (``selectors.clock_shown``, ``board_clocks``, ``level_for_hand``).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournaments.domain import clock as clock_rules
from tournaments.errors import Code, refuse
from tournaments.models import ClockChange, Event
from tournaments.selectors import Clock, clock_log, clock_of, structure_of
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
