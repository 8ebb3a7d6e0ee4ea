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

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.cage.selectors import receipt_get
from accounting.models import Cage, Receipt
from core.api.permissions import staff
from core.errors import ApplicationError, Invalid
from core.money import money_format, symbol_of
from core.roles import Role, has_role
from staff import selectors as cage_reads
from staff.common.once import book_once
from staff.common.refusals import refusal_text
from staff.common.roles import cashier_only, desk_staff, manager_only
from staff.common.selectors import room_facts
from staff.tournaments.cage_forms import (
    AddonForm,
    EntryForm,
    PrizePayForm,
    RebuyForm,
    RefundApproveForm,
    RefundPayForm,
    SheetApproveForm,
)
from staff.views import CAGE_SESSION_KEY
from tournaments import selectors, services
from tournaments.models import Entry, Event, Payout, PayoutSheet, Purchase

# A scheduled event shows at the cage from this long before its start.
TONIGHT_HOURS = 18


def _cage(request: HttpRequest) -> Cage:
    """The cage the cashier works at, as the cash cage chose it (its session)."""
    cage = _cage_chosen(request)
    if cage is None:
        raise Http404(_("No cage is set up yet; a manager adds one in the admin."))
    return cage


def _cage_chosen(request: HttpRequest) -> Cage | None:
    """The cage chosen at the cash cage, the first one, or None before any."""
    chosen = request.GET.get("cage") or request.session.get(CAGE_SESSION_KEY)
    cage = cage_reads.cage_choose(chosen)
    if cage is not None:
        request.session[CAGE_SESSION_KEY] = cage.code
    return cage


def _money(currency: str) -> Callable[[int], str]:
    language = get_language() or "en"
    return lambda cents: money_format(cents, currency, language)


def _context(request: HttpRequest, cage: Cage | None, **extra: Any) -> dict[str, Any]:
    return {
        "room": room_facts(),
        "cage": cage,
        "shift": cage_reads.shift_current(cage=cage, cashier=request.user)
        if cage
        else None,
        "is_cashier": has_role(request.user, Role.CASHIER),
        "is_manager": has_role(request.user, Role.MANAGER),
        **extra,
    }


def _event(code: str) -> Event:
    return get_object_or_404(Event.objects.select_related("structure"), code=code)


def desk_url(event: Event) -> str:
    return reverse("staff:tournament-cage-desk", args=[event.code])


def receipt_url(event: Event, receipt: Receipt) -> str:
    return reverse("staff:tournament-cage-receipt", args=[event.code, receipt.no])


def clock_facts(event: Event) -> dict[str, Any] | None:
    """The event's clock as the board shows it, and what the clock opens at the
    cage now (TO1, TO12); None for an event without a structure."""
    now = timezone.now()
    try:
        shown = services.clock_display(event, now=now)
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
    cage = _cage_chosen(request)
    rows = [(event, clock_facts(event)) for event in events_tonight()]
    return render(
        request,
        "staff/tournaments/cage/events.html",
        _context(request, cage, rows=rows),
    )


