"""A slim middleware stack for the table terminals' requests.

A terminal posts a hand at the end of every hand dealt, authenticated by its
``Authorization: Api-Key`` header alone (API.md "Authentication"): no session, no
cookie, no staff user, no messages. The middleware here pass such a request
straight through (Django's CSRF middleware stays: DRF's views are exempt, so it
returns at once, and ``check --deploy`` asks for it by name; so does axes'
lockout middleware, which only reads a flag on the way out); every other request goes
through them in full.

What a terminal's request still gets: the security headers (SecurityMiddleware,
X-Frame-Options), the NUL checks, Content-Language (LocaleMiddleware), and its
request id on every log line with one ``request_finished`` line at the level of
its status (:class:`RequestLogMiddleware`).
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any, cast

import structlog
from django.contrib.auth.middleware import (
    AuthenticationMiddleware as _AuthenticationMiddleware,
)
from django.contrib.messages.middleware import MessageMiddleware as _MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware as _SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django_structlog.app_settings import app_settings
from django_structlog.middlewares.request import RequestMiddleware as _RequestLog
from whitenoise.middleware import WhiteNoiseMiddleware as _WhiteNoiseMiddleware

TERMINAL_PATH = re.compile(r"^/api/v1/tables/[^/]+/")
KEYWORD = "Api-Key "
_FLAG = "terminal_request"
logger = structlog.get_logger("django_structlog.middlewares.request")
_std = logging.getLogger("django_structlog.middlewares.request")


def is_terminal(request: HttpRequest) -> bool:
    """Whether ``request`` is a terminal's, to a table's endpoint, by its key."""
    return bool(
        request.META.get("HTTP_AUTHORIZATION", "").startswith(KEYWORD)
        and TERMINAL_PATH.match(request.path_info)
    )


class RequestLogMiddleware(_RequestLog):
    """django-structlog's request middleware; a terminal's request gets only its
    request id bound for the request's log lines and its ``request_finished``
    line (no ``request_started``, no signals, no user or IP look-up)."""

    def __call__(self, request: HttpRequest) -> Any:
        if not is_terminal(request):
            return super().__call__(request)
        setattr(request, _FLAG, True)
        request_id = (
            app_settings.TRUST_UPSTREAM_REQUEST_ID
            and request.META.get("HTTP_X_REQUEST_ID")
        ) or str(uuid.uuid4())
        structlog.contextvars.bind_contextvars(request_id=request_id)
        try:
            response = cast(HttpResponse, self.get_response(request))
            level = self._log_level_for_status_code(response.status_code)
            if _std.isEnabledFor(level):
                logger.log(
                    level,
                    "request_finished",
                    code=response.status_code,
                    request=f"{request.method} {request.get_full_path()}",
                )
        finally:
            structlog.contextvars.clear_contextvars()
        return response


class _PassTerminals:
    """Let a terminal's request (flagged by :class:`RequestLogMiddleware`) pass."""

    get_response: Any

    def __call__(self, request: HttpRequest) -> Any:
        if getattr(request, _FLAG, False):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]


class WhiteNoiseMiddleware(_PassTerminals, _WhiteNoiseMiddleware):
    """Static files; a terminal asks for none."""


class SessionMiddleware(_PassTerminals, _SessionMiddleware):
    """Sessions; a terminal has none."""


class AuthenticationMiddleware(_PassTerminals, _AuthenticationMiddleware):
    """The session's user; a terminal is authenticated by DRF, by its key."""


class MessageMiddleware(_PassTerminals, _MessageMiddleware):
    """Flash messages of the screens."""
