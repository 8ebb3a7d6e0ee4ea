"""One error shape for every refusal (API.md, "Conventions").

``{"error": {"code": ..., "rule": ..., "detail": ..., "allowed": ...}}`` with 400 for
malformed input, 401/403 for authentication and roles, 404, 409 for a conflict with
recorded state, 422 for a refusal by a house rule, 429 for a caller held off. The
kinds of :mod:`core.errors` say what a refusal is; :func:`status_of`, here only,
says which status each is answered with.

Under /api/ only: a person at a staff screen (any other path) gets a page in his
language, with the staff screens' bar and links to the homes his roles open, for
403, 404, 500 and a locked-out sign-in (``staff/errors/*.html``). The 500 page is
rendered without the request, as Django's own: the database may be what failed.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from core.api.parsers import body_too_large, max_body_bytes
from core.errors import (
    SHARED_TEXTS,
    ApplicationError,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refusal,
    SharedCode,
    Throttled,
    Unauthenticated,
    Unprocessable,
)
from core.roles import Role, has_role

STATUSES: tuple[tuple[type[ApplicationError], int], ...] = (
    (Unprocessable, status.HTTP_422_UNPROCESSABLE_ENTITY),
    (Invalid, status.HTTP_400_BAD_REQUEST),
    (Refusal, status.HTTP_422_UNPROCESSABLE_ENTITY),
    (NotFound, status.HTTP_404_NOT_FOUND),
    (Conflict, status.HTTP_409_CONFLICT),
    (Unauthenticated, status.HTTP_401_UNAUTHORIZED),
    (Forbidden, status.HTTP_403_FORBIDDEN),
    (Throttled, status.HTTP_429_TOO_MANY_REQUESTS),
)
"""Each kind of :mod:`core.errors` and the status it is answered with, first
match first (an error that is both :class:`Unprocessable` and a
:class:`Refusal`, as the ledger's, is 422 with or without a rule)."""


def status_of(error: ApplicationError) -> int:
    """The HTTP status ``error`` is answered with: the one mapping of kinds to
    statuses, for the API's exception handler and any edge that answers a page.

    >>> status_of(Refusal("refused", "By a rule.", rule="CA1"))
    422
    >>> status_of(Refusal("refused", "By no rule."))
    400
    """
    for kind, answered in STATUSES:
        if isinstance(error, kind):
            if kind is Refusal and not error.rule:
                return status.HTTP_400_BAD_REQUEST
            return answered
    return status.HTTP_400_BAD_REQUEST


def error_body(
    code: str,
    detail: str,
    *,
    rule: str | None = None,
    allowed: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Return the documented error object."""
    body: dict[str, Any] = {
        "code": code,
        "rule": rule,
        "detail": detail,
        "allowed": allowed,
    }
    body.update(extra)
    return {"error": body}


_CODES = {
    exceptions.NotAuthenticated: SharedCode.NOT_AUTHENTICATED,
    exceptions.AuthenticationFailed: SharedCode.AUTHENTICATION_FAILED,
    exceptions.PermissionDenied: SharedCode.PERMISSION_DENIED,
    exceptions.NotFound: SharedCode.NOT_FOUND,
    exceptions.MethodNotAllowed: SharedCode.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: SharedCode.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: SharedCode.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: SharedCode.THROTTLED,
    exceptions.ParseError: SharedCode.MALFORMED_REQUEST,
}


def said(code: SharedCode) -> str:
    """The text of a shared code in the active language."""
    return _(SHARED_TEXTS[code])


def _flatten(detail: Any) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_flatten(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return " ".join(_flatten(v) for v in detail)
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn every API exception into the documented error shape.

    Application errors (:mod:`core.errors`) raised by services and domain code are
    mapped here, and only here, to their statuses.
    """
    if isinstance(exc, ApplicationError):
        set_rollback()
        return Response(
            error_body(exc.code, str(exc.detail), rule=exc.rule, allowed=exc.allowed),
            status=status_of(exc),
        )
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # API.md: the API is JSON; anything else is malformed input (400).
        set_rollback()
        return Response(
            error_body(
                SharedCode.UNSUPPORTED_MEDIA_TYPE,
                said(SharedCode.UNSUPPORTED_MEDIA_TYPE),
                allowed={"media_types": ["application/json"]},
            ),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, RequestDataTooBig):
        return exception_handler(body_too_large(max_body_bytes()), context)
    if isinstance(exc, SuspiciousOperation):
        set_rollback()
        return Response(
            error_body(
                SharedCode.MALFORMED_REQUEST, said(SharedCode.MALFORMED_REQUEST)
            ),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        body = error_body(
            SharedCode.INVALID,
            _flatten(exc.detail),
            fields=exc.detail if isinstance(exc.detail, dict) else None,
        )
    else:
        code = next(
            (c for cls, c in _CODES.items() if isinstance(exc, cls)), SharedCode.ERROR
        )
        body = error_body(code, _flatten(getattr(exc, "detail", str(exc))))
    response.data = body
    return response


def is_api(request: HttpRequest) -> bool:
    """Say whether ``request`` is the API's (answered in the error shape)."""
    return request.path.startswith("/api/")


# The staff screens' homes an error page links to, by the roles that open them.
_HOMES: list[tuple[tuple[Role, ...], str, Any]] = [
    ((Role.CASHIER,), "staff:cage-home", gettext_lazy("Cage")),
    ((Role.FLOOR, Role.MANAGER), "staff:floor-home", gettext_lazy("Floor")),
    ((Role.MANAGER,), "staff:approvals", gettext_lazy("Approvals")),
    ((Role.AUDITOR,), "staff:auditor-home", gettext_lazy("Reports")),
]


def error_nav(request: HttpRequest | None) -> list[tuple[str, str]]:
    """(URL, label) of the homes an error page offers: those of the signed-in
    user's roles, or the sign-in page; without the request only the home."""
    links: list[tuple[str, Any]] = []
    user = getattr(request, "user", None)
    try:
        if user is not None and user.is_authenticated:
            links = [
                (reverse(name), label)
                for roles, name, label in _HOMES
                if has_role(user, *roles)
            ]
        elif request is not None:
            links = [(reverse("staff:login"), _("Sign in"))]
        if not links:
            links = [(reverse("staff:root"), _("Home"))]
    except NoReverseMatch:  # a URLconf without the staff screens
        links = []
    return [(url, str(label)) for url, label in links]


def error_page(
    request: HttpRequest | None, status_code: int, **context: Any
) -> HttpResponse:
    """Render ``staff/errors/<status_code>.html`` for a person at a staff screen.

    Without ``request`` (a 500, a lost database) the page is rendered from its
    template alone: no session, no user, no query.
    """
    template = loader.get_template(f"staff/errors/{status_code}.html")
    context = {"status": status_code, "error_nav": error_nav(request), **context}
    return HttpResponse(template.render(context, request), status=status_code)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """Answer a locked-out login (django-axes) with 429: in the error shape under
    /api/, a page saying when to try again on a staff screen or the admin's."""
    if not is_api(request):
        cooloff = getattr(settings, "AXES_COOLOFF_TIME", None)
        minutes = int(cooloff.total_seconds() // 60) if cooloff else None
        return error_page(request, status.HTTP_429_TOO_MANY_REQUESTS, minutes=minutes)
    return JsonResponse(
        error_body(SharedCode.LOCKED_OUT, said(SharedCode.LOCKED_OUT)),
        status=status.HTTP_429_TOO_MANY_REQUESTS,
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer unknown API URLs with the error shape (handler404); pages as usual."""
    if not is_api(request):
        return error_page(request, status.HTTP_404_NOT_FOUND)
    return JsonResponse(
        error_body(SharedCode.NOT_FOUND, said(SharedCode.NOT_FOUND)),
        status=status.HTTP_404_NOT_FOUND,
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Answer a request Django refused (handler400) with the error shape under
    /api/: a body over the size limit, too many fields, a bad host."""
    if not request.path.startswith("/api/"):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        limit = max_body_bytes()
        body = error_body(
            SharedCode.REQUEST_TOO_LARGE,
            said(SharedCode.REQUEST_TOO_LARGE) % {"n": limit},
            allowed={"max_bytes": limit},
        )
    else:
        body = error_body(
            SharedCode.MALFORMED_REQUEST, said(SharedCode.MALFORMED_REQUEST)
        )
    return JsonResponse(body, status=status.HTTP_400_BAD_REQUEST)


def permission_denied(
    request: HttpRequest, exception: Exception | None = None
) -> HttpResponse:
    """Answer a refusal by role (handler403): the error shape under /api/, a page
    with the homes the user's roles open elsewhere."""
    if not is_api(request):
        return error_page(request, status.HTTP_403_FORBIDDEN)
    return JsonResponse(
        error_body(SharedCode.PERMISSION_DENIED, said(SharedCode.PERMISSION_DENIED)),
        status=status.HTTP_403_FORBIDDEN,
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """Answer an unexpected failure (handler500): the error shape under /api/, a
    page rendered without the request (no query) elsewhere."""
    if not is_api(request):
        return error_page(None, status.HTTP_500_INTERNAL_SERVER_ERROR)
    return JsonResponse(
        error_body(SharedCode.SERVER_ERROR, said(SharedCode.SERVER_ERROR)),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
