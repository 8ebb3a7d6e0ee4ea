"""The waiting lists at the floor (WL1–WL10; PP2–PP4): the next player called to
a free seat (at the table the floor names, or the one the rules pick), a called
player seated with his buy-in typed in the room's currency or declining, players
put on a game's list and taken off it; a player the list's door refuses is
passed over and the floor told why. Each game's whole list has its own screen:
its tables, its queue and its latest decisions (:func:`list_page`).

Every action calls the waiting lists' services (``waitlist.services``); the forms
that change the books or the lists book once by their own key
(:mod:`staff.common.once`) and redirect after the POST, to the list's screen when
they were sent from there.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.models import Player
from core.api.permissions import staff
from core.errors import ApplicationError, Refusal
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.floor import selectors as reads
from staff.floor._shared import (
    booked,
    form_errors,
    page_context,
    refused,
    room_clock,
)
from staff.floor.forms import (
    ListJoinForm,
    SeatForm,
)
from waitlist import services as waitlist
from waitlist.models import Entry, WaitingList


@floor_only
@require_POST
def list_call(request: HttpRequest, list_id: int) -> HttpResponse:
    """Call the next player the rules pick for a free seat of the game (WL1, WL2,
    WL4), at the table the floor named or the one the rules pick. A player the
    list's door refuses is passed over, and the floor is told why (PP2–PP4)."""
    waiting_list = get_object_or_404(WaitingList, pk=list_id)
    table = (request.POST.get("table") or "").strip() or None
    said: list[str] = []
    passed: list[str] = []

    def act() -> None:
        result = waitlist.list_call(
            waiting_list=waiting_list, table_code=table, by=staff(request)
        )
        passed.extend(passed_over(result.skipped))
        entry = result.entry
        if entry is None:
            raise Refusal(
                "nobody_to_call",
                _("WL1: nobody in the queue can take a free seat of this game."),
                rule="WL1",
            )
        said.append(
            _("%(p)s is called to %(t)s, seat %(s)s.")
            % {
                "p": entry.player.name or entry.player.code,
                "t": entry.call_table.code if entry.call_table else "",
                "s": entry.call_seat or "",
            }
        )

    try:
        act()
    except ApplicationError as error:
        refused(request, error, room_facts().currency)
    else:
        messages.success(request, said[0])
    for text in passed:
        messages.warning(request, text)
    return redirect(back_to(request, waiting_list.pk))


def passed_over(skipped: list[dict[str, Any]]) -> list[str]:
    """Why a call passed players over whom the waiting list's door refuses
    (PP2–PP4), for the floor: each keeps his place on the list."""
    texts = {
        "PP2": _(
            "%(p)s was passed over: under the room's minimum age or without a date "
            "of birth (PP2). He keeps his place on the list."
        ),
        "PP3": _(
            "%(p)s was passed over: barred (PP3). He keeps his place on the list."
        ),
        "PP4": _(
            "%(p)s was passed over: self-excluded (PP4). He keeps his place on the "
            "list."
        ),
    }
    refused = [one for one in skipped if one.get("rule") in texts]
    names = dict(
        Player.objects.filter(code__in=[one["player"] for one in refused]).values_list(
            "code", "name"
        )
    )
    return [
        texts[one["rule"]] % {"p": names.get(one["player"]) or one["player"]}
        for one in refused
    ]


@floor_only
@require_POST
def entry_seat(request: HttpRequest, entry_id: int) -> HttpResponse:
    """Seat a called player at the seat he was called to (WL2, WL5, BI1–BI7)."""
    entry = get_object_or_404(
        Entry.objects.select_related("player", "call_table"), pk=entry_id
    )
    currency = room_facts().currency
    form = SeatForm(request.POST, currency=currency)
    back = back_to(request, entry.waiting_list_id)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(back)
    amount = form.cleaned_data.get("amount")
    by = staff(request)

    def book() -> str:
        waitlist.entry_seat(
            entry_id=entry.pk,
            amount=amount or None,
            method=form.cleaned_data["method"] if amount else None,
            by=by,
        )
        return back

    done = _("%(p)s is seated at %(t)s, seat %(s)s.") % {
        "p": entry.player.name or entry.player.code,
        "t": entry.call_table.code if entry.call_table else "",
        "s": entry.call_seat or "",
    }
    answer = booked(request, book, done, currency, wanted=amount or None)
    return answer or redirect(back)


@floor_only
@require_POST
def list_join(request: HttpRequest) -> HttpResponse:
    """Put a registered player on a game's list from the floor's lists (WL1);
    the lists' rules refuse him when he is on it already (WL1), plays the game
    (WL10) or is barred from it (WL7)."""
    currency = room_facts().currency
    form = ListJoinForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        listed = form.cleaned_data.get("waiting_list")
        return redirect(back_to(request, listed.pk if listed else None))
    player = form.cleaned_data["player"]
    waiting_list = form.cleaned_data["waiting_list"]
    back = back_to(request, waiting_list.pk)
    by = staff(request)

    def book() -> str:
        waitlist.entry_join(waiting_list=waiting_list, player_code=player.code, by=by)
        return back

    done = _("%(p)s is on the list.") % {"p": player.name or player.code}
    return booked(request, book, done, currency) or redirect(back)


# One list's whole screen: its tables, its queue and its decisions -----------------


def back_to(request: HttpRequest, list_id: int | None) -> str:
    """Where a list's form goes back to: the list's own screen when it was sent
    from there (``back=list``), the floor's home otherwise."""
    if list_id is not None and request.POST.get("back") == "list":
        return reverse("staff:floor-list", args=[list_id])
    return reverse("staff:floor-home")


@floor_only
@require_GET
def list_page(request: HttpRequest, list_id: int) -> HttpResponse:
    """One game's whole list (WL1–WL10): its tables with their free seats and
    must-moves, each called from here; the queue with each player's place, why he
    waits and his call counting down, seated, declined or taken off the list; and
    the list's latest decisions with their rules."""
    waiting_list = get_object_or_404(
        WaitingList.objects.select_related("game"), pk=list_id
    )
    waitlist.list_refresh(waiting_list=waiting_list)
    now = timezone.now()
    return render(
        request,
        "staff/floor/list.html",
        page_context(
            **room_clock(now),
            waiting_list=waiting_list,
            tables=reads.list_tables(waiting_list),
            rows=reads.list_rows(waiting_list, now=now),
            events=reads.list_decisions(waiting_list),
        ),
    )


def _entry(entry_id: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), pk=entry_id)


@floor_only
@require_POST
def entry_decline(request: HttpRequest, entry_id: int) -> HttpResponse:
    """A called player declines the seat: he is off the list (WL2)."""
    entry = _entry(entry_id)
    back = reverse("staff:floor-list", args=[entry.waiting_list_id])
    by = staff(request)

    def book() -> str:
        waitlist.entry_answer(entry_id=entry.pk, accept=False, by=by)
        return back

    done = _("Declined: off the list.")
    return booked(request, book, done, room_facts().currency) or redirect(back)


@floor_only
@require_POST
def entry_remove(request: HttpRequest, entry_id: int) -> HttpResponse:
    """Take a player off the list, waiting or called (WL1)."""
    entry = _entry(entry_id)
    back = reverse("staff:floor-list", args=[entry.waiting_list_id])
    by = staff(request)

    def book() -> str:
        waitlist.entry_remove(entry_id=entry.pk, by=by)
        return back

    done = _("Removed from the list.")
    return booked(request, book, done, room_facts().currency) or redirect(back)
