"""Refuse NUL characters in requests: malformed input, answered 400 (API.md).

PostgreSQL's text and jsonb can't hold U+0000: a query with one fails in the
database, and without these checks a ``?player=%00`` or a ``"\\u0000"`` inside a
hand record would be answered 500. DRF's ``CharField`` already refuses NUL; this
covers what the views read otherwise: the URL, its query string, the headers (an
``Idempotency-Key`` is stored) and free-form JSON (dict and list fields).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import parsers, status
from rest_framework.exceptions import ParseError

NUL = "\x00"


def has_nul(value: Any) -> bool:
    """Say whether a string in ``value`` (parsed JSON) holds a NUL character."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser; a body with a NUL character is malformed (400)."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        data = super().parse(stream, media_type, parser_context)
        if has_nul(data):
            raise ParseError(_("Text can't hold NUL characters (U+0000)."))
        return data


def _url_or_headers_have_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    if any(NUL in k or NUL in v for k, vs in request.GET.lists() for v in vs):
        return True
    return any(NUL in str(v) for k, v in request.META.items() if k.startswith("HTTP_"))


class RefuseNulMiddleware:
    """Answer 400 to a request with a NUL character in its URL or its headers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _url_or_headers_have_nul(request):
            # Not at the top: DRF imports this module (the parser) while
            # core.api.errors is still importing DRF's views.
            from core.api.errors import error_body

            detail = _("URLs and headers can't hold NUL characters (U+0000).")
            if request.path.startswith("/api/"):
                return JsonResponse(
                    error_body("malformed_request", detail),
                    status=status.HTTP_400_BAD_REQUEST,
                )
            return HttpResponseBadRequest(detail)
        return self.get_response(request)
