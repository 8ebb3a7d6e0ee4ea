"""A table's tablets (issue 37): a manager pairs a tablet with the table from the
floor screen and unpairs it.

"Pair a tablet" makes a one-time code (``cardroom.services.
terminal_pairing_create``), valid ten minutes, and shows it large with a QR code
of the terminal page's address carrying it: the dealer scans it, or types the
code on the tablet's pairing screen. The server keeps only the code's hash, so
the page that made it keeps it in the manager's session to show it while it is
waiting (a reload shows it again; once it is redeemed or expired it is gone).
The page lists the tablets paired with the table (the table's usable keys) and
polls itself while a code waits, so the manager sees the tablet arrive (the
code gives way to "Paired", and the polling stops). Unpairing
is revoking the tablet's key, after a confirm step: its next request is refused.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cardroom import services as floor
from cardroom.models import Hand, Table, TerminalKey, TerminalPairing
from cardroom.services.terminal_keys import pairing_page
from core.api.permissions import staff
from core.errors import ApplicationError
from staff.common.roles import manager_only
from staff.floor._shared import page_context

PENDING = "staff.pairing_codes"
"""The session's codes still waiting, by table: {table: [pairing id, code]}."""
POLL_SECONDS = 3


def _qr(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG, dark on white whatever the theme."""
    svg = segno.make(url, error="m", micro=False).svg_inline(
        scale=6, border=4, dark="#000", light="#fff", svgclass="qr"
    )
    return mark_safe(svg)  # noqa: S308 (segno's own SVG of our own address)


def _waiting(request: HttpRequest, table: Table) -> dict[str, Any] | None:
    """The code this manager made for ``table`` while it can still be redeemed:
    the pairing, the code, the address and its QR code; ``None`` otherwise (and
    the session forgets it)."""
    codes = request.session.get(PENDING) or {}
    held = codes.get(table.code)
    if not held:
        return None
    pairing = TerminalPairing.objects.filter(pk=held[0], table=table).first()
    if (
        pairing is None
        or pairing.redeemed_at is not None
        or pairing.expires_at <= timezone.now()
    ):
        codes.pop(table.code, None)
        request.session[PENDING] = codes
        return {"done": pairing} if pairing and pairing.redeemed_at else None
    url = request.build_absolute_uri(pairing_page(held[1]))
    return {"pairing": pairing, "code": held[1], "url": url, "qr": _qr(url)}


def _context(request: HttpRequest, table: Table) -> dict[str, Any]:
    keys = TerminalKey.objects.filter(table=table, revoked=False).order_by("created")
    last = (
        Hand.objects.filter(table=table, source=f"terminal:{table.code}")
        .order_by("-hand_no")
        .only("hand_no", "ended_at")
        .first()
    )
    waiting = _waiting(request, table)
    return page_context(
        table=table,
        tablets=list(keys),
        last_terminal_hand=last,
        waiting=waiting if waiting and "code" in waiting else None,
        paired=waiting["done"] if waiting and "done" in waiting else None,
        poll_seconds=POLL_SECONDS,
    )


@manager_only
@require_http_methods(["GET", "POST"])
def tablets(request: HttpRequest, code: str) -> HttpResponse:
    """The table's tablets (GET; ``?part=live`` the part polled while a code
    waits: the code and the tablets); a new pairing code (POST), then the page
    showing it (Post/Redirect/Get)."""
    table = get_object_or_404(Table, code=code)
    if request.method == "POST":
        try:
            pairing, shown = floor.terminal_pairing_create(
                table_code=table.code, by=staff(request)
            )
        except ApplicationError as error:
            messages.error(request, error.detail)
            return redirect("staff:table-tablets", code=table.code)
        codes = request.session.get(PENDING) or {}
        codes[table.code] = [pairing.pk, shown]
        request.session[PENDING] = codes
        return redirect("staff:table-tablets", code=table.code)
    template = (
        "staff/floor/_tablets.html"
        if request.GET.get("part") == "live"
        else "staff/floor/tablets.html"
    )
    response = render(request, template, _context(request, table))
    response["Cache-Control"] = "no-store"  # the page may show a code
    return response


@manager_only
@require_http_methods(["GET", "POST"])
def tablet_unpair(request: HttpRequest, code: str, prefix: str) -> HttpResponse:
    """Unpair a tablet, once confirmed: its key is revoked and its next request
    refused (401). GET asks, naming the tablet; the POST revokes only with the
    confirmation's ``confirm`` field, else it asks."""
    key = get_object_or_404(
        TerminalKey.objects.select_related("table"), prefix=prefix, table__code=code
    )
    if key.revoked:
        messages.info(request, _("This tablet was unpaired already."))
        return redirect("staff:table-tablets", code=code)
    if request.method != "POST" or request.POST.get("confirm") != "unpair":
        return render(
            request, "staff/floor/tablet_unpair.html", page_context(tablet=key)
        )
    try:
        floor.terminal_key_revoke(prefix=prefix)
    except ApplicationError as error:  # revoked meanwhile
        messages.info(request, error.detail)
    else:
        messages.success(
            request,
            _("%(name)s is unpaired from table %(table)s.")
            % {"name": key.name, "table": code},
        )
    return redirect("staff:table-tablets", code=code)
