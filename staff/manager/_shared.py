"""What the manager's screens share: their frame, and a decision or a record
written once for its form's key (:mod:`staff.common.once`), with what was done or
the service's refusal said on the page in its language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.roles import Role, has_role
from staff.common.money import money_in
from staff.common.once import book_once
from staff.common.refusals import refusal_text
from staff.common.selectors import room_facts

INBOX = "staff:approvals"


def page_context(**extra: Any) -> dict[str, Any]:
    """The manager's page frame: the room and its currency."""
    room = room_facts()
    return {"room": room, "currency": room.currency, "manager": True, **extra}


def decided(
    request: HttpRequest,
    decide: Callable[[], object],
    done: str,
    back: str = INBOX,
    after: str | None = None,
) -> HttpResponse:
    """Book the decision once (staff.common.once) and go back to the inbox (or to
    ``after``) saying ``done``; a refusal (four eyes, decided already…) is said
    at ``back`` instead."""
    currency = room_facts().currency

    def book() -> str:
        decide()
        return after or reverse(INBOX)

    try:
        url, fresh = book_once(request, book)
    except ApplicationError as error:
        messages.error(request, refusal_text(error, money=money_in(currency)))
        return redirect(back)
    if fresh:
        messages.success(request, done)
    else:
        messages.info(request, _("This form was already sent; it was decided once."))
    return redirect(url)


def approving(request: HttpRequest) -> bool:
    """Whether the decision posted approves (anything but ``reject``)."""
    return request.POST.get("decision") != "reject"


def reason_of(request: HttpRequest) -> str:
    """The reason posted with a decision, trimmed."""
    return (request.POST.get("reason") or "").strip()


def numbers_shown_to(request: HttpRequest) -> bool:
    """Whether the user may ask to see a document's number: a manager (PP7)."""
    return has_role(request.user, Role.MANAGER)


def protection_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    """The protection pages' frame: the manager's, or the auditor's for an auditor
    who reads them without their forms."""
    room = room_facts()
    manager = has_role(request.user, Role.MANAGER)
    return {
        "room": room,
        "currency": room.currency,
        "manager": manager,
        "base": "staff/manager/base.html" if manager else "staff/auditor/base.html",
        **extra,
    }


def refused(request: HttpRequest, error: ApplicationError) -> None:
    """Say the service's refusal on the page, in its language (PP2–PP7)."""
    currency = room_facts().currency
    messages.error(request, refusal_text(error, money=money_in(currency)))


def recorded(
    request: HttpRequest, write: Callable[[], object], done: str, back: str
) -> bool:
    """Write once for the form's key (staff.common.once) and say ``done``; on a
    refusal say why. Returns whether nothing was refused."""

    def book() -> str:
        write()
        return back

    try:
        _url, fresh = book_once(request, book)
    except ApplicationError as error:
        refused(request, error)
        return False
    if fresh:
        messages.success(request, done)
    else:
        messages.info(request, _("This form was already sent; it was recorded once."))
    return True
