"""The night's HTTP side: a loopback server for the back office, terminals that post.

:func:`serving` starts the project's WSGI application in a threaded server on a
free loopback port (or uses the server at ``--url``); :class:`Terminal` is a table
terminal as API.md describes it: its key, JSON bodies, an ``Idempotency-Key`` on
every POST that moves money, and the same key again when it retries.
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.servers.basehttp import (
    ThreadedWSGIServer,
    WSGIRequestHandler,
    get_internal_wsgi_application,
)

QUIET_LOGGERS = ("django.request", "django.server", "django_structlog", "kombu")
RETRIES = 2
"""How often a terminal sends a request again after the connection dropped."""


class _QuietHandler(WSGIRequestHandler):
    """Serve without a log line per request (the progress bar says what happens)."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _behind_tls(app: Callable[..., Any]) -> Callable[..., Any]:
    """Tell the application the request came through HTTPS.

    The loopback server stands where the room's TLS-terminating proxy would
    (``SECURE_PROXY_SSL_HEADER``); without it, settings that redirect to HTTPS
    would answer every terminal with a redirect.
    """

    def wrapped(environ: dict[str, Any], start_response: Any) -> Any:
        environ["HTTP_X_FORWARDED_PROTO"] = "https"
        return app(environ, start_response)

    return wrapped


@contextmanager
def serving(url: str | None = None) -> Iterator[str]:
    """Yield the base URL of a running back office.

    With ``url``, that server (it must use this command's database). Without, the
    project's WSGI application in a threaded server on a free loopback port,
    stopped when the block ends.
    """
    if url:
        yield url.rstrip("/")
        return
    app: Any = get_internal_wsgi_application()
    # A line per request, and a warning per refusal the night answers, would bury
    # the progress bar: the summary says what happened.
    quiet = [logging.getLogger(n) for n in QUIET_LOGGERS]
    levels = [q.level for q in quiet]
    for q in quiet:
        q.setLevel(logging.ERROR)
    if getattr(settings, "SECURE_SSL_REDIRECT", False):
        app = _behind_tls(app)
    server = ThreadedWSGIServer(("127.0.0.1", 0), _QuietHandler)
    server.set_app(app)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
        for q, level in zip(quiet, levels, strict=True):
            q.setLevel(level)


@dataclass(frozen=True, slots=True)
class Answer:
    """A response: its status, its decoded JSON body, and whether it was a replay."""

    status: int
    body: Any
    replayed: bool = False

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def error(self) -> dict[str, Any]:
        """The API's error object (API.md "Conventions"), empty for a success."""
        if self.ok or not isinstance(self.body, dict):
            return {}
        error = self.body.get("error")
        return error if isinstance(error, dict) else {}


class Terminal:
    """A table's terminal: posts JSON with its API key over one keep-alive connection.

    Raises :class:`RuntimeError` when the server redirects (an HTTPS-only server
    reached over plain HTTP) or never answers.
    """

    def __init__(self, base_url: str, *, table: str, key: str) -> None:
        parts = urlsplit(base_url)
        self.table = table
        self.https = parts.scheme == "https"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.https else 80)
        self.prefix = parts.path.rstrip("/")
        self.headers = {
            "Authorization": f"Api-Key {key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self.connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.connection is None:
            if self.https:
                self.connection = http.client.HTTPSConnection(self.host, self.port)
            else:
                self.connection = http.client.HTTPConnection(self.host, self.port)
            self.connection.timeout = 60
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def post(
        self, path: str, body: dict[str, Any], *, key: str | None = None
    ) -> Answer:
        """POST ``body`` to ``/api/v1/tables/{table}/{path}`` with an idempotency key.

        A dropped connection is retried with the same key, so the server books the
        request once however often it arrives (API.md "Conventions").
        """
        return self.post_to(f"tables/{self.table}/{path}", body, key=key)

    def post_to(
        self, path: str, body: dict[str, Any], *, key: str | None = None
    ) -> Answer:
        """POST ``body`` to ``/api/v1/{path}`` as :meth:`post` does (a tournament
        table's busts, for one)."""
        url = f"{self.prefix}/api/v1/{path}"
        headers = {**self.headers, "Idempotency-Key": key or uuid.uuid4().hex}
        payload = json.dumps(body)
        for attempt in range(RETRIES + 1):
            connection = self._connect()
            try:
                connection.request("POST", url, payload, headers)
                response = connection.getresponse()
                raw = response.read()
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt == RETRIES:
                    raise
                continue
            if 300 <= response.status < 400:
                raise RuntimeError(
                    f"{url} answered {response.status} to "
                    f"{response.getheader('Location')}: give --url the server's "
                    "https:// address, or run it with SECURE=false."
                )
            text = raw.decode() if raw else ""
            decoded = json.loads(text) if text.startswith(("{", "[")) else text
            replayed = response.getheader("Idempotent-Replayed") == "true"
            return Answer(response.status, decoded, replayed)
        raise RuntimeError(f"{url} never answered.")  # pragma: no cover
