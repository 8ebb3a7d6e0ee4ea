"""Serve the back office with its Celery worker and scheduler; Ctrl-C stops all.

Each of gunicorn, the worker and beat runs in a process group of its own, so a
stop reaches every process it forked (gunicorn's workers, the worker's pool), and
whichever of them dies first, the others are stopped too. With the embedded
PostgreSQL, this command holds a handle on the server for the whole run and lets go
of it last, so the server stops with it even when a child was killed before its
exit hook could run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

STOP_SECONDS = 20


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _group_alive(proc: subprocess.Popen[bytes]) -> bool:
    try:
        os.killpg(proc.pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def stop_groups(procs: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM every group, wait for them to leave, SIGKILL what stays."""
    for proc in procs.values():
        _signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for proc in procs.values():
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    while time.monotonic() < deadline and any(_group_alive(p) for p in procs.values()):
        time.sleep(0.1)
    for proc in procs.values():
        _signal_group(proc, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)


def _embedded() -> tuple[str, str] | None:
    """The embedded server's data folder and database, when that is the database."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "core.db.embedded":
        return None
    return db["DATA_DIR"], db["EMBEDDED_DATABASE"]


class Command(BaseCommand):
    help = "Run gunicorn, a Celery worker and Celery beat together until Ctrl-C."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="127.0.0.1:8000")
        parser.add_argument("--workers", type=int, default=2)

    def commands(self, options: dict[str, Any]) -> dict[str, list[str]]:
        python = sys.executable
        celery = [python, "-m", "celery", "-A", "config"]
        return {
            "web": [
                python,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                options["bind"],
                "--workers",
                str(options["workers"]),
                "--access-logfile",
                "-",
            ],
            "worker": [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2"],
            "beat": [*celery, "beat", "--loglevel", "INFO"],
        }

    def handle(self, *args: Any, **options: Any) -> None:
        from core.db.embedded.base import server_release, socket_dir

        embedded = _embedded()
        if embedded is not None:
            socket_dir(*embedded)  # started now, and held until everything stopped
        stopping = False

        def interrupt(signum: int, frame: Any) -> None:
            nonlocal stopping
            if not stopping:
                stopping = True
                raise KeyboardInterrupt

        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, interrupt)
        procs: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, command in self.commands(options).items():
                procs[name] = subprocess.Popen(command, start_new_session=True)  # noqa: S603
            self.stdout.write(
                f"Back office on http://{options['bind']}/admin/ (Ctrl-C stops)"
            )
            while all(p.poll() is None for p in procs.values()):
                time.sleep(0.5)
            failed = [n for n, p in procs.items() if p.poll() is not None]
            self.stderr.write(f"{', '.join(failed)} stopped; stopping the others.")
        except KeyboardInterrupt:
            self.stdout.write("Stopping the web server, the worker and beat…")
        finally:
            stopping = True
            stop_groups(procs)
            if embedded is not None:
                server_release(embedded[0])
        sys.stdout.flush()
        os._exit(0)
