"""A request whose database connection was lost before its commit.

The server ended the backend (a restart, a failover, an administrator), or the
network dropped the connection: the request's transaction was rolled back, unless
its commit was on its way, which the server can't know. So:

- a request that only reads (GET, HEAD, OPTIONS) is run once more on a new
  connection, and answered as if nothing happened;
- a write carrying an ``Idempotency-Key`` was run once more already by its unit of
  work (:func:`core.work.unit_of_work`), where its claim shows a commit that
  happened;
- anything else is answered 503 with ``Retry-After``, in the error shape for the
  API: sent again with the same ``Idempotency-Key``, it is booked once
  (docs/terminals.md, API.md "Idempotency").
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from core.api.errors import error_body, error_page
from core.db.retry import connection_lost

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
RETRY_AFTER = "1"
_RETRIED = "_cardroom_connection_retried"


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: the database connection was lost, nothing kept.

    A staff screen gets a page in the person's language, rendered without the
    request: its session and user would need the database."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        detail = _(
            "The connection to the database was lost before this request was "
            "committed. Send it again in a moment, with the same Idempotency-Key: "
            "it is booked once."
        )
        response = JsonResponse(error_body("database_unavailable", detail), status=503)
    else:
        response = error_page(None, 503)
    response["Retry-After"] = RETRY_AFTER
    response["Cache-Control"] = "no-store"
    return response


class ConnectionLostMiddleware:
    """Run a reading request once more after a lost connection; answer any other
    503 with ``Retry-After`` (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if not connection_lost(exception):
            return None
        connection.close()  # the next query connects again
        match = request.resolver_match
        if request.method not in SAFE or match is None or hasattr(request, _RETRIED):
            return unavailable(request)
        setattr(request, _RETRIED, True)
        try:
            response: HttpResponse = match.func(request, *match.args, **match.kwargs)
        except Exception as again:
            if connection_lost(again):
                connection.close()
                return unavailable(request)
            raise
        return response
