"""What tests that start other processes (gunicorn, Celery workers) share."""

from __future__ import annotations

from urllib.parse import quote

from django.db import connection


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
