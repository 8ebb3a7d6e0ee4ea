"""The tournament clocks of the public board, at ``/api/v1/board/tournaments``
(TO12, WL11): no login, no player named, the money written in the board's
language by core.money beside its cents."""

from __future__ import annotations

from django.utils import timezone
from django.utils.cache import patch_vary_headers
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.schema import ErrorSerializer
from tournaments import selectors
from tournaments.api.terminals import ClockSerializer
from waitlist.api.views import BOARD_LANGUAGE, board_data_language


class BoardClockSerializer(ClockSerializer):
    """A clock as the board shows it (TO12): the clock, with its money written in
    the board's language (core.money, Babel's CLDR formats), shown as it is."""

    class Meta:
        ref_name = "BoardTournamentClock"

    prize_pool_text = serializers.CharField(
        help_text='`prize_pool` written in the board\'s language: "€2,700".'
    )
    guarantee_text = serializers.CharField(
        help_text="`guarantee` written in the board's language."
    )


class BoardClocksApi(APIView):
    """The clocks of the events running now, for the public board (TO12): no
    player's name, code or stack."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        auth=[],
        parameters=[BOARD_LANGUAGE],
        responses={200: BoardClockSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        language = board_data_language(request)
        clocks = selectors.board_clocks(now=timezone.now(), language=language)
        response = Response(BoardClockSerializer(clocks, many=True).data)
        response["Cache-Control"] = "no-store"
        response["Content-Language"] = language
        patch_vary_headers(response, ["Accept-Language"])
        return response
