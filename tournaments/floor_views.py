"""The floor's screen for an event (TO11, TO12): its clock with the floor's
buttons, its tables seat by seat (the map), and balancing. Server-rendered in the
admin's frame, for floor staff and managers; every action goes through
``tournaments.floor``.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from core.api.permissions import staff
from core.errors import ApplicationError
from core.roles import Role, has_role
from tournaments import floor
from tournaments.floor_models import ClockChange, SeatMove
from tournaments.models import Event


def _floor_only(request: HttpRequest) -> None:
    if not has_role(request.user, Role.FLOOR, Role.MANAGER):
        raise PermissionDenied


def _act(request: HttpRequest, event: Event) -> None:
    post, by = request.POST, staff(request)
    action = post.get("action", "")
    if action == "rebalance":
        done = floor.tables_rebalance(event_code=event.code, by=by)
        messages.success(
            request,
            _("%(n)d players moved; tables broken: %(broken)s.")
            % {"n": len(done.moves), "broken": ", ".join(done.broken) or "-"},
        )
        return
    if action == "draw":
        moves = floor.seats_draw(event_code=event.code, by=by)
        messages.success(request, _("%(n)d seats drawn.") % {"n": len(moves)})
        return
    level = post.get("level") or None
    seconds = post.get("seconds") or None
    try:
        floor.clock_change(
            event_code=event.code,
            action=action,
            level=int(level) if level else None,
            seconds=int(seconds) if seconds else None,
            reason=post.get("reason", ""),
            by=by,
        )
    except ValueError:
        messages.error(request, _("Give the level and the seconds as whole numbers."))


def event_floor(request: HttpRequest, event: str) -> HttpResponse:
    """The event's clock, map and log for the floor; POST runs an action."""
    _floor_only(request)
    obj = floor.event_get(code=event)
    if request.method == "POST":
        try:
            _act(request, obj)
        except ApplicationError as error:
            messages.error(request, f"{error.rule or ''} {error.detail}".strip())
        return HttpResponseRedirect(request.path)
    context = {
        **admin.site.each_context(request),
        "title": _("Tournament floor: %(event)s") % {"event": obj.name},
        "event": obj,
        "clock": floor.clock_display(obj),
        "tables": floor.table_map(obj),
        "levels": obj.structure.levels.order_by("number"),
        "log": ClockChange.objects.filter(event=obj)
        .select_related("by")
        .order_by("-at", "-pk")[:20],
        "moves": SeatMove.objects.filter(event=obj)
        .select_related("entry__player")
        .order_by("-at", "-pk")[:20],
    }
    return TemplateResponse(request, "tournaments/floor.html", context)
