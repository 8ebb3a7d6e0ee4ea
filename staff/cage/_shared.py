"""What the cage's screens share: the cage the cashier works at (chosen once, kept
in his session), the page's frame, and a money form booked once with the cashier
told what was done or why it was refused (:mod:`staff.common.once`,
:mod:`staff.common.refusals`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from accounting.models import Cage
from core.errors import ApplicationError
from core.money import symbol_of
from staff.cage import selectors
from staff.common.money import money_in
from staff.common.once import book_once, booked_say
from staff.common.refusals import refusal_text
from staff.common.selectors import room_facts

CAGE_SESSION_KEY = "staff_cage"


def cage_chosen(request: HttpRequest) -> Cage | None:
    """The cage ``?cage=`` names or the cashier chose before (his session), else
    the first one; kept in his session. None before any cage is set up."""
    chosen = request.GET.get("cage") or request.session.get(CAGE_SESSION_KEY)
    cage = selectors.cage_choose(chosen)
    if cage is not None:
        request.session[CAGE_SESSION_KEY] = cage.code
    return cage


def cage_of(request: HttpRequest) -> Cage:
    """The cage the cashier works at (:func:`cage_chosen`); 404 before any."""
    cage = cage_chosen(request)
    if cage is None:
        raise Http404(_("No cage is set up yet; a manager adds one in the admin."))
    return cage


def page_context(request: HttpRequest, cage: Cage, **extra: Any) -> dict[str, Any]:
    """The cage page's frame: the room, the cage and the cages, its currency and
    the cashier's open shift."""
    return {
        "room": room_facts(),
        "cage": cage,
        "cages": Cage.objects.order_by("code"),
        "currency": cage.currency,
        "currency_sign": symbol_of(cage.currency),
        "shift": selectors.shift_current(cage=cage, cashier=request.user),
        **extra,
    }


def refuse(
    request: HttpRequest, cage: Cage, error: ApplicationError, **how: Any
) -> None:
    """Say why the cage refused, in the room's words (staff.common.refusals)."""
    messages.error(request, refusal_text(error, money=money_in(cage.currency), **how))


def booked(
    request: HttpRequest, cage: Cage, book: Callable[[], str], done: str, **how: Any
) -> HttpResponse | None:
    """Book the form once (staff.common.once) and go to the page ``book`` names,
    saying ``done``; on a refusal say why (``how``: what ran short) and return
    None."""
    try:
        url, fresh = book_once(request, book)
    except ApplicationError as error:
        refuse(request, cage, error, **how)
        return None
    booked_say(request, fresh, done)
    return redirect(url, permanent=False)
