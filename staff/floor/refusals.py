"""Refused hands on the floor's home (issue 37): hands a table's terminal posted
and the server refused, kept for the floor (``cardroom.services.hand_refusals``),
each with its table, hand number, time, the rule and the reason it was refused,
until a floor person marks it handled with a note (who and when recorded)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cardroom import selectors
from cardroom import services as floor
from cardroom.models import HandRefusal
from core.api.permissions import staff
from core.errors import ApplicationError
from staff.common.roles import floor_only

SHOWN = 50
"""The most refused hands the home lists (the newest; the API lists them all)."""
POLL_SECONDS = 10


def refusals_waiting() -> list[HandRefusal]:
    """The refused hands no floor person has handled yet, newest first."""
    return list(selectors.hand_refusals(handled=False)[:SHOWN])


@floor_only
@require_GET
def floor_refusals(request: HttpRequest) -> HttpResponse:
    """The refused hands alone, polled by the home page."""
    return render(
        request, "staff/floor/_refusals.html", {"refusals": refusals_waiting()}
    )


@floor_only
@require_POST
def refusal_handle(request: HttpRequest, refusal_id: int) -> HttpResponse:
    """Mark a refused hand handled, with the note the floor person writes."""
    try:
        refusal = floor.hand_refusal_handle(
            refusal_id=refusal_id,
            note=request.POST.get("note", ""),
            by=staff(request),
        )
    except ApplicationError as error:
        messages.error(request, error.detail)
    else:
        messages.success(
            request,
            _("The refused hand %(n)s of %(t)s is marked handled.")
            % {"n": refusal.hand_no or "?", "t": refusal.table.code},
        )
    return redirect(reverse("staff:floor-home") + "#refused-hands")
