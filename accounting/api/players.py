"""Players (BI10): registered before their first buy-in or cage transaction.

``POST /api/v1/players`` (manager or cashier), ``GET /api/v1/players/{id}`` (staff),
``POST /api/v1/players/{id}/identity`` (manager or cashier) records a checked
identity document (CA5).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting import cage as services
from accounting.api.serializers import code_field
from accounting.api.views import IDEMPOTENCY_KEY
from accounting.models import Player
from core.api.fields import StrictSerializer
from core.api.permissions import role_required, staff
from core.idempotency import idempotent
from core.roles import Role

Registrar = role_required(Role.MANAGER, Role.CASHIER)
StaffReader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)


class PlayerSerializer(serializers.Serializer):
    """A player as staff see him; the document number is not shown."""

    class Meta:
        ref_name = "Player"

    id = serializers.CharField(source="code")
    name = serializers.CharField()
    nickname = serializers.CharField()
    id_verified = serializers.BooleanField()
    id_document_type = serializers.CharField()
    birth_date = serializers.DateField(allow_null=True)
    registered_at = serializers.DateTimeField()


class PlayerRegisterApi(APIView):
    """Register a player (BI10); an id already registered is 409."""

    permission_classes = [Registrar]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PlayerRegisterInput"

        id = code_field(max_length=32, help_text="The player's id, e.g. P-1001.")
        name = serializers.CharField(max_length=200)
        nickname = serializers.CharField(
            max_length=40, required=False, allow_blank=True
        )
        id_verified = serializers.BooleanField(default=False)
        id_document_type = serializers.ChoiceField(
            choices=Player.Document.choices, required=False, allow_blank=True
        )
        id_document_number = serializers.CharField(
            max_length=64, required=False, allow_blank=True
        )
        birth_date = serializers.DateField(
            required=False,
            help_text="PP1, PP2: without one, every door refuses the player.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: PlayerSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = services.player_register(
            code=values["id"],
            name=values["name"],
            nickname=values.get("nickname", ""),
            id_verified=values["id_verified"],
            id_document_type=values.get("id_document_type", ""),
            id_document_number=values.get("id_document_number", ""),
            registered_by=staff(request),
            birth_date=values.get("birth_date"),
        )
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    """A registered player."""

    permission_classes = [StaffReader]

    @extend_schema(responses={200: PlayerSerializer})
    def get(self, request: Request, code: str) -> Response:
        return Response(PlayerSerializer(get_object_or_404(Player, code=code)).data)


class PlayerIdentityApi(APIView):
    """Record that the caller checked the player's identity document (CA5)."""

    permission_classes = [Registrar]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PlayerIdentityInput"

        id_document_type = serializers.ChoiceField(choices=Player.Document.choices)
        id_document_number = serializers.CharField(max_length=64)

    @extend_schema(
        request=InputSerializer,
        responses={200: PlayerSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, code: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_identity_verify(
            player=get_object_or_404(Player, code=code),
            document_type=data.validated_data["id_document_type"],
            document_number=data.validated_data["id_document_number"],
            verified_by=staff(request),
        )
        return Response(PlayerSerializer(player).data)
