"""The month and the high-hand hour closed by the scheduled tasks through a real
Celery worker (HM3, PR2).

A worker process (``celery -A config worker``) runs against the configured broker
— kombu's filesystem transport here, Redis in CI — and the test database, its clock
on the 2nd of November 2026 whenever the test runs. October's hands are queued for
qualification and the beat schedule's entry for the month's close is sent as beat
sends it; the worker qualifies the hands, closes October and creates the pending
awards. The worker listens on a queue of its own, so it takes nothing queued by
anyone else.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import date, datetime
from pathlib import Path

import pytest

from cardroom.models import Table
from cardroom.services import room_default
from config.celery import app as celery_app
from core.roles import Role
from jackpots import services, tasks
from jackpots.domain.promotions import EXAMPLES
from jackpots.models import Hit, Month, PromotionPrize, QualifiedHand
from tests.api.floor.conftest import HELSINKI
from tests.processes import clocked, database_url

ROOT = Path(__file__).resolve().parents[3]
MONTH = date(2026, 10, 1)
# The worker's clock: the day after October closed (HM3: the 1st at 12:00).
WORKER_NOW = datetime(2026, 11, 2, 9, 0, tzinfo=HELSINKI)


@pytest.fixture
def worker(tmp_path):
    """Start a worker on a queue of its own; stop it when the test ends."""
    queue = f"jackpots-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url(),
        "CONN_MAX_AGE": "0",
    }
    with log.open("w") as out:
        process = subprocess.Popen(
            clocked(
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
                    f"{queue}@%h",
                    "--pool",
                    "solo",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    "INFO",
                ],
                WORKER_NOW,
            ),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield queue, process, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def wait_for(condition, *, process, log, seconds: float = 90) -> None:
    """Poll ``condition`` until it holds, the worker dies or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        if process.poll() is not None:
            pytest.fail(f"the worker stopped:\n{log.read_text()[-4000:]}")
        time.sleep(0.25)
    pytest.fail(f"the worker did not finish in time:\n{log.read_text()[-4000:]}")


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_the_scheduled_task_closes_last_month_through_a_worker(
    clock, pools, dealer, settings, worker
):
    queue, process, log = worker
    month = MONTH
    pools["month"].starts_on = month
    pools["month"].save(update_fields=["starts_on"])
    # The hands are queued to the worker's queue below, not by the floor's hook.
    settings.CARDROOM_HAND_BOOKED = []
    clock.set(f"{month:%Y-%m}-10T21:00")
    dealer.ordinary()
    clock.advance(hours=1)
    bad_beat = dealer.bad_beat()
    clock.advance(hours=1)
    best = dealer.deal("Ac Kc Qc 5s 2d", {1: "Jc Tc", 2: "Ks Kd"})  # royal flush
    hands = [bad_beat.pk - 1, bad_beat.pk, best.pk]

    for hand_id in hands:
        tasks.qualify_hand_task.apply_async((hand_id,), queue=queue)
    # What beat sends at the scheduled time: the entry the app registers when it
    # is finalized, as in the beat process.
    celery_app.loader.import_default_modules()
    celery_app.finalize(auto=True)
    entry = celery_app.conf.beat_schedule[tasks.CLOSE_MONTHS]
    assert entry["task"] == tasks.close_months_task.name
    celery_app.send_task(
        entry["task"], args=entry["args"], kwargs=entry["kwargs"], queue=queue
    )

    wait_for(
        lambda: Month.objects.filter(pool=pools["month"], month=month).exists(),
        process=process,
        log=log,
    )
    closed = Month.objects.get(pool=pools["month"], month=month)
    assert closed.status == Month.Status.PENDING
    assert closed.closed_source == "beat" and closed.closed_by is None
    assert closed.best_hand == "royal flush"
    [award] = closed.awards.select_related("player")
    assert (award.player.code, award.hand_id) == ("P-1", best.pk)
    assert award.amount_cents == closed.payout_cents == 3 * 25
    assert QualifiedHand.objects.filter(hand_id__in=hands).count() == 3
    hit = Hit.objects.get()
    assert (hit.hand_id, hit.status) == (bad_beat.pk, Hit.Status.PENDING)
    assert "close_months_task" in log.read_text()


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_the_scheduled_task_closes_the_high_hand_hour_through_a_worker(
    clock, pools, dealer, make_staff, worker
):
    """PR2: the beat entry for the periods' close, sent as beat sends it, closes the
    hour that ended before the worker's 09:00: its best hand, qualified by the
    worker, gets a pending prize; the hour still running is left."""

    queue, process, log = worker
    clock.set("2026-11-02T07:00")
    services.promotion_create(
        room=room_default(),
        code="high-hand",
        name="High hand",
        rules={
            **EXAMPLES["hourly-high-hand"],
            "prize": {"fixed": 5_000, "funding": "house"},
        },
        by=make_staff("promoter", Role.MANAGER),
    )

    Table.objects.filter(code=dealer.table).update(gaming_day=date(2026, 11, 1))
    clock.set("2026-11-02T07:30")
    quads = dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})
    celery_app.loader.import_default_modules()
    celery_app.finalize(auto=True)
    entry = celery_app.conf.beat_schedule[tasks.CLOSE_PERIODS]
    assert entry["task"] == tasks.close_periods_task.name
    celery_app.send_task(
        entry["task"], args=entry["args"], kwargs=entry["kwargs"], queue=queue
    )
    wait_for(lambda: PromotionPrize.objects.exists(), process=process, log=log)
    (prize,) = PromotionPrize.objects.all()
    assert prize.period_start == datetime(2026, 11, 2, 7, 0, tzinfo=HELSINKI)
    assert (prize.status, prize.closed_source) == ("pending", "beat")
    assert [a.hand_id for a in prize.awards.all()] == [quads.pk]
    assert QualifiedHand.objects.filter(hand=quads).exists()
