"""The event's floor screen, for the tournament director and the floor: the clock
(TO12), seats drawn, tables balanced and broken (TO11), busts and hand-for-hand
(TO4), chip counts per table and the reconciliation (TO3), colour-ups with their
chip race (TO6), deals (TO5), the payout sheet and held prizes (TO7, TO9),
disqualifications and chips removed with their cause (TO3).

Every write calls the tournament services (``tournaments.services``)
inside a form that books once by its own key (:mod:`staff.common.once`), then
redirects, so a reload sends nothing again. A refusal is said in the reader's
language with its rule (:mod:`staff.common.refusals`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.cage.protection import Door, restricted_now
from core.api.permissions import staff
from core.errors import ApplicationError, Invalid
from core.money import money_format, symbol_of
from core.roles import Role, has_role
from jackpots.models import Pool
from staff.common.once import book_once
from staff.common.refusals import refusal_text
from staff.common.roles import floor_only, manager_only
from staff.common.selectors import room_facts
from staff.tournaments import director_forms as forms
from tournaments import selectors, services
from tournaments.domain.chips import RANKS, SUITS, colour_up
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
    Payout,
    PayoutSheet,
    SeatMove,
)
from tournaments.services.deals import deal_approve as deal_approve_service
from tournaments.services.payouts import payout_forfeit as payout_forfeit_service

View = Callable[..., HttpResponse]
CLOCK_SECONDS = 1


# Time and numbers as the floor reads them ------------------------------------


def clock_text(seconds: int | None) -> str:
    """Seconds as a clock shows them: ``14:33``, ``1:02:05`` beyond an hour.

    >>> clock_text(873), clock_text(3725), clock_text(5), clock_text(None)
    ('14:33', '1:02:05', '0:05', '–')
    """
    if seconds is None:
        return "–"
    seconds = max(int(seconds), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def chips_text(chips: int | None) -> str:
    """A chip count grouped as the reader's language writes numbers."""
    if chips is None:
        return "–"
    return formats.number_format(int(chips), force_grouping=True, use_l10n=True)


def money_of(currency: str) -> Callable[[int], str]:
    language = get_language() or "en"
    return lambda cents: money_format(int(cents), currency, language)


# Acting through the services -------------------------------------------------


def event_of(code: str) -> Event:
    return get_object_or_404(Event.objects.select_related("structure"), code=code)


def floor_url(event: Event, part: str = "") -> str:
    url = reverse("staff:tournament-floor", args=[event.code])
    return f"{url}#{part}" if part else url


def refused(request: HttpRequest, error: ApplicationError, currency: str) -> None:
    messages.error(request, refusal_text(error, money=money_of(currency)))


def act(
    request: HttpRequest,
    event: Event,
    action: Callable[[], str | None],
    done: str | Callable[[], str],
    *,
    back: str,
) -> HttpResponse:
    """Run ``action`` once for the form's key (staff.common.once) and go to the page it
    returns (or ``back``), saying ``done``; on a refusal, say why and go ``back``."""

    def book() -> str:
        return action() or back

    try:
        url, fresh = book_once(request, book)
    except ApplicationError as error:
        refused(request, error, event.currency)
        return redirect(back)
    if fresh:
        messages.success(request, done if isinstance(done, str) else done())
    else:
        messages.info(request, _("This form was already sent; it was recorded once."))
    return redirect(url)


