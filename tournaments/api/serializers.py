"""What the tournaments' cage endpoints answer (API.md conventions: cents, codes)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments import selectors
from tournaments.models import Entry, Event, Payout, PayoutSheet, RefundApproval


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.code")

    class Meta:
        model = Entry
        ref_name = "TournamentEntry"
        fields = ["number", "player", "kind", "status", "table", "seat", "place"]


class PurchaseSplitSerializer(serializers.Serializer):
    """Where a purchase's money went (TO1, TO8), in cents."""

    class Meta:
        ref_name = "TournamentPurchaseSplit"

    kind = serializers.CharField()
    buy_in = serializers.IntegerField(source="prize_pool_cents")
    fee = serializers.IntegerField(source="fee_cents")
    staff_fee = serializers.IntegerField(source="staff_fee_cents")
    bounty = serializers.IntegerField(source="bounty_cents")
    total = serializers.IntegerField(source="total_cents")
    chips = serializers.IntegerField()


class SeatDrawSerializer(serializers.Serializer):
    """A seat's seeded draw, to replay it (TO11)."""

    class Meta:
        ref_name = "TournamentSeatDrawn"

    table = serializers.CharField(source="to_table")
    seat = serializers.IntegerField(source="to_seat")
    seed = serializers.CharField()


class RefundApprovalSerializer(serializers.ModelSerializer):
    receipt = serializers.CharField(source="purchase.receipt.no")
    entry = serializers.IntegerField(source="purchase.entry.number")
    player = serializers.CharField(source="purchase.entry.player.code")
    amount = serializers.IntegerField(
        source="amount_cents", help_text="Cents approved: all that was left, or a part."
    )
    approved_by = serializers.CharField(source="approved_by.username")

    class Meta:
        model = RefundApproval
        ref_name = "TournamentRefundApproval"
        fields = ["receipt", "entry", "player", "amount", "reason", "approved_by"]


class PayoutSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry.number")
    player = serializers.CharField(source="entry.player.code")
    amount = serializers.IntegerField(source="amount_cents")

    class Meta:
        model = Payout
        ref_name = "TournamentPayout"
        fields = [
            "id",
            "entry",
            "player",
            "place_high",
            "place_low",
            "amount",
            "status",
            "hold_reason",
            "tax_document",
        ]


class PayoutSheetSerializer(serializers.ModelSerializer):
    pool = serializers.IntegerField(source="pool_cents")
    overlay = serializers.IntegerField(source="overlay_cents")
    prepared_by = serializers.CharField(source="prepared_by.username")
    approved_by = serializers.CharField(
        source="approved_by.username", allow_null=True, default=None
    )
    lines = PayoutSerializer(many=True)

    class Meta:
        model = PayoutSheet
        ref_name = "TournamentPayoutSheet"
        fields = ["status", "pool", "overlay", "prepared_by", "approved_by", "lines"]


class ChipCountReadSerializer(serializers.Serializer):
    """One count the reconciliation read: a table's, or the whole field's."""

    class Meta:
        ref_name = "TournamentChipCountRead"

    table = serializers.CharField(help_text='The table; "" for the whole field.')
    chips = serializers.IntegerField()
    at = serializers.DateTimeField()


class ChipReconciliationSerializer(serializers.Serializer):
    """Chips issued, removed by cause, in play and counted, at this moment (TO3)."""

    class Meta:
        ref_name = "TournamentChipReconciliation"

    issued = serializers.DictField(
        child=serializers.IntegerField(), help_text="Chips issued, by cause."
    )
    issued_total = serializers.IntegerField()
    removed = serializers.DictField(
        child=serializers.IntegerField(), help_text="Chips removed, by cause."
    )
    removed_total = serializers.IntegerField()
    in_play = serializers.IntegerField(help_text="Issued less removed.")
    counted = serializers.IntegerField(
        allow_null=True,
        help_text="The latest count of every open table, summed (or the whole "
        "field's when newer than all of them); null while an open table has no "
        "count.",
    )
    counted_at = serializers.DateTimeField(
        allow_null=True, help_text="The oldest of the counts summed."
    )
    counts = ChipCountReadSerializer(many=True, help_text="The counts summed.")
    uncounted = serializers.ListField(
        child=serializers.CharField(), help_text="Open tables never counted."
    )
    moved_since = serializers.ListField(
        child=serializers.CharField(),
        help_text="Counted tables players moved into or out of since their count.",
    )
    difference = serializers.IntegerField(
        allow_null=True, help_text="Counted less in play; null without a count."
    )
    balanced = serializers.BooleanField()


class EventSummarySerializer(serializers.Serializer):
    """An event's money and chips now (TO1, TO3, TO7)."""

    class Meta:
        ref_name = "TournamentSummary"

    code = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField()
    entries = serializers.IntegerField()
    left = serializers.IntegerField()
    prize_pool = serializers.IntegerField(help_text="Cents held in the pool now.")
    pool = serializers.IntegerField(help_text="Cents the places share (TO7).")
    overlay = serializers.IntegerField(help_text="What the house adds (TO7).")
    places_paid = serializers.ListField(child=serializers.IntegerField())
    guarantee = serializers.IntegerField(help_text="Cents the house guarantees.")
    chips = ChipReconciliationSerializer()


def summary(event: Event) -> dict[str, Any]:
    """The summary of ``event`` as :class:`EventSummarySerializer` shapes it."""
    pool, overlay = selectors.pool_and_overlay(event=event)
    chips = selectors.chip_reconciliation(event=event)
    r = chips.reconciliation
    return {
        "code": event.code,
        "name": event.name,
        "status": event.status,
        "entries": selectors.entries_counted(event=event),
        "left": selectors.entries_left(event=event),
        "prize_pool": selectors.prize_pool_cents(event=event),
        "pool": pool,
        "overlay": overlay,
        "places_paid": selectors.place_prizes(event=event),
        "guarantee": int(event.guarantee_cents),
        "chips": {
            "issued": r.issued,
            "issued_total": r.issued_total,
            "removed": r.removed,
            "removed_total": r.removed_total,
            "in_play": r.in_play,
            "counted": r.counted,
            "counted_at": chips.counted_at,
            "counts": [
                {"table": c.table, "chips": c.chips, "at": c.at} for c in chips.counts
            ],
            "uncounted": list(chips.uncounted),
            "moved_since": list(chips.moved_since),
            "difference": r.difference,
            "balanced": r.balanced,
        },
    }
