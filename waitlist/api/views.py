"""The waiting lists' REST endpoints for the floor, the time collection for terminals,
and the public board's JSON (WL1–WL11, RK6).

Thin views: each validates its input, calls one service or selector and shapes the
answer. Floor endpoints need the floor or manager role; the board needs no login.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api.views import ErrorSerializer
from cardroom.auth import Terminal, terminal_or_role
from cardroom.models import Room, StackMovement
from core.api.fields import (
    CentsField,
    StrictIntegerField,
    StrictModelSerializer,
    StrictSerializer,
    choice_param,
)
from core.api.permissions import IsFloor, staff
from core.idempotency import idempotent
from core.roles import Role
from waitlist import selectors, services
from waitlist.domain.board import board_name
from waitlist.models import Entry, Event, KeptApart, Lockup, MustMove, TimeCollection
from waitlist.views import board_language

TerminalOrFloor = terminal_or_role(Role.FLOOR, Role.MANAGER)


def _actor(request: Request) -> dict[str, Any]:
    """Who acts: a staff member (``by``) or a table's terminal (``source``)."""
    if isinstance(request.user, Terminal):
        return {"by": None, "source": f"terminal:{request.user.key.table.code}"}
    return {"by": staff(request), "source": ""}


def _code(obj: Any) -> str | None:
    return obj.code if obj is not None else None


class EntrySerializer(serializers.ModelSerializer):
    """A player's place on a list, as the floor sees it (full name and id)."""

    list = serializers.CharField(source="waiting_list.key")
    player = serializers.CharField(source="player.code")
    name = serializers.CharField(source="player.name")
    board_name = serializers.SerializerMethodField()
    for_table = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField(help_text="The table he is called to.")
    seat = serializers.IntegerField(source="call_seat", allow_null=True)
    seat_wanted = serializers.IntegerField(source="seat", allow_null=True)

    class Meta:
        model = Entry
        ref_name = "WaitingListEntry"
        fields = [
            "id",
            "list",
            "player",
            "name",
            "board_name",
            "kind",
            "status",
            "joined_at",
            "draw_no",
            "for_table",
            "seat_wanted",
            "called_at",
            "expires_at",
            "answered_at",
            "table",
            "seat",
            "ended_at",
            "end",
        ]

    def get_board_name(self, obj: Entry) -> str:
        return board_name(obj.player.nickname, obj.player.name)

    def get_for_table(self, obj: Entry) -> str | None:
        return _code(obj.table)

    def get_table(self, obj: Entry) -> str | None:
        return _code(obj.call_table)


class ListSerializer(serializers.Serializer):
    class Meta:
        ref_name = "WaitingList"

    list = serializers.CharField()
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    entries = EntrySerializer(many=True)


def _list_out(waiting_list: Any) -> dict[str, Any]:
    game = waiting_list.game
    return {
        "list": waiting_list.key,
        "game": game.code,
        "small_blind": game.small_blind_cents,
        "big_blind": game.big_blind_cents,
        "entries": EntrySerializer(selectors.queue(waiting_list), many=True).data,
    }


class ListsApi(APIView):
    """Every game's list in call order, after the timers are applied (WL1–WL10)."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: ListSerializer(many=True)})
    def get(self, request: Request) -> Response:
        services.timers_sweep()
        lists = selectors.all_lists()
        return Response([_list_out(wl) for wl in lists])


class ListDetailApi(APIView):
    """One game's list, ``NLHE-100-200``, in call order after the timers (WL2, WL8)."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: ListSerializer, 404: ErrorSerializer})
    def get(self, request: Request, key: str) -> Response:
        waiting_list = selectors.list_by_key(key)
        services.list_refresh(waiting_list=waiting_list)
        return Response(_list_out(waiting_list))