def form_refused(request: HttpRequest, form: Any, back: str) -> HttpResponse:
    """Say what is wrong with a form and go back to its page."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))
    return redirect(back)


# The clock (TO12) ------------------------------------------------------------


def clock_view(event: Event) -> dict[str, Any]:
    """What the floor's clock shows, as text: the time left as m:ss, the level with
    its blinds and ante, the next level and the next break."""
    try:
        shown = services.clock_display(event, now=timezone.now())
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
        "prize_pool": money_of(event.currency)(shown["prize_pool"]),
        "guarantee": (
            money_of(event.currency)(int(event.guarantee_cents))
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
        "staff/tournaments/director/_clock.html",
        {"event": found, "clock": clock_view(found)},
    )


@floor_only
@require_POST
def clock_change(request: HttpRequest, event: str) -> HttpResponse:
    """Start, pause, resume, move to a level, add time or stop the clock (TO12).
    Starting the clock starts a scheduled event."""
    found = event_of(event)
    back = floor_url(found, "clock")
    form = forms.ClockForm(request.POST, levels=_levels(found))
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


def _levels(event: Event) -> list[tuple[int, str]]:
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


# The event's page ------------------------------------------------------------


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
    tables = services.table_map(event)
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


def _playing(event: Event) -> list[Entry]:
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
    playing = _playing(found)
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
        "clock_form": forms.ClockForm(levels=_levels(found)),
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
    return render(request, "staff/tournaments/director/event.html", context)


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


# Seats (TO2, TO11) -----------------------------------------------------------


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


# Busts and counts (TO3, TO4) -------------------------------------------------


@floor_only
@require_POST
def busts_report(request: HttpRequest, event: str) -> HttpResponse:
    """Record the players out in one hand, at a table or hand-for-hand (TO4)."""
    found = event_of(event)
    back = floor_url(found, "busts")
    playing = _playing(found)
    form = forms.BustForm(
        request.POST,
        tables=[t.table for t in _open_tables(found)],
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


def _open_tables(event: Event) -> list[EventTable]:
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
    form = forms.CountForm(request.POST, tables=[t.table for t in _open_tables(found)])
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


# Disqualification and chips removed (TO3, TO9) --------------------------------


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
        request.POST, causes=_removal_causes(), players=_playing(found)
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


# Colour-up and chip race (TO6) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class RaceDraw:
    """The cards dealt for a race: each seat's cards, one per odd chip, its
    highest card, and the order they give (highest card first)."""

    seed: str
    cards: dict[str, list[str]]
    best: dict[str, str]
    order: list[str]


def race_deal(odd_chips: Mapping[str, int], *, seed: str) -> RaceDraw:
    """Deal one card per odd chip to each seat, in seat order from seat 1, from a
    deck shuffled by ``seed``; the seat holding the highest card (rank, then suit)
    comes first in the race (TO6, TDA R26).

    Raises :class:`Invalid` when the odd chips need more cards than a deck has.

    >>> draw = race_deal({"1": 2, "4": 1}, seed="x")
    >>> sorted(draw.order) == ["1", "4"] and len(draw.cards["1"]) == 2
    True
    """
    deck = [r + s for r in RANKS for s in SUITS]
    if sum(odd_chips.values()) > len(deck):
        raise Invalid(
            "race_too_many_chips",
            _("TO6: more odd chips than a deck has cards; race them in two rounds."),
            rule="TO6",
        )
    random.Random(seed).shuffle(deck)
    cards: dict[str, list[str]] = {}
    for seat in sorted(odd_chips, key=int):
        cards[seat] = [deck.pop() for _n in range(odd_chips[seat])]

    def value(card: str) -> int:
        return RANKS.index(card[0]) * len(SUITS) + SUITS.index(card[1])

    best = {seat: max(held, key=value) for seat, held in cards.items()}
    order = sorted(best, key=lambda s: -value(best[s]))
    return RaceDraw(seed=seed, cards=cards, best=best, order=order)


def _odd_chips(
    retired: Mapping[str, int], denomination: int, new_denomination: int
) -> dict[str, int]:
    """How many odd chips of the retired colour each seat races with (TO6)."""
    odd = {s: (n * denomination) % new_denomination for s, n in retired.items()}
    return {s: v // denomination for s, v in odd.items() if v > 0}


def _race_seats(event: Event, table: str) -> list[Entry]:
    return [e for e in _playing(event) if e.table == table and e.seat is not None]


def _race_rows(
    seats: Sequence[Entry], stacks: Mapping[str, int], retired: Mapping[str, int]
) -> list[dict[str, Any]]:
    return [
        {
            "seat": str(e.seat),
            "player": e.player.name or e.player.code,
            "stack": stacks.get(str(e.seat), 0),
            "retired": retired.get(str(e.seat), 0),
        }
        for e in seats
    ]


@floor_only
def chip_race(request: HttpRequest, event: str) -> HttpResponse:
    """Colour up a table (TO6): the director types each seat's stack and its chips
    of the retired denomination; the race's cards are dealt on screen, one per odd
    chip, and the director records what they show."""
    found = event_of(event)
    tables = [t.table for t in _open_tables(found)]
    table = request.GET.get("table") or request.POST.get("table") or ""
    if tables and table not in tables:
        table = tables[0]
    seats = _race_seats(found, table) if table else []
    retiring = (
        found.structure.levels.filter(retire_denomination__gt=0)
        .order_by("number")
        .values_list("retire_denomination", flat=True)
        .first()
    )
    form = forms.RaceForm(
        request.POST or None,
        seats=[str(e.seat) for e in seats],
        initial={"table": table, "denomination": retiring},
    )
    context: dict[str, Any] = {
        "room": room_facts(),
        "event": found,
        "tables": tables,
        "table": table,
        "form": form,
        "rows": [],
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        stacks, retired = data["stacks"], data["retired"]
        try:
            odd_chips = _odd_chips(
                retired, data["denomination"], data["new_denomination"]
            )
            draw = race_deal(odd_chips, seed=secrets.token_hex(8))
            preview = colour_up(
                stacks,
                retired,
                denomination=data["denomination"],
                new_denomination=data["new_denomination"],
                race_order=draw.order,
            )
        except ApplicationError as error:
            refused(request, error, found.currency)
        else:
            context.update(
                draw=draw,
                preview=_race_result_rows(
                    seats,
                    preview.before,
                    preview.after,
                    preview.odd,
                    preview.race_winners,
                    preview.granted,
                    draw.cards,
                ),
                removed=chips_text(preview.removed),
                record_form=forms.RaceRecordForm(
                    initial={
                        "table": table,
                        "denomination": data["denomination"],
                        "new_denomination": data["new_denomination"],
                        "stacks": _pairs(stacks),
                        "retired": _pairs(retired),
                        "seed": draw.seed,
                    }
                ),
            )
    context["rows"] = _race_rows(
        seats,
        form.cleaned_data.get("stacks", {})
        if form.is_bound and form.is_valid()
        else {},
        form.cleaned_data.get("retired", {})
        if form.is_bound and form.is_valid()
        else {},
    )
    return render(request, "staff/tournaments/director/race.html", context)


def _pairs(values: Mapping[str, int]) -> str:
    return ",".join(f"{k}:{v}" for k, v in values.items())


def _race_result_rows(
    seats: Sequence[Entry],
    before: Mapping[str, int],
    after: Mapping[str, int],
    odd: Mapping[str, int],
    winners: Sequence[str],
    granted: Sequence[str],
    cards: Mapping[str, list[str]],
) -> list[dict[str, Any]]:
    names = {str(e.seat): e.player.name or e.player.code for e in seats}
    return [
        {
            "seat": seat,
            "player": names.get(seat, ""),
            "before": chips_text(before[seat]),
            "odd": chips_text(odd.get(seat, 0)),
            "cards": " ".join(cards.get(seat, [])),
            "won": seat in winners,
            "granted": seat in granted,
            "after": chips_text(after[seat]),
        }
        for seat in sorted(before, key=int)
    ]


@floor_only
@require_POST
def chip_race_record(request: HttpRequest, event: str) -> HttpResponse:
    """Record the colour-up and the race the cards decided (TO6)."""
    found = event_of(event)
    form = forms.RaceRecordForm(request.POST)
    back = reverse("staff:tournament-race", args=[found.code])
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)
    made: list[ChipRace] = []

    def action() -> str:
        # The cards again from the seed they were dealt by on screen: each seat's
        # highest card decides its place in the race and is recorded with it.
        draw = race_deal(
            _odd_chips(data["retired"], data["denomination"], data["new_denomination"]),
            seed=data["seed"],
        )
        made.append(
            services.chip_race_record(
                event=found,
                table=data["table"],
                denomination=data["denomination"],
                new_denomination=data["new_denomination"],
                stacks=data["stacks"],
                retired=data["retired"],
                cards=draw.best,
                by=by,
            )
        )
        url = reverse("staff:tournament-race-result", args=[found.code, made[0].pk])
        return f"{url}?seed={data['seed']}"

    done = _("The colour-up at %(t)s is recorded.") % {"t": data["table"]}
    return act(request, found, action, done, back=back)


@floor_only
@require_GET
def chip_race_result(request: HttpRequest, event: str, race_id: int) -> HttpResponse:
    """A recorded colour-up: each player's chips before and after, the odd chips,
    the cards dealt and who won a chip (TO6)."""
    found = event_of(event)
    race = get_object_or_404(ChipRace, event=found, pk=race_id)
    result = race.result
    seats = [
        e
        for e in Entry.objects.select_related("player").filter(event=found)
        if e.table == race.table and e.seat is not None
    ]
    odd = {k: int(v) for k, v in result["odd"].items()}
    # The deciding card of each seat is recorded; every card dealt comes again
    # from the seed the screen dealt by, when it gives the same deciding cards.
    recorded = {str(k): str(v) for k, v in (result.get("cards") or {}).items()}
    cards = {k: [v] for k, v in recorded.items()}
    seed = request.GET.get("seed", "")
    if seed:
        draw = race_deal(
            {k: v // race.denomination for k, v in odd.items() if v}, seed=seed
        )
        if draw.best == recorded:
            cards = draw.cards
    rows = _race_result_rows(
        seats,
        {k: int(v) for k, v in result["before"].items()},
        {k: int(v) for k, v in result["after"].items()},
        odd,
        [str(w) for w in result["winners"]],
        [str(g) for g in result.get("granted", [])],
        cards,
    )
    return render(
        request,
        "staff/tournaments/director/race_result.html",
        {
            "room": room_facts(),
            "event": found,
            "race": race,
            "rows": rows,
            "removed": chips_text(race.removed_chips),
            "denomination": chips_text(race.denomination),
            "new_denomination": chips_text(race.new_denomination),
        },
    )


# Deals (TO5) -----------------------------------------------------------------


def _deal_players(event: Event) -> list[Entry]:
    return list(
        Entry.objects.select_related("player")
        .filter(event=event, status=Entry.Status.ACTIVE)
        .order_by("pk")
    )


def button_order(entries: Sequence[Entry], button: int | None) -> list[int]:
    """The entries in seat order clockwise from the seat after the button: ties of
    chips go to the seat nearest the button (TDA R21)."""
    start = button or 0
    return [
        e.pk
        for e in sorted(
            entries, key=lambda e: (((e.seat or 0) - start - 1) % 100, e.pk)
        )
    ]


@floor_only
@require_GET
def deal(request: HttpRequest, event: str) -> HttpResponse:
    """The deal's figures (TO5): the floor types the stacks left; chip-chop and
    ICM are shown side by side; the amounts agreed are prefilled from the method
    the players choose."""
    found = event_of(event)
    players = _deal_players(found)
    stacks_form = forms.DealStacksForm(
        request.GET if "button" in request.GET else None, players=players
    )
    context: dict[str, Any] = {
        "room": room_facts(),
        "event": found,
        "players": players,
        "stacks_form": stacks_form,
        "open_deals": Deal.objects.filter(event=found).order_by("-recorded_at"),
        "currency_sign": symbol_of(found.currency),
    }
    if stacks_form.is_bound and stacks_form.is_valid():
        stacks = stacks_form.stacks()
        try:
            offers = services.deal_offers(event=found, stacks=stacks)
        except ApplicationError as error:
            refused(request, error, found.currency)
        else:
            method = request.GET.get("method", Deal.Method.CHIP_CHOP)
            if method not in offers:
                method = Deal.Method.CHIP_CHOP
            money = money_of(found.currency)
            chosen = offers[method]
            context.update(
                method=method,
                offers=[
                    {
                        "entry": e,
                        "stack": chips_text(stacks[e.pk]),
                        "chip_chop": money(offers[Deal.Method.CHIP_CHOP][e.pk]),
                        "icm": money(offers[Deal.Method.ICM][e.pk]),
                    }
                    for e in players
                ],
                total=money(sum(chosen.values())),
                propose_form=forms.DealProposeForm(
                    players=players,
                    currency=found.currency,
                    initial={
                        "method": method,
                        "stacks": _pairs({str(k): v for k, v in stacks.items()}),
                        "button_order": ",".join(
                            str(pk)
                            for pk in button_order(
                                players, stacks_form.cleaned_data["button"]
                            )
                        ),
                        **{f"amount_{pk}": cents for pk, cents in chosen.items()},
                        "left_in_play": 0,
                    },
                ),
                query=request.GET.copy(),
            )
    return render(request, "staff/tournaments/director/deal.html", context)


@floor_only
@require_POST
def deal_propose(request: HttpRequest, event: str) -> HttpResponse:
    """Record the deal the players agreed, with the figures offered (TO5)."""
    found = event_of(event)
    players = _deal_players(found)
    form = forms.DealProposeForm(request.POST, players=players, currency=found.currency)
    back = reverse("staff:tournament-deal", args=[found.code])
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)
    stacks = {int(k): v for k, v in data["stacks"].items()}
    amounts = form.amounts()

    def action() -> str:
        offers = services.deal_offers(event=found, stacks=stacks)
        method = data["method"]
        if offers.get(method) != amounts or data["left_in_play"]:
            method = Deal.Method.CUSTOM
        made = services.deal_propose(
            event=found,
            method=method,
            stacks=stacks,
            button_order=data["button_order"],
            amounts=amounts,
            left_in_play_cents=data["left_in_play"],
            by=by,
        )
        return reverse("staff:tournament-deal-detail", args=[found.code, made.pk])

    done = _("The deal is proposed; every player signs it now.")
    return act(request, found, action, done, back=back)


def _deal_of(event: Event, deal_id: int) -> Deal:
    return get_object_or_404(Deal, event=event, pk=deal_id)


@floor_only
@require_GET
def deal_detail(request: HttpRequest, event: str, deal_id: int) -> HttpResponse:
    """A deal with its figures, each player's signature and the approval (TO5)."""
    found = event_of(event)
    made = _deal_of(found, deal_id)
    money = money_of(found.currency)
    signed = {s.entry_id: s for s in made.signatures.select_related("witnessed_by")}
    entries = {
        e.pk: e
        for e in Entry.objects.select_related("player").filter(
            pk__in=[int(k) for k in made.amounts]
        )
    }
    offers = made.offers
    rows = [
        {
            "entry": entries[int(pk)],
            "stack": chips_text(offers.get("stacks", {}).get(pk)),
            "chip_chop": money(offers.get("chip_chop", {}).get(pk, 0)),
            "icm": money(offers.get("icm", {}).get(pk, 0)),
            "amount": money(cents),
            "signature": signed.get(int(pk)),
        }
        for pk, cents in sorted(made.amounts.items(), key=lambda kv: -kv[1])
    ]
    return render(
        request,
        "staff/tournaments/director/deal_detail.html",
        {
            "room": room_facts(),
            "event": found,
            "deal": made,
            "status_name": made.get_status_display(),
            "rows": rows,
            "pool": money(made.pool_cents),
            "left_in_play": money(made.left_in_play_cents),
            "can_approve": made.status == Deal.Status.SIGNED
            and has_role(request.user, Role.MANAGER),
        },
    )


