"""The manager's approvals on the tournament floor's pages (TO5, TO9): a deal
the players signed, the payout sheet the floor prepared, and a held prize
released or forfeited. The services refuse the person who prepared what is
approved (four eyes)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.api.permissions import staff
from staff.common.roles import manager_only
from staff.common.tournaments import (
    act,
    deal_of,
    destinations_of,
    event_of,
    form_refused,
    payouts_url,
)
from staff.floor.tournaments import forms
from tournaments import services
from tournaments.models import (
    Event,
    Payout,
    PayoutSheet,
)
from tournaments.services.deals import deal_approve as deal_approve_service
from tournaments.services.payouts import payout_forfeit as payout_forfeit_service


@manager_only
@require_POST
def deal_approve(request: HttpRequest, event: str, deal_id: int) -> HttpResponse:
    """A second person approves the signed deal (TO5); payouts follow."""
    found = event_of(event)
    made = deal_of(found, deal_id)
    back = reverse("staff:tournament-deal-detail", args=[found.code, made.pk])
    by = staff(request)

    def action() -> None:
        deal_approve_service(deal=made, by=by)

    return act(request, found, action, _("The deal is approved."), back=back)


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
    return act(request, found, action, done, back=payouts_url(found))


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
    back = payouts_url(found)
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
    back = payouts_url(found)
    form = forms.ForfeitForm(request.POST, destinations=destinations_of(found))
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
