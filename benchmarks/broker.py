#!/usr/bin/env python
"""Measure how fast a Celery worker drains the embedded broker (kombu's filesystem
transport, the default without ``CELERY_BROKER_URL``), by polling interval.

For each ``--interval`` it queues ``--tasks`` trivial tasks (``celery.backend_cleanup``:
no result backend, so the task does nothing and the figure is the broker's) in a
fresh broker folder, starts one worker as ``make run`` would (``manage.py serve``:
the app's settings, prefork pool of 2, prefetch 1, late acknowledgement), and times
from the first task taken to the queue's folder being empty. While both pool
processes hold an unacknowledged task, kombu's virtual transport finds nothing it
may take and sleeps the polling interval. kombu's own default interval is 1 s; the
settings' default is ``CELERY_BROKER_POLLING_INTERVAL`` (0.02 s).

    python benchmarks/broker.py --interval 1 --interval 0.02 --tasks 200
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(interval: float, tasks: int, timeout: float) -> tuple[float, int]:
    """Seconds to drain ``tasks`` tasks, and how many were drained."""
    with tempfile.TemporaryDirectory(prefix="bench-broker-") as data:
        env = {
            **os.environ,
            "CARDROOM_DATA_DIR": data,
            "CELERY_BROKER_POLLING_INTERVAL": str(interval),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "WARNING",
        }
        env.pop("CELERY_BROKER_URL", None)
        publish = (
            "from config.celery import app\n"
            f"for _ in range({tasks}): app.send_task('celery.backend_cleanup')\n"
        )
        subprocess.run([sys.executable, "-c", publish], cwd=ROOT, env=env, check=True)
        queue = Path(data) / "broker" / "queue"
        assert len(os.listdir(queue)) == tasks
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--concurrency",
                "2",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "-l",
                "WARNING",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + timeout
            while len(os.listdir(queue)) == tasks and time.monotonic() < deadline:
                time.sleep(0.01)
            started = time.monotonic()
            while os.listdir(queue) and time.monotonic() < deadline:
                time.sleep(0.01)
            left = len(os.listdir(queue))
            return time.monotonic() - started, tasks - left
        finally:
            worker.terminate()
            worker.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--interval", type=float, action="append")
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"load average {load}; {args.tasks} tasks each")
    for interval in args.interval or [1.0, 0.02]:
        seconds, drained = run(interval, args.tasks, args.timeout)
        print(
            f"polling interval {interval:g} s: {drained} tasks in {seconds:.1f} s,"
            f" {drained / seconds:.1f} tasks/s"
        )


if __name__ == "__main__":
    main()
