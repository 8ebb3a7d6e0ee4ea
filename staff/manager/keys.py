"""The tables' terminal keys: made and shown once, revoked after a confirm step."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_http_methods,
)

from cardroom.models import Table, TerminalKey
from core.errors import ApplicationError
from staff.common.once import book_once
from staff.common.roles import manager_only
from staff.manager._shared import page_context


def _keys_page(request: HttpRequest, **extra: Any) -> HttpResponse:
    keys = TerminalKey.objects.select_related("table").order_by("revoked", "-created")
    tables = Table.objects.order_by("code")
    return render(
        request,
        "staff/manager/keys.html",
        page_context(keys=keys[:200], tables=tables, **extra),
    )


NEW_KEY = "staff.new_terminal_key"


@manager_only
def terminal_keys(request: HttpRequest) -> HttpResponse:
    """The tables' terminal keys (GET); a new key (POST), then the list showing it
    this once (Post/Redirect/Get).

    The server keeps only the key's hash, so the page after the one that creates
    it is the one place it is ever seen (API.md, "Authentication"). The POST
    stores the key in the session and redirects; the page pops it as it shows it,
    so a reload shows the list, not the key, and makes none. The form carries a
    one-time key (:mod:`staff.common.once`): a double submit, or a POST sent again
    by the browser, makes one key, and the second answer says so.
    """
    if request.method != "POST":
        shown = request.session.pop(NEW_KEY, None)
        created = (
            TerminalKey.objects.select_related("table").filter(pk=shown["id"]).first()
            if shown
            else None
        )
        response = _keys_page(
            request, created=created, key=shown["key"] if created else None
        )
        response["Cache-Control"] = "no-store"
        return response
    table = Table.objects.filter(code=request.POST.get("table", "")).first()
    if table is None:
        messages.error(request, _("Choose the table whose terminal the key is for."))
        return redirect("staff:terminal-keys")
    name = (request.POST.get("name") or "").strip()[:50] or f"terminal {table.code}"

    def book() -> str:
        created, key = TerminalKey.objects.create_key(name=name, table=table)
        request.session[NEW_KEY] = {"id": created.pk, "key": key}
        return reverse("staff:terminal-keys")

    try:
        url, made = book_once(request, book)
    except ApplicationError as error:
        messages.error(request, error.detail)
        return redirect("staff:terminal-keys")
    if not made:
        messages.info(
            request,
            _(
                "This form was already sent: its key was made once, and shown "
                "once on the page that answered it."
            ),
        )
    return redirect(url)


def _revocable(prefix: str, *, lock: bool = False) -> TerminalKey:
    keys = TerminalKey.objects.select_related("table")
    if lock:
        keys = keys.select_for_update(of=("self",))
    return get_object_or_404(keys, prefix=prefix)


@manager_only
@require_http_methods(["GET", "POST"])
def terminal_key_revoke(request: HttpRequest, prefix: str) -> HttpResponse:
    """Revoke a terminal's key, once confirmed: from its next request on the
    terminal is refused (401), and no key is made usable again.

    GET asks for the confirmation, naming the key, its table and what it is for;
    the POST revokes only with the confirmation's ``confirm`` field, else it asks.
    """
    if request.method != "POST" or request.POST.get("confirm") != "revoke":
        key = _revocable(prefix)
        if key.revoked:
            messages.info(request, _("This terminal key was revoked already."))
            return redirect("staff:terminal-keys")
        return render(
            request, "staff/manager/key_revoke.html", page_context(terminal_key=key)
        )
    with transaction.atomic():
        key = _revocable(prefix, lock=True)
        if key.revoked:
            messages.info(request, _("This terminal key was revoked already."))
        else:
            key.revoked = True
            key.save(update_fields=["revoked"])
            messages.success(
                request,
                _("The key %(prefix)s of table %(table)s is revoked.")
                % {"prefix": key.prefix, "table": key.table.code},
            )
    return redirect("staff:terminal-keys")
