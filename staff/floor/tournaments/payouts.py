"""The payout sheet (TO7, TO9): prepared by the floor with its holds; a manager,
another person, approves it and decides held prizes
(:mod:`staff.manager.tournaments`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.api.permissions import staff
from core.roles import Role, has_role
from staff.common.money import money_in
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.common.tournaments import (
    act,
    destinations_of,
    event_of,
    form_refused,
    payouts_url,
)
from staff.floor.tournaments import forms
from tournaments import services
from tournaments.models import (
    Entry,
    Payout,
    PayoutSheet,
)


@floor_only
def payouts(request: HttpRequest, event: str) -> HttpResponse:
    """The payout sheet: prepared with holds and their reasons, approved by a
    manager who didn't prepare it; held prizes released or forfeited (TO7, TO9)."""
    found = event_of(event)
    sheet = PayoutSheet.objects.filter(event=found).first()
    money = money_in(found.currency)
    finished = list(
        Entry.objects.select_related("player")
        .filter(event=found)
        .exclude(status__in=[Entry.Status.ACTIVE, Entry.Status.REFUNDED])
        .order_by("place", "number")
    )
    lines = []
    if sheet is not None:
        for line in sheet.lines.select_related("entry__player").order_by(
            "place_high", "pk"
        ):
            lines.append(
                {
                    "line": line,
                    "place": line.place_high
                    if line.place_high == line.place_low
                    else f"{line.place_high}–{line.place_low}",
                    "amount": money(line.amount_cents),
                    "status": line.get_status_display(),
                    "held": line.status == Payout.Status.HELD,
                }
            )
    return render(
        request,
        "staff/floor/tournaments/payouts.html",
        {
            "room": room_facts(),
            "event": found,
            "sheet": sheet,
            "pool": money(sheet.pool_cents) if sheet else "",
            "overlay": money(sheet.overlay_cents) if sheet else "",
            "lines": lines,
            "prepare_form": forms.PrepareForm(players=finished) if not sheet else None,
            "release_form": forms.ReleaseForm(),
            "forfeit_form": forms.ForfeitForm(destinations=destinations_of(found)),
            "is_manager": has_role(request.user, Role.MANAGER),
        },
    )


@floor_only
@require_POST
def payout_sheet_prepare(request: HttpRequest, event: str) -> HttpResponse:
    """Prepare the payout sheet with the prizes held and why (TO7, TO9)."""
    found = event_of(event)
    back = payouts_url(found)
    finished = list(
        Entry.objects.select_related("player")
        .filter(event=found)
        .exclude(status__in=[Entry.Status.ACTIVE, Entry.Status.REFUNDED])
    )
    form = forms.PrepareForm(request.POST, players=finished)
    if not form.is_valid():
        return form_refused(request, form, back)
    by = staff(request)

    def action() -> None:
        services.payout_sheet_prepare(event=found, by=by, holds=form.holds())

    done = _("The payout sheet is prepared; a manager approves it.")
    return act(request, found, action, done, back=back)
