"""Shapes the cage's endpoints share: money as integer cents, receipts, slips, shift
reports (API.md, "Conventions"). Views keep their own input serializers."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounting.models import BoxCount, Payable, Receipt, Shift, TableSlip
from accounting.selectors import DrawerLine, ShiftReport
from core.api.fields import CentsField

__all__ = ["CODE_REGEX", "CentsField", "code_field"]

CODE_REGEX = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


def code_field(**kwargs: Any) -> serializers.RegexField:
    """A code like ``MAIN``, ``T01`` or ``P-1001``: letters, digits, '-' and '_'."""
    return serializers.RegexField(
        CODE_REGEX, max_length=kwargs.pop("max_length"), **kwargs
    )


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


class ReceiptSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageReceipt"

    no = serializers.CharField(help_text="The printed number, e.g. MAIN-000123.")
    cage = serializers.CharField(source="cage.code")
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Receipt.Kind.choices)
    player = serializers.CharField(source="player.code")
    amount = serializers.IntegerField(source="amount_cents")
    shift = serializers.IntegerField(source="shift_id")
    issued_by = serializers.CharField(source="issued_by.username")
    issued_at = serializers.DateTimeField()
    player_signed = serializers.BooleanField()
    payable = serializers.IntegerField(source="payable_id", allow_null=True)
    transaction = serializers.IntegerField(source="transaction_id")


class SlipSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageTableSlip"

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TableSlip.Kind.choices)
    status = serializers.ChoiceField(choices=TableSlip.Status.choices)
    cage = serializers.CharField(source="cage.code")
    table = serializers.CharField()
    amount = serializers.IntegerField(source="amount_cents")
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = serializers.DateTimeField()
    issued_by = serializers.SerializerMethodField()
    issued_at = serializers.DateTimeField(allow_null=True)
    shift = serializers.IntegerField(source="shift_id", allow_null=True)
    transaction = serializers.IntegerField(source="transaction_id", allow_null=True)
    cancelled_by = serializers.SerializerMethodField()
    cancelled_at = serializers.DateTimeField(allow_null=True)
    cancel_reason = serializers.CharField()

    def get_issued_by(self, slip: TableSlip) -> str | None:
        return _username(slip.issued_by)

    def get_cancelled_by(self, slip: TableSlip) -> str | None:
        return _username(slip.cancelled_by)


class BoxCountSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageBoxCount"

    id = serializers.IntegerField()
    cage = serializers.CharField(source="cage.code")
    shift = serializers.IntegerField(source="shift_id")
    table = serializers.CharField()
    box = serializers.ChoiceField(choices=BoxCount.Box.choices)
    gaming_day = serializers.DateField()
    recorded = serializers.IntegerField(
        source="recorded_cents", help_text="The box's ledger balance when counted."
    )
    counted = serializers.IntegerField(source="counted_cents")
    variance = serializers.IntegerField(
        source="variance_cents", help_text="counted − recorded: over > 0, short < 0."
    )
    counted_by = serializers.CharField(source="counted_by.username")
    counted_at = serializers.DateTimeField()
    transaction = serializers.IntegerField(source="transaction_id", allow_null=True)


class PayableSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CagePayable"

    id = serializers.IntegerField()
    player = serializers.CharField(source="player.code")
    amount = serializers.IntegerField(source="amount_cents")
    currency = serializers.CharField()
    reference = serializers.CharField()
    memo = serializers.CharField()
    status = serializers.ChoiceField(choices=Payable.Status.choices)
    approved_by = serializers.CharField(source="approved_by.username")
    created_at = serializers.DateTimeField()
    paid_at = serializers.DateTimeField(allow_null=True)


class CashLineSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageShiftCash"

    opening = serializers.IntegerField()
    purchases = serializers.IntegerField(help_text="Cash in for chips sold.")
    redemptions = serializers.IntegerField(help_text="Cash out for chips cashed.")
    payouts = serializers.IntegerField(
        help_text=(
            "Cash out for the room's awards paid (CA6): jackpots and promotions. "
            "A tournament's prizes and bounties have lines of their own."
        )
    )
    collections = serializers.IntegerField(
        help_text="Cash in for receivables paid back (DC3)."
    )
    tournament_entries = serializers.IntegerField(
        help_text=(
            "Cash in for tournament entries, re-entries, rebuys and add-ons, "
            "buy-in, fees and bounty together (TO1)."
        )
    )
    tournament_refunds = serializers.IntegerField(
        help_text="Cash out for tournament purchases refunded (TO10)."
    )
    tournament_prizes = serializers.IntegerField(
        help_text="Cash out for tournament prizes paid, deals' too (TO5, TO9)."
    )
    tournament_bounties = serializers.IntegerField(
        help_text="Cash out for tournament bounties paid (TO8)."
    )
    expected = serializers.IntegerField(
        help_text="The drawer's ledger balance (at close: before the count)."
    )
    from_movements = serializers.IntegerField(
        help_text=(
            "opening + purchases − redemptions − payouts + collections "
            "+ tournament_entries − tournament_refunds − tournament_prizes "
            "− tournament_bounties: what the receipts add up to; equal to "
            "expected when the shift is reconciled."
        )
    )
    counted = serializers.IntegerField(allow_null=True)
    over_short = serializers.IntegerField(
        allow_null=True, help_text="counted − expected: over > 0, short < 0."
    )


class ChipsLineSerializer(serializers.Serializer):
    class Meta:
        ref_name = "CageShiftChips"

    opening = serializers.IntegerField()
    purchases = serializers.IntegerField(help_text="Chips out, sold for cash.")
    redemptions = serializers.IntegerField(help_text="Chips in, cashed.")
    fills = serializers.IntegerField(help_text="Chips out to tables (CA3).")
    credits = serializers.IntegerField(help_text="Chips in from tables (CA3).")
    expected = serializers.IntegerField()
    from_movements = serializers.IntegerField(
        help_text=(
            "opening − purchases + redemptions − fills + credits: what the "
            "receipts and slips add up to; equal to expected when reconciled."
        )
    )
    counted = serializers.IntegerField(allow_null=True)
    over_short = serializers.IntegerField(allow_null=True)


class ShiftReportSerializer(serializers.Serializer):
    """The end-of-shift report (CA1)."""

    class Meta:
        ref_name = "CageShiftReport"

    id = serializers.IntegerField()
    cage = serializers.CharField()
    cashier = serializers.CharField()
    status = serializers.ChoiceField(choices=Shift.Status.choices)
    gaming_day = serializers.DateField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    needs_sign_off = serializers.BooleanField()
    signed_off_by = serializers.CharField(allow_null=True)
    signed_off_at = serializers.DateTimeField(allow_null=True)
    cash = CashLineSerializer()
    chips = ChipsLineSerializer()
    receipts = serializers.IntegerField(help_text="Receipts issued in the shift.")
    slips = serializers.IntegerField(help_text="Fills and credits issued.")
    reconciled = serializers.BooleanField(
        help_text=(
            "The receipts and slips add up to the drawer's ledger balance: each "
            "side's from_movements equals its expected (CA1)."
        )
    )


def _line(line: DrawerLine) -> dict[str, Any]:
    return {
        "opening": line.opening,
        **line.movements,
        "expected": line.expected,
        "from_movements": line.from_movements,
        "counted": line.counted,
        "over_short": line.over_short,
    }


def shift_report_data(report: ShiftReport) -> dict[str, Any]:
    """Return the report as :class:`ShiftReportSerializer` shows it."""
    shift = report.shift
    return ShiftReportSerializer(
        {
            "id": shift.pk,
            "cage": shift.cage.code,
            "cashier": shift.cashier.get_username(),
            "status": shift.status,
            "gaming_day": shift.gaming_day,
            "opened_at": shift.opened_at,
            "closed_at": shift.closed_at,
            "needs_sign_off": shift.needs_sign_off,
            "signed_off_by": _username(shift.signed_off_by),
            "signed_off_at": shift.signed_off_at,
            "cash": _line(report.cash),
            "chips": _line(report.chips),
            "receipts": report.receipts,
            "slips": report.slips,
            "reconciled": report.reconciled,
        }
    ).data