class JoinApi(APIView):
    """Put a player on a game's list (WL1)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "JoinInput"

        player = serializers.CharField(max_length=32)

    @extend_schema(
        request=InputSerializer,
        responses={201: EntrySerializer, 404: ErrorSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request, key: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_join(
            waiting_list=selectors.list_by_key(key),
            player_code=data.validated_data["player"],
            **_actor(request),
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class CallApi(APIView):
    """Call the next player for an open seat (WL2–WL4, WL7, WL9, WL10).

    201 with the entry called, whose call holds the seat for 5 minutes; 200 with
    ``entry`` null when nobody in the queue can take it. ``skipped`` lists who was
    passed over and why.
    """

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CallInput"
            requires = {"seat": ["table"]}  # as validate() refuses

        table = serializers.SlugField(
            max_length=16,
            required=False,
            help_text="Omitted: the table a new player goes to (WL4).",
        )
        seat = StrictIntegerField(min_value=1, max_value=12, required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "seat" in attrs and "table" not in attrs:
                raise serializers.ValidationError(
                    {"seat": "A seat comes with its table."}
                )
            return attrs

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CallOutput"

        entry = EntrySerializer(allow_null=True)
        skipped = serializers.ListField(child=serializers.DictField())

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            200: OutputSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, key: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.list_call(
            waiting_list=selectors.list_by_key(key),
            table_code=data.validated_data.get("table"),
            seat=data.validated_data.get("seat"),
            **_actor(request),
        )
        body = {
            "entry": EntrySerializer(result.entry).data if result.entry else None,
            "skipped": result.skipped,
        }
        called = status.HTTP_201_CREATED if result.entry else status.HTTP_200_OK
        return Response(body, status=called)


class EntryDetailApi(APIView):
    """One entry, with its events: who did what, when and why."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: EntrySerializer, 404: ErrorSerializer})
    def get(self, request: Request, pk: int) -> Response:
        entry = get_object_or_404(Entry, pk=pk)
        services.list_refresh(waiting_list=entry.waiting_list)
        entry.refresh_from_db()
        out = dict(EntrySerializer(entry).data)
        out["events"] = EventSerializer(entry.events.all(), many=True).data
        return Response(out)


