"""Awards and receipts at the cage (CA2, CA6): approved awards paid in cash
against the player's signature, and a receipt on the cage's 80 mm printer in the
room's language.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounting.models import Payable
from accounting.selectors import receipt_get
from accounting.services import cage as services
from core.api.permissions import staff
from core.errors import ApplicationError
from staff.cage import selectors
from staff.cage._shared import booked, cage_of, page_context
from staff.cage.forms import AwardPayForm
from staff.common.money import money_in
from staff.common.roles import cashier_only
from staff.common.selectors import room_facts


@cashier_only
@require_GET
def awards(request: HttpRequest) -> HttpResponse:
    """Approved awards and payables waiting to be paid (CA6)."""
    cage = cage_of(request)
    return render(
        request,
        "staff/cage/awards.html",
        {
            **page_context(request, cage),
            "payables": selectors.payables_open(currency=cage.currency),
        },
    )


@cashier_only
def award_pay(request: HttpRequest, payable_id: int) -> HttpResponse:
    """Pay an approved award in cash, against the player's signature (CA6)."""
    cage = cage_of(request)
    payable = get_object_or_404(
        Payable.objects.select_related(
            "player", "approved_by", "jackpot_award__pool", "jackpot_award__hand__table"
        ),
        pk=payable_id,
    )
    form = AwardPayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        cashier = staff(request)

        def book() -> str:
            receipt = services.payable_pay(
                payable=payable,
                cage=cage.code,
                cashier=cashier,
                player=payable.player.code,
                player_signed=form.cleaned_data["signed"],
            )
            return reverse("staff:receipt", args=[receipt.no])

        money = money_in(cage.currency)
        done = _("Award %(ref)s paid: %(amount)s to %(who)s.") % {
            "ref": selectors.payable_name(payable),
            "amount": money(payable.amount_cents),
            "who": payable.player.name,
        }
        who = payable.player.name
        if answer := booked(request, cage, book, done, short_of="drawer_cash", who=who):
            return answer
    return render(
        request,
        "staff/cage/award.html",
        {
            **page_context(request, cage),
            "payable": payable,
            "form": form,
            "tonight": selectors.player_tonight(player=payable.player, cage=cage),
        },
    )


@cashier_only
@require_GET
def receipt(request: HttpRequest, no: str) -> HttpResponse:
    """A receipt on the cage's 80 mm printer, in the room's language (CA2, CA6)."""
    cage = cage_of(request)
    try:
        found = receipt_get(no=no)
    except ApplicationError as error:
        raise Http404(error.detail) from error
    room = room_facts()
    context = page_context(request, cage)
    with translation.override(room.receipt_language):
        slip = render(
            request,
            "staff/cage/_receipt.html",
            {"receipt": found, "room": room, "currency": found.cage.currency},
        ).content.decode()
    return render(
        request, "staff/cage/receipt.html", {**context, "slip": slip, "receipt": found}
    )
