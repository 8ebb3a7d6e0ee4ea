"""The tournaments' cage endpoints (TO1, TO7, TO9), under ``/api/v1/tournaments/``.

Thin views: validate the input, call one service or selector, shape the answer.
Every POST that moves money takes an ``Idempotency-Key``.

- cashier: entries, re-entries, rebuys and add-ons; prizes paid at the cage;
- floor or manager: prepare the payout sheet; manager: approve it (four-eyes);
- cashier, floor, manager, auditor: the event's summary and its payout sheet;
- manager: cancel an event, approve a purchase's refund; cashier: pay an approved
  refund at the cage (four-eyes, TO10).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.serializers import ReceiptSerializer, code_field
from accounting.api.views import IDEMPOTENCY_KEY
from core.api.fields import StrictIntegerField, StrictSerializer
from core.api.permissions import IsCashier, IsManager, role_required, staff
from core.api.schema import ErrorSerializer
from core.idempotency import idempotent
from core.roles import Role
from tournaments import selectors, services
from tournaments.api.serializers import (
    EntrySerializer,
    EventSummarySerializer,
    PayoutSheetSerializer,
    PurchaseSplitSerializer,
    RefundApprovalSerializer,
    SeatDrawSerializer,
    summary,
)
from tournaments.models import Entry, Event, Payout, PayoutSheet

ENTRY_NUMBER_MAX = 2**31 - 1
"""The largest entry number (the column is an ``integer``)."""

Reader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)
Director = role_required(Role.FLOOR, Role.MANAGER)


def _event(code: str) -> Event:
    return get_object_or_404(Event, code=code)


def believed_level(**kwargs: object) -> StrictIntegerField:
    """The ``level`` a cage's request may carry: what the client believes (TO12)."""
    return StrictIntegerField(
        min_value=0,
        max_value=1_000,
        required=False,
        allow_null=True,
        help_text=(
            "The level the client believes the clock is at: the structure's level "
            "number, breaks counted, 0 before the start (the clock's "
            "`structure_level`). Optional; the server's clock decides (TO1, "
            "TO12), and a different level is answered 409 `level_mismatch` "
            "with the server's in `allowed`."
        ),
        **kwargs,
    )


def _entry(code: str, number: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("event", "player"), event__code=code, number=number
    )


def _entry_keyed(code: str, key: str) -> Entry:
    """The entry an object's key names (``"7"``); 404 for a key that names none,
    as for a number that isn't an entry (the schema can't say what keys may be:
    core.api.schema)."""
    if not (key.isascii() and key.isdigit()) or int(key) > ENTRY_NUMBER_MAX:
        raise Http404
    return _entry(code, int(key))


class EventApi(APIView):
    """The event's entries, pool, overlay, places paid and chip reconciliation."""

    permission_classes = [Reader]

    @extend_schema(responses={200: EventSummarySerializer})
    def get(self, request: Request, event: str) -> Response:
        return Response(summary(_event(event)))


