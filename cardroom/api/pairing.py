"""Pairing a tablet with its table (API.md "Pairing a terminal").

A manager asks for a one-time code (``POST terminal-pairings``); the floor screen
shows it, with a QR code of the terminal page's address that carries it. The
tablet sends it once, with no credentials, within ten minutes
(``POST terminal/pair``) and gets a new key of the table: from then on it sends
``Authorization: Api-Key <key>``. Unpairing is revoking that key
(``POST terminal-keys/{prefix}/revoke``, or the floor screen).

``terminal/pair`` is open to anyone, so guessing codes is held off: a caller (by
address) gets :data:`PAIR_RATE` well-formed attempts, then 429 until the minute
is over (DRF's throttling, under a scope no other door has). A malformed body is
refused before it counts.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from cardroom import services
from cardroom.models import TerminalPairing
from cardroom.services.terminal_keys import PAIRING_ALPHABET, pairing_page
from core.api.fields import StrictSerializer
from core.api.permissions import IsManager, staff
from core.api.schema import ErrorSerializer

PAIR_RATE = "10/minute"
"""Well-formed pairing attempts a caller may make a minute."""
_CHARS = f"[{PAIRING_ALPHABET}{PAIRING_ALPHABET.lower()}]"
CODE_PATTERN = f"^ *{_CHARS}{{4}}[- ]?{_CHARS}{{4}} *$"
"""A pairing code as a person types it: 8 characters of the code's alphabet, any
case, with or without the dash (or a space) between the halves."""


def pairing_url(request: HttpRequest | Request, code: str) -> str:
    """The terminal page's address that pairs the tablet opening it with ``code``
    (what the floor screen's QR code holds)."""
    return request.build_absolute_uri(pairing_page(code))


class PairingSerializer(serializers.Serializer):
    """A pairing code just made: shown this once."""

    class Meta:
        ref_name = "TerminalPairing"

    id = serializers.IntegerField()
    table = serializers.CharField()
    code = serializers.CharField(help_text="Shown this once: XXXX-XXXX.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    pair_url = serializers.CharField(
        help_text="The terminal page's address carrying the code (the QR code's)."
    )


class TerminalPairingApi(APIView):
    """A manager makes a one-time code pairing a tablet with a table, valid ten
    minutes; the server keeps only its keyed hash."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TerminalPairingInput"

        table = serializers.SlugField(max_length=16)

    @extend_schema(
        request=InputSerializer,
        responses={201: PairingSerializer, 404: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        # Not idempotent by key: a stored answer would keep the code in clear.
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairing, code = services.terminal_pairing_create(
            table_code=data.validated_data["table"], by=staff(request)
        )
        return Response(
            _pairing_answer(request, pairing, code), status=status.HTTP_201_CREATED
        )


def _pairing_answer(
    request: Request, pairing: TerminalPairing, code: str
) -> dict[str, Any]:
    return {
        "id": pairing.pk,
        "table": pairing.table.code,
        "code": code,
        "created_at": pairing.created_at,
        "expires_at": pairing.expires_at,
        "pair_url": pairing_url(request, code),
    }


class PairThrottle(SimpleRateThrottle):
    """:data:`PAIR_RATE` attempts a minute by the caller's address, under the
    ``terminal_pair`` scope only this door has."""

    scope = "terminal_pair"
    rate = PAIR_RATE

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {
            "scope": self.scope,
            "ident": self.get_ident(request),
        }


class TerminalPairApi(APIView):
    """A tablet redeems a pairing code, once, for a new key of the code's table."""

    # No credentials: the tablet has none yet (a stale key it sends is ignored).
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes: list[Any] = []  # counted after the body is read (post)

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TerminalPairInput"

        code = serializers.RegexField(
            CODE_PATTERN,
            max_length=20,
            help_text="The code the floor screen shows, XXXX-XXXX; any case, the"
            " dash optional.",
        )

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TerminalPaired"

        table = serializers.CharField()
        key = serializers.CharField(
            help_text="The table's new key, shown this once: send it as"
            " `Authorization: Api-Key <key>`."
        )
        prefix = serializers.CharField(help_text="The key's public id.")
        name = serializers.CharField()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            422: OpenApiResponse(
                ErrorSerializer,
                "pairing_code_unknown, pairing_code_used or pairing_code_expired.",
            ),
            429: OpenApiResponse(
                ErrorSerializer, "Too many attempts; Retry-After says when to retry."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        throttle = PairThrottle()
        if not throttle.allow_request(request, self):
            self.throttled(request, throttle.wait() or 1.0)
        key, raw = services.terminal_pairing_redeem(code=data.validated_data["code"])
        body = {
            "table": key.table.code,
            "key": raw,
            "prefix": key.prefix,
            "name": key.name,
        }
        return Response(body, status=status.HTTP_201_CREATED)
