"""What the tournament desk's pages share: their frame, the event and its
addresses, and a form booked once with the cashier told what was done or why it
was refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from accounting.models import Cage, Receipt
from core.errors import ApplicationError, Invalid
from core.roles import Role, has_role
from staff.cage import selectors as cage_reads
from staff.common.money import money_in
from staff.common.once import book_once, booked_say
from staff.common.refusals import refusal_text
from staff.common.selectors import room_facts
from tournaments.models import Event


def page_context(
    request: HttpRequest, cage: Cage | None, **extra: Any
) -> dict[str, Any]:
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


def desk_url(event: Event) -> str:
    return reverse("staff:tournament-cage-desk", args=[event.code])


def receipt_url(event: Event, receipt: Receipt) -> str:
    return reverse("staff:tournament-cage-receipt", args=[event.code, receipt.no])


def form_errors(form: forms.Form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def booked(
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
            raise Invalid("form_invalid", form_errors(form))
        return book()

    try:
        url, fresh = book_once(request, checked)
    except ApplicationError as error:
        messages.error(
            request, refusal_text(error, money=money_in(event.currency), **how)
        )
        return HttpResponseRedirect(desk_url(event))
    booked_say(request, fresh, done)
    return HttpResponseRedirect(url)
