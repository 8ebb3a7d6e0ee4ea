"""What tests that start other processes (gunicorn, Celery workers) share."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def start_logged(
    command: list[str], env: dict[str, str], log: Path
) -> subprocess.Popen:
    """Start ``command`` in the checkout, leading a session (and process group) of
    its own, its output added to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def database_url() -> str:
    """A URL for a subprocess to reach this test's database (embedded or not)."""
    params = connection.get_connection_params()
    named = connection.settings_dict
    user = quote(params.get("user") or named.get("USER") or "")
    password = named.get("PASSWORD") or ""
    auth = user + (f":{quote(password)}" if password else "")
    host = params.get("host") or named.get("HOST") or ""
    port = str(params.get("port") or named.get("PORT") or "")
    name = quote(named["NAME"])
    if not host or host.startswith("/"):
        query = f"?host={quote(host)}" if host else ""
        if port:
            query += ("&" if query else "?") + f"port={port}"
        return f"postgres://{auth}@/{name}{query}"
    return f"postgres://{auth}@{host}:{port or 5432}/{name}"


@dataclass(frozen=True)
class Timeline:
    """A clock for the processes a test starts: it shows ``at`` at the monotonic
    instant ``since`` (now, by default) and runs on from there in each of them."""

    at: datetime
    since: float = field(default_factory=time.monotonic)

    def command(self, command: list[str]) -> list[str]:
        """Return ``command`` (``python -m MODULE …``) run on this timeline."""
        if command[:2] != [sys.executable, "-m"]:
            raise ValueError(f"not a `python -m` command: {command[:3]}")
        moment = self.at.isoformat()
        return [
            sys.executable,
            "-m",
            "tests.clocked",
            moment,
            repr(self.since),
            *command[2:],
        ]


def clocked(command: list[str], at: datetime) -> list[str]:
    """Return ``command`` (``python -m MODULE …``) with its clock at ``at`` now.

    See :mod:`tests.clocked`. Processes that must agree with each other share one
    :class:`Timeline` instead.
    """
    return Timeline(at).command(command)