class AnswerApi(APIView):
    """The called player's answer: on his way, or no (WL2, WL5, WL7)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "AnswerInput"

        accept = serializers.BooleanField()

    @extend_schema(
        request=InputSerializer,
        responses={200: EntrySerializer, 409: ErrorSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_answer(
            entry_id=pk, accept=data.validated_data["accept"], **_actor(request)
        )
        return Response(EntrySerializer(entry).data)


class SeatApi(APIView):
    """Seat the called player: a house move keeps his stack (BI7), a seated player
    moves under BI5 (WL5), a new player buys in with ``amount`` and ``method``."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "WaitlistSeatInput"
            requires = {"amount": ["method"]}  # as validate() refuses

        seat = StrictIntegerField(min_value=1, max_value=12, required=False)
        amount = CentsField(min_value=1, required=False)
        method = serializers.ChoiceField(
            choices=StackMovement.Method.choices, required=False
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "amount" in attrs and "method" not in attrs:
                raise serializers.ValidationError(
                    {"method": "An amount comes with its method: cash or chips."}
                )
            return attrs

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "WaitlistSeatOutput"

        entry = EntrySerializer()
        table = serializers.CharField()
        seat = serializers.IntegerField()
        stack = serializers.IntegerField()
        kind = serializers.CharField()
        house_move = serializers.BooleanField()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        entry, session = services.entry_seat(
            entry_id=pk,
            seat=v.get("seat"),
            amount=v.get("amount"),
            method=v.get("method"),
            **_actor(request),
        )
        out = {
            "entry": EntrySerializer(entry).data,
            "table": session.table.code,
            "seat": session.seat,
            "stack": session.stack_cents,
            "kind": session.kind,
            "house_move": session.house_move,
        }
        return Response(out, status=status.HTTP_201_CREATED)


class TableCallSeatApi(SeatApi):
    """Seat a player the floor called to this table, from the table's terminal
    (or the floor): the same seating as ``entries/{pk}/seat`` (WL2, WL5, BI5, BI7),
    so the call ends as seated and his other calls go back to waiting. Another
    table's call is not this table's to seat (404)."""

    permission_classes = [TerminalOrFloor]

    @extend_schema(
        operation_id="table_call_seat",
        request=SeatApi.InputSerializer,
        responses={
            201: SeatApi.OutputSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    def post(self, request: Request, table: str, pk: int) -> Response:
        services.entry_called_to(entry_id=pk, table_code=table)
        return super().post(request, pk)


class RemoveApi(APIView):
    """Take a player off a list; a call frees its seat."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "RemoveInput"

        reason = serializers.CharField(max_length=300, required=False, default="")

    @extend_schema(
        request=InputSerializer, responses={200: EntrySerializer, 409: ErrorSerializer}
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_remove(
            entry_id=pk, reason=data.validated_data["reason"], **_actor(request)
        )
        return Response(EntrySerializer(entry).data)


class SeatChangeApi(APIView):
    """A seated player asks for another seat or table of his game (WL10)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "SeatChangeInput"

        player = serializers.CharField(max_length=32)
        table = serializers.SlugField(max_length=16)
        seat = StrictIntegerField(min_value=1, max_value=12, required=False)

    @extend_schema(
        request=InputSerializer,
        responses={201: EntrySerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        entry = services.seat_change_request(
            player_code=v["player"],
            table_code=v["table"],
            seat=v.get("seat"),
            **_actor(request),
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class BreakApi(APIView):
    """Break a table: a recorded draw, house moves to free seats, priority (WL3)."""

    permission_classes = [IsFloor]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableBreak"

        table = serializers.CharField()
        seed = serializers.IntegerField()
        draw = serializers.ListField(child=serializers.CharField())
        moved = serializers.ListField(child=serializers.DictField())
        waiting = EntrySerializer(many=True)

    @extend_schema(
        request=None,
        responses={200: OutputSerializer, 409: ErrorSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request, table: str) -> Response:
        result = services.table_break(table_code=table, **_actor(request))
        return Response(
            {
                "table": table,
                "seed": result.broken.seed,
                "draw": result.broken.order,
                "moved": result.moved,
                "waiting": EntrySerializer(result.waiting, many=True).data,
            }
        )


class BalanceApi(APIView):
    """Balance tables of a game: move a player to a shorter table (BI7)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TableBalanceInput"

        seat = StrictIntegerField(min_value=1, max_value=12)
        to = serializers.SlugField(max_length=16, help_text="The shorter table.")
        to_seat = StrictIntegerField(min_value=1, max_value=12, required=False)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableBalanceOutput"

        player = serializers.CharField()
        table = serializers.CharField()
        seat = serializers.IntegerField()
        stack = serializers.IntegerField(help_text="The stack the ledger held.")
        house_move = serializers.BooleanField()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, table: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        session = services.table_balance(
            table_code=table,
            seat=v["seat"],
            to_table=v["to"],
            to_seat=v.get("to_seat"),
            **_actor(request),
        )
        out = {
            "player": session.player.code,
            "table": session.table.code,
            "seat": session.seat,
            "stack": session.stack_cents,
            "house_move": session.house_move,
        }
        return Response(out, status=status.HTTP_201_CREATED)


class MustMoveSerializer(StrictModelSerializer):
    table = serializers.CharField(source="table.code")
    main = serializers.CharField(source="main.code")

    class Meta:
        model = MustMove
        ref_name = "MustMove"
        fields = ["id", "table", "main", "started_at", "ended_at"]
        read_only_fields = ["started_at", "ended_at"]


class MustMovesApi(APIView):
    """Must-move games (WL7): list the running ones, or start one."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: MustMoveSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = MustMove.objects.select_related("table", "main").filter(
            ended_at__isnull=True
        )
        return Response(MustMoveSerializer(rows, many=True).data)

    @extend_schema(
        request=MustMoveSerializer,
        responses={201: MustMoveSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = MustMoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        must_move = services.must_move_start(
            table_code=v["table"]["code"],
            main_code=v["main"]["code"],
            **_actor(request),
        )
        return Response(
            MustMoveSerializer(must_move).data, status=status.HTTP_201_CREATED
        )


class MustMoveEndApi(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=None, responses={200: MustMoveSerializer})
    def post(self, request: Request, pk: int) -> Response:
        must_move = services.must_move_end(must_move_id=pk, **_actor(request))
        return Response(MustMoveSerializer(must_move).data)


class LockupSerializer(StrictModelSerializer):
    table = serializers.CharField(source="table.code")
    player = serializers.CharField(
        source="player.code", required=False, allow_null=True
    )

    class Meta:
        model = Lockup
        ref_name = "Lockup"
        fields = [
            "id",
            "table",
            "seat",
            "player",
            "kind",
            "note",
            "locked_at",
            "released_at",
            "release",
        ]
        read_only_fields = ["locked_at", "released_at", "release"]
        extra_kwargs = {"seat": {"required": True, "allow_null": False}}


class LockupsApi(APIView):
    """Seats held for players on their way (WL8): the held ones, or hold one."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: LockupSerializer(many=True)})
    def get(self, request: Request) -> Response:
        services.timers_sweep()
        rows = Lockup.objects.select_related("table", "player").filter(
            released_at__isnull=True
        )
        return Response(LockupSerializer(rows, many=True).data)

    @extend_schema(
        request=LockupSerializer,
        responses={201: LockupSerializer, 409: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = LockupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        lockup = services.lockup_take(
            table_code=v["table"]["code"],
            seat=v["seat"],
            kind=v.get("kind", Lockup.Kind.SEAT),
            player_code=(v.get("player") or {}).get("code"),
            note=v.get("note", ""),
            **_actor(request),
        )
        return Response(LockupSerializer(lockup).data, status=status.HTTP_201_CREATED)


class LockupReleaseApi(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=None, responses={200: LockupSerializer})
    def post(self, request: Request, pk: int) -> Response:
        lockup = services.lockup_release(lockup_id=pk, **_actor(request))
        return Response(LockupSerializer(lockup).data)


class KeptApartSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()

    class Meta:
        model = KeptApart
        ref_name = "KeptApart"
        fields = ["id", "players", "reason", "created_at", "ended_at"]

    def get_players(self, obj: KeptApart) -> list[str]:
        return [obj.player_a.code, obj.player_b.code]


class KeptApartApi(APIView):
    """Pairs the house keeps out of the same game (WL9)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "KeptApartInput"

        players = serializers.ListField(
            child=serializers.CharField(max_length=32), min_length=2, max_length=2
        )
        reason = serializers.CharField(max_length=300)

    @extend_schema(responses={200: KeptApartSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = KeptApart.objects.select_related("player_a", "player_b").filter(
            ended_at__isnull=True
        )
        return Response(KeptApartSerializer(rows, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: KeptApartSerializer, 422: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        a, b = data.validated_data["players"]
        pair = services.kept_apart_start(
            player_codes=(a, b),
            reason=data.validated_data["reason"],
            **_actor(request),
        )
        return Response(KeptApartSerializer(pair).data, status=status.HTTP_201_CREATED)


class KeptApartEndApi(APIView):
    permission_classes = [IsFloor]

    @extend_schema(request=None, responses={200: KeptApartSerializer})
    def post(self, request: Request, pk: int) -> Response:
        pair = services.kept_apart_end(pair_id=pk, **_actor(request))
        return Response(KeptApartSerializer(pair).data)


class EventSerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    list = serializers.SerializerMethodField()
    by = serializers.SerializerMethodField()

    class Meta:
        model = Event
        ref_name = "WaitingListEvent"
        fields = [
            "id",
            "at",
            "kind",
            "rule",
            "reason",
            "details",
            "list",
            "entry",
            "table",
            "player",
            "by",
            "source",
        ]

    def get_player(self, obj: Event) -> str | None:
        return _code(obj.player)

    def get_table(self, obj: Event) -> str | None:
        return _code(obj.table)

    def get_list(self, obj: Event) -> str | None:
        return obj.waiting_list.key if obj.waiting_list else None

    def get_by(self, obj: Event) -> str | None:
        return obj.by.get_username() if obj.by else None


class EventsApi(APIView):
    """The decisions about waiting and seating, newest first (who, when, why)."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: EventSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = Event.objects.select_related(
            "player", "table", "waiting_list__game", "by"
        ).order_by("-at", "-pk")
        if player := request.query_params.get("player"):
            rows = rows.filter(player__code=player)
        if table := request.query_params.get("table"):
            rows = rows.filter(table__code=table)
        if key := request.query_params.get("list"):
            rows = rows.filter(waiting_list=selectors.list_by_key(key))
        return Response(EventSerializer(rows[:500], many=True).data)


class TimeCollectionApi(APIView):
    """Collect the period's time from the seats (RK6), once per period.

    201 when booked now, 200 with the same collection when the period was
    collected already.
    """

    permission_classes = [TerminalOrFloor]

    class OutputSerializer(serializers.ModelSerializer):
        table = serializers.CharField(source="table.code")
        amount = serializers.IntegerField(source="amount_cents")
        total = serializers.IntegerField(source="total_cents")

        class Meta:
            model = TimeCollection
            ref_name = "TimeCollection"
            fields = [
                "table",
                "period_start",
                "period_end",
                "collected_at",
                "amount",
                "waiting",
                "everyone_pays",
                "charged",
                "exempt",
                "total",
            ]

    @extend_schema(
        request=None,
        responses={
            201: OutputSerializer,
            200: OutputSerializer,
            404: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, table: str) -> Response:
        collection, created = services.time_collect(table_code=table, **_actor(request))
        return Response(
            self.OutputSerializer(collection).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


BOARD_LANGUAGE = OpenApiParameter(
    "lang",
    OpenApiTypes.STR,
    enum=[code for code, _name in settings.LANGUAGES],
    description="The language the texts (money, stakes) are written in: the "
    "board's, as `/board?lang=` shows it. Absent: the room's, else the "
    "browser's (Accept-Language).",
)


def board_data_language(request: Request) -> str:
    """Return the language a board's data is written in (WL11): ``?lang=`` when
    given, one of the room's languages (anything else is refused, 400), else the
    board's own (:func:`waitlist.views.board_language`)."""
    choice_param(
        request.query_params, "lang", [code for code, _name in settings.LANGUAGES]
    )
    return board_language(request._request, Room.objects.order_by("pk").first())


class BoardSerializer(serializers.Serializer):
    """The public board (WL11): what the room's screens show, nothing more.

    Amounts are cents; each has its text beside it, written in the board's
    language by the one money formatter (core.money, Babel's CLDR formats), which
    the board shows as it is.
    """

    class Meta:
        ref_name = "Board"

    class GameSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BoardGame"

        class TableSerializer(serializers.Serializer):
            class Meta:
                ref_name = "BoardTable"

            table = serializers.CharField()
            seats = serializers.IntegerField()
            players = serializers.IntegerField()
            free = serializers.IntegerField(help_text="Seats neither taken nor held.")

        class WaitingSerializer(serializers.Serializer):
            class Meta:
                ref_name = "BoardWaiting"

            position = serializers.IntegerField()
            name = serializers.CharField(help_text="Nickname, else initials.")
            called = serializers.BooleanField()
            table = serializers.CharField(allow_null=True)

        game = serializers.CharField()
        stakes = serializers.CharField(
            help_text='The blinds in units of the currency, in `language`: "1/2", '
            '"0.50/1" ("0,50/1" in Finnish).'
        )
        small_blind = serializers.IntegerField(help_text="Cents.")
        big_blind = serializers.IntegerField(help_text="Cents.")
        tables = TableSerializer(many=True)
        seats_free = serializers.IntegerField()
        waiting = WaitingSerializer(many=True)

    class JackpotSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BoardJackpot"

        name = serializers.CharField()
        amount = serializers.IntegerField(
            help_text="Cents: the pool's ledger balance (JD6)."
        )
        amount_text = serializers.CharField(
            help_text='`amount` written in `language`: "€12,345", "12 345 €".'
        )
        reserve = serializers.IntegerField(allow_null=True, help_text="Cents.")
        reserve_text = serializers.CharField(
            allow_null=True, help_text="`reserve` written in `language`."
        )
        currency = serializers.CharField()

    room = serializers.CharField()
    currency = serializers.CharField()
    language = serializers.CharField(
        help_text="The language the texts are written in (`?lang=`)."
    )
    at = serializers.DateTimeField()
    games = GameSerializer(many=True)
    jackpots = JackpotSerializer(many=True)


class BoardApi(APIView):
    """The public board's data (WL11): open games, lists by nickname or initials,
    jackpot amounts. No login, and no player data beyond that."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        auth=[],
        parameters=[BOARD_LANGUAGE],
        responses={200: BoardSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        language = board_data_language(request)
        now = timezone.now()
        services.timers_sweep(now=now)
        board = selectors.board(now=now, language=language)
        response = Response(BoardSerializer(board).data)
        response["Cache-Control"] = "no-store"
        response["Content-Language"] = language
        patch_vary_headers(response, ["Accept-Language"])
        return response
