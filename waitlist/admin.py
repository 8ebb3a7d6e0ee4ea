"""The floor's admin: the records of what was decided, read only (each game's
list, its entries and events, lockups, must-moves, pairs kept apart, bars, closed
tables' draws, time collections).

The night's work on them is the floor's staff screens' (``staff/floor/``): a
list's whole screen with its calls, seats and removals, and the seats locked up,
must-moves and pairs kept apart, each ended there. Nothing here edits a decision:
every change goes through the services, which record who did it and why. Floor
staff and managers see it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from core.money_admin import money_column
from core.roles import Role, has_role
from waitlist import selectors
from waitlist.models import (
    Bar,
    Entry,
    Event,
    KeptApart,
    Lockup,
    MustMove,
    TableBreak,
    TimeCollection,
    WaitingList,
)

FLOOR = (Role.FLOOR, Role.MANAGER)


class FloorAdmin(admin.ModelAdmin):
    """Seen by the floor and managers; records only the services write."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return has_role(request.user, *FLOOR)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return has_role(request.user, *FLOOR)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WaitingList)
class WaitingListAdmin(FloorAdmin):
    list_display = ["__str__", "waiting", "called", "floor_link"]
    list_select_related = ["game"]

    @admin.display(description=_("waiting"))
    def waiting(self, obj: WaitingList) -> int:
        return obj.entries.filter(status=Entry.Status.WAITING).count()

    @admin.display(description=_("called"))
    def called(self, obj: WaitingList) -> int:
        return obj.entries.filter(status=Entry.Status.CALLED).count()

    @admin.display(description=_("floor screen"))
    def floor_link(self, obj: WaitingList) -> SafeString:
        """The list's whole screen, on the floor's staff screens."""
        url = reverse("staff:floor-list", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("open"))

    def get_queryset(self, request: HttpRequest) -> QuerySet[WaitingList]:
        selectors.all_lists()  # every open game has its list to work from
        return super().get_queryset(request)


@admin.register(Entry)
class EntryAdmin(FloorAdmin):
    list_display = [
        "player",
        "waiting_list",
        "kind",
        "status",
        "joined_at",
        "called_at",
        "call_table",
        "call_seat",
        "end",
    ]
    list_filter = ["status", "kind", "waiting_list"]
    search_fields = ["player__code", "player__name", "player__nickname"]
    list_select_related = ["player", "waiting_list__game", "call_table"]


@admin.register(Event)
class EventAdmin(FloorAdmin):
    list_display = ["at", "kind", "rule", "player", "table", "reason", "by", "source"]
    list_filter = ["kind", "rule", "waiting_list"]
    search_fields = ["player__code", "reason"]
    list_select_related = ["player", "table", "by"]
    date_hierarchy = "at"


@admin.register(Lockup)
class LockupAdmin(FloorAdmin):
    list_display = ["table", "seat", "kind", "player", "locked_at", "released_at"]
    list_filter = ["kind", "release"]
    list_select_related = ["table", "player"]


@admin.register(MustMove)
class MustMoveAdmin(FloorAdmin):
    list_display = ["table", "main", "started_at", "ended_at"]
    list_select_related = ["table", "main"]


@admin.register(KeptApart)
class KeptApartAdmin(FloorAdmin):
    list_display = ["player_a", "player_b", "reason", "created_at", "ended_at"]
    list_select_related = ["player_a", "player_b"]


@admin.register(Bar)
class BarAdmin(FloorAdmin):
    list_display = ["player", "game", "since", "until"]
    list_select_related = ["player", "game"]


@admin.register(TableBreak)
class TableBreakAdmin(FloorAdmin):
    list_display = ["table", "at", "seed", "order"]
    list_select_related = ["table"]


@admin.register(TimeCollection)
class TimeCollectionAdmin(FloorAdmin):
    list_display = [
        "table",
        "period_start",
        "waiting",
        "everyone_pays",
        "total",
        "collected_at",
    ]
    total = money_column("total_cents", _("total"), currency="table.room.currency")
    list_filter = ["everyone_pays", "table"]
    list_select_related = ["table"]
