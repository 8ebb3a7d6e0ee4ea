"""The cage's REST endpoints (CA1–CA6), under ``/api/v1/cage/``.

Thin views: validate the input, call one service or selector, shape the answer.
Every POST that moves money takes an ``Idempotency-Key``.

- cashier: open, count and close his shift; chip purchases and redemptions; issue
  fills and credits; count drop, rake and jackpot boxes; pay approved awards;
- floor (or manager): request fills and credits, signing them (CA3);
- manager: sign off an over/short above the threshold (CA1); fund the vault;
- cashier, manager, auditor: shift reports, receipts, payables, box counts;
- cashier: collect a receivable (DC3); cashier, floor, manager, auditor: the open
  receivables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.api.serializers import (
    BoxCountSerializer,
    CentsField,
    PayableSerializer,
    ReceiptSerializer,
    ShiftReportSerializer,
    SlipSerializer,
    code_field,
    shift_report_data,
)
from accounting.errors import Code, invalid
from accounting.models import BoxCount, Payable, Receipt, Shift, TableSlip
from accounting.selectors import (
    box_counts_of_day,
    payable_list,
    receipt_get,
    shift_report,
    vault_balances,
)
from accounting.services import cage as services
from accounting.services.cage import receivable_collect, receivables_open
from core.api.fields import StrictSerializer, choice_param
from core.api.permissions import IsCashier, IsFloor, IsManager, role_required, staff
from core.idempotency import idempotent
from core.roles import Role, has_role

CageReader = role_required(Role.CASHIER, Role.MANAGER, Role.AUDITOR)
ReceivableReader = role_required(Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "A retry with the same key and body gets the first answer and writes "
        "nothing; the same key with another body is refused with 422."
    ),
)


def _report(shift: Shift) -> dict[str, Any]:
    return shift_report_data(shift_report(shift=shift))


class ShiftOpenApi(APIView):
    """Open the caller's shift at a cage with a counted float (CA1)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageShiftOpenInput"

        cage = code_field(max_length=16)
        cash = CentsField(min_value=0, help_text="Cash counted into the drawer.")
        chips = CentsField(min_value=0, help_text="Chips counted into the drawer.")

    @extend_schema(
        request=InputSerializer,
        responses={201: ShiftReportSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_open(
            cage=services.cage_get(code=data.validated_data["cage"]),
            cashier=staff(request),
            cash_cents=data.validated_data["cash"],
            chips_cents=data.validated_data["chips"],
        )
        return Response(_report(shift), status=status.HTTP_201_CREATED)


def _shift(request: Request, shift_id: int) -> Shift:
    """The shift, for its own cashier or for managers and auditors."""
    shift = get_object_or_404(
        Shift.objects.select_related("cage", "cashier", "signed_off_by"), pk=shift_id
    )
    if shift.cashier_id != request.user.pk and not has_role(
        request.user, Role.MANAGER, Role.AUDITOR
    ):
        raise exceptions.PermissionDenied()
    return shift


class ShiftDetailApi(APIView):
    """The end-of-shift report: float, movements, expected, counted, over/short."""

    permission_classes = [CageReader]

    @extend_schema(responses={200: ShiftReportSerializer})
    def get(self, request: Request, shift_id: int) -> Response:
        return Response(_report(_shift(request, shift_id)))


class ShiftCloseApi(APIView):
    """Close the caller's shift with a count (CA1); over/short is booked, and above
    the cage's threshold the shift waits for a manager's sign-off."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageShiftCloseInput"

        cash = CentsField(min_value=0, help_text="Cash counted in the drawer.")
        chips = CentsField(min_value=0, help_text="Chips counted in the drawer.")

    @extend_schema(
        request=InputSerializer,
        responses={200: ShiftReportSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, shift_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_close(
            shift=_shift(request, shift_id),
            cashier=staff(request),
            cash_cents=data.validated_data["cash"],
            chips_cents=data.validated_data["chips"],
        )
        return Response(_report(shift))


class ShiftSignOffApi(APIView):
    """A manager, not the shift's cashier, accepts its over/short (CA1)."""

    permission_classes = [IsManager]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageShiftSignOffInput"

        note = serializers.CharField(max_length=500, required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: ShiftReportSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, shift_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_sign_off(
            shift=_shift(request, shift_id),
            supervisor=staff(request),
            note=data.validated_data.get("note", ""),
        )
        return Response(_report(shift))


class _ExchangeApi(APIView):
    """Cash ↔ chips for a registered player at the cashier's desk."""

    exchange: Callable[..., Receipt]
    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageExchangeInput"

        cage = code_field(max_length=16)
        player = code_field(max_length=32, help_text="The player's id, e.g. P-1001.")
        amount = CentsField(min_value=1)

    @extend_schema(
        request=InputSerializer,
        responses={201: ReceiptSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = type(self).exchange(
            cage=data.validated_data["cage"],
            cashier=staff(request),
            player=data.validated_data["player"],
            amount_cents=data.validated_data["amount"],
        )
        return Response(ReceiptSerializer(receipt).data, status=status.HTTP_201_CREATED)


class PurchaseApi(_ExchangeApi):
    """Sell chips for cash to a registered player, with a receipt (CA2, CA5)."""

    exchange = staticmethod(services.chip_purchase)


class RedemptionApi(_ExchangeApi):
    """Cash a registered player's chips, with a receipt (CA2, CA5); more than he
    holds is refused with ``insufficient_funds``."""

    exchange = staticmethod(services.chip_redemption)


class _SlipRequestApi(APIView):
    """A floor person requests and signs a slip; the cashier issues it (CA3)."""

    kind: TableSlip.Kind
    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageSlipRequestInput"

        cage = code_field(max_length=16)
        table = code_field(max_length=16, help_text="The table's code, e.g. T01.")
        amount = CentsField(min_value=1)

    @extend_schema(
        request=InputSerializer,
        responses={201: SlipSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slip = services.slip_request(
            kind=self.kind,
            cage=services.cage_get(code=data.validated_data["cage"]),
            table=data.validated_data["table"],
            amount_cents=data.validated_data["amount"],
            requested_by=staff(request),
        )
        return Response(SlipSerializer(slip).data, status=status.HTTP_201_CREATED)


class FillRequestApi(_SlipRequestApi):
    """Request a fill: chips from the cage to a table's tray (CA3)."""

    kind = TableSlip.Kind.FILL


class CreditRequestApi(_SlipRequestApi):
    """Request a credit: chips from a table's tray back to the cage (CA3)."""

    kind = TableSlip.Kind.CREDIT


class _SlipIssueApi(APIView):
    """The cashier issues a requested slip from his open shift; the chips move.
    He must be another person than the floor person who signed it (CA3)."""

    kind: TableSlip.Kind
    permission_classes = [IsCashier]

    @extend_schema(
        request=None, responses={200: SlipSerializer}, parameters=[IDEMPOTENCY_KEY]
    )
    @idempotent
    def post(self, request: Request, slip_id: int) -> Response:
        slip = get_object_or_404(
            TableSlip.objects.select_related("cage"), pk=slip_id, kind=self.kind
        )
        slip = services.slip_issue(slip=slip, cashier=staff(request))
        return Response(SlipSerializer(slip).data)


class FillIssueApi(_SlipIssueApi):
    """Issue a fill: drawer chips → the table's tray (CA3)."""

    kind = TableSlip.Kind.FILL


class CreditIssueApi(_SlipIssueApi):
    """Receive a credit: the table's tray → drawer chips (CA3)."""

    kind = TableSlip.Kind.CREDIT


class _SlipCancelApi(APIView):
    """A floor person cancels a slip the cashier hasn't issued, saying why (CA3):
    no chips moved; the slip stays on record as cancelled."""

    kind: TableSlip.Kind
    permission_classes = [IsFloor]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageSlipCancelInput"

        reason = serializers.CharField(max_length=500, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: SlipSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, slip_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slip = get_object_or_404(TableSlip, pk=slip_id, kind=self.kind)
        slip = services.slip_cancel(
            slip=slip, by=staff(request), reason=data.validated_data["reason"]
        )
        return Response(SlipSerializer(slip).data)


class FillCancelApi(_SlipCancelApi):
    """Cancel a fill not yet issued (CA3)."""

    kind = TableSlip.Kind.FILL


class CreditCancelApi(_SlipCancelApi):
    """Cancel a credit not yet received (CA3)."""

    kind = TableSlip.Kind.CREDIT


class BoxCountApi(APIView):
    """Count a table's drop, rake or jackpot box for a gaming day (CA4)."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageBoxCountInput"

        cage = code_field(max_length=16, help_text="Where the counted money goes.")
        table = code_field(max_length=16)
        box = serializers.ChoiceField(choices=BoxCount.Box.choices)
        gaming_day = serializers.DateField()
        counted = CentsField(min_value=0)

    def get_permissions(self) -> list[Any]:
        return [CageReader()] if self.request.method == "GET" else [IsCashier()]

    @extend_schema(
        description="The box counts of a gaming day, per table, with their "
        "variances (CA4).",
        parameters=[OpenApiParameter("gaming_day", OpenApiTypes.DATE, required=True)],
        responses={200: BoxCountSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        day = serializers.DateField().run_validation(
            request.query_params.get("gaming_day")
        )
        counts = box_counts_of_day(gaming_day=day).select_related("cage", "counted_by")
        return Response(BoxCountSerializer(counts, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: BoxCountSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = services.box_count_record(
            cage=data.validated_data["cage"],
            cashier=staff(request),
            table=data.validated_data["table"],
            box=data.validated_data["box"],
            gaming_day=data.validated_data["gaming_day"],
            counted_cents=data.validated_data["counted"],
        )
        return Response(BoxCountSerializer(count).data, status=status.HTTP_201_CREATED)


class PayableListApi(APIView):
    """Awards owed to players, to pay at the cage (CA6)."""

    permission_classes = [CageReader]

    @extend_schema(
        parameters=[
            OpenApiParameter("player", OpenApiTypes.STR, description="A player's id."),
            OpenApiParameter("status", OpenApiTypes.STR, enum=Payable.Status.values),
        ],
        responses={200: PayableSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        payables = payable_list(
            player=request.query_params.get("player"),
            status=choice_param(request.query_params, "status", Payable.Status.values),
        )
        return Response(PayableSerializer(payables, many=True).data)


class PayablePayApi(APIView):
    """Pay an approved award in cash against the player's identity and signature
    (CA6); a second payment is refused with 409."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CagePayablePayInput"

        cage = code_field(max_length=16)
        player = code_field(
            max_length=32, help_text="The id read from the player's identity."
        )
        player_signed = serializers.BooleanField(
            help_text="The player signed the receipt (CA6)."
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: ReceiptSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request, payable_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = services.payable_pay(
            payable=get_object_or_404(Payable, pk=payable_id),
            cage=data.validated_data["cage"],
            cashier=staff(request),
            player=data.validated_data["player"],
            player_signed=data.validated_data["player_signed"],
        )
        return Response(ReceiptSerializer(receipt).data, status=status.HTTP_201_CREATED)


class ReceiptDetailApi(APIView):
    """A receipt by its printed number, e.g. ``MAIN-000123``."""

    permission_classes = [CageReader]

    @extend_schema(responses={200: ReceiptSerializer})
    def get(self, request: Request, no: str) -> Response:
        return Response(ReceiptSerializer(receipt_get(no=no)).data)


class VaultFundApi(APIView):
    """A manager puts house cash and new chips into a cage's vault."""

    permission_classes = [IsManager]
    move = staticmethod(services.cage_vault_fund)

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageVaultFundInput"

        cage = code_field(max_length=16)
        cash = CentsField(min_value=0)
        chips = CentsField(min_value=0)
        memo = serializers.CharField(max_length=500, required=False, allow_blank=True)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "CageVaultFund"

        transaction = serializers.IntegerField()
        cage = serializers.CharField()
        cash = serializers.IntegerField(help_text="The vault's cash after it.")
        chips = serializers.IntegerField(help_text="The vault's chips after it.")

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cage = services.cage_get(code=data.validated_data["cage"])
        posting = self.move(
            cage=cage,
            cash_cents=data.validated_data["cash"],
            chips_cents=data.validated_data["chips"],
            by=staff(request),
            memo=data.validated_data.get("memo", ""),
        )
        cash, chips = vault_balances(cage=cage)
        out = {
            "transaction": posting.pk,
            "cage": cage.code,
            "cash": cash,
            "chips": chips,
        }
        return Response(self.OutputSerializer(out).data, status=status.HTTP_201_CREATED)


class VaultWithdrawApi(VaultFundApi):
    """A manager takes house cash out of a cage's vault (to the bank) or retires
    chip stock, saying where it goes (the memo); more than the vault holds is
    refused with ``insufficient_funds``."""

    move = staticmethod(services.cage_vault_withdraw)  # type: ignore[assignment]

    class InputSerializer(VaultFundApi.InputSerializer):
        class Meta:
            ref_name = "CageVaultWithdrawInput"

        memo = serializers.CharField(max_length=500, allow_blank=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: VaultFundApi.OutputSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class OpenAmountSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageReceivableOpenAmount"

    booked_at = serializers.DateTimeField(source="booked.at")
    booked = serializers.IntegerField(source="booked.amount")
    open = serializers.IntegerField()
    due_at = serializers.DateTimeField()
    reference = serializers.CharField(source="booked.reference")
    reason = serializers.CharField(source="booked.memo")
    transaction = serializers.IntegerField(source="booked.transaction_id")


class ReceivableSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageReceivable"

    player = serializers.CharField()
    name = serializers.CharField()
    booked = serializers.IntegerField(source="standing.booked")
    collected = serializers.IntegerField(source="standing.collected")
    open = serializers.IntegerField(source="standing.open")
    due = serializers.IntegerField(
        source="standing.due", help_text="Open and past its terms: blocks buy-ins."
    )
    amounts = OpenAmountSerializer(source="standing.parts", many=True)


class ReceivableListApi(APIView):
    """Players who owe money back, what is open and what is due (DC3)."""

    permission_classes = [ReceivableReader]

    @extend_schema(
        parameters=[
            OpenApiParameter("player", OpenApiTypes.STR, description="A player's id."),
            OpenApiParameter(
                "due",
                OpenApiTypes.STR,
                enum=["true", "false"],
                description="true: only those past their terms (DC3).",
            ),
        ],
        responses={200: ReceivableSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        due = request.query_params.get("due", "false")
        if due not in ("true", "false"):
            raise invalid(Code.INVALID_FILTER, allowed={"due": ["true", "false"]})
        found = receivables_open(
            player=request.query_params.get("player"), due_only=due == "true"
        )
        return Response(ReceivableSerializer(found, many=True).data)


class ReceivableCollectApi(APIView):
    """Collect in cash what a player owes, in full or a part, with a receipt (DC3)."""

    permission_classes = [IsCashier]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "CageReceivableCollectInput"

        cage = code_field(max_length=16)
        player = code_field(max_length=32, help_text="The player's id, e.g. P-1001.")
        amount = CentsField(min_value=1, help_text="At most what is open.")

    @extend_schema(
        request=InputSerializer,
        responses={201: ReceiptSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = receivable_collect(
            cage=data.validated_data["cage"],
            cashier=staff(request),
            player=data.validated_data["player"],
            amount_cents=data.validated_data["amount"],
        )
        return Response(ReceiptSerializer(receipt).data, status=status.HTTP_201_CREATED)