@floor_only
@require_POST
def deal_sign(request: HttpRequest, event: str, deal_id: int) -> HttpResponse:
    """One player's signature of the deal, witnessed by the signed-in staff (TO5)."""
    found = event_of(event)
    made = _deal_of(found, deal_id)
    back = reverse("staff:tournament-deal-detail", args=[found.code, made.pk])
    try:
        entry_id = int(request.POST.get("entry", ""))
    except ValueError:
        raise Http404 from None
    entry = get_object_or_404(
        Entry.objects.select_related("player"), event=found, pk=entry_id
    )
    by = staff(request)

    def action() -> None:
        services.deal_sign(deal=made, entry=entry, witnessed_by=by)

    done = _("%(p)s signed the deal.") % {"p": entry.player.name or entry.player.code}
    return act(request, found, action, done, back=back)


@manager_only
@require_POST
def deal_approve(request: HttpRequest, event: str, deal_id: int) -> HttpResponse:
    """A second person approves the signed deal (TO5); payouts follow."""
    found = event_of(event)
    made = _deal_of(found, deal_id)
    back = reverse("staff:tournament-deal-detail", args=[found.code, made.pk])
    by = staff(request)

    def action() -> None:
        deal_approve_service(deal=made, by=by)

    return act(request, found, action, _("The deal is approved."), back=back)


