"""Serve the back office with its Celery worker and scheduler; Ctrl-C stops all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Run gunicorn, a Celery worker and Celery beat together until Ctrl-C."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="127.0.0.1:8000")
        parser.add_argument("--workers", type=int, default=2)

    def handle(self, *args: Any, **options: Any) -> None:
        python = sys.executable
        commands = {
            "web": [
                python,
                "-m",
                "gunicorn",
                "cardroom.wsgi",
                "--bind",
                options["bind"],
                "--workers",
                str(options["workers"]),
                "--access-logfile",
                "-",
            ],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "cardroom",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
            ],
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "cardroom",
                "beat",
                "--loglevel",
                "INFO",
            ],
        }
        procs = {name: subprocess.Popen(cmd) for name, cmd in commands.items()}  # noqa: S603
        self.stdout.write(
            f"Back office on http://{options['bind']}/admin/ (Ctrl-C stops)"
        )

        def stop(*_: Any) -> None:
            for proc in procs.values():
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
            for proc in procs.values():
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()

        signal.signal(signal.SIGTERM, lambda *a: (stop(), sys.exit(0)))
        try:
            while all(p.poll() is None for p in procs.values()):
                time.sleep(0.5)
            failed = [n for n, p in procs.items() if p.poll() is not None]
            self.stderr.write(f"{', '.join(failed)} stopped; stopping the others.")
        except KeyboardInterrupt:
            pass
        finally:
            stop()
        os._exit(0)