def _prices(event: Event) -> dict[str, Any]:
    return {
        kind: services.price_of(event=event, kind=kind) for kind in Purchase.Kind.values
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
    cage = _cage_chosen(request)
    obj = _event(event)
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
    context = _context(
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
    return render(request, "staff/tournaments/cage/desk.html", context)


def _errors(form: forms.Form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _booked(
    request: HttpRequest,
    event: Event,
    form: forms.Form,
    book: Callable[[], str],
    done: Callable[[], str],
    **how: Any,
) -> HttpResponse:
    """Book a valid form once by its key and go where ``book`` says, saying
    ``done``; an invalid form or a refusal is told and books nothing. Every answer
    is a redirect: a reload never posts again."""

    def checked() -> str:
        # Checked inside the key's claim: a form sent again after it was booked is
        # answered from its key, even if what it was checked against has changed.
        if not form.is_valid():
            raise Invalid("form_invalid", _errors(form))
        return book()

    try:
        url, fresh = book_once(request, checked)
    except ApplicationError as error:
        messages.error(
            request, refusal_text(error, money=_money(event.currency), **how)
        )
        return HttpResponseRedirect(desk_url(event))
    if fresh:
        messages.success(request, done())
    else:
        messages.info(request, _("This form was already sent; it was booked once."))
    return HttpResponseRedirect(url)


def _price(event: Event, kind: str) -> int:
    return services.price_of(event=event, kind=kind).total_cents


def _playing(event: Event, number: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), event=event, number=number
    )


@cashier_only
@require_POST
def entry_sell(request: HttpRequest, event: str) -> HttpResponse:
    """Sell an entry, or a re-entry to a player who busted, to the identified
    player; the server's clock says whether registration is open (TO1, TO12); the
    cage's identity rules apply (CA2, CA5)."""
    cage = _cage(request)
    obj = _event(event)
    price = _price(obj, Purchase.Kind.BUY_IN)
    form = EntryForm(request.POST, currency=obj.currency, price=price)
    cashier = staff(request)
    sold: dict[str, Entry] = {}

    def book() -> str:
        entry = services.entry_register(
            event=obj,
            player=form.cleaned_data["player"].code,
            cage=cage.code,
            cashier=cashier,
        )
        sold["entry"] = entry
        receipt = entry.purchases.get(kind=Purchase.Kind.BUY_IN).receipt
        assert receipt is not None  # sold at the cage
        return receipt_url(obj, receipt)

    def done() -> str:
        entry = sold["entry"]
        text = (
            _("Re-entry #%(no)d sold to %(who)s for %(amount)s.")
            if entry.kind == Entry.Kind.REENTRY
            else _("Entry #%(no)d sold to %(who)s for %(amount)s.")
        )
        return text % {
            "no": entry.number,
            "who": entry.player.name,
            "amount": _money(obj.currency)(price),
        }

    player = form.cleaned_data.get("player") if form.is_valid() else None
    who = player.name if player else ""
    return _booked(request, obj, form, book, done, who=who)


@cashier_only
@require_POST
def rebuy_sell(request: HttpRequest, event: str, number: int) -> HttpResponse:
    """Sell a rebuy to a playing entry, in the rebuy period by the server's clock,
    his stack at or under the limit (TO1, TO12)."""
    cage = _cage(request)
    obj = _event(event)
    entry = _playing(obj, number)
    price = _price(obj, Purchase.Kind.REBUY)
    form = RebuyForm(request.POST, currency=obj.currency, price=price)
    cashier = staff(request)

    def book() -> str:
        purchase = services.rebuy_buy(
            entry=entry,
            cage=cage.code,
            cashier=cashier,
            stack=form.cleaned_data["stack"],
        )
        assert purchase.receipt is not None
        return receipt_url(obj, purchase.receipt)

    def done() -> str:
        return _("Rebuy sold to %(who)s (entry #%(no)d) for %(amount)s.") % {
            "who": entry.player.name,
            "no": entry.number,
            "amount": _money(obj.currency)(price),
        }

    return _booked(request, obj, form, book, done, who=entry.player.name)


@cashier_only
@require_POST
def addon_sell(request: HttpRequest, event: str, number: int) -> HttpResponse:
    """Sell the add-on to a playing entry when the server's clock is at its level
    (TO1, TO12)."""
    cage = _cage(request)
    obj = _event(event)
    entry = _playing(obj, number)
    price = _price(obj, Purchase.Kind.ADDON)
    form = AddonForm(request.POST, currency=obj.currency, price=price)
    cashier = staff(request)

    def book() -> str:
        purchase = services.addon_buy(entry=entry, cage=cage.code, cashier=cashier)
        assert purchase.receipt is not None
        return receipt_url(obj, purchase.receipt)

    def done() -> str:
        return _("Add-on sold to %(who)s (entry #%(no)d) for %(amount)s.") % {
            "who": entry.player.name,
            "no": entry.number,
            "amount": _money(obj.currency)(price),
        }

    return _booked(request, obj, form, book, done, who=entry.player.name)


def _purchase(event: Event, no: str) -> Purchase:
    """The event's purchase sold on the receipt printed as ``no``."""
    try:
        receipt = receipt_get(no=no)
    except ApplicationError as error:
        raise Http404(error.detail) from error
    return get_object_or_404(
        Purchase.objects.select_related("entry__player", "receipt__cage"),
        receipt=receipt,
        entry__event=event,
    )


def refund_due(purchase: Purchase) -> int:
    """What the approved refund of ``purchase`` pays: the amount the manager
    approved, or the whole purchase (TO10)."""
    approval = purchase.refund_approval
    return int(approval.amount_cents) if approval else purchase.total_cents


@manager_only
@require_POST
def refund_approve(request: HttpRequest, event: str, no: str) -> HttpResponse:
    """A manager approves the refund of a purchase, whole or in part, saying why
    (TO10); a cashier who is not he pays it. A refund the house's rules don't
    allow (a busted entry's, an event over) is refused with its rule."""
    obj = _event(event)
    purchase = _purchase(obj, no)
    refunded = purchase.refunds.aggregate(s=Coalesce(Sum("amount_cents"), 0))["s"]
    left = purchase.total_cents - int(refunded)
    form = RefundApproveForm(request.POST, currency=obj.currency, most=left)
    manager = staff(request)

    def book() -> str:
        services.refund_approve(
            event=obj,
            receipt=no,
            by=manager,
            reason=form.cleaned_data["reason"],
            amount_cents=form.cleaned_data.get("amount"),
        )
        return desk_url(obj)

    def done() -> str:
        amount = form.cleaned_data.get("amount") or left
        return _(
            "Refund of %(amount)s on receipt %(no)s approved; a cashier pays it."
        ) % {
            "amount": _money(obj.currency)(amount),
            "no": no,
        }

    return _booked(request, obj, form, book, done, who=purchase.entry.player.name)


@cashier_only
@require_POST
def refund_pay(request: HttpRequest, event: str, no: str) -> HttpResponse:
    """Pay an approved refund at the cage, a receipt reversing the purchase (TO10);
    the cashier who pays is not the manager who approved (four-eyes)."""
    cage = _cage(request)
    obj = _event(event)
    purchase = _purchase(obj, no)
    due = refund_due(purchase)
    form = RefundPayForm(request.POST, currency=obj.currency, price=due)
    cashier = staff(request)

    def book() -> str:
        refund = services.refund_pay(
            event=obj, receipt=no, cage=cage.code, cashier=cashier
        )
        assert refund.receipt is not None
        return receipt_url(obj, refund.receipt)

    def done() -> str:
        return _("Refund of %(amount)s paid to %(who)s.") % {
            "amount": _money(obj.currency)(due),
            "who": purchase.entry.player.name,
        }

    return _booked(
        request,
        obj,
        form,
        book,
        done,
        who=purchase.entry.player.name,
        short_of="drawer_cash",
    )


@cashier_only
@require_POST
def prize_pay(request: HttpRequest, event: str, line: int) -> HttpResponse:
    """Pay a prize to the identified player against his signature, with a tax
    document at or above the event's threshold (TO9, CA2, CA5, CA6)."""
    cage = _cage(request)
    obj = _event(event)
    payout = get_object_or_404(
        Payout.objects.select_related("entry__player"), pk=line, sheet__event=obj
    )
    form = PrizePayForm(request.POST, currency=obj.currency, price=payout.amount_cents)
    cashier = staff(request)

    def book() -> str:
        receipt = services.payout_pay(
            payout=payout,
            cage=cage.code,
            cashier=cashier,
            player=form.cleaned_data["player"].code,
            player_signed=form.cleaned_data["signed"],
            tax_document=form.cleaned_data.get("tax_document") or "",
        )
        return receipt_url(obj, receipt)

    def done() -> str:
        return _("Prize of %(amount)s paid to %(who)s.") % {
            "amount": _money(obj.currency)(payout.amount_cents),
            "who": payout.entry.player.name,
        }

    return _booked(
        request,
        obj,
        form,
        book,
        done,
        who=payout.entry.player.name,
        short_of="drawer_cash",
    )


@manager_only
@require_POST
def sheet_approve(request: HttpRequest, event: str) -> HttpResponse:
    """A manager approves the payout sheet the floor prepared: a second person
    (TO9); its prizes become payable at the cage."""
    obj = _event(event)
    sheet = get_object_or_404(PayoutSheet, event=obj)
    form = SheetApproveForm(request.POST)
    manager = staff(request)

    def book() -> str:
        services.payout_sheet_approve(sheet=sheet, by=manager)
        return desk_url(obj)

    def done() -> str:
        return _("Payout sheet approved; its prizes are payable at the cage.")

    return _booked(request, obj, form, book, done)


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
    cage = _cage_chosen(request)
    obj = _event(event)
    found = _event_receipt(obj, no)
    room = room_facts()
    with translation.override(room.receipt_language):
        slip = render(
            request,
            "staff/tournaments/cage/_receipt.html",
            {"receipt": found, "room": room, "currency": found.cage.currency},
        ).content.decode()
    return render(
        request,
        "staff/tournaments/cage/receipt.html",
        _context(request, cage, event=obj, slip=slip, receipt=found),
    )
