"""The floor's admin: each game's list with its tables, calls and actions, and the
records of what was decided (events, lockups, must-moves, pairs kept apart, bars,
closed tables' draws, time collections).

Nothing here edits a decision after the fact: every change goes through the
services, which record who did it and why. Floor staff and managers see it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cardroom.models import StackMovement
from core.api.permissions import staff
from core.errors import ApplicationError, Invalid, SharedCode
from core.money_admin import money_column
from core.roles import Role, has_role
from waitlist import selectors, services
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


def _run(request: HttpRequest, action: Any, done: str) -> None:
    """Run a service for the admin; show its refusal as the API would say it."""
    try:
        action()
    except ApplicationError as error:
        rule = (
            f"{error.rule}: "
            if error.rule and not str(error.detail).startswith(error.rule)
            else ""
        )
        messages.error(request, f"{rule}{error.detail}")
    else:
        messages.success(request, done)


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
        url = reverse("admin:waitlist_floor", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("open"))

    def get_queryset(self, request: HttpRequest) -> QuerySet[WaitingList]:
        selectors.all_lists()  # every open game has its list to work from
        return super().get_queryset(request)

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:list_id>/floor/",
                self.admin_site.admin_view(self.floor_view),
                name="waitlist_floor",
            ),
            *super().get_urls(),
        ]

    def floor_view(self, request: HttpRequest, list_id: int) -> HttpResponse:
        """One game's list, tables and calls, with the floor's actions (WL1–WL10)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        waiting_list = get_object_or_404(
            WaitingList.objects.select_related("game"), pk=list_id
        )
        if request.method == "POST":
            self._act(request, waiting_list)
            return HttpResponseRedirect(request.path)
        services.list_refresh(waiting_list=waiting_list)
        now = timezone.now()
        queue = selectors.queue(waiting_list)
        rows = []
        for position, entry in enumerate(queue, 1):
            left = None
            if entry.status == Entry.Status.CALLED and entry.expires_at:
                left = max(int((entry.expires_at - now).total_seconds()), 0)
            rows.append({"position": position, "entry": entry, "seconds_left": left})
        tables = [
            {
                "load": load,
                "state": state,
                "must_move_to": MustMove.objects.filter(
                    table=state.table, ended_at__isnull=True
                )
                .values_list("main__code", flat=True)
                .first(),
            }
            for load, state in selectors.table_loads(waiting_list.game)
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Waiting list: %(game)s") % {"game": waiting_list.game},
            "opts": self.model._meta,
            "waiting_list": waiting_list,
            "rows": rows,
            "tables": tables,
            "methods": StackMovement.Method.choices,
            "events": waiting_list.events.select_related("player", "by").order_by(
                "-at", "-pk"
            )[:30],
        }
        return TemplateResponse(request, "admin/waitlist/floor.html", context)

    def _act(self, request: HttpRequest, waiting_list: WaitingList) -> None:
        by = staff(request)
        post = request.POST
        action = post.get("action")
        entry_id = int(post.get("entry") or 0)

        def number(name: str) -> int | None:
            value = (post.get(name) or "").strip()
            return int(value) if value.isdigit() else None

        if action == "join":
            _run(
                request,
                lambda: services.entry_join(
                    waiting_list=waiting_list,
                    player_code=post.get("player", "").strip(),
                    by=by,
                ),
                gettext("Added to the list."),
            )
        elif action == "call":

            def call() -> None:
                result = services.list_call(
                    waiting_list=waiting_list,
                    table_code=post.get("table") or None,
                    by=by,
                )
                if result.entry is None:
                    raise Invalid(
                        SharedCode.INVALID,
                        gettext("Nobody in the queue can take this seat."),
                    )

            _run(request, call, gettext("Called."))
        elif action == "seat":
            amount = number("amount")
            _run(
                request,
                lambda: services.entry_seat(
                    entry_id=entry_id,
                    amount=amount,
                    method=post.get("method") if amount else None,
                    by=by,
                ),
                gettext("Seated."),
            )
        elif action == "decline":
            _run(
                request,
                lambda: services.entry_answer(entry_id=entry_id, accept=False, by=by),
                gettext("Declined: off the list."),
            )
        elif action == "remove":
            _run(
                request,
                lambda: services.entry_remove(
                    entry_id=entry_id,
                    reason=post.get("reason", ""),
                    by=by,
                ),
                gettext("Removed from the list."),
            )
        else:
            messages.error(request, gettext("Unknown action."))


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
    actions = ["remove"]

    @admin.action(description=_("Take the selected players off their lists"))
    def remove(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        by = staff(request)
        for entry in queryset.filter(status__in=["waiting", "called"]):
            _run(
                request,
                lambda e=entry: services.entry_remove(entry_id=e.pk, by=by),
                gettext("%(p)s removed.") % {"p": entry.player.code},
            )


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
    actions = ["release"]

    @admin.action(description=_("Release the selected lockups"))
    def release(self, request: HttpRequest, queryset: QuerySet[Lockup]) -> None:
        by = staff(request)
        for lockup in queryset.filter(released_at__isnull=True):
            _run(
                request,
                lambda lk=lockup: services.lockup_release(lockup_id=lk.pk, by=by),
                gettext("Seat %(s)s released.") % {"s": lockup.seat},
            )


@admin.register(MustMove)
class MustMoveAdmin(FloorAdmin):
    list_display = ["table", "main", "started_at", "ended_at"]
    list_select_related = ["table", "main"]
    actions = ["end"]

    @admin.action(description=_("End the selected must-moves"))
    def end(self, request: HttpRequest, queryset: QuerySet[MustMove]) -> None:
        by = staff(request)
        for must_move in queryset.filter(ended_at__isnull=True):
            _run(
                request,
                lambda m=must_move: services.must_move_end(must_move_id=m.pk, by=by),
                gettext("Must-move ended."),
            )


@admin.register(KeptApart)
class KeptApartAdmin(FloorAdmin):
    list_display = ["player_a", "player_b", "reason", "created_at", "ended_at"]
    list_select_related = ["player_a", "player_b"]
    fields = ["player_a", "player_b", "reason"]
    raw_id_fields = ["player_a", "player_b"]
    actions = ["end"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return has_role(request.user, *FLOOR)

    def save_model(
        self, request: HttpRequest, obj: KeptApart, form: Any, change: bool
    ) -> None:
        # Through the service: it orders the pair and records the decision (WL9).
        pair = services.kept_apart_start(
            player_codes=(obj.player_a.code, obj.player_b.code),
            reason=obj.reason,
            by=staff(request),
        )
        obj.pk = pair.pk

    @admin.action(description=_("Stop keeping the selected pairs apart"))
    def end(self, request: HttpRequest, queryset: QuerySet[KeptApart]) -> None:
        by = staff(request)
        for pair in queryset.filter(ended_at__isnull=True):
            _run(
                request,
                lambda p=pair: services.kept_apart_end(pair_id=p.pk, by=by),
                gettext("Pair ended."),
            )


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