class EntryApi(APIView):
    """Register a player, or re-enter him, at the cage (TO1, TO2, CA2, CA5)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentEntryInput"

        cage = code_field(max_length=16)
        player = code_field(max_length=32, help_text="The player's id, e.g. P-1001.")
        level = believed_level()

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TournamentEntryOutput"

        entry = EntrySerializer()
        receipt = ReceiptSerializer()
        split = PurchaseSplitSerializer(help_text="What the receipt's amount is (TO1).")
        draw = SeatDrawSerializer(
            allow_null=True,
            help_text="The seat's seeded draw (TO11); null for an alternate.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_register(
            event=_event(event),
            player=data.validated_data["player"],
            cage=data.validated_data["cage"],
            cashier=staff(request),
            level=data.validated_data.get("level"),
        )
        purchase = entry.purchases.get(kind="buy_in")
        drawn = selectors.entry_seat_drawn(entry=entry)
        return Response(
            {
                "entry": EntrySerializer(entry).data,
                "receipt": ReceiptSerializer(purchase.receipt).data,
                "split": PurchaseSplitSerializer(purchase).data,
                "draw": SeatDrawSerializer(drawn).data if drawn else None,
            },
            status=status.HTTP_201_CREATED,
        )


class RebuyApi(APIView):
    """Sell a rebuy to a playing entry (TO1)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentRebuyInput"

        cage = code_field(max_length=16)
        level = believed_level()
        stack = StrictIntegerField(
            min_value=0,
            max_value=10**15,
            help_text="The player's chips now (TO1 stack limit).",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            201: ReceiptSerializer,
            400: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, number: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        purchase = services.rebuy_buy(
            entry=_entry(event, number),
            cage=data.validated_data["cage"],
            cashier=staff(request),
            level=data.validated_data.get("level"),
            stack=data.validated_data["stack"],
        )
        return Response(
            ReceiptSerializer(purchase.receipt).data, status=status.HTTP_201_CREATED
        )


class AddonApi(APIView):
    """Sell the add-on to a playing entry at its level (TO1)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentAddonInput"

        cage = code_field(max_length=16)
        level = believed_level()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: ReceiptSerializer,
            400: ErrorSerializer,
            409: ErrorSerializer,
            422: ErrorSerializer,
        },
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, number: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        purchase = services.addon_buy(
            entry=_entry(event, number),
            cage=data.validated_data["cage"],
            cashier=staff(request),
            level=data.validated_data.get("level"),
        )
        return Response(
            ReceiptSerializer(purchase.receipt).data, status=status.HTTP_201_CREATED
        )


class PayoutSheetApi(APIView):
    """The event's payout sheet (GET), or prepare it when every entry has finished
    (POST, floor or manager; TO7, TO9)."""

    def get_permissions(self) -> list[BasePermission]:
        return [Director() if self.request.method == "POST" else Reader()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentPayoutSheetInput"

        holds = serializers.DictField(
            child=serializers.CharField(max_length=500),
            required=False,
            help_text='Entry number ("7") → why its prize is held (TDA RP-23); '
            "a key that names no entry of the event is 404.",
        )

    @extend_schema(responses={200: PayoutSheetSerializer})
    def get(self, request: Request, event: str) -> Response:
        sheet = get_object_or_404(PayoutSheet, event__code=event)
        return Response(PayoutSheetSerializer(sheet).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: PayoutSheetSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = _event(event)
        holds = {
            _entry_keyed(event, key).pk: reason
            for key, reason in data.validated_data.get("holds", {}).items()
        }
        sheet = services.payout_sheet_prepare(
            event=found, by=staff(request), holds=holds
        )
        return Response(
            PayoutSheetSerializer(sheet).data, status=status.HTTP_201_CREATED
        )


class PayoutSheetApproveApi(APIView):
    """A manager, not its preparer, approves the payout sheet (four-eyes, TO9)."""

    permission_classes = [IsManager]

    @extend_schema(
        request=None,
        responses={200: PayoutSheetSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        sheet = get_object_or_404(PayoutSheet, event__code=event)
        sheet = services.payout_sheet_approve(sheet=sheet, by=staff(request))
        return Response(PayoutSheetSerializer(sheet).data)


class PayoutPayApi(APIView):
    """Pay a prize at the cage to its identified player against his signature, with
    a tax document above the event's threshold (TO9, CA6)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentPayoutPayInput"

        cage = code_field(max_length=16)
        player = code_field(max_length=32, help_text="The id read from his identity.")
        player_signed = serializers.BooleanField()
        tax_document = serializers.CharField(
            max_length=120, required=False, allow_blank=True
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: ReceiptSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, payout_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        payout = get_object_or_404(Payout, pk=payout_id, sheet__event__code=event)
        receipt = services.payout_pay(
            payout=payout,
            cage=data.validated_data["cage"],
            cashier=staff(request),
            player=data.validated_data["player"],
            player_signed=data.validated_data["player_signed"],
            tax_document=data.validated_data.get("tax_document", ""),
        )
        return Response(ReceiptSerializer(receipt).data, status=status.HTTP_201_CREATED)


class EventCancelApi(APIView):
    """A manager cancels the event, saying why (TO10, RR §15 #39); its purchases
    are then refunded at the cage."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentCancelInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={200: EventSummarySerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cancelled = services.event_cancel(
            event=_event(event), by=staff(request), reason=data.validated_data["reason"]
        )
        return Response(summary(cancelled))


class RefundApproveApi(APIView):
    """A manager approves the refund of the purchase on a printed receipt
    (``MAIN-000123``), saying why (TO10); a cashier then pays it."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentRefundApproveInput"

        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        responses={201: RefundApprovalSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, receipt: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.refund_approve(
            event=_event(event),
            receipt=receipt,
            by=staff(request),
            reason=data.validated_data["reason"],
        )
        return Response(
            RefundApprovalSerializer(approval).data, status=status.HTTP_201_CREATED
        )


class RefundApi(APIView):
    """Pay at the cage the approved refund of the purchase on a printed receipt:
    a receipt whose posting reverses the purchase's, by a cashier who is not the
    approver (four-eyes, TO10, DC2)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentRefundInput"

        cage = code_field(max_length=16)

    @extend_schema(
        request=InputSerializer,
        responses={201: ReceiptSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, event: str, receipt: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        refund = services.refund_pay(
            event=_event(event),
            receipt=receipt,
            cage=data.validated_data["cage"],
            cashier=staff(request),
        )
        return Response(
            ReceiptSerializer(refund.receipt).data, status=status.HTTP_201_CREATED
        )
