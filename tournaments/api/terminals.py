"""Endpoints for tournament terminals, clocks and the floor (TO4, TO11, TO12).

The same keys, idempotency and error shape as the tables' hand API (API.md): a
table's terminal posts busts and chip counts for its own table while it plays in
the event; the floor runs the clock, draws seats and balances the tables; the
room's clocks read the clock. Thin views: each validates its input, calls one
service and shapes its answer.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.auth import Terminal, terminal_or_role
from cardroom.models import TerminalKey
from core.api.fields import StrictIntegerField, StrictSerializer
from core.api.permissions import IsFloor, staff
from core.api.schema import ErrorSerializer
from core.idempotency import idempotent
from core.roles import Role, has_role
from tournaments import selectors, services
from tournaments.domain.clock import TAKES, Action
from tournaments.errors import Code, forbidden
from tournaments.models import Event, EventTable

# A table's terminal, or the floor acting for it.
TerminalOrFloor = terminal_or_role(Role.FLOOR, Role.MANAGER)


STAFF_READERS = (Role.FLOOR, Role.MANAGER, Role.CASHIER, Role.AUDITOR)
# A table's own terminal, or the staff who work the event.
TerminalOrStaff = terminal_or_role(*STAFF_READERS)


class ClockReader(BasePermission):
    """Let in the staff who work the event (terminals read their table's URL)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return has_role(request.user, *STAFF_READERS)


def _actor(request: Request) -> dict[str, Any]:
    """Who acts: a staff member (``by``) or a table's terminal (``source``)."""
    if isinstance(request.user, Terminal):
        return {"by": None, "source": f"terminal:{request.user.key.table.code}"}
    return {"by": staff(request), "source": ""}


def _event_for(request: Request, code: str, table: str | None = None) -> Event:
    """Return the event; a terminal must belong to one of its open tables.

    Raises ``NotFound`` for an unknown event and :class:`Forbidden` (TO11) for a
    terminal whose table doesn't play in it.
    """
    event = services.event_get(code=code)
    if isinstance(request.auth, TerminalKey):
        mine = request.auth.table.code
        playing = EventTable.objects.filter(
            event=event, table=mine, status=EventTable.Status.OPEN
        ).exists()
        if not playing or (table is not None and table != mine):
            raise forbidden(
                Code.NOT_AN_EVENT_TABLE,
                text="terminal",
                rule="TO11",
                table=mine,
                event=event.code,
            )
    return event


class NextLevelSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentNextLevel"

    level = serializers.IntegerField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    big_blind_ante = serializers.BooleanField()


class ClockSerializer(serializers.Serializer):
    """What a tournament clock shows (TO12). Chips in chips, money in cents."""

    class Meta:
        ref_name = "TournamentClock"

    event = serializers.CharField()
    name = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["not_started", "running", "paused", "stopped"]
    )
    level = serializers.IntegerField(help_text="Blind level, from 1; breaks aren't.")
    on_break = serializers.BooleanField()
    small_blind = serializers.IntegerField(allow_null=True)
    big_blind = serializers.IntegerField(allow_null=True)
    ante = serializers.IntegerField(allow_null=True)
    big_blind_ante = serializers.BooleanField()
    seconds_left = serializers.IntegerField()
    next_level = NextLevelSerializer(allow_null=True)
    next_break_in = serializers.IntegerField(
        allow_null=True, help_text="Seconds to the next break, if any."
    )
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField()
    average_stack = serializers.IntegerField()
    chips_in_play = serializers.IntegerField()
    prize_pool = serializers.IntegerField(
        help_text="Cents: the real pool, the buy-ins held (TO7); with the overlay "
        "once a payout sheet has fixed it."
    )
    currency = serializers.CharField()
    places_paid = serializers.IntegerField()
    guarantee = serializers.IntegerField(
        help_text="Cents the house guarantees the pool (TO7); 0 for none."
    )
    structure_level = serializers.IntegerField(
        help_text="The structure's level number on the clock, breaks counted, 0 "
        "before the start: what the event's late-registration, rebuy and add-on "
        "levels name, and what a cage request's `level` says (TO1)."
    )
    registration_open = serializers.BooleanField(
        help_text="Late registration is open by this clock (TO1)."
    )
    rebuys_open = serializers.BooleanField(
        help_text="The rebuy period is on by this clock (TO1)."
    )
    addon_open = serializers.BooleanField(
        help_text="The add-on is sold now by this clock (TO1)."
    )


