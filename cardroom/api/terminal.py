"""``POST hands`` from a table's terminal, answered without DRF's dispatch.

Every hand of every table comes this way, and DRF's request cycle (its request
wrapper, content negotiation, the authenticators and permissions tried in turn,
the response's renderer) cost as much as a tenth of a hand's booking
(benchmarks/README.md, "One statement a booking"). A terminal's plain request takes the
direct way here: its key checked as :class:`cardroom.auth.TerminalKeyAuthentication`
checks it, its own table only, the body read by the API's one parser
(:func:`core.api.parsers.decode`), the same service, and every refusal answered by
the API's one exception handler, so the answers are DRF's: the same statuses,
error objects and headers (``Allow``, ``Vary``, ``WWW-Authenticate``).

What the direct way doesn't take goes through DRF as before: staff, an
``Idempotency-Key`` (its unit of work), a body that isn't JSON or is empty, an
``Accept`` that could ask for another renderer, a method other than POST.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from cardroom.auth import IsTableTerminal, Terminal, usable_key
from cardroom.services import protection
from core.api.errors import exception_handler
from core.api.parsers import decode, max_body_bytes
from core.idempotency import HEADER
from core.middleware import KEYWORD

JSON = "application/json"
_ACCEPTED = frozenset({"", "*/*", JSON, "application/*"})
_IDEMPOTENCY_META = f"HTTP_{HEADER.upper().replace('-', '_')}"


def direct(request: HttpRequest) -> bool:
    """Whether ``request`` is a terminal's plain POST that the direct way answers
    exactly as DRF would."""
    meta = request.META
    if request.method != "POST" or not meta.get("HTTP_AUTHORIZATION", "").startswith(
        KEYWORD
    ):
        return False
    if _IDEMPOTENCY_META in meta:
        return False
    media, _, params = meta.get("CONTENT_TYPE", "").partition(";")
    if media.strip().lower() != JSON or params.strip().lower() not in (
        "",
        "charset=utf-8",
    ):
        return False
    accepted = {a.split(";")[0].strip() for a in meta.get("HTTP_ACCEPT", "").split(",")}
    if not accepted <= _ACCEPTED:
        return False
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return 0 < length <= max_body_bytes()


def answer(
    request: HttpRequest,
    table: str,
    allowed: list[str],
    handle: Callable[[Any, Terminal], tuple[Any, int]],
) -> HttpResponse:
    """Answer a :func:`direct` request: authenticate its key for ``table``, decode
    its body and ``handle(data, terminal)`` it into (body, status); ``handle``
    passes the key to a service that checks it again under its lock. ``allowed`` are
    the view's methods, for the ``Allow`` header DRF gives every answer."""
    try:
        # Whether the key was revoked since it was verified is asked with the
        # table's lock, in the booking's first statement (cardroom.auth).
        key = usable_key(
            request.META["HTTP_AUTHORIZATION"][len(KEYWORD) :], fresh=False
        )
        terminal = Terminal(key)
        request.user = terminal  # type: ignore[assignment]
        request.terminal_key = key  # type: ignore[attr-defined]
        if key.table.code != table:
            raise exceptions.PermissionDenied(IsTableTerminal.message)
        token = protection.notices_remember()
        try:
            body, status = handle(decode(request.body), terminal)
        finally:
            left = protection.notices_taken(token)
        if left and isinstance(body, dict):
            body = {**body, "notices": left}  # PP5: who left after this hand
        response = HttpResponse(orjson.dumps(body), status=status, content_type=JSON)
    except Exception as error:
        response = _refused(request, error)
    response["Allow"] = ", ".join(allowed)
    patch_vary_headers(response, ("Accept",))
    return response


def _refused(request: HttpRequest, error: Exception) -> HttpResponse:
    """The API's answer to ``error``, rendered as DRF renders it."""
    answered = exception_handler(error, {"request": request, "view": None})
    if answered is None:
        raise error
    assert isinstance(answered, Response)
    answered.accepted_renderer = JSONRenderer()
    answered.accepted_media_type = JSON
    answered.renderer_context = {  # type: ignore[attr-defined]
        "request": request,
        "response": answered,
    }
    if answered.status_code == 401:
        answered["WWW-Authenticate"] = KEYWORD.strip()
    answered.render()
    return answered
