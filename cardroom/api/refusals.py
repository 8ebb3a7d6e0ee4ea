"""Refused hands kept for the floor (API.md "Refused hands").

:func:`refused_hands_keep` runs after ``POST hands`` and ``POST hands/batch`` have
answered a table's own terminal, outside the refused request's transaction: each
hand refused (400, 401, 409, 422) is kept with its body and the error it was
answered (:func:`cardroom.services.hand_refusal_keep`), so that a hand a tablet
queued offline and the server refused is never lost from sight. The floor lists
them and marks each handled, with a note.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom import selectors, services
from cardroom.auth import Terminal
from cardroom.models import HandRefusal
from cardroom.services.hand_refusals import KEPT_STATUSES
from core.api.fields import StrictSerializer, choice_param
from core.api.parsers import decode, max_body_bytes
from core.api.permissions import IsFloor, role_required, staff
from core.api.schema import ErrorSerializer
from core.errors import ApplicationError
from core.middleware import KEYWORD
from core.roles import Role

RAW_TEXT_MAX = 20_000
"""The most characters of a body that isn't JSON kept as its text."""


def posted_body(request: HttpRequest) -> bytes | None:
    """The body of a table terminal's POST, read before the view reads it (so it
    can be kept if refused); ``None`` for any other request or one too large."""
    meta = request.META
    if request.method != "POST" or not meta.get("HTTP_AUTHORIZATION", "").startswith(
        KEYWORD
    ):
        return None
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if not 0 < length <= max_body_bytes():
        return None
    return request.body


def _decoded(raw: bytes) -> Any:
    """The body as the API reads it, or the text of one that isn't JSON."""
    try:
        return decode(raw)
    except Exception:  # kept as text: the floor reads what was sent
        return raw.decode("utf-8", "replace").replace("\x00", "")[:RAW_TEXT_MAX]


def _answered(response: HttpResponse) -> Any:
    data = getattr(response, "data", None)
    if data is not None:
        return data
    try:
        return orjson.loads(response.content)
    except orjson.JSONDecodeError:
        return None


def refused_hands_keep(
    request: HttpRequest,
    table: str,
    raw: bytes | None,
    response: HttpResponse,
    *,
    batch: bool = False,
) -> None:
    """Keep the hands of ``response`` refused to ``table``'s own terminal: the
    hand posted (``POST hands``), or each hand refused in a batch's results
    (``batch``), or a batch refused whole as one body."""
    terminal = getattr(request, "user", None)
    if raw is None or not isinstance(terminal, Terminal):
        return
    if terminal.key.table.code != table:
        return
    answer = _answered(response)
    if not isinstance(answer, dict):
        return
    said = terminal.refused
    kept: list[tuple[Any, int, dict[str, Any], ApplicationError | None]] = []
    if batch and response.status_code == 200:
        refused = {
            place: result
            for place, result in enumerate(answer.get("results") or [])
            if isinstance(result, dict) and result.get("status") in KEPT_STATUSES
        }
        if not refused:
            return
        body = _decoded(raw)
        hands = body.get("hands") if isinstance(body, dict) else None
        for place, record in enumerate(hands if isinstance(hands, list) else []):
            if place in refused:
                result = refused[place]
                error = result.get("body") or {}
                kept.append((record, result["status"], error, said.get(place)))
    elif response.status_code in KEPT_STATUSES:
        kept.append((_decoded(raw), response.status_code, answer, said.get(0)))
    for record, status, error, refusal in kept:
        services.hand_refusal_keep(
            table=terminal.key.table,
            key=terminal.key,
            body=record,
            status=status,
            error=error,
            refusal=refusal,
        )


class HandRefusalSerializer(serializers.ModelSerializer):
    """A hand a terminal posted and the server refused."""

    table = serializers.CharField(source="table.code")
    detail = serializers.SerializerMethodField()
    handled = serializers.SerializerMethodField()
    handled_by = serializers.CharField(
        source="handled_by.username", allow_null=True, default=None
    )

    class Meta:
        model = HandRefusal
        ref_name = "HandRefusal"
        fields = [
            "id",
            "table",
            "hand_no",
            "status",
            "code",
            "rule",
            "detail",
            "error",
            "body",
            "count",
            "at",
            "last_at",
            "handled",
            "handled_at",
            "handled_by",
            "note",
        ]

    def get_detail(self, refusal: HandRefusal) -> str:
        """Why it was refused, in the caller's language."""
        return refusal.reason()

    def get_handled(self, refusal: HandRefusal) -> bool:
        return refusal.handled_at is not None


STATES = ("open", "handled")


class HandRefusalListApi(APIView):
    """The refused hands, newest first; ``?status=open`` those waiting for the
    floor."""

    permission_classes = [role_required(Role.FLOOR, Role.MANAGER, Role.AUDITOR)]

    @extend_schema(
        parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=list(STATES))],
        responses={200: HandRefusalSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        state = choice_param(request.query_params, "status", STATES)
        found = selectors.hand_refusals(
            handled=None if state is None else state == "handled"
        )
        return Response(HandRefusalSerializer(found[:500], many=True).data)


class HandRefusalHandleApi(APIView):
    """A floor person marks a refused hand handled, saying what was done."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "HandRefusalHandle"

        note = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: HandRefusalSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        refusal = services.hand_refusal_handle(
            refusal_id=pk, note=data.validated_data["note"], by=staff(request)
        )
        return Response(HandRefusalSerializer(refusal).data)
