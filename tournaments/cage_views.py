"""The cage's screens for an event (TO1, TO2, TO9, CA2, CA5, CA6): entries,
re-entries, rebuys and add-ons sold to an identified player with their receipts;
the payout sheet, its approval by a second person, and prizes paid at the cage.

Server-rendered in the admin's frame, like the floor's screen; every action goes
through ``tournaments.services``. Money is typed and shown in euros in the
reader's locale; the cashier types what he counted, and it must be the price.
Every money form carries its own idempotency key: a double submit books once
and shows the first answer (API.md's idempotency, on a form).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from decimal import Decimal, InvalidOperation

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin

from accounting.models import Receipt, Shift
from core.api.permissions import staff
from core.errors import ApplicationError, Invalid, Refusal
from core.idempotency import MAX_KEY_LENGTH
from core.models import IdempotencyRecord
from core.roles import Role, has_role
from core.work import claim
from tournaments import floor, selectors, services
from tournaments.domain.clock import Status
from tournaments.models import Entry, Event, Payout, PayoutSheet, Purchase
from tournaments.templatetags.tournament_cage import euros

CAGE_STAFF = (Role.CASHIER, Role.FLOOR, Role.MANAGER)


def _cage_staff(request: HttpRequest) -> None:
    if not has_role(request.user, *CAGE_STAFF):
        raise PermissionDenied


def _must(request: HttpRequest, *roles: Role) -> None:
    if not has_role(request.user, *roles):
        raise PermissionDenied


def cents_of(text: str) -> int:
    """Euros as typed (``115``, ``115.50``, ``115,50``, ``1 150,00``) in cents.

    Raises :class:`Invalid` for anything else, or fractions of a cent.
    """
    cleaned = formats.sanitize_separators(text.strip().replace("\u00a0", ""))
    try:
        amount = Decimal(str(cleaned).replace(" ", "").replace(",", "."))
    except InvalidOperation:
        amount = Decimal("NaN")
    if not amount.is_finite() or amount < 0 or (amount * 100) % 1:
        raise Invalid(
            "invalid_amount", _("Type the amount in euros, e.g. 115,00 or 115.00.")
        )
    return int(amount * 100)


def _counted(request: HttpRequest, price: int, currency: str, rule: str) -> None:
    """The cashier's count is the price, or nothing is booked."""
    typed = cents_of(request.POST.get("amount", ""))
    if typed != price:
        raise Refusal(
            "amount_mismatch",
            _("%(rule)s: the amount is %(price)s; %(typed)s was typed.")
            % {
                "rule": rule,
                "price": euros(price, currency),
                "typed": euros(typed, currency),
            },
            rule=rule,
            allowed={"amount_cents": price},
        )


def _fingerprint(request: HttpRequest) -> str:
    fields = sorted(
        (k, v) for k, v in request.POST.items() if k != "csrfmiddlewaretoken"
    )
    raw = json.dumps([request.method, request.path, fields]).encode()
    return hashlib.sha256(raw).hexdigest()


def _once(request: HttpRequest, book: Callable[[], str]) -> HttpResponse:
    """Book the form once by its key and go to what it booked (a receipt).

    The key is claimed in the booking's database transaction: a second submit
    waits for the first, then is sent where the first went. A refusal rolls the
    claim back with the booking, so the form may be fixed and sent again.
    """
    key = request.POST.get("key", "")
    if not key or len(key) > MAX_KEY_LENGTH:
        messages.error(request, _("The form has no key; reload the page."))
        return HttpResponseRedirect(request.path)
    scope, fingerprint = f"user:{request.user.pk}", _fingerprint(request)
    with transaction.atomic():
        claimed = claim(scope, key, fingerprint, request)
        if claimed is None:
            record = IdempotencyRecord.objects.get(scope=scope, key=key)
            body = record.response_body or {}
            if record.request_hash != fingerprint or "location" not in body:
                messages.error(request, _("This form was sent with other values."))
                return HttpResponseRedirect(request.path)
            messages.info(request, _("Sent twice: booked once."))
            return HttpResponseRedirect(str(body["location"]))
        try:
            location = book()
        except ApplicationError as error:
            transaction.set_rollback(True)
            messages.error(request, f"{error.detail}")
            return HttpResponseRedirect(request.path)
        IdempotencyRecord.objects.filter(pk=claimed).update(
            status_code=303, response_body={"location": location}
        )
    return HttpResponseRedirect(location)


def _cage_of(request: HttpRequest) -> str:
    """The cage of the cashier's open shift (CA1), or ``""`` (the service refuses)."""
    shift = (
        Shift.objects.filter(cashier=staff(request), status=Shift.Status.OPEN)
        .select_related("cage")
        .first()
    )
    return shift.cage.code if shift else ""


