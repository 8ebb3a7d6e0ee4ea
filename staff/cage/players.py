"""The players at the cage (CA2, CA5, PP1–PP4): found by name, id or card and
marked with what refuses them at every door, each one's page with his chips,
tonight's cash and his protection at a glance, chips sold and cashed, and the
identity document the cashier checked.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.models import Cage, Player
from accounting.services import cage as services
from accounting.services.cage import protection
from core.api.permissions import staff
from core.roles import Role, has_role
from staff.cage import selectors
from staff.cage._shared import booked, cage_of, page_context
from staff.cage.forms import AmountForm, DocumentForm
from staff.common.money import money_in
from staff.common.protection import player_glance, players_flags
from staff.common.roles import cashier_only
from staff.common.selectors import players_find


@cashier_only
@require_GET
def player_search(request: HttpRequest) -> HttpResponse:
    """Find a player by name, id or card, marked with what refuses him at every
    door (PP2–PP4); the results only when htmx asks."""
    cage = cage_of(request)
    query = request.GET.get("q", "")
    players = list(players_find(query))
    if len(players) == 1 and request.GET.get("go"):
        return redirect("staff:player", code=players[0].code)
    partial = bool(getattr(request, "htmx", False))  # django_htmx's middleware
    template = "staff/cage/_players.html" if partial else "staff/cage/players.html"
    flags = players_flags(players)
    found = [(p, [str(f) for f in flags[p.pk]]) for p in players]
    return render(
        request,
        template,
        {**page_context(request, cage), "query": query, "players": found},
    )


def _player(code: str) -> Player:
    return get_object_or_404(Player, code=code)


@cashier_only
@require_GET
def player_detail(request: HttpRequest, code: str) -> HttpResponse:
    """A player's chips held, tonight's buy-ins and cash-outs, CA5 standing; at a
    glance his age on the gaming day (PP2), his restrictions (PP3, PP4) and his
    valid identity document, never its number (PP1, PP7); sell and redeem forms."""
    cage = cage_of(request)
    return _player_page(request, cage, _player(code))


def _player_page(
    request: HttpRequest,
    cage: Cage,
    player: Player,
    sell: AmountForm | None = None,
    redeem: AmountForm | None = None,
    identity: DocumentForm | None = None,
) -> HttpResponse:
    tonight = selectors.player_tonight(player=player, cage=cage)
    return render(
        request,
        "staff/cage/player.html",
        {
            **page_context(request, cage),
            "player": player,
            "chips": selectors.chips_held(player=player, currency=cage.currency),
            "tonight": tonight,
            "receipts": selectors.receipts_of(
                player=player, gaming_day=tonight.gaming_day
            ),
            "payables": selectors.payables_open(currency=cage.currency).filter(
                player=player
            ),
            "glance": player_glance(player),
            "numbers": has_role(request.user, Role.MANAGER),
            "identity": identity or DocumentForm(),
            "sell": sell or AmountForm(currency=cage.currency, prefix="sell"),
            "redeem": redeem or AmountForm(currency=cage.currency, prefix="redeem"),
        },
    )


def _exchange(request: HttpRequest, code: str, *, selling: bool) -> HttpResponse:
    cage = cage_of(request)
    player = _player(code)
    prefix = "sell" if selling else "redeem"
    form = AmountForm(request.POST, currency=cage.currency, prefix=prefix)

    def _again() -> HttpResponse:
        if selling:
            return _player_page(request, cage, player, sell=form)
        return _player_page(request, cage, player, redeem=form)

    if not form.is_valid():
        return _again()
    amount = form.cleaned_data["amount"]
    cashier = staff(request)
    service = services.chip_purchase if selling else services.chip_redemption

    def book() -> str:
        receipt = service(
            cage=cage.code, cashier=cashier, player=player.code, amount_cents=amount
        )
        return reverse("staff:receipt", args=[receipt.no])

    how: dict[str, Any] = {"short_of": "drawer_chips", "who": player.name}
    if not selling:
        held = selectors.chips_held(player=player, currency=cage.currency)
        if amount > held:
            how.update(short_of="player_chips", held=held)
        else:
            how.update(short_of="drawer_cash")
    money = money_in(cage.currency)
    done = (
        _("Sold %(amount)s in chips to %(who)s.")
        if selling
        else _("Cashed %(amount)s of chips for %(who)s.")
    ) % {"amount": money(amount), "who": player.name}
    answer = booked(request, cage, book, done, **how)
    return answer or _again()


@cashier_only
@require_POST
def chips_sell(request: HttpRequest, code: str) -> HttpResponse:
    """Sell chips for cash to the player (CA2, CA5)."""
    return _exchange(request, code, selling=True)


@cashier_only
@require_POST
def chips_redeem(request: HttpRequest, code: str) -> HttpResponse:
    """Cash the player's chips (CA2, CA5)."""
    return _exchange(request, code, selling=False)


@cashier_only
@require_POST
def player_identify(request: HttpRequest, code: str) -> HttpResponse:
    """Record the identity document the cashier checked, with its expiry (PP1,
    CA5), once for the form's key (staff.common.once): a double post records one check.
    An expired one is refused (PP1)."""
    cage = cage_of(request)
    player = _player(code)
    form = DocumentForm(request.POST)
    if not form.is_valid():
        return _player_page(request, cage, player, identity=form)
    data, cashier = form.cleaned_data, staff(request)

    def book() -> str:
        protection.document_record(
            player=player,
            kind=data["document_type"],
            number=data["document_number"],
            expires=data["expires"],
            by=cashier,
        )
        return reverse("staff:player", args=[player.code])

    done = _("Identity document recorded for %(who)s.") % {"who": player.name}
    answer = booked(request, cage, book, done)
    return answer or _player_page(request, cage, player, identity=form)
