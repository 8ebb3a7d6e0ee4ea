"""The director's set-up endpoints, under ``/api/v1/tournaments/``: blind structures,
events with their money and rule settings, their tables and their payout tables
(TO1, TO7, TO8, TO11, TO12).

Thin views: strict input (JSON integers only, unknown fields refused), one service
call, the answer shaped here. The floor and managers (the tournament director) set
events up; cashiers, the floor, managers and auditors read them. Every POST takes
an ``Idempotency-Key``; PUT and PATCH set values and are idempotent by themselves.

Money is in cents and named without a suffix (``buy_in``, ``fee``); chips and
levels are counts. The routes are tried before the event's own
(``/api/v1/tournaments/{event}``): an event can't be called ``structures`` or
``events``.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.serializers import code_field
from accounting.api.views import IDEMPOTENCY_KEY
from core.api.fields import (
    CentsField,
    StrictIntegerField,
    StrictSerializer,
    choice_param,
)
from core.api.permissions import role_required, staff
from core.api.schema import ErrorSerializer
from core.idempotency import idempotent
from core.roles import Role
from tournaments import selectors
from tournaments.domain.setup import MAX_LEVELS, MAX_PLACES, MAX_ROWS, LevelSpec
from tournaments.models import Event, EventTable, Structure
from tournaments.services import setup as services

Reader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)
Director = role_required(Role.FLOOR, Role.MANAGER)

MAX_LEVEL_NUMBER = 1_000
MAX_CHIPS = 10**12
MAX_UNIT = 100_000_000
MAX_ENTRIES = 100_000


class _DirectorWrites(APIView):
    """Reading for the tournament's staff, writing for the director."""

    def get_permissions(self) -> list[BasePermission]:
        return [Reader() if self.request.method == "GET" else Director()]


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``: ``"true"``, ``1`` and ``"yes"`` are refused."""

    default_error_messages = {"invalid": _("true or false (a JSON boolean).")}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class OffsetDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time with its offset (API.md); a time without one is refused."""

    default_error_messages = {
        "offset": _("An ISO 8601 time with its offset, e.g. 2026-12-04T19:00:00+02:00.")
    }

    def to_internal_value(self, value: Any) -> datetime:
        if not isinstance(value, str):
            self.fail("offset")
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            self.fail("offset")
        return super().to_internal_value(value)


# ---------------------------------------------------------------- structures


class LevelInput(StrictSerializer):
    """A level of play (blinds, ante, minutes) or a break (TO12)."""

    class Meta:
        ref_name = "TournamentLevelInput"

    small_blind = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, default=0)
    big_blind = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, default=0)
    ante = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, default=0)
    big_blind_ante = StrictBooleanField(default=False)
    minutes = StrictIntegerField(min_value=1, max_value=24 * 60)
    retire_denomination = StrictIntegerField(
        min_value=1,
        max_value=MAX_CHIPS,
        allow_null=True,
        default=None,
        help_text="At a break: the chip coloured up and raced off (TO6).",
    )


# "break" is a Python keyword: declared by name.
LevelInput._declared_fields["break"] = StrictBooleanField(
    default=False, source="is_break", help_text="A break: no blinds, no ante."
)


class LevelOutput(serializers.Serializer):
    class Meta:
        ref_name = "TournamentLevel"

    number = serializers.IntegerField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    big_blind_ante = serializers.BooleanField()
    minutes = serializers.IntegerField()
    retire_denomination = serializers.IntegerField(allow_null=True)


LevelOutput._declared_fields["break"] = serializers.BooleanField(source="is_break")


class StructureBody(StrictSerializer):
    """A structure's name and all its levels, in order (TO12)."""

    class Meta:
        ref_name = "TournamentStructureUpdate"

    name = serializers.CharField(max_length=100)
    levels = serializers.ListField(
        child=LevelInput(),
        max_length=MAX_LEVELS,
        help_text="In order; numbered 1…n (breaks count as levels).",
    )


class StructureInput(StructureBody):
    """A new structure: its code, name and levels (TO12)."""

    class Meta:
        ref_name = "TournamentStructureInput"

    code = serializers.SlugField(max_length=32)


class StructureOutput(serializers.Serializer):
    class Meta:
        ref_name = "TournamentStructure"

    code = serializers.CharField()
    name = serializers.CharField()
    levels = LevelOutput(many=True)
    events = serializers.ListField(
        child=serializers.CharField(), help_text="The events using it."
    )
    fixed = serializers.BooleanField(
        help_text="An event using it has started: its levels can't change (TO12)."
    )


