"""Deals at the final table (TO5): the figures, chip-chop and ICM side by side,
proposed and signed by each player; a manager approves
(:mod:`staff.manager.tournaments`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.api.permissions import staff
from core.errors import ApplicationError
from core.money import symbol_of
from core.roles import Role, has_role
from staff.common.money import money_in
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.common.tournaments import (
    act,
    chips_text,
    deal_of,
    event_of,
    form_refused,
    pairs_text,
    refused,
)
from staff.floor.tournaments import forms
from tournaments import selectors, services
from tournaments.models import (
    Deal,
    Entry,
    Event,
)


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
            offers = selectors.deal_offers(event=found, stacks=stacks)
        except ApplicationError as error:
            refused(request, error, found.currency)
        else:
            method = request.GET.get("method", Deal.Method.CHIP_CHOP)
            if method not in offers:
                method = Deal.Method.CHIP_CHOP
            money = money_in(found.currency)
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
                        "stacks": pairs_text({str(k): v for k, v in stacks.items()}),
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
    return render(request, "staff/floor/tournaments/deal.html", context)


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
        offers = selectors.deal_offers(event=found, stacks=stacks)
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


@floor_only
@require_GET
def deal_detail(request: HttpRequest, event: str, deal_id: int) -> HttpResponse:
    """A deal with its figures, each player's signature and the approval (TO5)."""
    found = event_of(event)
    made = deal_of(found, deal_id)
    money = money_in(found.currency)
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
        "staff/floor/tournaments/deal_detail.html",
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
    made = deal_of(found, deal_id)
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
