"""A colour-up and its chip race (TO6): the race dealt on screen, one card per
odd chip, and recorded with its deciding cards."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.api.permissions import staff
from core.errors import ApplicationError, Invalid
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.common.tournaments import (
    act,
    chips_text,
    event_of,
    form_refused,
    pairs_text,
    refused,
)
from staff.floor.tournaments import forms
from staff.floor.tournaments.event import entries_playing, open_tables
from tournaments import services
from tournaments.domain.chips import RANKS, SUITS, colour_up
from tournaments.models import (
    ChipRace,
    Entry,
    Event,
)


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
    return [
        e for e in entries_playing(event) if e.table == table and e.seat is not None
    ]


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
    tables = [t.table for t in open_tables(found)]
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
                        "stacks": pairs_text(stacks),
                        "retired": pairs_text(retired),
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
    return render(request, "staff/floor/tournaments/race.html", context)


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
        "staff/floor/tournaments/race_result.html",
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