def _levels(rows: list[dict[str, Any]]) -> list[LevelSpec]:
    return [LevelSpec(**row) for row in rows]


def _structure_out(structure: Structure) -> dict[str, Any]:
    return {
        "code": structure.code,
        "name": structure.name,
        "levels": LevelOutput(structure.levels.order_by("number"), many=True).data,
        "events": list(
            structure.events.order_by("code").values_list("code", flat=True)
        ),
        "fixed": selectors.structure_started_by(structure=structure) is not None,
    }


class StructuresApi(_DirectorWrites):
    """Blind structures (TO12): list them, or create one with its levels."""

    @extend_schema(responses={200: StructureOutput(many=True)})
    def get(self, request: Request) -> Response:
        found = Structure.objects.prefetch_related("levels").order_by("code")
        return Response([_structure_out(s) for s in found])

    @extend_schema(
        request=StructureInput,
        responses={201: StructureOutput, 409: ErrorSerializer, 422: ErrorSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = StructureInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        structure = services.structure_create(
            code=v["code"],
            name=v["name"],
            levels=_levels(v["levels"]),
            by=staff(request),
        )
        return Response(_structure_out(structure), status=status.HTTP_201_CREATED)


class StructureApi(_DirectorWrites):
    """One structure (GET), or its name and levels replaced whole (PUT) while no
    event using it has started (TO12; 409 after: create a new one instead)."""

    @extend_schema(responses={200: StructureOutput})
    def get(self, request: Request, code: str) -> Response:
        return Response(_structure_out(get_object_or_404(Structure, code=code)))

    @extend_schema(
        request=StructureBody,
        responses={200: StructureOutput, 409: ErrorSerializer, 422: ErrorSerializer},
    )
    def put(self, request: Request, code: str) -> Response:
        structure = get_object_or_404(Structure, code=code)
        data = StructureBody(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        structure = services.structure_update(
            structure=structure,
            name=v["name"],
            levels=_levels(v["levels"]),
            by=staff(request),
        )
        return Response(_structure_out(structure))


# ---------------------------------------------------------------- payout tables


class PayoutRow(StrictSerializer):
    """From ``min_entries`` entries on, the places paid and their shares (TO7)."""

    class Meta:
        ref_name = "TournamentPayoutRow"

    min_entries = StrictIntegerField(
        min_value=1, max_value=MAX_ENTRIES, help_text="From this many entries on."
    )
    shares = serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=10_000),
        max_length=MAX_PLACES,
        help_text="Each place's share of the pool in basis points, first place "
        "first; they add up to 10000 and never go up.",
    )


class PayoutTableBody(StrictSerializer):
    """The payout table's rows, from one entry up (TO7)."""

    class Meta:
        ref_name = "TournamentPayoutTableInput"

    rows = serializers.ListField(
        child=PayoutRow(),
        max_length=MAX_ROWS,
        help_text="From one entry up; empty for the default table.",
    )


class PayoutTableOutput(serializers.Serializer):
    class Meta:
        ref_name = "TournamentPayoutTable"

    rows = PayoutRow(many=True)
    default = serializers.BooleanField(
        help_text="The event has no table of its own: these rows are the default."
    )
    fixed = serializers.BooleanField(
        help_text="The payout sheet is prepared: the table can't change (TO9)."
    )


def _rows(rows: list[dict[str, Any]]) -> list[tuple[int, list[int]]]:
    return [(row["min_entries"], row["shares"]) for row in rows]


def _payout_table_out(event: Event) -> dict[str, Any]:
    table = selectors.payout_table_paid(event=event)
    return {
        "rows": [{"min_entries": n, "shares": list(s)} for n, s in table],
        "default": not event.payout_table,
        "fixed": hasattr(event, "payout_sheet"),
    }


# ---------------------------------------------------------------- events


class EventSettingsBody(StrictSerializer):
    """What a director sets; the PATCH takes any of it."""

    class Meta:
        ref_name = "TournamentEventSettingsInput"

    name = serializers.CharField(max_length=200)
    structure = serializers.SlugField(max_length=32, help_text="A structure's code.")
    starts_at = OffsetDateTimeField()
    buy_in = CentsField(source="buy_in_cents", min_value=0, help_text="To the pool.")
    fee = CentsField(source="fee_cents", min_value=0, required=False)
    staff_fee = CentsField(source="staff_fee_cents", min_value=0, required=False)
    bounty_kind = serializers.ChoiceField(choices=Event.Bounty.choices, required=False)
    bounty = CentsField(source="bounty_cents", min_value=0, required=False)
    starting_stack = StrictIntegerField(min_value=1, max_value=MAX_CHIPS)
    late_registration_level = StrictIntegerField(
        min_value=0,
        max_value=MAX_LEVEL_NUMBER,
        required=False,
        help_text="Registration closes after this level; 0: at the start.",
    )
    reentry_max = StrictIntegerField(
        min_value=0, max_value=MAX_LEVEL_NUMBER, required=False
    )
    rebuy_max = StrictIntegerField(
        min_value=0,
        max_value=MAX_LEVEL_NUMBER,
        required=False,
        help_text="Rebuys per entry; 0: a freezeout.",
    )
    rebuy_until_level = StrictIntegerField(
        min_value=0, max_value=MAX_LEVEL_NUMBER, required=False
    )
    rebuy_stack_limit = StrictIntegerField(
        min_value=0, max_value=MAX_CHIPS, required=False
    )
    rebuy = CentsField(source="rebuy_cents", min_value=0, required=False)
    rebuy_fee = CentsField(source="rebuy_fee_cents", min_value=0, required=False)
    rebuy_chips = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    addon_level = StrictIntegerField(
        min_value=1, max_value=MAX_LEVEL_NUMBER, allow_null=True, required=False
    )
    addon = CentsField(source="addon_cents", min_value=0, required=False)
    addon_fee = CentsField(source="addon_fee_cents", min_value=0, required=False)
    addon_chips = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    guarantee = CentsField(source="guarantee_cents", min_value=0, required=False)
    payout_unit = CentsField(
        source="payout_unit_cents",
        min_value=1,
        max_value=MAX_UNIT,
        required=False,
        help_text="Prizes are rounded down to this (cents; default 100).",
    )
    payout_remainder = serializers.ChoiceField(
        choices=Event.Remainder.choices,
        required=False,
        help_text="top: one unit each from first place down; first: all to first.",
    )
    tax_document_threshold = CentsField(
        source="tax_document_threshold_cents", min_value=1, required=False
    )
    satellite_target = serializers.SlugField(
        max_length=32,
        allow_null=True,
        required=False,
        help_text="A satellite: the event whose seats it pays (TO7).",
    )


class EventInput(EventSettingsBody):
    """A new event: its code, room, currency, settings and payout table."""

    class Meta:
        ref_name = "TournamentEventInput"

    code = serializers.SlugField(max_length=32)
    room = code_field(max_length=16, required=False, help_text="Default: the room.")
    currency = serializers.RegexField(
        r"^[A-Z]{3}$", required=False, help_text="Default: the room's."
    )
    payout_table = serializers.ListField(
        child=PayoutRow(),
        max_length=MAX_ROWS,
        required=False,
        help_text="Its rows; absent or empty for the default table.",
    )


class EventOutput(serializers.ModelSerializer):
    room = serializers.CharField(source="room.code")
    structure = serializers.CharField(source="structure.code")
    buy_in = serializers.IntegerField(source="buy_in_cents")
    fee = serializers.IntegerField(source="fee_cents")
    staff_fee = serializers.IntegerField(source="staff_fee_cents")
    bounty = serializers.IntegerField(source="bounty_cents")
    entry_total = serializers.IntegerField(
        source="entry_total_cents", help_text="What one entry costs (TO1)."
    )
    rebuy = serializers.IntegerField(source="rebuy_cents")
    rebuy_fee = serializers.IntegerField(source="rebuy_fee_cents")
    addon = serializers.IntegerField(source="addon_cents")
    addon_fee = serializers.IntegerField(source="addon_fee_cents")
    guarantee = serializers.IntegerField(source="guarantee_cents")
    payout_unit = serializers.IntegerField(source="payout_unit_cents")
    tax_document_threshold = serializers.IntegerField(
        source="tax_document_threshold_cents"
    )
    satellite_target = serializers.CharField(
        source="satellite_target.code", allow_null=True, default=None
    )
    payout_table = PayoutRow(many=True, help_text="Empty: the default table.")
    created_by = serializers.CharField(
        source="created_by.username", allow_null=True, default=None
    )

    class Meta:
        model = Event
        ref_name = "TournamentEvent"
        fields = [
            "code",
            "name",
            "status",
            "room",
            "currency",
            "structure",
            "starts_at",
            "buy_in",
            "fee",
            "staff_fee",
            "bounty_kind",
            "bounty",
            "entry_total",
            "starting_stack",
            "late_registration_level",
            "reentry_max",
            "rebuy_max",
            "rebuy_until_level",
            "rebuy_stack_limit",
            "rebuy",
            "rebuy_fee",
            "rebuy_chips",
            "addon_level",
            "addon",
            "addon_fee",
            "addon_chips",
            "guarantee",
            "payout_unit",
            "payout_remainder",
            "tax_document_threshold",
            "satellite_target",
            "payout_table",
            "created_by",
            "created_at",
        ]


def _event(code: str) -> Event:
    return get_object_or_404(
        Event.objects.select_related(
            "room", "structure", "satellite_target", "created_by"
        ),
        code=code,
    )


class EventsApi(_DirectorWrites):
    """Events (GET, ``?status=`` to filter), or create one with all its money and
    rule settings (POST; TO1, TO7, TO8)."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                OpenApiParameter.QUERY,
                required=False,
                enum=list(Event.Status.values),
            )
        ],
        responses={200: EventOutput(many=True)},
    )
    def get(self, request: Request) -> Response:
        wanted = choice_param(request.query_params, "status", Event.Status.values)
        found = Event.objects.select_related(
            "room", "structure", "satellite_target", "created_by"
        ).order_by("-starts_at", "code")
        if wanted is not None:
            found = found.filter(status=wanted)
        return Response(EventOutput(found, many=True).data)

    @extend_schema(
        request=EventInput,
        responses={
            201: EventOutput,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = EventInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        rows = v.pop("payout_table", None)
        event = services.event_create(
            code=v.pop("code"),
            name=v.pop("name"),
            structure=v.pop("structure"),
            starts_at=v.pop("starts_at"),
            room=v.pop("room", None),
            currency=v.pop("currency", None),
            satellite_target=v.pop("satellite_target", None),
            payout_table=_rows(rows) if rows else None,
            settings=v,
            by=staff(request),
        )
        return Response(
            EventOutput(_event(event.code)).data, status=status.HTTP_201_CREATED
        )


class EventSettingsApi(_DirectorWrites):
    """The event's settings (GET), or some of them changed (PATCH) as far as the
    players' terms allow: prices fixed once an entry is sold, only the name, the
    prizes' unit, remainder rule and tax threshold after the start, nothing once
    the payout sheet is prepared or the event is over (409; TO1, TO7)."""

    @extend_schema(responses={200: EventOutput})
    def get(self, request: Request, event: str) -> Response:
        return Response(EventOutput(_event(event)).data)

    @extend_schema(
        request=EventSettingsBody,
        responses={
            200: EventOutput,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    def patch(self, request: Request, event: str) -> Response:
        found = _event(event)
        data = EventSettingsBody(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.event_settings_update(
            event=found, changes=dict(data.validated_data), by=staff(request)
        )
        return Response(EventOutput(_event(event)).data)


# ---------------------------------------------------------------- tables


class EventTableInput(StrictSerializer):
    """A table the event plays at, and its place in the breaking order (TO11)."""

    class Meta:
        ref_name = "TournamentEventTableInput"

    table = serializers.RegexField(
        r"^[A-Za-z0-9][A-Za-z0-9_-]*$",
        max_length=16,
        help_text="The table's code; its terminal's key is the key of this table.",
    )
    seats = StrictIntegerField(min_value=2, max_value=11, default=9)
    break_order = StrictIntegerField(
        min_value=1,
        max_value=MAX_LEVEL_NUMBER,
        required=False,
        help_text="Tables are broken from the lowest up (TO11); default: the next.",
    )


class EventTableOutput(serializers.ModelSerializer):
    class Meta:
        model = EventTable
        ref_name = "TournamentEventTable"
        fields = ["table", "seats", "break_order", "status"]


class EventTablesApi(_DirectorWrites):
    """The event's tables in their breaking order (GET), or one added (POST;
    TO11). The floor's map of who sits where is ``GET …/tables``."""

    @extend_schema(responses={200: EventTableOutput(many=True)})
    def get(self, request: Request, event: str) -> Response:
        found = _event(event)
        tables = EventTable.objects.filter(event=found).order_by("break_order")
        return Response(EventTableOutput(tables, many=True).data)

    @extend_schema(
        request=EventTableInput,
        responses={201: EventTableOutput, 409: ErrorSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        found = _event(event)
        data = EventTableInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        table = services.event_table_add(
            event=found,
            table=v["table"],
            seats=v["seats"],
            break_order=v.get("break_order"),
            by=staff(request),
        )
        return Response(EventTableOutput(table).data, status=status.HTTP_201_CREATED)


class PayoutTableApi(_DirectorWrites):
    """The event's payout table (GET; the default's rows when it has none), or
    replaced (PUT; TO7) until its payout sheet is prepared (409, TO9)."""

    @extend_schema(responses={200: PayoutTableOutput})
    def get(self, request: Request, event: str) -> Response:
        return Response(_payout_table_out(_event(event)))

    @extend_schema(
        request=PayoutTableBody,
        responses={200: PayoutTableOutput, 409: ErrorSerializer, 422: ErrorSerializer},
    )
    def put(self, request: Request, event: str) -> Response:
        found = _event(event)
        data = PayoutTableBody(data=request.data)
        data.is_valid(raise_exception=True)
        services.payout_table_set(
            event=found, rows=_rows(data.validated_data["rows"]), by=staff(request)
        )
        return Response(_payout_table_out(_event(event)))


class PreviewPlaceOutput(serializers.Serializer):
    class Meta:
        ref_name = "TournamentPreviewPlace"

    place = serializers.IntegerField()
    share = serializers.IntegerField(
        allow_null=True, help_text="Basis points; null for a satellite's places."
    )
    prize = serializers.IntegerField(source="prize_cents", help_text="Cents.")
    seat = serializers.IntegerField(
        source="seat_cents", help_text="A satellite seat's value (cents), or 0."
    )


class PreviewOutput(serializers.Serializer):
    class Meta:
        ref_name = "TournamentPayoutPreview"

    entries = serializers.IntegerField()
    buy_ins = serializers.IntegerField(source="buy_ins_cents")
    overlay = serializers.IntegerField(source="overlay_cents")
    pool = serializers.IntegerField(source="pool_cents")
    unit = serializers.IntegerField()
    remainder = serializers.CharField()
    places = PreviewPlaceOutput(many=True)


_COUNT = re.compile(r"^[0-9]{1,9}$")


def _count(request: Request, name: str, *, least: int, default: int | None) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        if default is None:
            raise serializers.ValidationError({name: [_("This field is required.")]})
        return default
    if not _COUNT.match(raw) or not least <= int(raw) <= MAX_ENTRIES:
        raise serializers.ValidationError(
            {
                name: [
                    _("A whole number from %(least)d to %(most)d.")
                    % {"least": least, "most": MAX_ENTRIES}
                ]
            }
        )
    return int(raw)


def _counted(least: int) -> dict[str, Any]:
    """The schema of a count :func:`_count` reads."""
    return {"type": "integer", "minimum": least, "maximum": MAX_ENTRIES}


class PayoutPreviewApi(APIView):
    """The places and prizes in cents the event would pay with ``entries``
    entries (and ``rebuys``, ``addons``): the pool, topped up to the guarantee,
    shared by its payout table, rounded to its unit with the remainder placed by
    its rule (TO7), as the payout sheet will compute them."""

    permission_classes = [Reader]

    @extend_schema(
        parameters=[
            # As _count reads them: whole numbers from 1 (entries) or 0.
            OpenApiParameter("entries", _counted(1), required=True),
            OpenApiParameter("rebuys", _counted(0), required=False),
            OpenApiParameter("addons", _counted(0), required=False),
        ],
        responses={200: PreviewOutput, 422: ErrorSerializer},
    )
    def get(self, request: Request, event: str) -> Response:
        found = _event(event)
        preview = selectors.payout_preview(
            event=found,
            entries=_count(request, "entries", least=1, default=None),
            rebuys=_count(request, "rebuys", least=0, default=0),
            addons=_count(request, "addons", least=0, default=0),
        )
        return Response(
            PreviewOutput(
                {
                    "entries": preview.entries,
                    "buy_ins_cents": preview.buy_ins_cents,
                    "overlay_cents": preview.overlay_cents,
                    "pool_cents": preview.pool_cents,
                    "unit": found.payout_unit_cents,
                    "remainder": found.payout_remainder,
                    "places": preview.places,
                }
            ).data
        )
