"""What the floor's screens share: the room's clock for the screens' scripts,
the page's frame, refusals said with the buy-ins allowed in money and a tray's
shortfall in the room's words (:func:`staff.common.refusals.floor_shortfall`),
and a form booked once by its own key (:mod:`staff.common.once`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.models import (
    Room,
    StackMovement,
    Table,
)
from core.errors import ApplicationError
from core.money import symbol_of
from staff.common.money import money_in
from staff.common.once import book_once, booked_say
from staff.common.refusals import floor_shortfall
from staff.common.selectors import room_facts


def room_zone() -> ZoneInfo:
    room = Room.objects.order_by("pk").first()
    return room.tz if room else ZoneInfo(settings.TIME_ZONE)


def room_clock(now: datetime) -> dict[str, Any]:
    """The room's clock as the server reads it, for the screen's script to run on."""
    zone = room_zone()
    return {
        "server_ms": int(now.timestamp() * 1000),
        "zone": zone.key,
        "room_time": timezone.localtime(now, zone).strftime("%H:%M:%S"),
    }


def page_context(**extra: Any) -> dict[str, Any]:
    room = room_facts()
    return {
        "room": room,
        "currency": room.currency,
        "currency_sign": symbol_of(room.currency),
        "methods": StackMovement.Method.choices,
        **extra,
    }


def floor_refusal(
    error: ApplicationError, *, currency: str, wanted: int | None = None
) -> str:
    """Say why the floor's services refused, with the buy-ins allowed in money and
    an overdraft (a tray that can't pay ``wanted``, CA3) in the room's words."""
    money = money_in(currency)
    if said := floor_shortfall(error, money=money, wanted=wanted):
        return said
    allowed = error.allowed or {}
    rule = error.rule or ""
    if rule.startswith("BI") and "min" in allowed:
        low = allowed.get("min")
        high = allowed.get("max")
        if high is None:
            text = _("%(rule)s: a buy-in here is at least %(min)s.")
        else:
            text = _("%(rule)s: a buy-in here is between %(min)s and %(max)s.")
        return text % {
            "rule": rule,
            "min": money(int(low or 0)),
            "max": money(int(high or 0)),
        }
    detail = str(error.detail)
    prefix = f"{rule}: " if rule and not detail.startswith(rule) else ""
    return f"{prefix}{detail}"


def refused(
    request: HttpRequest,
    error: ApplicationError,
    currency: str,
    wanted: int | None = None,
) -> None:
    messages.error(request, floor_refusal(error, currency=currency, wanted=wanted))


def ran(
    request: HttpRequest, action: Callable[[], object], done: str, currency: str
) -> bool:
    """Run a service; say ``done`` or the refusal. Returns whether it ran."""
    try:
        action()
    except ApplicationError as error:
        refused(request, error, currency)
        return False
    messages.success(request, done)
    return True


def booked(
    request: HttpRequest,
    book: Callable[[], str],
    done: str | Callable[[], str],
    currency: str,
    wanted: int | None = None,
) -> HttpResponse | None:
    """Book a money form once (staff.common.once) and go where ``book`` says, saying
    ``done`` (or what it returns, once booked); on a refusal say why (a buy-in
    of ``wanted`` the tray can't pay, CA3)."""
    try:
        url, fresh = book_once(request, book)
    except ApplicationError as error:
        refused(request, error, currency, wanted)
        return None
    booked_say(request, fresh, done)
    return redirect(url, permanent=False)


def form_errors(request: HttpRequest, form: forms.Form) -> None:
    """Say what is wrong with a form posted from the home page, on the home page."""
    for errors in form.errors.values():
        messages.error(request, " ".join(str(e) for e in errors))


def open_table(code: str) -> Table:
    return get_object_or_404(
        Table.objects.select_related("game"), code=code, status=Table.Status.OPEN
    )
