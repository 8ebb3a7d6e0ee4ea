"""What a table's terminal reads to deal, and the settlement it shows before it
posts a hand (API.md "Table terminal": ``GET state``, ``POST hands/preview``).

Thin views over :func:`cardroom.selectors.table_state` and
:func:`cardroom.services.hand_preview`: a terminal reads its own table only (403
for another), the floor any table.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom import selectors, services
from cardroom.api.contract import (
    HandRecordSerializer,
    PolicySerializer,
    SettlementSerializer,
)
from cardroom.api.views import (
    TableNotices,
    TableNoticeSerializer,
    TerminalOrFloor,
    hand_body,
)
from core.api.schema import ErrorSerializer


class StateTableSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableStateTable"

    code = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    seats = serializers.IntegerField()
    status = serializers.CharField()
    gaming_day = serializers.DateField(allow_null=True)
    opened_at = serializers.DateTimeField(allow_null=True)


class StructureSerializer(serializers.Serializer):
    """The game's betting structure in cents, as the terminal deals it."""

    class Meta:
        ref_name = "TableStructure"

    kind = serializers.ChoiceField(
        choices=["NL", "PL", "L"], help_text="No limit, pot limit, limit."
    )
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField(help_text="None at a cash table: 0.")
    bring_in = serializers.IntegerField(
        allow_null=True, help_text="Stud games: the small blind's amount."
    )
    small_bet = serializers.IntegerField(
        allow_null=True, help_text="Limit and stud games: the big blind."
    )
    big_bet = serializers.IntegerField(
        allow_null=True, help_text="Limit and stud games: two big blinds."
    )
    straddle = serializers.IntegerField(
        allow_null=True, help_text="Button games (HS11): two big blinds."
    )


class BuyInSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableBuyIn"

    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True)


@extend_schema_field(PolicySerializer)
class PolicyDocumentField(serializers.JSONField):
    """The policy document as the game holds it (API.md "Policy")."""


class StatePolicySerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableStatePolicy"

    version = serializers.IntegerField()
    document = PolicyDocumentField()


class StateSeatSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableStateSeat"

    seat = serializers.IntegerField()
    player = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    stack = serializers.IntegerField(help_text="The ledger's stack (HS6), cents.")
    frozen = serializers.IntegerField(help_text="Frozen for a review (HS6).")
    kind = serializers.CharField(help_text="How he sat down.")
    state = serializers.ChoiceField(choices=["playing", "away"])
    away_since = serializers.DateTimeField(allow_null=True)
    on_break = serializers.BooleanField(help_text="BI9: away on his long break.")
    sat_down = serializers.DateTimeField()
    last_hand_no = serializers.IntegerField(allow_null=True)
    must_leave = serializers.CharField(allow_null=True)


class LastHandSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableLastHand"

    hand_no = serializers.IntegerField()
    button = serializers.IntegerField(allow_null=True)
    ended_at = serializers.DateTimeField()
    status = serializers.CharField()
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats dealt in."
    )


class AllowedSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CallBuyIn"

    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True)
    short_min = serializers.IntegerField(required=False)
    kind = serializers.CharField()
    min_rule = serializers.CharField()
    max_rule = serializers.CharField()


class RefusedSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CallRefused"

    code = serializers.CharField()
    rule = serializers.CharField(allow_null=True)
    detail = serializers.CharField()
    allowed = serializers.DictField(allow_null=True)


class CallSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableCall"

    entry = serializers.IntegerField()
    player = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    house_move = serializers.BooleanField(
        help_text="BI7: the floor seats him, with his stack."
    )
    called_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    buy_in = AllowedSerializer(allow_null=True)
    refused = RefusedSerializer(allow_null=True)


class JackpotSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableJackpot"

    code = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    amount = serializers.IntegerField(help_text="The pool's balance (JD6), cents.")


class TournamentSerializer(serializers.Serializer):
    class Meta:
        ref_name = "TableTournament"

    event = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField()
    level = serializers.IntegerField()
    on_break = serializers.BooleanField()
    small_blind = serializers.IntegerField(allow_null=True)
    big_blind = serializers.IntegerField(allow_null=True)
    ante = serializers.IntegerField(allow_null=True)
    big_blind_ante = serializers.BooleanField()
    seconds_left = serializers.IntegerField(allow_null=True)


class TableStateSerializer(serializers.Serializer):
    """All a table's terminal reads to deal."""

    class Meta:
        ref_name = "TableState"

    table = StateTableSerializer()
    game = serializers.CharField(allow_null=True)
    structure = StructureSerializer(allow_null=True)
    buy_in = BuyInSerializer(allow_null=True)
    policy = StatePolicySerializer(allow_null=True)
    seats = StateSeatSerializer(many=True)
    last_hand = LastHandSerializer(allow_null=True)
    calls = CallSerializer(many=True)
    jackpots = JackpotSerializer(many=True)
    tournament = TournamentSerializer(allow_null=True)
    notices = TableNoticeSerializer(
        many=True,
        required=False,
        help_text="PP5: what the terminal must know now; only when there is some.",
    )


class TableStateApi(TableNotices, APIView):
    """The table as its terminal deals it: the game's structure and buy-ins, the
    policy in force (to settle offline), the seats, the last hand, the floor's
    calls to the table with the buy-in each may bring, the room's jackpots and a
    tournament table's level."""

    permission_classes = [TerminalOrFloor]

    @extend_schema(responses={200: TableStateSerializer, 404: ErrorSerializer})
    def get(self, request: Request, table: str) -> Response:
        return Response(TableStateSerializer(selectors.table_state(table)).data)


class HandPreviewApi(APIView):
    """The settlement a hand would be booked with, booking nothing: what the
    dealer checks before the terminal posts it (``POST hands``)."""

    permission_classes = [TerminalOrFloor]

    @extend_schema(
        summary="Settle a hand without booking it",
        description=(
            "The hand record as `POST hands` takes it; the answer is the settlement"
            " `POST hands` would answer, and nothing is written (no hand, no"
            " idempotency record, no refused hand kept). A record booked before"
            " under its number answers its booked settlement; another record under"
            " a booked number 409. Every refusal is the one `POST hands` gives."
        ),
        request=HandRecordSerializer,
        responses={
            200: SettlementSerializer,
            400: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
    )
    def post(self, request: Request, table: str) -> Response:
        settlement: dict[str, Any] = services.hand_preview(
            table_code=table, record=hand_body(request.data)
        )
        return Response(settlement)
