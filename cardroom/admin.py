"""The floor's admin: tables with their seats and stacks, hands, players' nights.

Hands, seats and stack movements are records of what happened: read-only here.
Changes to money go through the services (corrections need a second person).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from cardroom.models import (
    Absence,
    Correction,
    Game,
    Hand,
    HandException,
    HandRefusal,
    HandSeat,
    HandVoid,
    Policy,
    Room,
    SeatSession,
    StackMovement,
    StackReview,
    Table,
    TerminalKey,
    TerminalPairing,
)
from core.money_admin import money_text


def euros(cents: int | None) -> str:
    """The room's money in the admin's language, with the one formatter."""
    return money_text(cents, settings.CARDROOM_CURRENCY)


class ReadOnlyAdmin(admin.ModelAdmin):
    """A record of what happened: viewable, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "time_zone", "currency", "gaming_day_cutoff_hour"]


class PolicyInline(ReadOnlyInline):
    model = Policy
    fields = ["version", "document", "created_at", "created_by"]
    readonly_fields = fields  # type: ignore[assignment]
    ordering = ["-version"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "room", "min_buy_in", "max_buy_in"]
    list_filter = ["code", "room"]
    inlines = [PolicyInline]

    @admin.display(description=_("minimum"))
    def min_buy_in(self, obj: Game) -> str:
        return euros(obj.min_buy_in_cents)

    @admin.display(description=_("maximum"))
    def max_buy_in(self, obj: Game) -> str:
        return euros(obj.max_buy_in_cents)


class OpenSeatInline(ReadOnlyInline):
    model = SeatSession
    verbose_name_plural = _("players seated now")
    fields = ["seat", "player", "stack", "kind", "started_at", "away_since"]
    readonly_fields = fields  # type: ignore[assignment]
    ordering = ["seat"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[SeatSession]:
        return super().get_queryset(request).filter(ended_at__isnull=True)

    @admin.display(description=_("stack"))
    def stack(self, obj: SeatSession) -> str:
        return euros(obj.stack_cents)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "code",
        "name",
        "game",
        "status",
        "seated",
        "opened_at",
        "gaming_day",
    ]
    list_filter = ["status", "game__code"]
    search_fields = ["code", "name"]
    readonly_fields = ["status", "opened_at", "closed_at", "gaming_day", "game"]
    inlines = [OpenSeatInline]

    @admin.display(description=_("seated"))
    def seated(self, obj: Table) -> int:
        return obj.sessions.filter(ended_at__isnull=True).count()


@admin.register(TerminalKey)
class TerminalKeyAdmin(admin.ModelAdmin):
    """Managers create keys here (shown once) and revoke them."""

    list_display = [
        "prefix",
        "name",
        "created",
        "expiry_date",
        "_has_expired",
        "revoked",
        "table",
    ]
    list_filter = ["created", "table"]
    search_fields = ["name", "prefix"]
    autocomplete_fields = ["table"]

    def get_readonly_fields(
        self, request: HttpRequest, obj: TerminalKey | None = None
    ) -> tuple[str, ...]:
        if obj is not None and obj.revoked:
            return ("prefix", "name", "revoked", "expiry_date")
        return ("prefix",)

    def save_model(
        self, request: HttpRequest, obj: TerminalKey, form: Any, change: bool
    ) -> None:
        if obj.pk:
            obj.save()
            return
        key = TerminalKey.objects.assign_key(obj)
        obj.save()
        messages.warning(
            request,
            _(
                "The key of %(name)s is %(key)s. Keep it somewhere safe: it can't"
                " be shown again."
            )
            % {"name": obj.name, "key": key},
        )


class MovementInline(ReadOnlyInline):
    model = StackMovement
    fields = ["at", "kind", "method", "amount", "recorded_by"]
    readonly_fields = fields  # type: ignore[assignment]

    @admin.display(description=_("amount"))
    def amount(self, obj: StackMovement) -> str:
        return euros(obj.amount_cents)


@admin.register(SeatSession)
class SeatSessionAdmin(ReadOnlyAdmin):
    """A player's night: where he sat, what he bought in for, his stack."""

    list_display = [
        "player",
        "table",
        "seat",
        "kind",
        "stack",
        "gaming_day",
        "started_at",
        "ended_at",
    ]
    list_filter = ["gaming_day", "table", "kind"]
    search_fields = ["player__code", "player__name", "player__nickname"]
    date_hierarchy = "started_at"
    inlines = [MovementInline]

    @admin.display(description=_("stack"))
    def stack(self, obj: SeatSession) -> str:
        return euros(obj.left_with_cents if obj.ended_at else obj.stack_cents)


class HandSeatInline(ReadOnlyInline):
    model = HandSeat
    fields = [
        "seat",
        "player",
        "stack_cents",
        "put_in_cents",
        "returned_cents",
        "won_cents",
        "final_stack_cents",
        "cards",
        "description",
    ]
    readonly_fields = fields  # type: ignore[assignment]


