"""The event's floor screen, for the tournament director and the floor: its
clock (:mod:`staff.floor.tournaments.clock`), seats drawn, tables balanced and
broken (TO11), busts and hand-for-hand (TO4), chip counts per table and the
reconciliation (TO3), disqualifications and chips removed with their cause (TO3),
and the ways to the colour-up, the deal and the payouts.

Every write calls the tournament services (``tournaments.services``)
inside a form that books once by its own key (:mod:`staff.common.once`), then
redirects, so a reload sends nothing again. A refusal is said in the reader's
language with its rule (:mod:`staff.common.refusals`).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.services.cage import Door, restricted_now
from core.api.permissions import staff
from core.roles import Role, has_role
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.common.tournaments import (
    act,
    chips_text,
    event_of,
    floor_url,
    form_refused,
)
from staff.floor.tournaments import forms
from staff.floor.tournaments.clock import CLOCK_SECONDS, clock_view, levels_of
from tournaments import selectors, services
from tournaments.models import (
    Bust,
    ChipCount,
    ChipMovement,
    ChipRace,
    ClockChange,
    Deal,
    Entry,
    Event,
    EventTable,
    PayoutSheet,
    SeatMove,
)


def _tables(event: Event) -> list[dict[str, Any]]:
    """The open tables seat by seat, with each table's latest count."""
    counts: dict[str, ChipCount] = {}
    for count in ChipCount.objects.filter(event=event).exclude(table="").order_by("at"):
        counts[count.table] = count
    names = dict(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).values_list(
            "player__code", "player__name"
        )
    )
    tables = selectors.table_map(event)
    restricted = _restricted(event)
    for table in tables:
        latest = counts.get(table["table"])
        table["count"] = chips_text(latest.chips) if latest else ""
        table["counted_at"] = latest.at if latest else None
        for seat in table["seated"]:
            seat["name"] = names.get(seat["player"] or "", "") or seat["player"]
            seat["restricted"] = restricted.get(seat["player"] or "", "")
    return tables


def _restricted(event: Event) -> dict[str, str]:
    """The playing entrants a bar or a self-exclusion keeps from tournaments now,
    by player code, with the rule (PP5): the floor removes each, disqualifying
    him with his counted stack (TO3), his prize held (PP6, TO9)."""
    playing = dict(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).values_list(
            "player_id", "player__code"
        )
    )
    found = restricted_now(list(playing), door=Door.TOURNAMENT)
    return {playing[player]: rule for player, rule in found.items()}


def _reconciliation(event: Event) -> dict[str, Any]:
    """Chips issued, removed by cause, expected and counted (TO3)."""
    rec = selectors.chip_reconciliation(event=event).reconciliation
    causes = dict(_cause_names())
    return {
        "issued": chips_text(rec.issued_total),
        "removed": [
            (causes.get(cause, cause), chips_text(chips))
            for cause, chips in rec.removed.items()
            if chips
        ],
        "in_play": chips_text(rec.in_play),
        "counted": chips_text(rec.counted),
        "difference": (
            None if rec.difference is None else f"{rec.difference:+,}".replace(",", " ")
        ),
        "balanced": rec.balanced,
    }


def _cause_names() -> list[tuple[str, str]]:
    return [(str(v), str(n)) for v, n in ChipMovement.Cause.choices]


def entries_playing(event: Event) -> list[Entry]:
    return list(
        Entry.objects.select_related("player")
        .filter(event=event, status=Entry.Status.ACTIVE)
        .order_by("table", "seat", "number")
    )


@floor_only
@require_GET
def event_floor(request: HttpRequest, event: str) -> HttpResponse:
    """The event's floor screen: the clock, the tables, busts, counts and the
    reconciliation, and the ways to the race, the deal and the payouts."""
    found = event_of(event)
    playing = entries_playing(found)
    tables = _tables(found)
    codes = [t["table"] for t in tables]
    room = room_facts()
    busts = (
        Bust.objects.filter(event=found)
        .select_related("entry__player")
        .order_by("-at", "-pk")[:30]
    )
    context = {
        "room": room,
        "event": found,
        "clock": clock_view(found),
        "clock_seconds": CLOCK_SECONDS,
        "tables": tables,
        "playing": playing,
        "unseated": [e for e in playing if e.seat is None],
        "clock_form": forms.ClockForm(levels=levels_of(found)),
        "bust_form": forms.BustForm(tables=codes, players=playing),
        "count_form": forms.CountForm(tables=codes),
        "disqualify_form": forms.DisqualifyForm(players=_disqualifiable(found)),
        "remove_form": forms.RemoveForm(causes=_removal_causes(), players=playing),
        "reconciliation": _reconciliation(found),
        "busts": busts,
        "log": ClockChange.objects.filter(event=found)
        .select_related("by")
        .order_by("-at", "-pk")[:12],
        "moves": SeatMove.objects.filter(event=found)
        .select_related("entry__player")
        .order_by("-at", "-pk")[:40],
        "races": ChipRace.objects.filter(event=found).order_by("-at")[:5],
        "deals": Deal.objects.filter(event=found).order_by("-recorded_at")[:3],
        "sheet": PayoutSheet.objects.filter(event=found).first(),
        "can_download": has_role(request.user, Role.MANAGER, Role.AUDITOR),
        "is_manager": has_role(request.user, Role.MANAGER),
    }
    return render(request, "staff/floor/tournaments/event.html", context)


def _disqualifiable(event: Event) -> list[Entry]:
    return list(
        Entry.objects.select_related("player")
        .filter(event=event)
        .exclude(status__in=[Entry.Status.DISQUALIFIED, Entry.Status.REFUNDED])
        .order_by("number")
    )


