"""Players (BI10): registered before their first buy-in or cage transaction.

``POST /api/v1/players`` (manager or cashier), ``GET /api/v1/players/{id}`` (staff:
with his age and the restrictions in force, PP2–PP4), ``PATCH
/api/v1/players/{id}`` (manager) corrects his name, nickname or date of birth, each
change recorded with who, when and why (PP7), ``POST /api/v1/players/{id}/identity``
(manager or cashier) records a checked identity document (CA5). His documents and
restrictions are :mod:`accounting.api.protection`'s.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.protection import RestrictionInForceSerializer
from accounting.api.serializers import code_field
from accounting.api.views import IDEMPOTENCY_KEY
from accounting.models import Player, Restriction
from accounting.selectors import protection as selectors
from accounting.services import cage as services
from accounting.services.cage import protection
from core.api.fields import StrictSerializer
from core.api.permissions import IsManager, role_required, staff
from core.api.schema import AutoSchema, ErrorSerializer
from core.idempotency import idempotent
from core.roles import Role

Registrar = role_required(Role.MANAGER, Role.CASHIER)
StaffReader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)


class PlayerSerializer(serializers.Serializer):
    """A player as staff see him: his age on today's gaming day (PP2) and the
    restrictions in force (PP3, PP4); never a document's number (PP7)."""

    class Meta:
        ref_name = "Player"

    id = serializers.CharField(source="code")
    name = serializers.CharField()
    nickname = serializers.CharField()
    id_verified = serializers.BooleanField()
    id_document_type = serializers.CharField()
    birth_date = serializers.DateField(allow_null=True)
    age = serializers.SerializerMethodField(
        help_text="On today's gaming day (PP2); null without a date of birth."
    )
    restricted = serializers.SerializerMethodField(
        help_text="A bar or a self-exclusion holds now (PP3, PP4)."
    )
    restrictions = serializers.SerializerMethodField()
    registered_at = serializers.DateTimeField()

    def get_age(self, player: Player) -> int | None:
        return selectors.player_age(player)

    def get_restricted(self, player: Player) -> bool:
        return bool(self._in_force(player))

    @extend_schema_field(RestrictionInForceSerializer(many=True))
    def get_restrictions(self, player: Player) -> list[Any]:
        return list(
            RestrictionInForceSerializer(self._in_force(player), many=True).data
        )

    def _in_force(self, player: Player) -> list[Restriction]:
        found: dict[int, list[Restriction]] = self.__dict__.setdefault("_found", {})
        if player.pk not in found:
            found[player.pk] = selectors.restrictions_in_force(player=player)
        return found[player.pk]


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


class CorrectionSchema(AutoSchema):
    """A correction's body is required, as its reason is (PP7): drf-spectacular
    reads a PATCH as partial, every field optional, and its body with them."""

    def _get_request_body(self, direction: str = "request") -> Any:
        body = super()._get_request_body(direction)
        if body and self.method == "PATCH":
            body["required"] = True
        return body


class PlayerDetailApi(APIView):
    """A registered player (staff), or his correction (a manager, PP7)."""

    schema = CorrectionSchema()

    def get_permissions(self) -> list[Any]:
        if self.request.method == "PATCH":
            return [IsManager()]
        return [StaffReader()]

    class CorrectionSerializer(StrictSerializer):
        class Meta:
            ref_name = "PlayerCorrectionInput"
            any_required = [["name"], ["nickname"], ["birth_date"]]  # as validate()
            # A PATCH's schema makes every field optional; the reason is not (PP7).
            rules = [{"required": ["reason"]}]

        name = serializers.CharField(max_length=200, required=False)
        nickname = serializers.CharField(
            max_length=40, required=False, allow_blank=True
        )
        birth_date = serializers.DateField(required=False)
        reason = serializers.CharField(
            max_length=500, help_text="PP7: why, kept with each change."
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not {"name", "nickname", "birth_date"} & set(attrs):
                raise serializers.ValidationError(
                    _("A correction gives a name, a nickname or a date of birth.")
                )
            return attrs

    @extend_schema(responses={200: PlayerSerializer})
    def get(self, request: Request, code: str) -> Response:
        return Response(PlayerSerializer(get_object_or_404(Player, code=code)).data)

    @extend_schema(
        request=CorrectionSerializer,
        responses={
            200: PlayerSerializer,
            404: OpenApiResponse(ErrorSerializer, "No such player."),
            422: OpenApiResponse(
                ErrorSerializer,
                "PP1 `birth_date_future`: a date of birth that isn't in the past;"
                " PP7 `nothing_changed`: every value is the one on file.",
            ),
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def patch(self, request: Request, code: str) -> Response:
        """Correct the player's name, nickname or date of birth; each change is
        recorded with who, when, why and the value it replaces (PP7)."""
        data = self.CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = protection.player_correct(
            player=get_object_or_404(Player, code=code),
            by=staff(request),
            reason=values["reason"],
            name=values.get("name"),
            nickname=values.get("nickname"),
            birth_date=values.get("birth_date"),
        )
        return Response(PlayerSerializer(player).data)


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
