"""The tournament desk at the cage (TO1, TO7, TO9, TO10, CA1, CA2, CA5, CA6): tonight's
events, and an event's desk where the cashier sells entries, re-entries, rebuys and
add-ons to identified players, pays refunds a manager approved and prizes against
the player's signature, and prints the receipts.

Server-rendered in the staff screens' frame, reached from the cage's navigation.
Every action goes through ``tournaments.services``; what is open (late
registration, rebuys, the add-on) is the server's clock's to say (TO12), never the
cashier's: no level is typed or sent. Money is typed and shown in the event's
currency as the screen's language writes it (:mod:`core.money`); every money form
books once by its own key (:mod:`staff.common.once`) and redirects after the post.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.views.decorators.http import require_GET

from accounting.models import Receipt
from accounting.selectors import receipt_get
from core.errors import ApplicationError
from core.money import symbol_of
from core.roles import Role, has_role
from staff.cage._shared import cage_chosen
from staff.cage.tournaments._shared import page_context
from staff.cage.tournaments.forms import (
    EntryForm,
    SheetApproveForm,
)
from staff.common.roles import desk_staff
from staff.common.selectors import room_facts
from staff.common.tournaments import event_of
from tournaments import selectors
from tournaments.models import Entry, Event, Payout, PayoutSheet, Purchase

TONIGHT_HOURS = 18


def clock_facts(event: Event) -> dict[str, Any] | None:
    """The event's clock as the board shows it, and what the clock opens at the
    cage now (TO1, TO12); None for an event without a structure."""
    now = timezone.now()
    try:
        shown = selectors.clock_shown(event, now=now)
    except ApplicationError:
        return None
    windows = selectors.cage_windows(event=event, at=now)
    playing = event.status in (Event.Status.SCHEDULED, Event.Status.RUNNING)
    return {
        **shown,
        "guarantee": shown.get("guarantee", event.guarantee_cents),
        "number": windows.number,
        "registration": playing and windows.registration,
        "rebuys": playing and windows.rebuys,
        "addon": playing and windows.addon,
        "started": windows.status.value != "not_started",
        "over": not playing,
    }


def events_tonight() -> QuerySet[Event]:
    """The events at the cage tonight: running, scheduled to start within
    ``TONIGHT_HOURS``, or with prizes or approved refunds still to pay (TO9,
    TO10)."""
    soon = timezone.now() + timedelta(hours=TONIGHT_HOURS)
    return (
        Event.objects.filter(
            Q(status=Event.Status.RUNNING)
            | Q(status=Event.Status.SCHEDULED, starts_at__lt=soon)
            | Q(payout_sheet__lines__status=Payout.Status.PAYABLE)
            | Q(
                entries__purchases__refund_approval__isnull=False,
                entries__purchases__refund_approval__refund__isnull=True,
            )
        )
        .distinct()
        .order_by("starts_at", "code")
    )


@desk_staff
@require_GET
def events(request: HttpRequest) -> HttpResponse:
    """Tonight's events at the cage, each with its clock and a link to its desk."""
    cage = cage_chosen(request)
    rows = [(event, clock_facts(event)) for event in events_tonight()]
    return render(
        request,
        "staff/cage/tournaments/events.html",
        page_context(request, cage, rows=rows),
    )


def _prices(event: Event) -> dict[str, Any]:
    return {
        kind: selectors.price_of(event=event, kind=kind)
        for kind in Purchase.Kind.values
    }