class HandExceptionInline(ReadOnlyInline):
    model = HandException
    fields = ["kind", "status", "details", "resolution"]
    readonly_fields = fields  # type: ignore[assignment]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """Hands with their settlement and exceptions."""

    list_display = [
        "__str__",
        "game",
        "gaming_day",
        "ended_at",
        "pots",
        "rake",
        "participants",
        "status",
        "flags",
    ]
    list_filter = ["gaming_day", "table", "status", "exceptions__kind"]
    search_fields = ["table__code", "hand_no", "seats__player__code"]
    date_hierarchy = "ended_at"
    readonly_fields = [
        "table",
        "hand_no",
        "game",
        "policy",
        "gaming_day",
        "ended_at",
        "status",
        "ledger_transaction",
        "source",
        "pots_table",
    ]
    exclude = ["record", "settlement", "record_hash"]
    inlines = [HandSeatInline, HandExceptionInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hand]:
        return super().get_queryset(request).select_related("table", "game")

    @admin.display(description=_("pots"))
    def pots(self, obj: Hand) -> str:
        return euros(obj.pot_cents)

    @admin.display(description=_("rake"))
    def rake(self, obj: Hand) -> str:
        return euros(obj.rake_cents)

    @admin.display(description=_("exceptions"))
    def flags(self, obj: Hand) -> str:
        return ", ".join(e["code"] for e in obj.settlement.get("exceptions", []))

    @admin.display(description=_("settlement"))
    def pots_table(self, obj: Hand) -> str:
        rows = (
            (
                i + 1,
                euros(p["amount"]),
                ", ".join(map(str, p["eligible"])),
                euros(p["rake"]),
                euros(p["jackpot_drop"]),
                json.dumps(p["winners"]),
            )
            for i, p in enumerate(obj.settlement["pots"])
        )
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>",
            rows,
        )
        return format_html(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>"
            "<th>{}</th></tr>{}</table>",
            _("pot"),
            _("amount"),
            _("eligible seats"),
            _("rake"),
            _("drop"),
            _("winners"),
            body,
        )


@admin.register(HandException)
class HandExceptionAdmin(ReadOnlyAdmin):
    list_display = ["hand", "kind", "status", "created_at"]
    list_filter = ["kind", "status"]


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin):
    """Pot corrections, held pots and receivables with both people's names."""

    list_display = [
        "kind",
        "hand",
        "table",
        "from_player",
        "to_player",
        "amount",
        "status",
        "requested_by",
        "decided_by",
        "requested_at",
    ]
    list_filter = ["kind", "status"]

    @admin.display(description=_("amount"))
    def amount(self, obj: Correction) -> str:
        return euros(obj.amount_cents)


@admin.register(StackReview)
class StackReviewAdmin(ReadOnlyAdmin):
    """Chips frozen for review (HS6), with who proposed and who approved."""

    list_display = [
        "hand",
        "seat",
        "player",
        "frozen",
        "status",
        "resolution",
        "to_player",
        "proposed_by",
        "approved_by",
        "created_at",
    ]
    list_filter = ["status", "resolution"]

    @admin.display(description=_("frozen"))
    def frozen(self, obj: StackReview) -> str:
        return euros(obj.amount_cents)


@admin.register(HandVoid)
class HandVoidAdmin(ReadOnlyAdmin):
    """Voids (RK8): the reason, the floor person and the approving manager."""

    list_display = [
        "hand",
        "reason",
        "status",
        "needs_approval",
        "requested_by",
        "decided_by",
        "requested_at",
    ]
    list_filter = ["reason", "status"]


@admin.register(Absence)
class AbsenceAdmin(ReadOnlyAdmin):
    list_display = [
        "player",
        "session",
        "long_break",
        "started_at",
        "ended_at",
        "picked_up_by",
    ]
    list_filter = ["gaming_day", "long_break"]


@admin.register(TerminalPairing)
class TerminalPairingAdmin(ReadOnlyAdmin):
    """The one-time codes that paired tablets with tables: who made each, until
    when it was valid, and the key it was redeemed for (the code itself is kept
    only hashed)."""

    list_display = [
        "table",
        "created_by",
        "created_at",
        "expires_at",
        "redeemed_at",
        "key",
    ]
    list_filter = ["table", "created_at"]
    exclude = ["code_hash"]


@admin.register(HandRefusal)
class HandRefusalAdmin(ReadOnlyAdmin):
    """Hands a terminal posted and the server refused, kept for the floor; the
    floor marks them handled on its home screen."""

    list_display = [
        "table",
        "hand_no",
        "status",
        "code",
        "rule",
        "count",
        "at",
        "last_at",
        "handled_at",
        "handled_by",
    ]
    list_filter = ["table", "code", "handled_at"]
