"""Player protection (PP1–PP7): identity documents, bars and self-exclusions, the
room's settings and the door staff's exclusion list, under ``/api/v1/``.

Thin views over :mod:`accounting.services.cage.protection` and its selectors
(:mod:`accounting.selectors.protection`); a door's own check (``door_check``) is
the services', never a view's.

- ``POST players/{id}/documents`` (manager or cashier): a document checked now,
  by the caller (PP1); ``GET`` lists them without their numbers (cashier,
  manager, auditor). ``GET documents/{id}/number`` shows one number to the roles
  that need it, the manager and the cashier (who fills in the tax and identity
  records of CA5 and TO9), and records who looked (PP7); an auditor reads who
  looked, never the number.
- ``GET``/``POST players/{id}/restrictions``: a manager bars a player (PP3) or
  records his self-exclusion (PP4); auditors read them. ``POST
  restrictions/{id}/end`` ends a bar early, by another manager (PP3);
  ``POST restrictions/{id}/lapse`` records the player's request that his ended
  self-exclusion lapse, after the cooling-off time (PP4).
- ``GET restrictions/exclusions`` (JSON) and ``restrictions/exclusions.csv``
  (manager): every restriction in force, for the door staff, without documents.
- ``GET``/``POST protection/settings``: the versioned minimum age, shortest
  self-exclusion and cooling-off time (PP2, PP4); staff read, a manager records.

The player's correction (``PATCH players/{id}``, PP7) is
:class:`accounting.api.players.PlayerDetailApi`'s.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.views import IDEMPOTENCY_KEY
from accounting.domain.protection import document_valid_on
from accounting.models import (
    IdentityDocument,
    Player,
    ProtectionRules,
    Restriction,
    RestrictionEnd,
)
from accounting.selectors import protection as selectors
from accounting.services.cage import gaming_day_of
from accounting.services.cage import protection as services
from core.api.fields import StrictIntegerField, StrictSerializer
from core.api.permissions import IsManager, role_required, staff
from core.api.schema import ErrorSerializer
from core.idempotency import idempotent
from core.roles import Role

DocumentRecorder = role_required(Role.MANAGER, Role.CASHIER)
DocumentReader = role_required(Role.CASHIER, Role.MANAGER, Role.AUDITOR)
# PP7: the number itself, to the roles whose work needs it (the cage's CA5 and
# TO9 records, a manager's checks); an auditor sees who looked, not what.
NumberReader = role_required(Role.MANAGER, Role.CASHIER)
RestrictionReader = role_required(Role.MANAGER, Role.AUDITOR)
SettingsReader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)


_CHOICE_FIELDS: dict[str, type[serializers.ChoiceField]] = {}


def choice(
    choices: Sequence[tuple[str, Any]], name: str, **kwargs: Any
) -> serializers.ChoiceField:
    """A choice field whose enum is the schema component ``name``: ``kind`` names
    other choices elsewhere, and a document's kinds are the players' document
    types, so drf-spectacular's own enum naming would warn. DRF copies a field by
    re-instantiating its class, so the schema goes on a class of its own."""
    if name not in _CHOICE_FIELDS:
        values = [value for value, _label in choices]
        _CHOICE_FIELDS[name] = extend_schema_field(
            {"type": "string", "enum": values}, component_name=name
        )(type(f"{name}Field", (serializers.ChoiceField,), {}))
    return _CHOICE_FIELDS[name](choices=choices, **kwargs)


def _kind(**kwargs: Any) -> serializers.ChoiceField:
    return choice(Restriction.Kind.choices, "RestrictionKind", **kwargs)


def _scope(**kwargs: Any) -> serializers.ChoiceField:
    return choice(Restriction.Scope.choices, "RestrictionScope", **kwargs)


def _document_kind(**kwargs: Any) -> serializers.ChoiceField:
    return choice(Player.Document.choices, "IdentityDocumentKind", **kwargs)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description)


NOT_FOUND = _error("No such player, document or restriction.")


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


def _player(code: str) -> Player:
    return get_object_or_404(Player, code=code)


class RestrictionInForceSerializer(serializers.Serializer):
    """A restriction that holds now, at a glance (PP3, PP4)."""

    class Meta:
        ref_name = "RestrictionInForce"

    id = serializers.IntegerField()
    kind = _kind()
    scope = _scope()
    until = serializers.DateField(
        allow_null=True, help_text="The first gaming day he is let in again."
    )


# -- identity documents (PP1, PP7) -------------------------------------------


class DocumentSerializer(serializers.Serializer):
    """An identity document as staff see it: never its number (PP7)."""

    class Meta:
        ref_name = "IdentityDocument"

    id = serializers.IntegerField()
    player = serializers.CharField(source="player.code")
    kind = _document_kind()
    expires = serializers.DateField(allow_null=True)
    valid = serializers.SerializerMethodField(
        help_text="Not expired on today's gaming day (PP1)."
    )
    checked_at = serializers.DateTimeField()
    checked_by = serializers.SerializerMethodField()

    def get_valid(self, document: IdentityDocument) -> bool:
        return document_valid_on(document.expires, gaming_day_of())

    def get_checked_by(self, document: IdentityDocument) -> str | None:
        return _username(document.checked_by)


class DocumentsApi(APIView):
    """A player's identity documents: record one checked now (PP1), or list them
    without their numbers (PP7)."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [DocumentRecorder()]
        return [DocumentReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "IdentityDocumentInput"

        kind = _document_kind()
        number = serializers.CharField(max_length=64)
        expires = serializers.DateField(
            required=False,
            allow_null=True,
            help_text="The last day it is valid; null or left out: it doesn't expire.",
        )

    @extend_schema(responses={200: DocumentSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, code: str) -> Response:
        documents = selectors.documents_of(player=_player(code))
        return Response(DocumentSerializer(documents, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: DocumentSerializer,
            404: NOT_FOUND,
            422: _error("PP1 `document_expired`: the document has expired."),
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, code: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        document = services.document_record(
            player=_player(code),
            kind=values["kind"],
            number=values["number"],
            expires=values.get("expires"),
            by=staff(request),
        )
        return Response(
            DocumentSerializer(document).data, status=status.HTTP_201_CREATED
        )


class DocumentNumberApi(APIView):
    """Show an identity document's number, recording who looked and why (PP7)."""

    permission_classes = [NumberReader]

    class QuerySerializer(serializers.Serializer):
        purpose = serializers.CharField(
            max_length=200, required=False, allow_blank=True, trim_whitespace=False
        )

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "IdentityDocumentNumber"

        id = serializers.IntegerField()
        player = serializers.CharField()
        kind = _document_kind()
        number = serializers.CharField()
        expires = serializers.DateField(allow_null=True)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "purpose",
                {"type": "string", "maxLength": 200},
                description="Why the number is looked at, kept with the look-up.",
                required=False,
            )
        ],
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, pk: int) -> Response:
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        document = get_object_or_404(
            IdentityDocument.objects.select_related("player"), pk=pk
        )
        number = services.document_number_show(
            document=document,
            by=staff(request),
            purpose=query.validated_data.get("purpose", ""),
        )
        body = {
            "id": document.pk,
            "player": document.player.code,
            "kind": document.kind,
            "number": number,
            "expires": document.expires,
        }
        return Response(self.OutputSerializer(body).data)


# -- restrictions (PP3, PP4, PP7) --------------------------------------------


class RestrictionEndSerializer(serializers.Serializer):
    """How a restriction ends: ``ended`` (a bar ended early by a second manager,
    PP3) or ``lapse`` (the player asked for his ended self-exclusion to lapse;
    ``effective`` is when it does, PP4)."""

    class Meta:
        ref_name = "RestrictionEnd"

    kind = choice(RestrictionEnd.Kind.choices, "RestrictionEndKind")
    at = serializers.DateTimeField()
    effective = serializers.DateTimeField()
    reason = serializers.CharField()
    by = serializers.SerializerMethodField()

    def get_by(self, end: RestrictionEnd) -> str | None:
        return _username(end.by)


class RestrictionSerializer(serializers.Serializer):
    """A bar (PP3) or a self-exclusion (PP4). ``until`` is the first gaming day
    the player is let in again (null: for good); ``active`` says whether it holds
    now."""

    class Meta:
        ref_name = "Restriction"

    id = serializers.IntegerField()
    player = serializers.CharField(source="player.code")
    kind = _kind()
    scope = _scope()
    starts = serializers.DateTimeField()
    until = serializers.DateField(allow_null=True)
    active = serializers.SerializerMethodField()
    reason = serializers.CharField()
    set_by = serializers.SerializerMethodField()
    end = serializers.SerializerMethodField()

    def get_active(self, row: Restriction) -> bool:
        return services.restriction_active(row)

    def get_set_by(self, row: Restriction) -> str | None:
        return _username(row.set_by)

    @extend_schema_field(RestrictionEndSerializer(allow_null=True))
    def get_end(self, row: Restriction) -> dict[str, Any] | None:
        end = services.restriction_end_of(row)
        return None if end is None else RestrictionEndSerializer(end).data


class RestrictionsApi(APIView):
    """A player's restrictions: a manager bars him (PP3) or records his
    self-exclusion (PP4); managers and auditors list them."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [IsManager()]
        return [RestrictionReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "RestrictionInput"

        kind = _kind()
        scope = _scope()
        until = serializers.DateField(
            required=False,
            allow_null=True,
            help_text=(
                "The first gaming day he is let in again; null or left out: for "
                "good. A self-exclusion lasts at least the room's minimum (PP4)."
            ),
        )
        reason = serializers.CharField(max_length=500)

    @extend_schema(responses={200: RestrictionSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, code: str) -> Response:
        rows = selectors.restrictions_list(player=_player(code))
        return Response(RestrictionSerializer(rows, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: RestrictionSerializer,
            404: NOT_FOUND,
            422: _error(
                "PP4 `self_exclusion_too_short`: before the room's shortest"
                " self-exclusion (`allowed.min_until`); PP3 `until_passed`: a bar"
                " ending on a gaming day that has begun."
            ),
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, code: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        row = services.restriction_set(
            player=_player(code),
            kind=values["kind"],
            scope=values["scope"],
            until=values.get("until"),
            reason=values["reason"],
            by=staff(request),
        )
        row = services.restriction_get(pk=row.pk)
        return Response(RestrictionSerializer(row).data, status=status.HTTP_201_CREATED)


class ReasonSerializer(StrictSerializer):
    class Meta:
        ref_name = "RestrictionReasonInput"

    reason = serializers.CharField(max_length=500)


class RestrictionEndApi(APIView):
    """End a bar early (PP3): by another manager than who set it. Nobody ends a
    self-exclusion (PP4)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=ReasonSerializer,
        responses={
            200: RestrictionSerializer,
            404: NOT_FOUND,
            409: _error("PP7 `restriction_ended`: it has ended already."),
            422: _error(
                "PP4 `self_exclusion_final`: a self-exclusion can't be ended;"
                " PP3 `second_manager`: the manager who set the bar can't end it."
            ),
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.restriction_end(
            restriction=services.restriction_get(pk=pk),
            reason=data.validated_data["reason"],
            by=staff(request),
        )
        row = services.restriction_get(pk=pk)
        return Response(RestrictionSerializer(row).data)


class RestrictionLapseApi(APIView):
    """Record the player's request that his self-exclusion, its period over,
    lapse (PP4): it holds until the cooling-off time has passed (``end.effective``)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=ReasonSerializer,
        responses={
            200: RestrictionSerializer,
            404: NOT_FOUND,
            409: _error("PP7 `restriction_ended`: its lapse was asked for already."),
            422: _error(
                "PP4 `self_exclusion_running`: its period hasn't ended"
                " (`allowed.from`); PP4 `self_exclusion_final`: a self-exclusion for"
                " good, or a bar."
            ),
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.self_exclusion_lapse(
            restriction=services.restriction_get(pk=pk),
            reason=data.validated_data["reason"],
            by=staff(request),
        )
        row = services.restriction_get(pk=pk)
        return Response(RestrictionSerializer(row).data)


# -- the exclusion list (PP3, PP4) -------------------------------------------


class ExclusionSerializer(serializers.Serializer):
    """One restriction in force, as the door staff read it: who, from what, until
    when. Neither its kind nor any document (PP7)."""

    class Meta:
        ref_name = "Exclusion"

    restriction = serializers.IntegerField(source="pk")
    player = serializers.CharField(source="player.code")
    name = serializers.CharField(source="player.name")
    birth_date = serializers.DateField(source="player.birth_date", allow_null=True)
    scope = _scope()
    starts = serializers.DateTimeField()
    until = serializers.DateField(allow_null=True)


class ExclusionListApi(APIView):
    """Every player kept out now (PP3, PP4), by name: the door staff's list."""

    permission_classes = [IsManager]

    @extend_schema(responses={200: ExclusionSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = selectors.restrictions_in_force()
        return Response(ExclusionSerializer(rows, many=True).data)


class ExclusionCsvApi(APIView):
    """The exclusion list as a CSV file for the door staff (PP3, PP4), its
    headings and scopes in the reader's language."""

    permission_classes = [IsManager]

    @extend_schema(
        operation_id="api_v1_restrictions_exclusions_csv",
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                "player, name, date of birth, scope, since, until (empty: for"
                " good); UTF-8.",
            )
        },
    )
    def get(self, request: Request) -> HttpResponse:
        rows = selectors.restrictions_in_force()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [
                _("Player"),
                _("Name"),
                _("Date of birth"),
                _("Excluded from"),
                _("Since"),
                _("Until"),
            ]
        )
        for row in rows:
            birth = row.player.birth_date
            writer.writerow(
                [
                    row.player.code,
                    row.player.name,
                    birth.isoformat() if birth else "",
                    row.get_scope_display(),
                    row.starts.isoformat(timespec="minutes"),
                    row.until.isoformat() if row.until else _("for good"),
                ]
            )
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        name = f"exclusions-{gaming_day_of().isoformat()}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


# -- the settings (PP2, PP4) -------------------------------------------------


class SettingsVersionSerializer(serializers.Serializer):
    """A version of the player-protection settings. Version 0 is the project's
    defaults, in force until a manager records one."""

    class Meta:
        ref_name = "ProtectionSettings"

    version = serializers.IntegerField()
    min_age = serializers.IntegerField()
    min_self_exclusion_days = serializers.IntegerField()
    cooling_off_hours = serializers.IntegerField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField(allow_null=True)
    created_by = serializers.CharField(allow_null=True)


def _version(row: ProtectionRules) -> dict[str, Any]:
    return {
        "version": row.version,
        "min_age": row.min_age,
        "min_self_exclusion_days": row.min_self_exclusion_days,
        "cooling_off_hours": row.cooling_off_hours,
        "note": row.note,
        "created_at": row.created_at,
        "created_by": _username(row.created_by),
    }


class SettingsApi(APIView):
    """The room's player-protection settings: the version in force and those
    before it (GET, staff), or a new version in force from now (POST, manager)."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [IsManager()]
        return [SettingsReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "ProtectionSettingsInput"

        min_age = StrictIntegerField(
            min_value=16, max_value=25, help_text="PP2: the room's minimum age."
        )
        min_self_exclusion_days = StrictIntegerField(
            min_value=1,
            max_value=3650,
            help_text="PP4: the shortest self-exclusion, in days.",
        )
        cooling_off_hours = StrictIntegerField(
            min_value=1,
            max_value=8760,
            help_text="PP4: from the player's request until his self-exclusion lapses.",
        )
        note = serializers.CharField(max_length=500, help_text="Why it changes.")

    class OutputSerializer(SettingsVersionSerializer):
        """The version in force (version 0: the project's defaults, until a
        manager records one), and every version recorded."""

        class Meta:
            ref_name = "ProtectionSettingsCurrent"

        versions = SettingsVersionSerializer(
            many=True, help_text="Every version recorded, latest first."
        )

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request) -> Response:
        current = services.protection_settings()
        versions = [_version(row) for row in selectors.protection_settings_versions()]
        if current.version == 0:
            body = {
                "version": 0,
                "min_age": current.min_age,
                "min_self_exclusion_days": current.min_self_exclusion_days,
                "cooling_off_hours": current.cooling_off_hours,
                "note": "",
                "created_at": None,
                "created_by": None,
            }
        else:
            body = dict(versions[0])
        return Response(self.OutputSerializer({**body, "versions": versions}).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: SettingsVersionSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        row = services.protection_settings_change(
            min_age=values["min_age"],
            min_self_exclusion_days=values["min_self_exclusion_days"],
            cooling_off_hours=values["cooling_off_hours"],
            note=values["note"],
            by=staff(request),
        )
        return Response(
            SettingsVersionSerializer(_version(row)).data,
            status=status.HTTP_201_CREATED,
        )