def _refundable(event: Event, *, manager: bool) -> list[Purchase]:
    """Purchases with something left to refund: a manager sees those he may
    approve a refund of (whole or in part), a cashier those approved and not paid
    yet (TO10). Each carries ``left``, what it may still refund, and ``approval``,
    the approved refund the cage hasn't paid."""
    if event.status == Event.Status.FINISHED:
        return []
    paid = Coalesce(Sum("refund__amount_cents"), 0)
    cost = (
        F("prize_pool_cents")
        + F("fee_cents")
        + F("staff_fee_cents")
        + F("bounty_cents")
    )
    found = (
        Purchase.objects.filter(entry__event=event, receipt__isnull=False)
        .select_related("entry__player", "receipt__cage")
        .annotate(refunded=paid)
        .annotate(left=cost - F("refunded"))
        .filter(left__gt=0)
        .order_by("entry__number", "pk")
    )
    rows: list[Purchase] = []
    for purchase in found:
        approval = purchase.refund_approval
        purchase.approval = approval  # type: ignore[attr-defined]
        if approval is not None or manager:
            rows.append(purchase)
    return rows


@desk_staff
@require_GET
def desk(request: HttpRequest, event: str) -> HttpResponse:
    """An event's desk: the clock and what it opens, the prices and their split,
    entries sold, the players with their rebuy and add-on, refunds, the payout
    sheet and its prizes."""
    cage = cage_chosen(request)
    obj = event_of(event)
    currency = obj.currency
    manager = has_role(request.user, Role.MANAGER)
    sheet = PayoutSheet.objects.filter(event=obj).select_related(
        "prepared_by", "approved_by"
    )
    sheet_row = sheet.first()
    live = (
        Entry.objects.filter(event=obj, status=Entry.Status.ACTIVE)
        .select_related("player")
        .annotate(
            rebuys=Count("purchases", filter=Q(purchases__kind=Purchase.Kind.REBUY)),
            addons=Count("purchases", filter=Q(purchases__kind=Purchase.Kind.ADDON)),
        )
        .order_by("number")
    )
    context = page_context(
        request,
        cage,
        event=obj,
        currency=currency,
        currency_sign=symbol_of(currency),
        clock=clock_facts(obj),
        price=_prices(obj),
        open=obj.status in (Event.Status.SCHEDULED, Event.Status.RUNNING),
        entries=selectors.entries_counted(event=obj),
        left=selectors.entries_left(event=obj),
        live=live,
        entry_form=EntryForm(currency=currency),
        purchases=Purchase.objects.filter(entry__event=obj, receipt__isnull=False)
        .select_related("entry__player", "receipt__cage")
        .order_by("-at", "-pk")[:20],
        refundable=_refundable(obj, manager=manager),
        sheet=sheet_row,
        lines=sheet_row.lines.select_related("entry__player").order_by(
            "place_high", "pk"
        )
        if sheet_row
        else [],
        sheet_form=SheetApproveForm(),
    )
    return render(request, "staff/cage/tournaments/desk.html", context)


def _event_receipt(event: Event, no: str) -> Receipt:
    """A receipt of ``event``: an entry, rebuy, add-on, refund or prize paid."""
    try:
        receipt = receipt_get(no=no)
    except ApplicationError as error:
        raise Http404(error.detail) from error
    mine = (
        Purchase.objects.filter(receipt=receipt, entry__event=event).exists()
        or Purchase.objects.filter(refund__receipt=receipt, entry__event=event).exists()
        or (
            receipt.payable_id is not None
            and Payout.objects.filter(
                payable_id=receipt.payable_id, sheet__event=event
            ).exists()
        )
    )
    if not mine:
        raise PermissionDenied
    return receipt


@desk_staff
@require_GET
def receipt(request: HttpRequest, event: str, no: str) -> HttpResponse:
    """A receipt of the event on the cage's 80 mm printer, in the room's language,
    with the tournament's split (TO1, TO8, TO10, CA2, CA6)."""
    cage = cage_chosen(request)
    obj = event_of(event)
    found = _event_receipt(obj, no)
    room = room_facts()
    with translation.override(room.receipt_language):
        slip = render(
            request,
            "staff/cage/tournaments/_receipt.html",
            {"receipt": found, "room": room, "currency": found.cage.currency},
        ).content.decode()
    return render(
        request,
        "staff/cage/tournaments/receipt.html",
        page_context(request, cage, event=obj, slip=slip, receipt=found),
    )
