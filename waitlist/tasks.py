"""Scheduled work of the waiting lists: the timers of WL2 and WL8.

Thin: the task calls the service. Reads of the lists and the board apply the same
timers, so a late or missing beat never lets a call outlive its 5 minutes.
"""

from __future__ import annotations

from typing import Any

from celery import current_app as app  # the project's app (config.celery)
from celery import shared_task

from waitlist.services import timers_sweep

SWEEP_EVERY_SECONDS = 30.0


@shared_task(name="waitlist.sweep_task")
def sweep_task() -> int:
    """End calls past their 5 minutes (WL2) and release lockups due (WL8)."""
    return timers_sweep()


@app.on_after_finalize.connect
def schedule(sender: Any, **kwargs: Any) -> None:
    sender.add_periodic_task(
        SWEEP_EVERY_SECONDS, sweep_task.s(), name="waitlist: calls and lockups"
    )