def _removal_causes() -> list[tuple[str, str]]:
    hidden = ("race", "colour_up", "refund", "entry", "rebuy", "addon")
    return [(v, n) for v, n in _cause_names() if v not in hidden]


@floor_only
@require_POST
def seats_draw(request: HttpRequest, event: str) -> HttpResponse:
    """Draw a seat for every entry still without one (TO2, TO11)."""
    found = event_of(event)
    by = staff(request)
    drawn: list[Any] = []

    def action() -> None:
        drawn.extend(services.seats_draw(event_code=found.code, by=by))

    def done() -> str:
        return _("%(n)d seats drawn; each player's seat is listed under the moves.") % {
            "n": len(drawn)
        }

    return act(request, found, action, done, back=floor_url(found, "tables"))


@floor_only
@require_POST
def tables_rebalance(request: HttpRequest, event: str) -> HttpResponse:
    """Break the tables that can break and balance the rest (TO11, TDA R11, R12)."""
    found = event_of(event)
    by = staff(request)
    result: list[Any] = []

    def action() -> None:
        result.append(services.tables_rebalance(event_code=found.code, by=by))

    def done() -> str:
        made = result[0]
        lines = [
            _("%(n)d players moved; tables broken: %(broken)s.")
            % {"n": len(made.moves), "broken": ", ".join(made.broken) or "–"}
        ]
        lines += [
            _("%(p)s: %(ft)s seat %(fs)s → %(tt)s seat %(ts)s")
            % {
                "p": m.entry.player.name or m.entry.player.code,
                "ft": m.from_table,
                "fs": m.from_seat,
                "tt": m.to_table,
                "ts": m.to_seat,
            }
            for m in made.moves
        ]
        return " · ".join(lines)

    return act(request, found, action, done, back=floor_url(found, "tables"))


@floor_only
@require_POST
def busts_report(request: HttpRequest, event: str) -> HttpResponse:
    """Record the players out in one hand, at a table or hand-for-hand (TO4)."""
    found = event_of(event)
    back = floor_url(found, "busts")
    playing = entries_playing(found)
    form = forms.BustForm(
        request.POST,
        tables=[t.table for t in open_tables(found)],
        players=playing,
    )
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)
    reports = [
        services.BustReport(
            player=player,
            stack=stack,
            busted_by=(data["busted_by"],) if data.get("busted_by") else (),
        )
        for player, stack in data["busts"]
    ]

    def action() -> None:
        services.busts_report(
            event_code=found.code,
            hand=data["hand"],
            busts=reports,
            table=None if data["hand_for_hand"] else data["table"],
            hand_for_hand=data["hand_for_hand"],
            by=by,
            source="floor",
        )

    def done() -> str:
        out = Bust.objects.filter(
            event=found, entry__player__code__in=[r.player for r in reports]
        ).select_related("entry__player")
        return " · ".join(
            _("%(p)s is out in place %(place)s.")
            % {
                "p": b.entry.player.name or b.entry.player.code,
                "place": b.place_high
                if b.place_high == b.place_low
                else f"{b.place_high}–{b.place_low}",
            }
            for b in out
        )

    return act(request, found, action, done, back=back)


def open_tables(event: Event) -> list[EventTable]:
    return list(
        EventTable.objects.filter(event=event, status=EventTable.Status.OPEN).order_by(
            "break_order"
        )
    )


@floor_only
@require_POST
def chips_count(request: HttpRequest, event: str) -> HttpResponse:
    """Record one table's chips counted (TO3)."""
    found = event_of(event)
    back = floor_url(found, "counts")
    form = forms.CountForm(request.POST, tables=[t.table for t in open_tables(found)])
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)

    def action() -> None:
        services.chip_count_report(
            event=found, table=data["table"], chips=data["chips"], by=by, source="floor"
        )

    done = _("%(chips)s chips counted at %(t)s.") % {
        "chips": chips_text(data["chips"]),
        "t": data["table"],
    }
    return act(request, found, action, done, back=back)


@floor_only
@require_POST
def entry_disqualify(request: HttpRequest, event: str) -> HttpResponse:
    """Disqualify an entry with the cause; his stack leaves play (TO3, TO9)."""
    found = event_of(event)
    back = floor_url(found, "penalties")
    form = forms.DisqualifyForm(request.POST, players=_disqualifiable(found))
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)
    entry = get_object_or_404(Entry, event=found, pk=data["entry"])

    def action() -> None:
        services.entry_disqualify(
            entry=entry, by=by, reason=data["reason"], stack=data.get("stack") or 0
        )

    done = _("Entry %(n)s is disqualified.") % {"n": entry.number}
    return act(request, found, action, done, back=back)


@floor_only
@require_POST
def chips_remove(request: HttpRequest, event: str) -> HttpResponse:
    """Take chips out of play for a recorded cause (TO3)."""
    found = event_of(event)
    back = floor_url(found, "penalties")
    form = forms.RemoveForm(
        request.POST, causes=_removal_causes(), players=entries_playing(found)
    )
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)
    entry = (
        get_object_or_404(Entry, event=found, pk=data["entry"])
        if data.get("entry")
        else None
    )

    def action() -> None:
        services.chips_remove(
            event=found,
            cause=data["cause"],
            chips=data["chips"],
            entry=entry,
            note=data.get("note") or "",
            by=by,
        )

    done = _("%(chips)s chips removed from play.") % {
        "chips": chips_text(data["chips"])
    }
    return act(request, found, action, done, back=back)
