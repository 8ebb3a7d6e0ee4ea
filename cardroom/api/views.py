"""The floor's REST endpoints (API.md "Floor set-up" and "Table terminal").

Thin views: each validates its input, calls one service and shapes its answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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

from cardroom import selectors, services
from cardroom.api import refusals, terminal
from cardroom.api.contract import (
    HandRecordSerializer,
    PolicySerializer,
    SettlementSerializer,
)
from cardroom.auth import Terminal, terminal_or_role
from cardroom.domain.hand_record import HandJSON, Seat, parse_hand
from cardroom.models import (
    GAME_CODES,
    Correction,
    Game,
    HandVoid,
    StackMovement,
    StackReview,
    Table,
)
from cardroom.services import protection
from core.api.errors import exception_handler
from core.api.fields import (
    FILLED_TEXT_PATTERN,
    CentsField,
    StrictIntegerField,
    StrictSerializer,
    choice_param,
    refuse_unknown_fields,
)
from core.api.permissions import IsFloor, IsManager, role_required, staff
from core.api.schema import ErrorSerializer
from core.errors import ApplicationError, Forbidden, Refusal, Unprocessable
from core.idempotency import idempotent
from core.roles import Role, has_role

TerminalOrFloor = terminal_or_role(Role.FLOOR, Role.MANAGER)


class TableNoticeSerializer(serializers.Serializer):
    """A seat whose player must leave, or left, because a restriction began
    while he sat (PP5)."""

    class Meta:
        ref_name = "TableNotice"

    seat = serializers.IntegerField()
    player = serializers.CharField()
    rule = serializers.ChoiceField(choices=["PP3", "PP4"])
    code = serializers.ChoiceField(choices=["player_barred", "player_self_excluded"])
    since = serializers.DateTimeField(allow_null=True)
    action = serializers.ChoiceField(
        choices=["leave_after_hand", "left"],
        help_text="leave_after_hand: deal him out once the hand in play ends;"
        " left: this request's hand ended his seat.",
    )
    left_with = serializers.IntegerField(
        allow_null=True, help_text="Cents he took with him (left)."
    )


class TableNotices:
    """PP5: an answer about a table carries what its terminal must know now.

    ``notices`` lists each seat whose player must leave at the end of the hand
    in play (a bar or a self-exclusion began while he sat), and each seat the
    request's own booking ended for that reason. A hand's answer names only the
    latter (``ask_table`` False): its booking ends every marked seat.
    """

    ask_table = True

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        token = protection.notices_remember()
        try:
            response = super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        finally:
            left = protection.notices_taken(token)
        data = getattr(response, "data", None)
        table = kwargs.get("table")
        if not isinstance(data, dict) or response.status_code >= 500 or not table:
            return response
        notices = left + (selectors.table_notices(table) if self.ask_table else [])
        if notices:
            response.data = {**data, "notices": notices}
        return response


TerminalOrStaffReader = terminal_or_role(Role.FLOOR, Role.MANAGER, Role.AUDITOR)


@extend_schema_field(PolicySerializer)
class PolicyField(serializers.DictField):
    """A policy document; :func:`~cardroom.domain.hand_record.parse_policy` checks
    it, the schema shows it field by field. A field the engine doesn't read is
    refused (400, API.md "Conventions"), as in any other request body, and so is
    what the schema's PolicyRequest forbids (a percentage that isn't one from 0
    to 100, a scheme without what it needs): the schema is what is checked."""

    def to_internal_value(self, data: Any) -> dict[Any, Any]:
        value = super().to_internal_value(data)
        refuse_unknown_fields(PolicySerializer(), data)
        PolicySerializer(data=data).is_valid(raise_exception=True)
        return value


def _actor(request: Request) -> dict[str, Any]:
    """Who is acting: a staff member (``by``) or a table's terminal (``source``)."""
    if isinstance(request.user, Terminal):
        return {"by": None, "source": f"terminal:{request.user.key.table.code}"}
    return {"by": request.user, "source": ""}


