"""The jackpots' Celery tasks: thin, each calls one service.

- :func:`hand_booked` is the floor's ``CARDROOM_HAND_BOOKED`` hook: it runs once the
  hand's booking has committed and queues its qualification (BB1, HM1);
- ``qualify_missed_task`` (every five minutes) qualifies hands whose task was lost;
- ``close_months_task`` (every hour at minute 0) closes each hand-of-the-month
  month whose closing moment, by default the 1st at 12:00 in the room's time zone,
  has passed (HM3). Checking every hour keeps each room's own clock and catches up
  after the scheduler was down; a month closes once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import structlog
from celery.schedules import crontab
from django.utils import timezone
from kombu.exceptions import KombuError, OperationalError

from cardroom.celery import app
from jackpots import services

log = structlog.get_logger(__name__)

# How far back the sweep looks for hands never qualified.
MISSED_WINDOW = timedelta(days=2)


@app.task(acks_late=True)
def qualify_hand_task(hand_id: int) -> int:
    """Qualify one booked hand for the jackpots; return the number of hits."""
    return len(services.hand_qualify(hand_id=hand_id))


@app.task
def qualify_missed_task() -> int:
    """Qualify the recent hands whose qualification never ran."""
    return services.hands_qualify_missed(since=timezone.now() - MISSED_WINDOW)


@app.task
def close_months_task() -> list[int]:
    """Close the hand-of-the-month months that are due (HM3); return their ids."""
    return [m.pk for m in services.months_close_due(source="beat")]


def hand_booked(hand_id: int) -> None:
    """Queue the qualification of a hand whose booking committed (the floor's hook).

    A broker that doesn't answer must not fail the terminal's request: the hand is
    booked already, and ``qualify_missed_task`` picks it up later.
    """
    try:
        qualify_hand_task.delay(hand_id)
    except (KombuError, OperationalError, OSError) as error:
        log.warning("jackpots.qualify.not_queued", hand=hand_id, error=str(error))


CLOSE_MONTHS = "jackpots: close due hands of the month (HM3)"
QUALIFY_MISSED = "jackpots: qualify hands whose task was lost"


@app.on_after_finalize.connect
def schedule(sender: Any, **kwargs: Any) -> None:
    """Register the periodic tasks; beat's DatabaseScheduler syncs them."""
    sender.add_periodic_task(
        crontab(minute=0), close_months_task.s(), name=CLOSE_MONTHS
    )
    sender.add_periodic_task(
        crontab(minute="*/5"), qualify_missed_task.s(), name=QUALIFY_MISSED
    )


if app.finalized:  # type: ignore[attr-defined]
    # Imported after the app was finalized (a shell, a test): the signal has gone.
    schedule(app)
