"""Refuse NUL characters in requests: malformed input, answered 400 (API.md).

PostgreSQL's text and jsonb can't hold U+0000: a query with one fails in the
database, and without these checks a ``?player=%00`` would be answered 500. DRF's
``CharField`` already refuses NUL; this covers what the views read otherwise: the
URL, its query string and the headers (an ``Idempotency-Key`` is stored). Bodies,
free-form JSON included, are checked by the parser (``core.api.parsers``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import status

from core.api.errors import error_body
from core.errors import SharedCode

NUL = "\x00"


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
            detail = _("URLs and headers can't hold NUL characters (U+0000).")
            if request.path.startswith("/api/"):
                return JsonResponse(
                    error_body(SharedCode.MALFORMED_REQUEST, detail),
                    status=status.HTTP_400_BAD_REQUEST,
                )
            return HttpResponseBadRequest(detail)
        return self.get_response(request)