# Payouts (TO7, TO9) ----------------------------------------------------------


@floor_only
def payouts(request: HttpRequest, event: str) -> HttpResponse:
    """The payout sheet: prepared with holds and their reasons, approved by a
    manager who didn't prepare it; held prizes released or forfeited (TO7, TO9)."""
    found = event_of(event)
    sheet = PayoutSheet.objects.filter(event=found).first()
    money = money_of(found.currency)
    finished = list(
        Entry.objects.select_related("player")
        .filter(event=found)
        .exclude(status__in=[Entry.Status.ACTIVE, Entry.Status.REFUNDED])
        .order_by("place", "number")
    )
    lines = []
    if sheet is not None:
        for line in sheet.lines.select_related("entry__player").order_by(
            "place_high", "pk"
        ):
            lines.append(
                {
                    "line": line,
                    "place": line.place_high
                    if line.place_high == line.place_low
                    else f"{line.place_high}–{line.place_low}",
                    "amount": money(line.amount_cents),
                    "status": line.get_status_display(),
                    "held": line.status == Payout.Status.HELD,
                }
            )
    return render(
        request,
        "staff/tournaments/director/payouts.html",
        {
            "room": room_facts(),
            "event": found,
            "sheet": sheet,
            "pool": money(sheet.pool_cents) if sheet else "",
            "overlay": money(sheet.overlay_cents) if sheet else "",
            "lines": lines,
            "prepare_form": forms.PrepareForm(players=finished) if not sheet else None,
            "release_form": forms.ReleaseForm(),
            "forfeit_form": forms.ForfeitForm(destinations=_destinations(found)),
            "is_manager": has_role(request.user, Role.MANAGER),
        },
    )