class ClockApi(APIView):
    """The event's clock (TO12): read by the staff who work it; run by the floor
    (start, pause, resume, move, add time, stop), every change logged.

    ``start`` starts a scheduled event too (busts are taken from then on, TO4);
    ``stop`` stops the clock only, closing registration, rebuys and the add-on
    (TO1): the event finishes when its winner is known. A ``level`` or
    ``seconds`` the action doesn't take is refused (400, ``clock_field_not_taken``),
    as the schema says (``Meta.only_when``).
    """

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "POST":
            return [IsFloor()]
        return [ClockReader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentClockChange"
            # What each action takes (TO12), as check_fields refuses it (400).
            only_when = {
                name: ("action", sorted(a.value for a, t in TAKES.items() if name in t))
                for name in ("level", "seconds")
            }

        action = serializers.ChoiceField(choices=[a.value for a in Action])
        level = StrictIntegerField(
            min_value=1,
            max_value=32_767,
            required=False,
            allow_null=True,
            help_text="start, move only: the structure's level number (breaks count).",
        )
        seconds = StrictIntegerField(
            required=False,
            allow_null=True,
            min_value=-86_400,
            max_value=86_400,
            help_text="start, move: time left there (default all of it); "
            "add_time (required): seconds added (negative: taken away); no other "
            "action takes it.",
        )
        reason = serializers.CharField(
            max_length=200, required=False, allow_blank=True, default=""
        )

    @extend_schema(responses={200: ClockSerializer, 403: ErrorSerializer})
    def get(self, request: Request, event: str) -> Response:
        obj = _event_for(request, event)
        return Response(ClockSerializer(selectors.clock_shown(obj)).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: ClockSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        now = timezone.now()
        services.clock_change(
            event_code=event,
            action=v["action"],
            level=v.get("level"),
            seconds=v.get("seconds"),
            reason=v["reason"],
            now=now,
            **_actor(request),
        )
        obj = services.event_get(code=event)
        return Response(ClockSerializer(selectors.clock_shown(obj, now=now)).data)


class TableClockApi(APIView):
    """The event's clock for one of its tables' terminals (TO12): a new level
    starts with the table's next hand."""

    permission_classes = [TerminalOrStaff]

    @extend_schema(responses={200: ClockSerializer, 403: ErrorSerializer})
    def get(self, request: Request, event: str, table: str) -> Response:
        obj = _event_for(request, event, table)
        return Response(ClockSerializer(selectors.clock_shown(obj)).data)


class SeatSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentSeat"

    seat = serializers.IntegerField()
    entry = serializers.IntegerField(allow_null=True)
    player = serializers.CharField(allow_null=True)


class MapTableSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentMapTable"

    table = serializers.CharField()
    seats = serializers.IntegerField()
    break_order = serializers.IntegerField()
    players = serializers.IntegerField()
    halted = serializers.BooleanField(
        help_text="TDA R12: three or more players short of the longest table."
    )
    seated = SeatSerializer(many=True)


class TablesApi(APIView):
    """The floor's map of the event: its open tables, seat by seat (TO11)."""

    permission_classes = [IsFloor]

    @extend_schema(responses={200: MapTableSerializer(many=True)})
    def get(self, request: Request, event: str) -> Response:
        obj = services.event_get(code=event)
        return Response(MapTableSerializer(selectors.table_map(obj), many=True).data)


class MoveSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentSeatMove"

    entry = serializers.IntegerField(source="entry.number")
    player = serializers.CharField(source="entry.player.code")
    reason = serializers.CharField()
    from_table = serializers.CharField()
    from_seat = serializers.IntegerField(allow_null=True)
    to_table = serializers.CharField()
    to_seat = serializers.IntegerField()
    seed = serializers.CharField()


class SeatDrawApi(APIView):
    """Draw random seats for the event's live entries without one (TO2, TO11)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentSeatDraw"

        entries = serializers.ListField(
            child=StrictIntegerField(min_value=1, max_value=2**31 - 1),
            required=False,
            help_text="Entry numbers to seat (default: every live entry unseated).",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: MoveSerializer(many=True), 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        numbers = data.validated_data.get("entries")
        obj = services.event_get(code=event)
        ids = None
        if numbers is not None:
            ids = list(
                obj.entries.filter(number__in=numbers).values_list("pk", flat=True)
            )
        moves = services.seats_draw(event_code=event, entries=ids, by=staff(request))
        return Response(
            MoveSerializer(moves, many=True).data, status=status.HTTP_201_CREATED
        )


class RebalanceApi(APIView):
    """Break what can break and balance the rest (TO11, TDA R11, R12)."""

    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentRebalance"

        big_blinds = serializers.DictField(
            child=StrictIntegerField(min_value=1, max_value=11),
            required=False,
            help_text="Per table, the seat that posted the big blind last hand.",
        )
        stud = serializers.BooleanField(default=False)
        tolerance = StrictIntegerField(min_value=1, max_value=3, default=1)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TournamentRebalanceResult"

        broken = serializers.ListField(child=serializers.CharField())
        moves = MoveSerializer(many=True)
        seed = serializers.CharField()

    @extend_schema(
        request=InputSerializer, responses={200: OutputSerializer, 422: ErrorSerializer}
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        done = services.tables_rebalance(
            event_code=event,
            big_blinds=v.get("big_blinds"),
            stud=v["stud"],
            tolerance=v["tolerance"],
            by=staff(request),
        )
        out = {
            "broken": list(done.broken),
            "moves": list(done.moves),
            "seed": done.seed,
        }
        return Response(self.OutputSerializer(out).data)


class ChipCountApi(APIView):
    """A table's chips counted, from its terminal or the floor (TO3)."""

    permission_classes = [TerminalOrFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentChipCountInput"

        chips = StrictIntegerField(min_value=0, help_text="The table's chips counted.")

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TournamentChipCount"

        table = serializers.CharField()
        chips = serializers.IntegerField()
        at = serializers.DateTimeField()

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer, 403: ErrorSerializer, 422: ErrorSerializer},
    )
    @idempotent
    def post(self, request: Request, event: str, table: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        obj = _event_for(request, event, table)
        count = services.chip_count_report(
            event=obj,
            table=table,
            chips=data.validated_data["chips"],
            **_actor(request),
        )
        return Response(
            self.OutputSerializer(count).data, status=status.HTTP_201_CREATED
        )


class BustInputSerializer(StrictSerializer):
    class Meta:
        ref_name = "TournamentBustInput"

    player = serializers.CharField(max_length=32)
    stack = StrictIntegerField(
        min_value=0,
        help_text="Chips at the start of the hand (after posting, big-blind ante).",
    )
    busted_by = serializers.ListField(
        child=serializers.CharField(max_length=32),
        required=False,
        default=list,
        help_text="Who won his chips (the bounty's winners, TO8).",
    )


class BustsInputSerializer(StrictSerializer):
    class Meta:
        ref_name = "TournamentBustsInput"

    hand = serializers.CharField(max_length=48, help_text="The hand's number or key.")
    hand_for_hand = serializers.BooleanField(default=False)
    busts = BustInputSerializer(many=True, allow_empty=False)


class BustSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TournamentBust"

    entry = serializers.IntegerField(source="entry.number")
    player = serializers.CharField(source="entry.player.code")
    hand = serializers.CharField()
    stack = serializers.IntegerField(source="stack_at_start")
    place_high = serializers.IntegerField(help_text="The best place he shares.")
    place_low = serializers.IntegerField(help_text="The worst place he shares.")
    hand_for_hand = serializers.BooleanField()


def _bust_answer(request: Request, event: str, table: str | None) -> Response:
    data = BustsInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    if table is not None:
        _event_for(request, event, table)
    done, new = services.busts_report(
        event_code=event,
        table=table,
        hand=v["hand"],
        hand_for_hand=v["hand_for_hand"],
        busts=[
            services.BustReport(b["player"], b["stack"], tuple(b["busted_by"]))
            for b in v["busts"]
        ],
        **_actor(request),
    )
    return Response(
        BustSerializer(done, many=True).data,
        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK,
    )


class BustsApi(APIView):
    """The players out in one hand at a table, from its terminal or the floor
    (TO4, TO8): places by the stacks at the start of the hand. The same hand again
    answers 200 with what was recorded; other busts for it, 409."""

    permission_classes = [TerminalOrFloor]

    @extend_schema(
        request=BustsInputSerializer,
        responses={
            201: BustSerializer(many=True),
            200: BustSerializer(many=True),
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, event: str, table: str) -> Response:
        return _bust_answer(request, event, table)


class HandForHandBustsApi(APIView):
    """The players out at every table in one hand-for-hand hand, from the floor:
    they share the places of that hand (TO4, TDA RP-8-A)."""

    permission_classes = [IsFloor]

    @extend_schema(
        request=BustsInputSerializer,
        responses={
            201: BustSerializer(many=True),
            200: BustSerializer(many=True),
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        return _bust_answer(request, event, None)
