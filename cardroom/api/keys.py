"""Managers manage the table terminals' keys (API.md "Authentication").

A key is shown once, in the answer that creates it; the server keeps only its
hash. Listing shows each key's prefix (its public id), table, name and state;
revoking is final, and a revoked key is refused at once (401).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom import services
from cardroom.models import TerminalKey
from core.api.fields import StrictSerializer, choice_param
from core.api.permissions import IsManager
from core.api.schema import ErrorSerializer


class TerminalKeySerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.code")
    has_expired = serializers.BooleanField()

    class Meta:
        model = TerminalKey
        ref_name = "TerminalKey"
        fields = ["prefix", "name", "table", "created", "revoked", "has_expired"]


class NewTerminalKeySerializer(TerminalKeySerializer):
    key = serializers.CharField(
        help_text="The key, shown this once: the server keeps only its hash."
    )

    class Meta(TerminalKeySerializer.Meta):
        ref_name = "NewTerminalKey"
        fields = [*TerminalKeySerializer.Meta.fields, "key"]


STATES = ("usable", "revoked")


class TerminalKeyListApi(APIView):
    """List the terminals' keys (never the keys themselves); create one."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TerminalKeyInput"

        table = serializers.SlugField(max_length=16)
        name = serializers.CharField(max_length=50, required=False, allow_blank=True)

    @extend_schema(
        parameters=[
            OpenApiParameter("table", OpenApiTypes.STR, description="A table's code."),
            OpenApiParameter("state", OpenApiTypes.STR, enum=list(STATES)),
        ],
        responses={200: TerminalKeySerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        keys = TerminalKey.objects.select_related("table").order_by("-created")
        if table := request.query_params.get("table"):
            keys = keys.filter(table__code=table)
        state = choice_param(request.query_params, "state", STATES)
        if state is not None:
            keys = keys.filter(revoked=state == "revoked")
        return Response(TerminalKeySerializer(keys[:1000], many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: NewTerminalKeySerializer, 404: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        # Not idempotent by key: the stored answer would keep the key in clear.
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        obj, key = services.terminal_key_create(
            table_code=data.validated_data["table"],
            name=data.validated_data.get("name") or "",
        )
        body: dict[str, Any] = {**TerminalKeySerializer(obj).data, "key": key}
        return Response(body, status=status.HTTP_201_CREATED)


class TerminalKeyRevokeApi(APIView):
    """Revoke a terminal's key: from the next request on it is refused (401)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={200: TerminalKeySerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request, prefix: str) -> Response:
        obj = services.terminal_key_revoke(prefix=prefix)
        return Response(TerminalKeySerializer(obj).data)
