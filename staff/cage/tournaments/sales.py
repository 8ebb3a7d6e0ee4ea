"""What the cage sells and pays at the tournament desk: entries and re-entries,
rebuys and add-ons to identified players when the server's clock opens them
(TO1, TO12; CA2, CA5), refunds a manager approved (TO10) and prizes against the
player's signature (TO9, CA6), and a manager's approvals of refunds and of the
payout sheet there (TO9, TO10): each form books once by its own key and redirects
to the receipt or the desk."""

from __future__ import annotations

from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounting.selectors import receipt_get
from core.api.permissions import staff
from core.errors import ApplicationError
from staff.cage._shared import cage_of
from staff.cage.tournaments._shared import booked, desk_url, receipt_url
from staff.cage.tournaments.forms import (
    AddonForm,
    EntryForm,
    PrizePayForm,
    RebuyForm,
    RefundApproveForm,
    RefundPayForm,
    SheetApproveForm,
)
from staff.common.money import money_in
from staff.common.roles import cashier_only, manager_only
from staff.common.tournaments import event_of
from tournaments import selectors, services
from tournaments.models import Entry, Event, Payout, PayoutSheet, Purchase


def _price(event: Event, kind: str) -> int:
    return selectors.price_of(event=event, kind=kind).total_cents


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
    cage = cage_of(request)
    obj = event_of(event)
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
            "amount": money_in(obj.currency)(price),
        }

    player = form.cleaned_data.get("player") if form.is_valid() else None
    who = player.name if player else ""
    return booked(request, obj, form, book, done, who=who)


@cashier_only
@require_POST
def rebuy_sell(request: HttpRequest, event: str, number: int) -> HttpResponse:
    """Sell a rebuy to a playing entry, in the rebuy period by the server's clock,
    his stack at or under the limit (TO1, TO12)."""
    cage = cage_of(request)
    obj = event_of(event)
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
            "amount": money_in(obj.currency)(price),
        }

    return booked(request, obj, form, book, done, who=entry.player.name)


@cashier_only
@require_POST
def addon_sell(request: HttpRequest, event: str, number: int) -> HttpResponse:
    """Sell the add-on to a playing entry when the server's clock is at its level
    (TO1, TO12)."""
    cage = cage_of(request)
    obj = event_of(event)
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
            "amount": money_in(obj.currency)(price),
        }

    return booked(request, obj, form, book, done, who=entry.player.name)


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
    obj = event_of(event)
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
            "amount": money_in(obj.currency)(amount),
            "no": no,
        }

    return booked(request, obj, form, book, done, who=purchase.entry.player.name)


@cashier_only
@require_POST
def refund_pay(request: HttpRequest, event: str, no: str) -> HttpResponse:
    """Pay an approved refund at the cage, a receipt reversing the purchase (TO10);
    the cashier who pays is not the manager who approved (four-eyes)."""
    cage = cage_of(request)
    obj = event_of(event)
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
            "amount": money_in(obj.currency)(due),
            "who": purchase.entry.player.name,
        }

    return booked(
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
    cage = cage_of(request)
    obj = event_of(event)
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
            "amount": money_in(obj.currency)(payout.amount_cents),
            "who": payout.entry.player.name,
        }

    return booked(
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
    obj = event_of(event)
    sheet = get_object_or_404(PayoutSheet, event=obj)
    form = SheetApproveForm(request.POST)
    manager = staff(request)

    def book() -> str:
        services.payout_sheet_approve(sheet=sheet, by=manager)
        return desk_url(obj)

    def done() -> str:
        return _("Payout sheet approved; its prizes are payable at the cage.")

    return booked(request, obj, form, book, done)
