"""The tournament clocks of the public board (TO12, WL11): the panel the board
plugs in, and its clocks at ``/api/v1/board/tournaments``: no login, no player
named, the money written in the board's language by core.money beside its cents.

``waitlist.views.board_panels`` calls :func:`clock_panel` by its import path (the
``WAITLIST_BOARD_PANELS`` setting): the board shows the clocks of the events
running now beside the cash games, in the board's language, and its script reads
them from :class:`BoardClocksApi`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api.schema import ErrorSerializer
from tournaments import selectors
from tournaments.api.terminals import ClockSerializer
from tournaments.models import Event
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


def clock_labels() -> dict[str, str]:
    """Return the panel's words in the active language."""
    return {
        "title": _("Tournaments"),
        "level": _("Level"),
        "break": _("Break"),
        "ante": _("Ante"),
        "big_blind_ante": _("BB ante"),
        "time_left": _("Time left"),
        "next_level": _("Next level"),
        "next_break": _("Next break"),
        "players_left": _("Players left"),
        "average_stack": _("Average stack"),
        "prize_pool": _("Prize pool"),
        "guaranteed": _("Guaranteed"),
        "places_paid": _("Places paid"),
        "paused": _("Paused"),
        "not_started": _("Starts soon"),
        "stopped": _("Finished"),
    }


def clock_panel(*, language: str) -> dict[str, Any] | None:
    """Return the board's tournament panel, or None when no event is running."""
    if not Event.objects.filter(status=Event.Status.RUNNING).exists():
        return None
    return {
        "template": "tournaments/board_clock.html",
        "labels": clock_labels(),
        # The clocks' money written in the board's language (core.money).
        "url": f"{reverse('v1:board-clocks')}?{urlencode({'lang': language})}",
    }
