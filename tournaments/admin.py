"""The tournaments in the admin: structures and events set up by managers; entries,
purchases, chips, busts, deals and payouts are records the services write (DC2),
shown read-only. Access follows the staff roles, as in the cage's admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounting.admin import ReadOnlyAdmin, RoleAdmin
from core.money_admin import money_column, money_text
from core.roles import Role
from tournaments import selectors
from tournaments.models import (
    BountyPayment,
    Bust,
    ChipMovement,
    Deal,
    Entry,
    Event,
    EventTable,
    Level,
    Payout,
    PayoutSheet,
    Purchase,
    Refund,
    RefundApproval,
    Structure,
)

READERS = (Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)


class LevelInline(admin.TabularInline):
    model = Level
    extra = 0


@admin.register(Structure)
class StructureAdmin(RoleAdmin):
    readers = READERS
    editors = (Role.MANAGER,)
    list_display = ["code", "name"]
    inlines = [LevelInline]


class EventTableInline(admin.TabularInline):
    model = EventTable
    extra = 0
    fields = ["table", "seats", "break_order", "status"]
    readonly_fields = ["status"]


@admin.register(Event)
class EventAdmin(RoleAdmin):
    readers = READERS
    editors = (Role.MANAGER,)
    list_display = ["code", "name", "starts_at", "status", "entry", "prize_pool"]
    list_filter = ["status", "room"]
    search_fields = ["code", "name"]
    readonly_fields = ["status", "created_at", "created_by"]
    inlines = [EventTableInline]

    @admin.display(description=_("entry"))
    def entry(self, event: Event) -> str:
        return money_text(event.entry_total_cents, event.currency)

    @admin.display(description=_("prize pool"))
    def prize_pool(self, event: Event) -> str:
        return money_text(selectors.prize_pool_cents(event=event), event.currency)


class _Record(ReadOnlyAdmin):
    readers = READERS


@admin.register(Entry)
class EntryAdmin(_Record):
    list_display = ["event", "number", "player", "kind", "status", "table", "seat"]
    list_filter = ["event", "status", "kind"]
    search_fields = ["player__code", "player__name"]


@admin.register(Purchase)
class PurchaseAdmin(_Record):
    list_display = ["entry", "kind", "prize_pool", "fee", "chips", "at"]
    list_select_related = ["entry__event"]
    prize_pool = money_column(
        "prize_pool_cents", _("to the prize pool"), currency="entry.event.currency"
    )
    fee = money_column("fee_cents", _("fee"), currency="entry.event.currency")
    list_filter = ["kind", "entry__event"]


@admin.register(ChipMovement)
class ChipMovementAdmin(_Record):
    list_display = ["event", "cause", "chips", "entry", "note", "at"]
    list_filter = ["event", "cause"]


@admin.register(Bust)
class BustAdmin(_Record):
    list_display = ["event", "entry", "hand", "place_high", "place_low", "at"]
    list_filter = ["event", "hand_for_hand"]


@admin.register(BountyPayment)
class BountyPaymentAdmin(_Record):
    list_display = ["event", "winner", "reason", "amount", "at"]
    amount = money_column("amount_cents", _("paid"), currency="event.currency")


@admin.register(RefundApproval)
class RefundApprovalAdmin(_Record):
    list_display = ["purchase", "reason", "approved_by", "at"]


@admin.register(Refund)
class RefundAdmin(_Record):
    list_display = ["purchase", "amount", "requested_by", "approved_by", "at"]
    amount = money_column(
        "amount_cents", _("amount"), currency="purchase.entry.event.currency"
    )


@admin.register(Deal)
class DealAdmin(_Record):
    list_display = ["event", "method", "status", "pool", "recorded_at"]
    pool = money_column("pool_cents", _("prize money dealt"), currency="event.currency")


class PayoutInline(admin.TabularInline):
    model = Payout
    extra = 0
    can_delete = False
    readonly_fields = fields = (
        "entry",
        "place_high",
        "place_low",
        "amount_cents",
        "seat_cents",
        "seat_entry",
        "status",
        "hold_reason",
        "tax_document",
    )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PayoutSheet)
class PayoutSheetAdmin(_Record):
    list_display = ["event", "status", "pool", "prepared_by", "approved_by"]
    pool = money_column("pool_cents", _("prize pool"), currency="event.currency")
    inlines = [PayoutInline]