def _destinations(event: Event) -> list[tuple[str, str]]:
    """Where a forfeited prize may go (TO9): the house's revenue, or one of the
    room's active jackpot pools in the event's currency (JD5)."""
    pools = Pool.objects.filter(
        room=event.room_id, active=True, account__currency=event.currency
    ).order_by("code")
    return [
        (Payout.Destination.HOUSE, _("to the house's revenue")),
        *(
            (
                f"{Payout.Destination.JACKPOT}:{pool.code}",
                _("to the jackpot %(name)s") % {"name": pool.name},
            )
            for pool in pools
        ),
    ]


def _payouts_url(event: Event) -> str:
    return reverse("staff:tournament-payouts", args=[event.code])


@floor_only
@require_POST
def payout_sheet_prepare(request: HttpRequest, event: str) -> HttpResponse:
    """Prepare the payout sheet with the prizes held and why (TO7, TO9)."""
    found = event_of(event)
    back = _payouts_url(found)
    finished = list(
        Entry.objects.select_related("player")
        .filter(event=found)
        .exclude(status__in=[Entry.Status.ACTIVE, Entry.Status.REFUNDED])
    )
    form = forms.PrepareForm(request.POST, players=finished)
    if not form.is_valid():
        return form_refused(request, form, back)
    by = staff(request)

    def action() -> None:
        services.payout_sheet_prepare(event=found, by=by, holds=form.holds())

    done = _("The payout sheet is prepared; a manager approves it.")
    return act(request, found, action, done, back=back)


