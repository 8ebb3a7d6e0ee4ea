"""A Celery worker killed while it builds the night's reports: the reports are still
stored, once (reports/tasks.py; DESIGN.md, "Reliability and security targets").

A real worker (``celery -A config worker``) on a queue of its own takes the daily
reports' task as beat sends it and stops in the middle of the daily audit: another
connection holds the hands' table (``LOCK TABLE … ACCESS EXCLUSIVE``), which the
night's digest, sealed first, and the audit read. The worker is killed (SIGKILL),
the lock released, a new worker started.

With Redis (CI) the task was never acknowledged (``CELERY_TASK_ACKS_LATE``): Redis
hands it out again once its visibility timeout (``CELERY_VISIBILITY_TIMEOUT``, a few
seconds here) has passed, and the new worker stores the reports. kombu's filesystem
transport has no acknowledgements (a delivered message is gone), so there the
schedule's next hourly run stores them. Either way a later run stores nothing.

Both workers run on one timeline (``tests.processes.Timeline``): the morning after
``DAY``, whenever the test runs.
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from celery.schedules import crontab
from django.conf import settings

from config.celery import app as celery_app
from reports.models import Report
from reports.tasks import DAILY
from tests.integration.jackpots.test_worker import wait_for
from tests.integration.reports.conftest import DAY
from tests.integration.reports.day import local
from tests.integration.reports.test_schedule import runs
from tests.processes import Timeline, database_url
from tests.reliability.conftest import Group, backend_gone, blocked_by

pytestmark = [
    pytest.mark.broker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

VISIBILITY = 8  # seconds: Redis hands an unacknowledged task out again after this


def worker(queue: str, name: str, log: Path, timeline: Timeline) -> Group:
    """Start a worker that takes only ``queue``'s tasks, on ``timeline``."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "CONN_MAX_AGE": "0",
        "LOG_LEVEL": "INFO",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
    }
    command = timeline.command(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--queues",
            queue,
            "--hostname",
            f"{queue}-{name}@%h",
            "--pool",
            "solo",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            "INFO",
        ]
    )
    return Group(command, env, log)


def succeeded(log: Path, task_id: str) -> list[str]:
    """The log lines of task ``task_id``'s success."""
    return [line for line in runs(log) if task_id in line]


def ran_once(group: Group, task_id: str, *, seconds: float) -> str:
    """Wait for task ``task_id`` to succeed in ``group``; return what it answered."""
    wait_for(
        lambda: succeeded(group.log, task_id),
        process=group.popen,
        log=group.log,
        seconds=seconds,
    )
    [line] = succeeded(group.log, task_id)
    return line


def test_a_worker_killed_while_building_the_reports_leaves_them_stored_once(
    tmp_path, locker
):
    """The worker dies inside the daily audit: nothing is stored; after a restart the
    night's daily audit and player activity are stored once, and the next run of the
    schedule stores nothing."""
    day = DAY
    timeline = Timeline(local(day + timedelta(days=1), 10))
    stored = Report.objects.filter(period_start=day, period_end=day)
    queue = f"reports-killed-{uuid.uuid4().hex[:8]}"
    # What beat sends, from the entry the app registers when it is finalized.
    celery_app.loader.import_default_modules()
    celery_app.finalize(auto=True)
    entry = celery_app.conf.beat_schedule[DAILY]
    assert entry["schedule"] == crontab(minute=15)  # every hour

    def beat():
        return celery_app.send_task(
            entry["task"], args=entry["args"], kwargs=entry["kwargs"], queue=queue
        )

    locker.execute("LOCK TABLE cardroom_hand IN ACCESS EXCLUSIVE MODE")
    first = worker(queue, "first", tmp_path / "first.log", timeline)
    try:
        lost = beat()
        backend = blocked_by(locker, seconds=120, group=first)
        delivered_by = time.monotonic()
        with psycopg.connect(database_url(), autocommit=True) as probe:
            [(waiting,)] = probe.execute(
                "SELECT relation::regclass::text FROM pg_locks"
                " WHERE pid = %s AND NOT granted",
                [backend],
            ).fetchall()
        # The night's hands: read by its digest (sealed first) and by its audit.
        assert waiting == "cardroom_hand"
        assert first.running, first.tail()
        assert not stored.exists()
        first.kill()
    finally:
        first.stop()
    # The killed worker's backend gets the table, finds its client gone, rolls back.
    locker.rollback()
    backend_gone(backend)
    assert not stored.exists()
    assert not succeeded(first.log, lost.id)

    acknowledged = settings.CELERY_BROKER_URL != "filesystem://"
    if acknowledged:
        # The new worker takes back, as it starts, tasks unacknowledged for longer
        # than the visibility timeout.
        time.sleep(max(0.0, delivered_by + VISIBILITY + 1 - time.monotonic()))
    second = worker(queue, "second", tmp_path / "second.log", timeline)
    try:
        runner = lost if acknowledged else beat()  # the next hour's run
        done = ran_once(second, runner.id, seconds=120)
        assert "'created': True" in done, done
        again = ran_once(second, beat().id, seconds=60)
        assert "'created': True" not in again, again
    finally:
        second.stop()

    assert sorted(stored.values_list("kind", "version", "source")) == [
        ("daily_audit", 1, "schedule"),
        ("player_activity", 1, "schedule"),
    ]
    audit = stored.get(kind="daily_audit")
    assert audit.checks_failed == 0 and audit.digest
