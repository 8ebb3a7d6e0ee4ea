"""The jackpots' Celery tasks: thin, each calls one service.

- ``qualify_new_task`` (every :data:`SWEEP_EVERY`) qualifies every hand booked since
  the last sweep, in batches (BB1, HM1): one broker message a sweep, none a hand,
  so qualification keeps up with any rate of hands on any broker;
- ``qualify_hand_task`` qualifies one hand (a hand to look at again by hand);
- ``qualify_missed_task`` (every five minutes) qualifies hands the sweeps missed;
- ``close_months_task`` (every hour at minute 0) closes each hand-of-the-month
  month whose closing moment, by default the 1st at 12:00 in the room's time zone,
  has passed (HM3). Checking every hour keeps each room's own clock and catches up
  after the scheduler was down; a month closes once;
- ``close_periods_task`` (every minute) closes each high-hand period that ended
  (PR2), in the promotion's room time, a minute after its end so that a hand
  tabled in its last seconds is in; a period closes once, and a run missed is
  caught up.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import structlog
from celery import current_app as app  # the project's app (config.celery)
from celery.schedules import crontab
from django.utils import timezone

from jackpots import services

log = structlog.get_logger(__name__)

# How far back the five-minute sweep looks for hands never qualified.
MISSED_WINDOW = timedelta(days=2)
# How often beat sends the sweep of new hands; a sweep not started within
# SWEEP_EXPIRES is dropped (the next one does its work), so a slow broker or a
# worker that was down doesn't pile them up.
SWEEP_EVERY = 2.0
SWEEP_EXPIRES = 10.0


@app.task(acks_late=True)
def qualify_hand_task(hand_id: int) -> int:
    """Qualify one booked hand for the jackpots; return the number of hits."""
    return len(services.hand_qualify(hand_id=hand_id))


@app.task
def qualify_new_task() -> int:
    """Qualify the hands booked since the last sweep; return how many."""
    total = done = services.hands_qualify_new()
    while done == services.SWEEP_BATCH:
        done = services.hands_qualify_new()
        total += done
    return total


@app.task
def qualify_missed_task() -> int:
    """Qualify the recent hands whose qualification never ran."""
    return services.hands_qualify_missed(since=timezone.now() - MISSED_WINDOW)


@app.task
def close_months_task() -> list[int]:
    """Close the hand-of-the-month months that are due (HM3); return their ids."""
    return [m.pk for m in services.months_close_due(source="beat")]


@app.task
def close_periods_task() -> list[int]:
    """Close the promotions' high-hand periods that are due (PR2); return the
    prizes' ids."""
    return [p.pk for p in services.periods_close_due(source="beat")]


CLOSE_MONTHS = "jackpots: close due hands of the month (HM3)"
CLOSE_PERIODS = "jackpots: close due high-hand periods (PR2)"
QUALIFY_NEW = "jackpots: qualify the hands booked since the last sweep"
QUALIFY_MISSED = "jackpots: qualify hands the sweeps missed"


@app.on_after_finalize.connect
def schedule(sender: Any, **kwargs: Any) -> None:
    """Register the periodic tasks; beat's DatabaseScheduler syncs them."""
    sender.add_periodic_task(
        crontab(minute=0), close_months_task.s(), name=CLOSE_MONTHS
    )
    sender.add_periodic_task(
        crontab(minute="*/5"), qualify_missed_task.s(), name=QUALIFY_MISSED
    )
    sender.add_periodic_task(crontab(), close_periods_task.s(), name=CLOSE_PERIODS)
    sender.add_periodic_task(
        SWEEP_EVERY,
        qualify_new_task.s(),
        name=QUALIFY_NEW,
        expire_seconds=SWEEP_EXPIRES,
    )


if app.finalized:  # type: ignore[attr-defined]
    # Imported after the app was finalized (a shell, a test): the signal has gone.
    schedule(app)