def level_now(event: Event) -> int:
    """The structure's level on the event's clock now; 0 before it starts (TO12)."""
    clock = floor.clock_of(event)
    return 0 if clock.state.status == Status.NOT_STARTED else clock.level.number


def _receipt_url(event: Event, receipt: Receipt) -> str:
    return reverse("tournament-cage-receipt", args=[event.code, receipt.pk])


def _entry_of(event: Event, request: HttpRequest) -> Entry:
    number = request.POST.get("entry", "")
    if not number.isdigit():
        raise Invalid("invalid_entry", _("Choose an entry."))
    return get_object_or_404(Entry, event=event, number=int(number))


def _register(request: HttpRequest, event: Event) -> str:
    _must(request, Role.CASHIER)
    price = services.price_of(event=event, kind=Purchase.Kind.BUY_IN)
    _counted(request, price.total_cents, event.currency, "TO1")
    entry = services.entry_register(
        event=event,
        player=request.POST.get("player", "").strip(),
        cage=_cage_of(request),
        cashier=staff(request),
        level=level_now(event),
    )
    receipt = entry.purchases.get(kind=Purchase.Kind.BUY_IN).receipt
    assert receipt is not None  # sold at the cage
    return _receipt_url(event, receipt)


def _rebuy(request: HttpRequest, event: Event) -> str:
    _must(request, Role.CASHIER)
    price = services.price_of(event=event, kind=Purchase.Kind.REBUY)
    _counted(request, price.total_cents, event.currency, "TO1")
    stack = request.POST.get("stack", "")
    if not stack.isdigit():
        raise Invalid("invalid_stack", _("A stack is a whole number of chips."))
    purchase = services.rebuy_buy(
        entry=_entry_of(event, request),
        cage=_cage_of(request),
        cashier=staff(request),
        level=level_now(event),
        stack=int(stack),
    )
    assert purchase.receipt is not None
    return _receipt_url(event, purchase.receipt)


def _addon(request: HttpRequest, event: Event) -> str:
    _must(request, Role.CASHIER)
    price = services.price_of(event=event, kind=Purchase.Kind.ADDON)
    _counted(request, price.total_cents, event.currency, "TO1")
    purchase = services.addon_buy(
        entry=_entry_of(event, request),
        cage=_cage_of(request),
        cashier=staff(request),
        level=level_now(event),
    )
    assert purchase.receipt is not None
    return _receipt_url(event, purchase.receipt)


def _pay(request: HttpRequest, event: Event) -> str:
    _must(request, Role.CASHIER)
    line = request.POST.get("payout", "")
    payout = get_object_or_404(
        Payout, pk=int(line) if line.isdigit() else 0, sheet__event=event
    )
    _counted(request, payout.amount_cents, event.currency, "TO9")
    receipt = services.payout_pay(
        payout=payout,
        cage=_cage_of(request),
        cashier=staff(request),
        player=request.POST.get("player", "").strip(),
        player_signed=request.POST.get("signed") == "on",
        tax_document=request.POST.get("tax_document", ""),
    )
    return _receipt_url(event, receipt)


def _prepare(request: HttpRequest, event: Event) -> str:
    _must(request, Role.FLOOR, Role.MANAGER)
    services.payout_sheet_prepare(event=event, by=staff(request))
    return request.path


def _approve(request: HttpRequest, event: Event) -> str:
    _must(request, Role.MANAGER)
    sheet = get_object_or_404(PayoutSheet, event=event)
    services.payout_sheet_approve(sheet=sheet, by=staff(request))
    return request.path


def _purchase_of(request: HttpRequest, event: Event) -> Purchase:
    pk = request.POST.get("purchase", "")
    return get_object_or_404(
        Purchase.objects.select_related("receipt__cage"),
        pk=int(pk) if pk.isdigit() else 0,
        entry__event=event,
        receipt__isnull=False,
    )


def _refund_approve(request: HttpRequest, event: Event) -> str:
    _must(request, Role.MANAGER)
    purchase = _purchase_of(request, event)
    assert purchase.receipt is not None
    services.refund_approve(
        event=event,
        receipt=purchase.receipt.no,
        by=staff(request),
        reason=request.POST.get("reason", ""),
    )
    return request.path


def _refund_pay(request: HttpRequest, event: Event) -> str:
    _must(request, Role.CASHIER)
    purchase = _purchase_of(request, event)
    assert purchase.receipt is not None
    _counted(request, purchase.total_cents, event.currency, "TO10")
    refund = services.refund_pay(
        event=event,
        receipt=purchase.receipt.no,
        cage=_cage_of(request),
        cashier=staff(request),
    )
    assert refund.receipt is not None
    return _receipt_url(event, refund.receipt)


