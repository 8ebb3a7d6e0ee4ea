"""The reports' schedule: thin Celery tasks that call the services.

Every hour the daily audit and the player activity of the last night that ended
(BI8) are stored (the audit seals the night's ledger: its signed digest, sent to
the configured addresses that haven't taken it yet), and the jackpot report of
the last month; a run that finds its
report stored already stores nothing, so a retried or doubled run is harmless. The
first run after the cut-off (or after the 1st's) stores the reports; each later
one catches up on a run that was lost: beat was down, or the worker died with the
task (Redis hands it out again, see ``CELERY_VISIBILITY_TIMEOUT``; kombu's
filesystem transport loses it). The schedule is registered with Celery beat
(django-celery-beat's DatabaseScheduler copies it into its tables, where a manager
can see it).
"""

from __future__ import annotations

from typing import Any

from celery import current_app as app  # the project's app (config.celery)
from celery import shared_task
from celery.schedules import crontab

from reports import services

DAILY = "reports: daily audit and player activity of the last gaming day"
MONTHLY = "reports: jackpot report of the last month"


@shared_task(name="reports.daily_reports_task")
def daily_reports_task() -> dict[str, Any]:
    """Store the last gaming day's daily audit and player activity, once; send
    the days' digests not yet taken."""
    outcomes = services.reports_of_last_gaming_day()
    sent = services.digests_deliver()
    return {
        **{
            o.report.kind: {
                "id": o.report.pk,
                "period": o.report.period_label,
                "created": o.created,
            }
            for o in outcomes
        },
        "digests_sent": sum(1 for s in sent if s.ok),
    }


@shared_task(name="reports.monthly_jackpot_report_task")
def monthly_jackpot_report_task() -> dict[str, Any]:
    """Store the last month's jackpot report, once."""
    outcome = services.jackpot_report_of_last_month()
    return {
        "id": outcome.report.pk,
        "period": outcome.report.period_label,
        "created": outcome.created,
    }


def schedule_reports(sender: Any, **kwargs: Any) -> None:
    """Register the reports with beat: every hour, at a quarter and half past."""
    sender.add_periodic_task(crontab(minute=15), daily_reports_task.s(), name=DAILY)
    sender.add_periodic_task(
        crontab(minute=30), monthly_jackpot_report_task.s(), name=MONTHLY
    )


# This module is imported by autodiscovery, which may come after the app finalized.
if app.finalized:  # type: ignore[attr-defined]
    schedule_reports(app)
else:
    app.on_after_finalize.connect(schedule_reports, weak=False)
