"""The schedule, end to end: Celery beat and a worker, on the configured broker,
store last night's reports once however often the task runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from reports.models import Report
from reports.tasks import DAILY, MONTHLY
from tests.integration.reports.conftest import DAY
from tests.integration.reports.day import local
from tests.processes import clocked, database_url

ROOT = Path(__file__).resolve().parents[3]
WAIT = 150  # seconds: start-up, a few beats, the reports


def runs(log: Path) -> list[str]:
    """The results the worker logged for the daily task, in order."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return re.findall(r"reports\.daily_reports_task\[[^\]]+\] succeeded[^\n]*", text)


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_beat_and_a_worker_store_last_nights_reports_once(build, tmp_path):
    """Beat sends the daily task every second to a worker; the first run stores the
    daily audit and the player activity, every later run finds them and stores
    nothing. Beat also installs the real schedule, every hour. Worker and beat run
    on the clock of the morning after ``DAY``, whenever the test runs."""
    day = DAY
    build(day)

    queue = f"reports-test-{uuid.uuid4().hex[:8]}"
    every_second, _ = IntervalSchedule.objects.get_or_create(
        every=1, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.create(
        name=f"test {queue}",
        task="reports.daily_reports_task",
        interval=every_second,
        queue=queue,
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "LOG_LEVEL": "INFO",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    if settings.CELERY_BROKER_URL == "filesystem://":
        # The filesystem broker of a data folder of its own: no one else's messages.
        env["CARDROOM_DATA_DIR"] = str(tmp_path / "data")
    log = tmp_path / "worker.log"
    command = clocked(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--beat",
            "--queues",
            queue,
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-mingle",
            "--without-gossip",
            "--hostname",
            f"{queue}@%h",
        ],
        local(day + timedelta(days=1), 10),
    )
    with log.open("wb") as out:
        worker = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline and len(runs(log)) < 3:
                assert worker.poll() is None, log.read_text(errors="replace")[-4000:]
                time.sleep(0.5)
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(timeout=10)
    done = runs(log)
    assert len(done) >= 3, log.read_text(errors="replace")[-4000:]
    assert "'created': True" in done[0]
    assert all("'created': True" not in line for line in done[1:])

    stored = Report.objects.filter(period_start=day, period_end=day)
    assert sorted(stored.values_list("kind", flat=True)) == [
        "daily_audit",
        "player_activity",
    ]
    audit = stored.get(kind="daily_audit")
    assert (audit.source, audit.version, audit.generated_by) == ("schedule", 1, None)
    assert audit.checks_total > 0 and audit.checks_failed == 0

    # Every hour: the first run after the cut-off stores, the later ones catch up.
    assert PeriodicTask.objects.filter(
        name=DAILY, crontab__hour="*", crontab__minute="15"
    ).exists()
    assert PeriodicTask.objects.filter(
        name=MONTHLY, crontab__day_of_month="*", crontab__hour="*"
    ).exists()