ACTIONS: dict[str, Callable[[HttpRequest, Event], str]] = {
    "refund_approve": _refund_approve,
    "refund_pay": _refund_pay,
    "register": _register,
    "rebuy": _rebuy,
    "addon": _addon,
    "pay": _pay,
    "prepare": _prepare,
    "approve": _approve,
}


def event_cage(request: HttpRequest, event: str) -> HttpResponse:
    """The event at the cage: sell entries, rebuys and add-ons; the payout sheet,
    its approval and the prizes paid. POST runs one action, once per form key."""
    _cage_staff(request)
    obj = floor.event_get(code=event)
    if request.method == "POST":
        action = ACTIONS.get(request.POST.get("action", ""))
        if action is None:
            messages.error(request, _("Unknown action."))
            return HttpResponseRedirect(request.path)
        return _once(request, lambda: action(request, obj))
    sheet = PayoutSheet.objects.filter(event=obj).first()
    price = {
        kind: services.price_of(event=obj, kind=kind).total_cents
        for kind in Purchase.Kind.values
    }
    purchases = (
        Purchase.objects.filter(entry__event=obj, receipt__isnull=False)
        .select_related("entry__player", "receipt__cage")
        .order_by("-at", "-pk")[:15]
    )
    refundable = (
        Purchase.objects.filter(
            entry__event=obj, receipt__isnull=False, refund__isnull=True
        )
        .select_related("entry__player", "receipt__cage", "refund_approval")
        .order_by("entry__number", "pk")
        if obj.status != Event.Status.FINISHED
        else Purchase.objects.none()
    )
    if obj.status != Event.Status.CANCELLED and not has_role(
        request.user, Role.MANAGER
    ):
        # An altered event's refunds: the cashier sees those approved.
        refundable = refundable.filter(refund_approval__isnull=False)
    context = {
        **admin.site.each_context(request),
        "title": _("Tournament cage: %(event)s") % {"event": obj.name},
        "refundable": refundable,
        "event": obj,
        "level": level_now(obj),
        "open": obj.status in (Event.Status.SCHEDULED, Event.Status.RUNNING),
        "cage": _cage_of(request),
        "price": price,
        "summary": {
            "entries": selectors.entries_counted(event=obj),
            "left": selectors.entries_left(event=obj),
            "prize_pool": selectors.prize_pool_cents(event=obj),
        },
        "live": Entry.objects.filter(event=obj, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("number"),
        "purchases": purchases,
        "sheet": sheet,
        "lines": sheet.lines.select_related("entry__player").order_by(
            "place_high", "pk"
        )
        if sheet
        else [],
        "new_key": lambda: uuid.uuid4().hex,
        "is_cashier": has_role(request.user, Role.CASHIER),
        "is_director": has_role(request.user, Role.FLOOR, Role.MANAGER),
        "is_manager": has_role(request.user, Role.MANAGER),
    }
    return TemplateResponse(request, "tournaments/cage.html", context)


def _event_receipt(event: str, pk: int) -> tuple[Event, Receipt]:
    """A receipt of the event: an entry, rebuy, add-on, refund, or a prize paid."""
    obj = floor.event_get(code=event)
    receipt = get_object_or_404(
        Receipt.objects.select_related("cage", "player", "issued_by", "payable"),
        pk=pk,
    )
    mine = (
        Purchase.objects.filter(receipt=receipt, entry__event=obj).exists()
        or Purchase.objects.filter(refund__receipt=receipt, entry__event=obj).exists()
        or (
            receipt.payable_id is not None
            and Payout.objects.filter(
                payable_id=receipt.payable_id, sheet__event=obj
            ).exists()
        )
    )
    if not mine:
        raise PermissionDenied
    return obj, receipt


def receipt_page(request: HttpRequest, event: str, pk: int) -> HttpResponse:
    """A receipt just booked, in the cage's frame, with its printable page."""
    _cage_staff(request)
    obj, receipt = _event_receipt(event, pk)
    context = {
        **admin.site.each_context(request),
        "title": _("Receipt %(no)s") % {"no": receipt.no},
        "event": obj,
        "receipt": receipt,
    }
    return TemplateResponse(request, "tournaments/cage_receipt.html", context)


@xframe_options_sameorigin
def receipt_print(request: HttpRequest, event: str, pk: int) -> HttpResponse:
    """The printable receipt (CA2, CA6), with the tournament's split (TO1)."""
    _cage_staff(request)
    _obj, receipt = _event_receipt(event, pk)
    return render(request, "accounting/receipt.html", {"receipt": receipt})
