"""Real processes for the reliability tests (DESIGN.md, "Reliability and security
targets").

gunicorn serving ``config.wsgi`` runs as a subprocess against the test database, in
a process group of its own, so that a test can kill it outright: SIGKILL to the master
and its workers at once, as a crash or the OOM killer does. A second connection to the
database, the ``locker``, holds a lock so that a request stops inside its database
transaction at a known point; :func:`blocked_by` finds the backend that waits for it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.utils import timezone

from tests.api.floor.conftest import manager, open_table, players, stock_tray
from tests.processes import Timeline, database_url, start_logged

__all__ = ["manager", "open_table", "players", "stock_tray"]

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 90  # gunicorn's start-up on a loaded two-core machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Group:
    """A subprocess leading a process group of its own, its output in ``log``."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.popen = start_logged(command, env, log)
        self.log = log

    @property
    def running(self) -> bool:
        return self.popen.poll() is None

    def tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def kill(self) -> None:
        """SIGKILL the whole group and wait until none of it is left."""
        self._signal(signal.SIGKILL)
        self.popen.wait(timeout=30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.killpg(self.popen.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        raise AssertionError(f"process group {self.popen.pid} outlived SIGKILL")

    def stop(self) -> None:
        """Ask the group to stop (SIGTERM); kill it if it takes too long."""
        if not self.running:
            with contextlib.suppress(AssertionError):
                self.kill()  # workers orphaned by a dead master
            return
        self._signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=30)
        self.kill()

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, sig)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class Client:
    """An HTTP client with one keep-alive connection, like a table terminal's."""

    def __init__(self, port: int, authorization: str = "") -> None:
        self.port = port
        self.authorization = authorization
        self.connection: http.client.HTTPConnection | None = None

    def post(
        self, path: str, body: Any, *, key: str | None = None, timeout: float = 60
    ) -> Answer:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.authorization:
            headers["Authorization"] = self.authorization
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.request("POST", path, json.dumps(body), headers, timeout)

    def get(self, path: str, *, timeout: float = 30) -> Answer:
        headers = {"Accept": "application/json"}
        if self.authorization:
            headers["Authorization"] = self.authorization
        return self.request("GET", path, None, headers, timeout)

    def request(
        self,
        method: str,
        path: str,
        body: str | None,
        headers: dict[str, str],
        timeout: float,
    ) -> Answer:
        if self.connection is None:
            self.connection = http.client.HTTPConnection(
                "127.0.0.1", self.port, timeout=timeout
            )
        try:
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
            text = response.read().decode()
        except BaseException:
            self.close()
            raise
        if response.will_close:
            self.close()
        return Answer(
            response.status, {k.lower(): v for k, v in response.getheaders()}, text
        )

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Web:
    """gunicorn serving ``config.wsgi`` against the test database.

    The settings are the tests' (``tests.settings``: production settings without the
    HTTPS redirect) with ``DEBUG`` off, so errors are answered as in production. The
    qualification the floor queues after each hand goes to an in-memory broker:
    jackpots are not under test here, and no worker of anyone else's should take it.
    """

    def __init__(self, log: Path, *, workers: int = 2, threads: int = 4) -> None:
        self.log = log
        self.workers, self.threads = workers, threads
        self.port = free_port()
        self.group: Group | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": database_url(),
            "CONN_MAX_AGE": "600",
            "DEBUG": "false",
            "CELERY_BROKER_URL": "memory://",
            "LOG_LEVEL": "WARNING",
        }
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--worker-class",
            "gthread",
            "--threads",
            str(self.threads),
            "--keep-alive",
            "30",
            "--timeout",
            "120",
            "--log-level",
            "warning",
            "--error-logfile",
            "-",
        ]
        # gunicorn's clock is the test's: now, as the test reads it.
        command = Timeline(timezone.now()).command(command)
        self.group = Group(command, env, self.log)
        deadline = time.monotonic() + START_SECONDS
        probe = Client(self.port)
        while time.monotonic() < deadline:
            if not self.group.running:
                pytest.fail(f"gunicorn stopped:\n{self.group.tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if probe.get("/healthz", timeout=5).status == 200:
                    probe.close()
                    return
            time.sleep(0.2)
        pytest.fail(f"gunicorn did not answer /healthz:\n{self.group.tail()}")

    def kill(self) -> None:
        assert self.group is not None
        self.group.kill()
        self.group = None

    def stop(self) -> None:
        if self.group is not None:
            self.group.stop()
            self.group = None

    def client(self, authorization: str = "") -> Client:
        return Client(self.port, authorization)


@pytest.fixture
def web(tmp_path) -> Iterator[Web]:
    """A gunicorn (not yet started); stopped, or killed, when the test ends."""
    server = Web(tmp_path / "gunicorn.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def locker(transactional_db) -> Iterator[psycopg.Connection]:
    """A connection of its own to the test database, for holding locks."""
    with psycopg.connect(database_url()) as conn:
        yield conn
        conn.rollback()


def blocked_by(
    locker: psycopg.Connection,
    *,
    seconds: float = 60,
    watch: Future[Any] | None = None,
    group: Group | None = None,
) -> int:
    """Return the pid of the backend that waits for a lock ``locker`` holds.

    ``watch`` (a request's future) must not finish meanwhile: a request that answers
    has not stopped where the test meant it to; nor may ``group`` stop.
    """
    deadline = time.monotonic() + seconds
    with psycopg.connect(database_url(), autocommit=True) as probe:
        while time.monotonic() < deadline:
            row = probe.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND %s = ANY(pg_blocking_pids(pid))",
                [locker.info.backend_pid],
            ).fetchone()
            if row:
                return int(row[0])
            if watch is not None and watch.done():
                raise AssertionError(f"answered without waiting: {watch.result()}")
            if group is not None and not group.running:
                raise AssertionError(f"stopped before waiting:\n{group.tail()}")
            time.sleep(0.05)
    raise AssertionError("nothing waited for the lock")


def tables_written(pid: int) -> set[str]:
    """The tables backend ``pid`` has written in its open transaction."""
    with psycopg.connect(database_url(), autocommit=True) as probe:
        rows = probe.execute(
            "SELECT relation::regclass::text FROM pg_locks WHERE pid = %s"
            " AND locktype = 'relation' AND mode = 'RowExclusiveLock' AND granted",
            [pid],
        ).fetchall()
    return {r[0] for r in rows}


def backend_gone(pid: int, *, seconds: float = 60) -> None:
    """Wait until backend ``pid`` has ended (its transaction rolled back)."""
    deadline = time.monotonic() + seconds
    with psycopg.connect(database_url(), autocommit=True) as probe:
        while time.monotonic() < deadline:
            if not probe.execute(
                "SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]
            ).fetchone():
                return
            time.sleep(0.05)
    raise AssertionError(f"backend {pid} is still there")
