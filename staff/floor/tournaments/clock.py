"""The event's clock on the floor (TO12): the time left, the level with its
blinds, the next level and break, polled by the floor's screen, and its start,
pause, resume, move, time added and stop."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.api.permissions import staff
from core.errors import ApplicationError
from staff.common.money import money_in
from staff.common.roles import floor_only
from staff.common.tournaments import (
    act,
    chips_text,
    clock_text,
    event_of,
    floor_url,
    form_refused,
)
from staff.floor.tournaments import forms
from tournaments import selectors, services
from tournaments.models import (
    Event,
)

CLOCK_SECONDS = 1


def clock_view(event: Event) -> dict[str, Any]:
    """What the floor's clock shows, as text: the time left as m:ss, the level with
    its blinds and ante, the next level and the next break."""
    try:
        shown = selectors.clock_shown(event, now=timezone.now())
    except ApplicationError:
        return {"ready": False}
    status_names = {
        "not_started": _("Not started"),
        "running": _("Running"),
        "paused": _("Paused"),
        "stopped": _("Stopped"),
    }
    following = shown["next_level"]
    return {
        "ready": True,
        "status": shown["status"],
        "status_name": status_names.get(shown["status"], shown["status"]),
        "level": shown["level"],
        "on_break": shown["on_break"],
        "blinds": (
            f"{chips_text(shown['small_blind'])} / {chips_text(shown['big_blind'])}"
            if shown["big_blind"] is not None
            else ""
        ),
        "ante": chips_text(shown["ante"]) if shown["ante"] else "",
        "big_blind_ante": shown["big_blind_ante"],
        "time_left": clock_text(shown["seconds_left"]),
        "seconds_left": shown["seconds_left"],
        "next_level": (
            {
                "level": following["level"],
                "blinds": f"{chips_text(following['small_blind'])} / "
                f"{chips_text(following['big_blind'])}",
                "ante": chips_text(following["ante"]) if following["ante"] else "",
            }
            if following
            else None
        ),
        "next_break": (
            clock_text(shown["next_break_in"])
            if shown["next_break_in"] is not None
            else ""
        ),
        "players_left": shown["players_left"],
        "entries": shown["entries"],
        "average_stack": chips_text(shown["average_stack"]),
        "chips_in_play": chips_text(shown["chips_in_play"]),
        "prize_pool": money_in(event.currency)(shown["prize_pool"]),
        "guarantee": (
            money_in(event.currency)(int(event.guarantee_cents))
            if event.guarantee_cents
            else ""
        ),
        "places_paid": shown["places_paid"],
    }


@floor_only
@require_GET
def event_clock(request: HttpRequest, event: str) -> HttpResponse:
    """The clock alone, polled by the event's page."""
    found = event_of(event)
    return render(
        request,
        "staff/floor/tournaments/_clock.html",
        {"event": found, "clock": clock_view(found)},
    )


@floor_only
@require_POST
def clock_change(request: HttpRequest, event: str) -> HttpResponse:
    """Start, pause, resume, move to a level, add time or stop the clock (TO12).
    Starting the clock starts a scheduled event."""
    found = event_of(event)
    back = floor_url(found, "clock")
    form = forms.ClockForm(request.POST, levels=levels_of(found))
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)

    def action() -> None:
        services.clock_change(
            event_code=found.code,
            action=data["action"],
            level=data.get("level"),
            seconds=data.get("seconds"),
            reason=data.get("reason") or "",
            by=by,
        )
        if data["action"] == "start":
            current = Event.objects.get(pk=found.pk)
            if current.status == Event.Status.SCHEDULED:
                services.event_start(event=current)

    said = {
        "start": _("The clock is running."),
        "pause": _("The clock is paused."),
        "resume": _("The clock is running again."),
        "move": _("The clock is at the level chosen."),
        "add_time": _("The clock's time is changed."),
        "stop": _("The clock is stopped: the event is over."),
    }
    return act(request, found, action, said[data["action"]], back=back)


def levels_of(event: Event) -> list[tuple[int, str]]:
    rows = event.structure.levels.order_by("number") if event.structure_id else []
    return [
        (
            row.number,
            _("Break %(n)s") % {"n": row.number}
            if row.is_break
            else _("Level %(n)s: %(sb)s / %(bb)s")
            % {
                "n": row.number,
                "sb": chips_text(row.small_blind),
                "bb": chips_text(row.big_blind),
            },
        )
        for row in rows
    ]
