"""The floor's home (WL2, CA3, BB5): every open table live on the map, the
waiting lists' calls counting down, tonight's events, fills asked of the cage,
bad-beat hits and promotions' prizes waiting for the floor's verification (PR5),
the hands the tables' terminals posted and the server refused (issue 37), each
part polled by itself. A manager pairs a table's tablet from its card on the map
(:mod:`staff.floor.tablets`).

A table the floor has just opened has an empty tray, and a seat's cash buy-in
takes its chips from the tray (CA3): the floor asks the cage for the opening fill
from its home screen ("Ask the cage for a fill", per open table, in money), a
cashier issues it from the cage's queue, and the player is seated. A buy-in the
tray can't pay is refused with what the tray holds and the least fill that seats
him (:func:`staff.common.refusals.floor_shortfall`), never the ledger's account
name.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.models import TableSlip
from accounting.services import cage as cage_services
from cardroom.models import (
    Table,
)
from core.api.permissions import staff
from core.roles import Role, has_role
from jackpots.models import Hit, PromotionPrize
from staff.common.money import money_in
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.floor import selectors as reads
from staff.floor._shared import (
    booked,
    form_errors,
    page_context,
    room_clock,
)
from staff.floor.forms import (
    FillForm,
    TableOpenForm,
)
from staff.floor.refusals import POLL_SECONDS as REFUSALS_SECONDS
from staff.floor.refusals import refusals_waiting

MAP_SECONDS = 3


LISTS_SECONDS = 5


@floor_only
@require_GET
def floor_home(request: HttpRequest) -> HttpResponse:
    """The floor's home: every open table live, the lists' calls counting down."""
    now = timezone.now()
    context = page_context(**room_clock(now))
    games = reads.games_to_open()
    tables = reads.table_map(now=now, currency=context["currency"])
    codes = [row.table.code for row in tables]
    return render(
        request,
        "staff/floor/home.html",
        {
            **context,
            "tables": tables,
            "lists": reads.waiting_lists(now=now),
            "open_form": TableOpenForm(games=games) if games else None,
            "fill_form": FillForm(currency=context["currency"], tables=codes),
            "fills": _fills_waiting(),
            "hits": _hits_to_verify(),
            "prizes": _prizes_to_verify(),
            "refusals": refusals_waiting(),
            "pairs_tablets": has_role(request.user, Role.MANAGER),
            "map_seconds": MAP_SECONDS,
            "lists_seconds": LISTS_SECONDS,
            "refusals_seconds": REFUSALS_SECONDS,
        },
    )


@floor_only
@require_GET
def floor_map(request: HttpRequest) -> HttpResponse:
    """The table map alone, polled by the home page."""
    now = timezone.now()
    context = page_context(**room_clock(now))
    tables = reads.table_map(now=now, currency=context["currency"])
    pairs = has_role(request.user, Role.MANAGER)
    return render(
        request,
        "staff/floor/_map.html",
        {**context, "tables": tables, "pairs_tablets": pairs},
    )


@floor_only
@require_GET
def floor_lists(request: HttpRequest) -> HttpResponse:
    """The waiting lists alone, with the server's clock, polled by the home page."""
    now = timezone.now()
    context = page_context(**room_clock(now))
    lists = reads.waiting_lists(now=now)
    return render(request, "staff/floor/_lists.html", {**context, "lists": lists})


def _open_codes() -> list[str]:
    return list(
        Table.objects.filter(status=Table.Status.OPEN)
        .order_by("code")
        .values_list("code", flat=True)
    )


def _fills_waiting() -> list[TableSlip]:
    """The fills the floor asked for that no cashier has issued yet (CA3)."""
    return list(
        TableSlip.objects.filter(
            kind=TableSlip.Kind.FILL, status=TableSlip.Status.PENDING
        )
        .select_related("cage", "requested_by")
        .order_by("requested_at", "pk")
    )


def _hits_to_verify() -> list[Hit]:
    """Bad-beat hits waiting for a floor person's verification (BB5)."""
    return list(
        Hit.objects.filter(status=Hit.Status.PENDING)
        .select_related("hand", "hand__table", "pool")
        .order_by("hand_ended_at", "pk")
    )


def _prizes_to_verify() -> list[PromotionPrize]:
    """Promotions' prizes waiting for a floor person's verification (PR5)."""
    return list(
        PromotionPrize.objects.filter(status=PromotionPrize.Status.PENDING)
        .select_related("promotion", "hand__table")
        .order_by("found_at", "pk")
    )


@floor_only
@require_POST
def fill_request(request: HttpRequest) -> HttpResponse:
    """Ask the cage for a fill of an open table's tray (CA3), signed by the floor
    person asking; a cashier, another person, issues it from the cage's queue.

    This is how a new table gets its opening fill before its first cash buy-in.
    A closed table gets no fill (CA3, ``table_closed``)."""
    currency = room_facts().currency
    form = FillForm(request.POST, currency=currency, tables=_open_codes())
    if not form.is_valid():
        form_errors(request, form)
        return redirect("staff:floor-home")
    data = form.cleaned_data
    by = staff(request)

    def book() -> str:
        cage_services.slip_request(
            kind=TableSlip.Kind.FILL,
            cage=data["cage"],
            table=data["table"],
            amount_cents=data["amount"],
            requested_by=by,
        )
        return reverse("staff:floor-home")

    done = _("Fill of %(amount)s for %(t)s asked of the cage; a cashier issues it.") % {
        "amount": money_in(currency)(data["amount"]),
        "t": data["table"],
    }
    return booked(request, book, done, currency) or redirect("staff:floor-home")