@manager_only
@require_POST
def payout_sheet_approve(request: HttpRequest, event: str) -> HttpResponse:
    """Approve the payout sheet: a manager who didn't prepare it (TO9)."""
    found = event_of(event)
    sheet = get_object_or_404(PayoutSheet, event=found)
    by = staff(request)

    def action() -> None:
        services.payout_sheet_approve(sheet=sheet, by=by)

    done = _("The payout sheet is approved; the prizes are payable at the cage.")
    return act(request, found, action, done, back=_payouts_url(found))


def _line_of(event: Event, payout_id: int) -> Payout:
    return get_object_or_404(
        Payout.objects.select_related("entry__player"),
        sheet__event=event,
        pk=payout_id,
    )


@manager_only
@require_POST
def payout_release(request: HttpRequest, event: str, payout_id: int) -> HttpResponse:
    """Release a held prize to the cage, by a second person, with why (TO9)."""
    found = event_of(event)
    line = _line_of(found, payout_id)
    back = _payouts_url(found)
    form = forms.ReleaseForm(request.POST)
    if not form.is_valid():
        return form_refused(request, form, back)
    by = staff(request)

    def action() -> None:
        services.payout_release(payout=line, by=by, reason=form.cleaned_data["reason"])

    done = _("The prize of %(p)s is released to the cage.") % {
        "p": line.entry.player.name or line.entry.player.code
    }
    return act(request, found, action, done, back=back)


@manager_only
@require_POST
def payout_forfeit(request: HttpRequest, event: str, payout_id: int) -> HttpResponse:
    """Forfeit a held prize, by a second person, saying why and where the money
    goes (TO9)."""
    found = event_of(event)
    line = _line_of(found, payout_id)
    back = _payouts_url(found)
    form = forms.ForfeitForm(request.POST, destinations=_destinations(found))
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)

    def action() -> None:
        payout_forfeit_service(
            payout=line, by=by, reason=data["reason"], destination=data["destination"]
        )

    done = _("The prize of %(p)s is forfeited.") % {
        "p": line.entry.player.name or line.entry.player.code
    }
    return act(request, found, action, done, back=back)


__all__ = ["clock_text", "floor_only", "manager_only", "race_deal"]