class TableDetailApi(TableNotices, APIView):
    """The table's set-up, for its own terminal and for the floor."""

    permission_classes = [TerminalOrFloor]

    class OutputSerializer(serializers.ModelSerializer):
        game = serializers.CharField(source="game.code", allow_null=True)
        small_blind = serializers.IntegerField(
            source="game.small_blind_cents", allow_null=True
        )
        big_blind = serializers.IntegerField(
            source="game.big_blind_cents", allow_null=True
        )
        min_buy_in = serializers.IntegerField(
            source="game.min_buy_in_cents", allow_null=True
        )
        max_buy_in = serializers.IntegerField(
            source="game.max_buy_in_cents", allow_null=True
        )

        class Meta:
            model = Table
            ref_name = "Table"
            fields = [
                "code",
                "name",
                "seats",
                "status",
                "gaming_day",
                "opened_at",
                "game",
                "small_blind",
                "big_blind",
                "min_buy_in",
                "max_buy_in",
            ]

    @extend_schema(responses={200: OutputSerializer, 404: ErrorSerializer})
    def get(self, request: Request, table: str) -> Response:
        obj = get_object_or_404(Table.objects.select_related("game"), code=table)
        return Response(self.OutputSerializer(obj).data)


def _sets_up(v: dict[str, Any]) -> bool:
    """Whether opening a table as ``v`` asks would set up the room: a game, stakes,
    buy-ins or a policy that the room doesn't hold yet."""
    game = (
        Game.objects.filter(
            code=v["game"],
            small_blind_cents=v["small_blind"],
            big_blind_cents=v["big_blind"],
            min_buy_in_cents=v["min_buy_in"],
            max_buy_in_cents=v.get("max_buy_in"),
        )
        .order_by("pk")
        .first()
    )
    if game is None:
        return True
    current = game.policies.order_by("-version").first()
    return current is None or current.document != v["policy"]


class TableOpenApi(APIView):
    """Open a table for the current gaming day with its game and policy.

    The floor opens and closes tables as the night needs them (the floor screen
    does, issue "staff screens"); setting the room up is a manager's (API.md,
    "Floor set-up (manager)"; RULES.md: every house default is configuration
    "editable by a manager"; a policy change is a new version, RK7). So floor
    staff may open a table only for a game the room has, at its stakes and
    buy-ins and under its current policy; anything else is a manager's.

    Raises :class:`Forbidden` (``room_setup_manager_only``, RK7) when floor staff
    ask for a game, stakes, buy-ins or a policy the room doesn't hold.
    """

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TableOpenInput"

        code = serializers.SlugField(max_length=16)
        game = serializers.ChoiceField(choices=GAME_CODES)
        small_blind = CentsField(min_value=1)
        big_blind = CentsField(min_value=1)
        min_buy_in = CentsField(min_value=1)
        max_buy_in = CentsField(min_value=1, allow_null=True, required=False)
        seats = StrictIntegerField(min_value=2, max_value=12, default=9)
        policy = PolicyField()

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            """Stakes in order: a request the schema allows, refused for what it
            can't state (422, :class:`~core.errors.Unprocessable`)."""
            if attrs["big_blind"] < attrs["small_blind"]:
                raise Unprocessable(
                    "blinds_out_of_order",
                    _("The big blind is below the small blind."),
                    allowed={"min_big_blind": attrs["small_blind"]},
                )
            top = attrs.get("max_buy_in")
            if top is not None and top < attrs["min_buy_in"]:
                raise Unprocessable(
                    "buy_ins_out_of_order",
                    _("The maximum buy-in is below the minimum."),
                    allowed={"min_max_buy_in": attrs["min_buy_in"]},
                )
            return attrs

    @extend_schema(
        request=InputSerializer,
        responses={201: TableDetailApi.OutputSerializer, 409: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if not has_role(request.user, Role.MANAGER) and _sets_up(v):
            raise Forbidden(
                "room_setup_manager_only",
                _(
                    "RK7: a manager sets up games, stakes and policies; the floor"
                    " opens tables for the games the room has."
                ),
                rule="RK7",
            )
        table = services.table_open(
            code=v["code"],
            game_code=v["game"],
            small_blind=v["small_blind"],
            big_blind=v["big_blind"],
            min_buy_in=v["min_buy_in"],
            max_buy_in=v.get("max_buy_in"),
            seats=v["seats"],
            policy=v["policy"],
            by=staff(request),
        )
        return Response(
            TableDetailApi.OutputSerializer(table).data, status=status.HTTP_201_CREATED
        )


class TableCloseApi(APIView):
    """Close a table (the floor, as on the floor screen; managers too); refused
    while players sit there (WL3)."""

    permission_classes = [IsFloor]

    @extend_schema(request=None, responses={200: TableDetailApi.OutputSerializer})
    def post(self, request: Request, table: str) -> Response:
        obj = get_object_or_404(Table, code=table)
        obj = services.table_close(table=obj)
        return Response(TableDetailApi.OutputSerializer(obj).data)


class SeatsSerializer(serializers.Serializer):
    """What the server knows of a table's seats (HS6): the terminal never guesses."""

    class Meta:
        ref_name = "TableSeats"

    class SeatRow(serializers.Serializer):
        class Meta:
            ref_name = "TableSeat"

        seat = serializers.IntegerField()
        player = serializers.CharField()
        stack = serializers.IntegerField(
            help_text="The ledger's stack in cents: post the next hand with it (HS6)."
        )
        frozen = serializers.IntegerField(
            help_text="Cents frozen for a stack review (HS6); not in the stack."
        )
        state = serializers.ChoiceField(choices=["playing", "away"])
        away_since = serializers.DateTimeField(allow_null=True)
        sat_down = serializers.DateTimeField()
        last_hand_no = serializers.IntegerField(allow_null=True)
        must_leave = serializers.CharField(
            allow_null=True,
            help_text="PP5: the rule (PP3, PP4) by which he leaves at the end of"
            " the hand in play; null when he plays on.",
        )

    table = serializers.CharField()
    status = serializers.CharField()
    gaming_day = serializers.DateField(allow_null=True)
    last_hand_no = serializers.IntegerField(allow_null=True)
    seats = SeatRow(many=True)
    notices = TableNoticeSerializer(
        many=True,
        required=False,
        help_text="PP5: what the terminal must know now; only when there is some.",
    )


class SeatApi(TableNotices, APIView):
    """Seat a player with a buy-in (BI1, BI4–BI6, WL6); read the seats (HS6).

    A house move (BI7) is never posted: ``house_move`` is refused (422 BI7); the
    floor's table break, table balancing and must-move flows make house moves.
    """

    permission_classes = [TerminalOrFloor]

    def get_permissions(self) -> Sequence[Any]:
        if self.request.method == "GET":
            return [TerminalOrStaffReader()]
        return super().get_permissions()

    @extend_schema(
        request=None,
        responses={200: SeatsSerializer, 404: ErrorSerializer},
        description=(
            "The table's open seats as the ledger holds them: player, stack in"
            " cents, chips frozen for review, playing or away. A hand is booked on"
            " these stacks (HS6)."
        ),
    )
    def get(self, request: Request, table: str) -> Response:
        return Response(SeatsSerializer(selectors.table_seats(table)).data)

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "SeatInput"

        seat = StrictIntegerField(min_value=1, max_value=12)
        player = serializers.CharField(max_length=32)
        amount = CentsField(min_value=1)
        method = serializers.ChoiceField(choices=StackMovement.Method.choices)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SeatOutput"

        seat = serializers.IntegerField()
        player = serializers.CharField()
        stack = serializers.IntegerField()
        kind = serializers.CharField()

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer, 409: ErrorSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request, table: str) -> Response:
        if isinstance(request.data, dict) and "house_move" in request.data:
            raise Refusal(
                "house_move_not_posted",
                _(
                    "BI7: a house move is not a buy-in. It comes only from a table the"
                    " floor breaks or balances, or a must-move, with the stack the"
                    " ledger holds."
                ),
                rule="BI7",
            )
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        session = services.seat_take(
            table_code=table,
            seat=v["seat"],
            player_code=v["player"],
            amount=v["amount"],
            method=v["method"],
            **_actor(request),
        )
        out = {
            "seat": session.seat,
            "player": session.player.code,
            "stack": session.stack_cents,
            "kind": session.kind,
        }
        return Response(out, status=status.HTTP_201_CREATED)


class TopUpApi(TableNotices, APIView):
    """Add chips between hands (BI2, BI4)."""

    permission_classes = [TerminalOrFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TopUpInput"

        amount = CentsField(min_value=1)
        method = serializers.ChoiceField(choices=StackMovement.Method.choices)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TopUpOutput"

        stack = serializers.IntegerField()
        kind = serializers.CharField()

    @extend_schema(
        request=InputSerializer, responses={201: OutputSerializer, 422: ErrorSerializer}
    )
    @idempotent
    def post(self, request: Request, table: str, seat: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.seat_top_up(
            table_code=table,
            seat=seat,
            amount=data.validated_data["amount"],
            method=data.validated_data["method"],
            **_actor(request),
        )
        kind = session.movements.latest("at", "pk").kind
        return Response(
            {"stack": session.stack_cents, "kind": kind}, status=status.HTTP_201_CREATED
        )


class LeaveApi(TableNotices, APIView):
    """The player leaves with his stack (BI3); he keeps his chips."""

    permission_classes = [TerminalOrFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "LeaveInput"

        stack = CentsField(min_value=0)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LeaveOutput"

        player = serializers.CharField()
        left_with = serializers.IntegerField()

    @extend_schema(
        request=InputSerializer, responses={200: OutputSerializer, 422: ErrorSerializer}
    )
    @idempotent
    def post(self, request: Request, table: str, seat: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.seat_leave(
            table_code=table,
            seat=seat,
            stack=data.validated_data["stack"],
            **_actor(request),
        )
        return Response(
            {"player": session.player.code, "left_with": session.left_with_cents}
        )


class HandSerializer(serializers.Serializer):
    """The envelope of a hand record: the fields :func:`hand_unknown_fields`
    knows. It validates nothing: the engine's parser
    (:func:`cardroom.domain.hand_record.parse_hand`) checks the record in full,
    with its rules' errors. The schema documents it as
    :class:`HandRecordSerializer`."""

    class Meta:
        ref_name = "HandRecordEnvelope"

    table = serializers.CharField(required=False)
    hand_no = StrictIntegerField(
        min_value=1,
        max_value=2**63 - 1,
        help_text="Above the table's last hand by at most 1000 (HS-P1).",
    )
    game = serializers.CharField()
    button = StrictIntegerField(required=False, allow_null=True)
    started_at = serializers.DateTimeField(required=False, allow_null=True)
    ended_at = serializers.DateTimeField(required=False, allow_null=True)
    streets = StrictIntegerField(min_value=1)
    board = serializers.ListField(child=serializers.CharField(), required=False)
    seats = serializers.ListField(child=serializers.DictField(), min_length=1)
    awarded = serializers.ListField(
        child=serializers.DictField(), required=False, allow_null=True
    )


# What the engine reads of a hand record beyond HandSerializer's fields, and of the
# objects the serializer leaves free-form: the domain's own records name them, so
# a field the engine learns is known here too (unknown ones are refused, 400).
# The record's own keys are those of the JSON it decodes (HandJSON), not of the
# HandRecord it builds: HandRecord.simple is the engine's finding, which a posted
# "simple" would not set (API.md "Conventions": a field not read is refused).
HAND_FIELDS = {
    "": set(HandJSON.__struct_fields__),
    "seats[]": set(Seat._fields),
    "awarded[]": {"seat", "amount"},
}
_HAND_KEYS = frozenset(HandSerializer().fields) | HAND_FIELDS[""]
_HAND_ITEMS = (
    ("seats", frozenset(HAND_FIELDS["seats[]"])),
    ("awarded", frozenset(HAND_FIELDS["awarded[]"])),
)


def hand_unknown_fields(data: dict[str, Any]) -> list[str]:
    """Return what ``unknown_fields(HandSerializer(), data, HAND_FIELDS)`` returns,
    in its order, without walking the serializer's fields for every seat: the
    record's own keys, then each seat's, then each push's."""
    found = [key for key in data if key not in _HAND_KEYS]
    for name, known in _HAND_ITEMS:
        items = data.get(name)
        if isinstance(items, list):
            found += [
                f"{name}[{i}].{key}"
                for i, item in enumerate(items)
                if isinstance(item, dict)
                for key in item
                if key not in known
            ]
    return found


def hand_body(data: Any) -> dict[str, Any]:
    """Return a posted hand record for :func:`cardroom.services.hand_record`;
    raise ``ValidationError`` (400) naming the fields the engine doesn't read, or
    the engine's ``malformed_hand`` for a body that is no JSON object."""
    if not isinstance(data, dict):
        parse_hand(data)  # raises the engine's malformed_hand (400)
    found = hand_unknown_fields(data)
    if found:
        raise serializers.ValidationError(
            {name: [_("Unknown field.")] for name in found}
        )
    return dict(data)


class HandRecordApi(TableNotices, APIView):
    """Record a hand: validate, settle, book (API.md). A repeat answers 200."""

    permission_classes = [TerminalOrFloor]
    ask_table = False

    @extend_schema(
        request=HandRecordSerializer,
        responses={
            201: SettlementSerializer,
            200: OpenApiResponse(SettlementSerializer, "The same hand, again."),
            400: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, table: str) -> Response:
        with _refusal_noted(request.user):
            hand, created = services.hand_record(
                table_code=table, record=hand_body(request.data), **_actor(request)
            )
        return Response(
            hand.settlement,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        """A terminal's plain POST takes the direct way (cardroom.api.terminal),
        answered as :meth:`post` answers it; any other request DRF's. A hand its
        own terminal posted and the server refused is kept for the floor, once
        the answer is made (:func:`cardroom.api.refusals.refused_hands_keep`)."""
        raw = refusals.posted_body(request)
        if terminal.direct(request):
            response = terminal.answer(
                request, kwargs["table"], self.allowed_methods, _hand_direct
            )
        else:
            response = super().dispatch(request, *args, **kwargs)
        if response.status_code >= 400:
            refusals.refused_hands_keep(request, kwargs["table"], raw, response)
        return response


def _hand_direct(data: Any, by: Terminal) -> tuple[Any, int]:
    """:meth:`HandRecordApi.post` for a terminal's request on the direct way."""
    table = by.key.table.code
    with _refusal_noted(by):
        hand, created = services.hand_record(
            table_code=table,
            record=hand_body(data),
            source=f"terminal:{table}",
            key=by.key,
        )
    return hand.settlement, 201 if created else 200


@contextmanager
def _refusal_noted(caller: Any, place: int = 0) -> Iterator[None]:
    """Note on a terminal the application error that refuses its hand at
    ``place``, for the refused hand kept for the floor in the floor's language
    (:func:`cardroom.api.refusals.refused_hands_keep`)."""
    try:
        yield
    except ApplicationError as error:
        if isinstance(caller, Terminal):
            caller.refused[place] = error
        raise


HAND_BATCH_MAX = 200
"""The most hands one ``POST hands/batch`` books (API.md "Table terminal")."""


class HandBatchSerializer(StrictSerializer):
    """Hands to book in order (docs); each is checked as one posted alone.

    The batch itself refuses (400) only a body that is no object with a ``hands``
    list of 1 to HAND_BATCH_MAX items; an item that is no valid hand record is
    answered in its place in ``results`` (400, 409 or 422), as ``POST hands``
    answers it, and the others book. The schema types each item as the hand
    record ``POST hands`` takes (``HandRecordRequest``), so a client generated
    from it builds valid hands; a malformed one is still answered in its place."""

    class Meta:
        ref_name = "HandBatch"

    hands = serializers.ListField(
        child=HandRecordSerializer(),
        min_length=1,
        max_length=HAND_BATCH_MAX,
        help_text=f"1 to {HAND_BATCH_MAX} hand records, booked in this order; each"
        " answered in results as POST hands would answer it.",
    )


class HandBatchEnvelope(StrictSerializer):
    """What the batch endpoint checks itself: a list of 1 to HAND_BATCH_MAX items;
    each hand is the engine's to check, as a hand posted alone."""

    hands = serializers.ListField(min_length=1, max_length=HAND_BATCH_MAX)


class HandAnswerSerializer(serializers.Serializer):
    """What ``POST hands`` would have answered for this hand."""

    class Meta:
        ref_name = "HandBatchAnswer"

    status = serializers.IntegerField(
        help_text="201 booked, 200 a repeat, or the refusal's 400, 409 or 422."
    )
    body = serializers.JSONField(
        help_text="The settlement (201, 200) or the error object (API.md)."
    )


class HandBatchAnswerSerializer(serializers.Serializer):
    class Meta:
        ref_name = "HandBatchResults"

    results = HandAnswerSerializer(many=True)


class HandBatchApi(TableNotices, APIView):
    """Book many hands of a table in order, each as ``POST hands`` would: for a
    terminal that queued hands while offline, or an electronic table.

    The hands are booked together (:func:`cardroom.services.hands_record`): each
    checked as if posted alone, on the stacks the hands before it left, so a
    refused hand changes nothing and the others book; each is idempotent by its
    natural key (a repeat answers 200).
    """

    permission_classes = [TerminalOrFloor]
    ask_table = False

    @extend_schema(
        summary="Record many hands, in order",
        description=(
            f"Up to {HAND_BATCH_MAX} hand records, booked in order as `POST hands`"
            " books each: one refused changes nothing, the others book. 200 with"
            " one answer a hand, in the same order: the status and body `POST"
            " hands` would have given it."
        ),
        request=HandBatchSerializer,
        responses={
            200: HandBatchAnswerSerializer,
            400: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, table: str) -> Response:
        envelope = HandBatchEnvelope(data=request.data)
        envelope.is_valid(raise_exception=True)
        context = {"request": request, "view": self}
        results: list[dict[str, Any] | None] = []
        records, places = [], []
        terminal = request.user if isinstance(request.user, Terminal) else None
        for record in envelope.validated_data["hands"]:
            try:
                records.append(hand_body(record))
            except Exception as error:  # answered as POST hands answers it
                if terminal is not None and isinstance(error, ApplicationError):
                    terminal.refused[len(results)] = error
                results.append(_answer(error, context))
                continue
            places.append(len(results))
            results.append(None)
        booked = services.hands_record(
            table_code=table, records=records, **_actor(request)
        )
        for place, one in zip(places, booked, strict=True):
            if one.error is not None:
                if terminal is not None:
                    terminal.refused[place] = one.error
                results[place] = _answer(one.error, context)
            else:
                assert one.hand is not None
                status_code = 201 if one.created else 200
                results[place] = {"status": status_code, "body": one.hand.settlement}
        return Response({"results": results})

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        """DRF's, then each hand its own terminal posted and the server refused
        kept for the floor (:func:`cardroom.api.refusals.refused_hands_keep`)."""
        raw = refusals.posted_body(request)
        response = super().dispatch(request, *args, **kwargs)
        refusals.refused_hands_keep(request, kwargs["table"], raw, response, batch=True)
        return response


def _answer(error: Exception, context: dict[str, Any]) -> dict[str, Any]:
    """What ``POST hands`` answers for ``error``: its status and error object."""
    answer = exception_handler(error, context)
    if answer is None:
        raise error
    return {"status": answer.status_code, "body": answer.data}


class HandPhhApi(APIView):
    """A booked hand as a PHH hand history, for any PHH tool to replay."""

    permission_classes = [terminal_or_role(Role.FLOOR, Role.MANAGER, Role.AUDITOR)]

    @extend_schema(
        operation_id="api_v1_tables_hands_phh_retrieve",
        summary="A booked hand as PHH",
        description=(
            "The hand as booked, in the PHH format (a TOML text, "
            "https://github.com/uoftcprg/phh-std): its cards, who folded, showed or "
            "mucked, and each seat's chips that stayed in the pots posted before "
            "the cards (dead money as antes, the rest as blinds; in stud all as "
            "antes), "
            "so a PHH tool such as pokerkit replays it to the settlement's final "
            "stacks (before rake and drop; `finishing_stacks` are after them). "
            "`_cardroom` keeps the button, put_in, dead, straddle and the boards "
            "of a hand run more than once (a PHH tool deals the first run only). "
            "Amounts are in PHH chips of `unit` "
            "cents (default 1: amounts in cents). Games PHH has no variant for "
            "(PLO5, COURCHEVEL, SOKO) answer 400 `unknown_game`."
        ),
        parameters=[
            OpenApiParameter(
                "unit",
                {"type": "integer", "minimum": 1, "maximum": 10**6},
                description="Cents per PHH chip (1 or more; 100 for euros).",
                required=False,
            )
        ],
        responses={
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR, "The hand history, UTF-8 text."
            ),
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request: Request, table: str, hand_no: int) -> HttpResponse:
        unit = self.UnitSerializer(data=request.query_params)
        unit.is_valid(raise_exception=True)
        text = selectors.hand_phh(
            table_code=table, hand_no=hand_no, unit=unit.validated_data["unit"]
        )
        answer = HttpResponse(text, content_type="text/plain; charset=utf-8")
        answer["Content-Disposition"] = f'inline; filename="{table}-{hand_no}.phh"'
        return answer

    class UnitSerializer(serializers.Serializer):
        class Meta:
            ref_name = "PhhUnit"

        unit = serializers.IntegerField(min_value=1, max_value=10**6, default=1)


class VoidSerializer(serializers.Serializer):
    """A void of a hand and where it stands (RK8)."""

    class Meta:
        ref_name = "Void"

    id = serializers.IntegerField()
    table = serializers.CharField(source="hand.table.code")
    hand_no = serializers.IntegerField(source="hand.hand_no")
    reason = serializers.ChoiceField(choices=HandVoid.Reason.choices)
    status = serializers.ChoiceField(choices=HandVoid.Status.choices)
    hand_status = serializers.CharField(source="hand.status")
    needs_approval = serializers.BooleanField()
    requested_by = serializers.CharField(source="requested_by.username")
    decided_by = serializers.CharField(
        source="decided_by.username", allow_null=True, default=None
    )
    corrections = serializers.SerializerMethodField(
        help_text=(
            "RK8, DC2: the hand's booked corrections, which the void reverses with"
            " the hand (ids, newest first)."
        )
    )

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_corrections(self, void: HandVoid) -> list[int]:
        return list(
            selectors.corrections_booked(void.hand).values_list("pk", flat=True)
        )


class HandVoidApi(TableNotices, APIView):
    """A floor person voids the table's last hand: every contribution back (RK8).

    200 when booked at once; 202 when the hand took rake or drop and waits for a
    manager's approval (four-eyes, DC2).
    """

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "VoidInput"

        reason = serializers.ChoiceField(
            choices=HandVoid.Reason.choices,
            help_text="RK8: foul deck, misdeal before action, duplicate card.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: VoidSerializer,
            202: OpenApiResponse(VoidSerializer, "Waits for a manager (RK8)."),
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, table: str, hand_no: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        void = services.hand_void(
            table_code=table,
            hand_no=hand_no,
            reason=data.validated_data["reason"],
            by=staff(request),
        )
        booked = void.status == HandVoid.Status.BOOKED
        return Response(
            VoidSerializer(void).data,
            status=status.HTTP_200_OK if booked else status.HTTP_202_ACCEPTED,
        )


class VoidDecideApi(APIView):
    """A manager, not the floor person who asked, approves or rejects a void (RK8)."""

    permission_classes = [IsManager]
    approve = True

    @extend_schema(
        request=None,
        responses={
            200: VoidSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        void = get_object_or_404(HandVoid, pk=pk)
        decided = services.hand_void_decide(
            void=void, approve=self.approve, by=staff(request)
        )
        return Response(VoidSerializer(decided).data)


class StackReviewSerializer(serializers.Serializer):
    """Chips frozen because a table reported less than the ledger held (HS6)."""

    class Meta:
        ref_name = "StackReview"

    id = serializers.IntegerField()
    table = serializers.CharField(source="table.code")
    hand_no = serializers.IntegerField(source="hand.hand_no")
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player.code")
    reported = serializers.IntegerField(source="reported_cents")
    recorded = serializers.IntegerField(source="recorded_cents")
    frozen = serializers.IntegerField(source="amount_cents")
    status = serializers.ChoiceField(choices=StackReview.Status.choices)
    resolution = serializers.CharField()
    to_player = serializers.CharField(
        source="to_player.code", allow_null=True, default=None
    )
    reason = serializers.CharField()
    proposed_by = serializers.CharField(
        source="proposed_by.username", allow_null=True, default=None
    )
    approved_by = serializers.CharField(
        source="approved_by.username", allow_null=True, default=None
    )


class StackReviewListApi(APIView):
    """Stack reviews (HS6), open ones first; ``?status=`` filters."""

    permission_classes = [role_required(Role.FLOOR, Role.MANAGER, Role.AUDITOR)]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "StackReviewFilter"

        status = serializers.ChoiceField(
            choices=StackReview.Status.choices, required=False
        )

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: StackReviewSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        # An empty ?status= is outside the enum too, not "unfiltered".
        status = choice_param(request.query_params, "status", StackReview.Status.values)
        reviews = StackReview.objects.select_related(
            "table", "hand", "player", "to_player", "proposed_by", "approved_by"
        ).order_by("-id")
        if status is not None:
            reviews = reviews.filter(status=status)
        return Response(StackReviewSerializer(reviews[:500], many=True).data)


class StackReviewProposeApi(APIView):
    """A floor person proposes a release to the player or a correction (HS6)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "StackReviewProposal"

        resolution = serializers.ChoiceField(choices=StackReview.Resolution.choices)
        to_player = serializers.CharField(
            max_length=32,
            required=False,
            allow_null=True,
            help_text="A correction's player; none: the house's over/short.",
        )
        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: StackReviewSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        review = services.stack_review_propose(
            review=get_object_or_404(StackReview, pk=pk),
            resolution=v["resolution"],
            to_player=v.get("to_player"),
            reason=v["reason"],
            by=staff(request),
        )
        return Response(StackReviewSerializer(review).data)


class StackReviewApproveApi(APIView):
    """A manager, not the proposer, approves; the resolution is booked (HS6, DC2)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={
            200: StackReviewSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        review = services.stack_review_approve(
            review=get_object_or_404(StackReview, pk=pk), by=staff(request)
        )
        return Response(StackReviewSerializer(review).data)


class CorrectionSerializer(StrictSerializer):
    class Meta:
        ref_name = "Correction"
        # What each kind needs (HS7, HS8, DC3), as the service refuses it (400).
        required_when = {
            "hand_no": ("kind", ["pot_correction", "hold"], {"type": "integer"}),
            "from_player": (
                "kind",
                ["pot_correction", "hold", "receivable"],
                {"type": "string", "pattern": FILLED_TEXT_PATTERN},
            ),
            "to_player": (
                "kind",
                ["pot_correction", "release"],
                {"type": "string", "pattern": FILLED_TEXT_PATTERN},
            ),
            "held": ("kind", ["release"], {"type": "integer"}),
        }

    id = serializers.IntegerField(read_only=True)
    kind = serializers.ChoiceField(choices=Correction.Kind.choices)
    table = serializers.CharField(source="table.code")
    hand_no = StrictIntegerField(source="hand.hand_no", required=False, allow_null=True)
    from_player = serializers.CharField(
        source="from_player.code", required=False, allow_null=True
    )
    to_player = serializers.CharField(
        source="to_player.code", required=False, allow_null=True
    )
    held = StrictIntegerField(source="held_id", required=False, allow_null=True)
    amount = CentsField(source="amount_cents", min_value=1)
    reason = serializers.CharField(max_length=500)
    status = serializers.CharField(read_only=True)
    requested_by = serializers.CharField(source="requested_by.username", read_only=True)
    decided_by = serializers.CharField(
        source="decided_by.username", read_only=True, allow_null=True
    )


class CorrectionRequestApi(APIView):
    """Ask for a pot correction, a hold, a release or a receivable (floor)."""

    permission_classes = [IsFloor]

    @extend_schema(
        request=CorrectionSerializer,
        responses={201: CorrectionSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        correction = services.correction_request(
            kind=v["kind"],
            table_code=v["table"]["code"],
            hand_no=(v.get("hand") or {}).get("hand_no"),
            from_player=(v.get("from_player") or {}).get("code"),
            to_player=(v.get("to_player") or {}).get("code"),
            held_id=v.get("held_id"),
            amount=v["amount_cents"],
            reason=v["reason"],
            by=staff(request),
        )
        return Response(
            CorrectionSerializer(correction).data, status=status.HTTP_201_CREATED
        )


class CorrectionDecideApi(APIView):
    """Approve (and book) or reject a correction: another floor person (DC2)."""

    permission_classes = [IsFloor]
    approve = True

    @extend_schema(request=None, responses={200: CorrectionSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        correction = get_object_or_404(Correction, pk=pk)
        decided = services.correction_decide(
            correction=correction, approve=self.approve, by=staff(request)
        )
        return Response(CorrectionSerializer(decided).data)


class AwayApi(TableNotices, APIView):
    """The player steps away from his seat; ``long_break`` once a night (BI9)."""

    permission_classes = [TerminalOrFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "AwayInput"

        long_break = serializers.BooleanField(default=False)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Absence"

        seat = serializers.IntegerField(source="session.seat")
        player = serializers.CharField(source="player.code")
        long_break = serializers.BooleanField()
        started_at = serializers.DateTimeField()
        ended_at = serializers.DateTimeField(allow_null=True)

    @extend_schema(
        request=InputSerializer, responses={201: OutputSerializer, 422: ErrorSerializer}
    )
    def post(self, request: Request, table: str, seat: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        absence = services.seat_away(
            table_code=table, seat=seat, long_break=data.validated_data["long_break"]
        )
        return Response(
            self.OutputSerializer(absence).data, status=status.HTTP_201_CREATED
        )


class BackApi(TableNotices, APIView):
    """The player is back at his seat (BI9)."""

    permission_classes = [TerminalOrFloor]

    @extend_schema(request=None, responses={200: AwayApi.OutputSerializer})
    def post(self, request: Request, table: str, seat: int) -> Response:
        absence = services.seat_back(table_code=table, seat=seat)
        return Response(AwayApi.OutputSerializer(absence).data)


class PickUpApi(TableNotices, APIView):
    """After 30 minutes away, the floor picks up his chips into custody (BI9)."""

    permission_classes = [IsFloor]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "PickUp"

        player = serializers.CharField()
        in_custody = serializers.IntegerField()

    @extend_schema(
        request=None, responses={200: OutputSerializer, 422: ErrorSerializer}
    )
    @idempotent
    def post(self, request: Request, table: str, seat: int) -> Response:
        session = services.seat_pick_up(table_code=table, seat=seat, by=staff(request))
        return Response(
            {"player": session.player.code, "in_custody": session.left_with_cents}
        )


class CustodyReturnApi(APIView):
    """Give a player back the chips held in custody for him (BI9)."""

    permission_classes = [IsFloor]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CustodyReturn"

        player = serializers.CharField()
        returned = serializers.IntegerField()

    @extend_schema(
        request=None, responses={200: OutputSerializer, 422: ErrorSerializer}
    )
    @idempotent
    def post(self, request: Request, player: str) -> Response:
        held = services.custody_return(player_code=player, by=staff(request))
        return Response({"player": player, "returned": held})
