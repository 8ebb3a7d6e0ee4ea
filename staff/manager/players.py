"""The manager's player-protection screens (PP1–PP7): find a player, see his age,
restrictions and identity documents, bar him or record his self-exclusion, end a
bar early (a second manager, PP3), record a self-exclusion's lapse at his request
(PP4), correct his name or date of birth (PP7), and see a document's number,
which records the look-up (PP7).

Every write calls its service in :mod:`accounting.services.cage.protection`; the rules
(the second manager, the shortest self-exclusion, nobody ending one) are the
services', and their refusals are said on the page in its language. An auditor
reads the same page without its forms and never sees a number.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.models import IdentityDocument, Player, Restriction
from accounting.services.cage import protection as services
from core.api.permissions import staff
from core.roles import Role, has_role
from staff.common.protection import player_glance, players_flags, restriction_row
from staff.common.roles import manager_only, manager_or_auditor
from staff.common.selectors import players_find
from staff.manager._shared import (
    numbers_shown_to,
    protection_context,
    recorded,
)
from staff.manager.forms import (
    CorrectionForm,
    NumberForm,
    ReasonForm,
    RestrictionForm,
)
from staff.manager.selectors import (
    changes_of,
    documents_of,
    self_exclusion_earliest,
)

KINDS = {
    "bar": Restriction.Kind.BAR,
    "self": Restriction.Kind.SELF_EXCLUSION,
}
"""The restriction forms on the page, by their prefix."""


def _player(code: str) -> Player:
    return get_object_or_404(Player, code=code)


def _page_url(player: Player) -> str:
    return reverse("staff:protection-player", args=[player.code])


@manager_or_auditor
@require_GET
def players(request: HttpRequest) -> HttpResponse:
    """Find a player by name, id or card, marked with what refuses him (PP2–PP4);
    the results only when htmx asks."""
    query = request.GET.get("q", "")
    found = list(players_find(query))
    if len(found) == 1 and request.GET.get("go"):
        return redirect("staff:protection-player", code=found[0].code)
    partial = bool(getattr(request, "htmx", False))
    template = (
        "staff/manager/protection/_players.html"
        if partial
        else "staff/manager/protection/players.html"
    )
    flags = players_flags(found)
    rows = [(p, [str(f) for f in flags[p.pk]]) for p in found]
    return render(
        request, template, protection_context(request, query=query, players=rows)
    )


def _page(
    request: HttpRequest,
    player: Player,
    *,
    status: int = 200,
    shown: tuple[IdentityDocument, str] | None = None,
    forms: dict[str, Any] | None = None,
) -> HttpResponse:
    """The player's page; ``forms`` are those sent back with their errors, by
    prefix (``bar``, ``self``, ``correct``)."""
    forms = forms or {}
    manager = has_role(request.user, Role.MANAGER)
    context = protection_context(
        request,
        player=player,
        glance=player_glance(player),
        documents=documents_of(player),
        changes=changes_of(player),
        numbers=numbers_shown_to(request),
        shown=shown,
        earliest=self_exclusion_earliest(),
        min_days=services.protection_settings().min_self_exclusion_days,
    )
    if manager:
        context.update(
            bar=forms.get("bar") or RestrictionForm(prefix="bar"),
            self_exclusion=forms.get("self") or RestrictionForm(prefix="self"),
            correct=forms.get("correct")
            or CorrectionForm(
                prefix="correct",
                initial={"name": player.name, "birth_date": player.birth_date},
            ),
        )
    response = render(
        request, "staff/manager/protection/player.html", context, status=status
    )
    if shown is not None:
        response["Cache-Control"] = "no-store"
    return response


@manager_or_auditor
@require_GET
def player(request: HttpRequest, code: str) -> HttpResponse:
    """A player's protection: his age on the gaming day, his restrictions and
    their state, his identity documents and the history of his data (PP1–PP7).
    A manager also sets bars and self-exclusions and corrects the data here."""
    return _page(request, _player(code))


@manager_only
@require_POST
def restriction_set(request: HttpRequest, code: str) -> HttpResponse:
    """Bar the player (PP3) or record his self-exclusion (PP4), from now; a
    self-exclusion shorter than the room's minimum is refused by the service."""
    player = _player(code)
    prefix = request.POST.get("kind", "")
    if prefix not in KINDS:
        prefix = "bar"
    kind = KINDS[prefix]
    form = RestrictionForm(request.POST, prefix=prefix)
    if not form.is_valid():
        return _page(request, player, status=422, forms={prefix: form})
    data, by = form.cleaned_data, staff(request)
    scope = Restriction.Scope(data["scope"])

    def write() -> Restriction:
        return services.restriction_set(
            player=player,
            kind=kind,
            scope=scope,
            until=None if data["for_good"] else data["until"],
            reason=data["reason"].strip(),
            by=by,
        )

    if kind == Restriction.Kind.BAR:
        done = _("%(who)s is barred from %(scope)s.")
    else:
        done = _("%(who)s's self-exclusion from %(scope)s is recorded.")
    done %= {"who": player.name, "scope": scope.label}
    if recorded(request, write, done, _page_url(player)):
        return redirect(_page_url(player))
    return _page(request, player, status=422, forms={prefix: form})


def _restriction(restriction_id: int) -> Restriction:
    return get_object_or_404(
        Restriction.objects.select_related("player", "set_by"), pk=restriction_id
    )


@manager_only
def restriction_end(request: HttpRequest, restriction_id: int) -> HttpResponse:
    """Ask once more, with why (GET), then end a bar early (POST, PP3).

    The service refuses the manager who set the bar (a second manager ends it)
    and a self-exclusion (nobody ends one, PP4); the refusal is said on the
    confirm page, and nothing changes."""
    row = _restriction(restriction_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        by, reason = staff(request), form.cleaned_data["reason"].strip()
        done = _("The bar on %(who)s is ended.") % {"who": row.player.name}
        if recorded(
            request,
            lambda: services.restriction_end(restriction=row, reason=reason, by=by),
            done,
            _page_url(row.player),
        ):
            return redirect(_page_url(row.player))
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "staff/manager/protection/end.html",
        protection_context(
            request,
            restriction=row,
            row=restriction_row(row),
            form=form,
            lapse=False,
        ),
        status=status,
    )


@manager_only
def self_exclusion_lapse(request: HttpRequest, restriction_id: int) -> HttpResponse:
    """Ask once more, with why (GET), then record the player's request that his
    ended self-exclusion lapse (POST, PP4): it lapses after the cooling-off time.

    The service refuses one still running or for good."""
    row = _restriction(restriction_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        by, reason = staff(request), form.cleaned_data["reason"].strip()
        done = _(
            "%(who)s asked for his self-exclusion to lapse; it lapses after the "
            "cooling-off time."
        ) % {"who": row.player.name}
        if recorded(
            request,
            lambda: services.self_exclusion_lapse(
                restriction=row, reason=reason, by=by
            ),
            done,
            _page_url(row.player),
        ):
            return redirect(_page_url(row.player))
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "staff/manager/protection/end.html",
        protection_context(
            request,
            restriction=row,
            row=restriction_row(row),
            form=form,
            lapse=True,
            cooling_off=services.protection_settings().cooling_off_hours,
        ),
        status=status,
    )


@manager_only
@require_POST
def player_correct(request: HttpRequest, code: str) -> HttpResponse:
    """Correct the player's name or date of birth, with why; each change is
    recorded with the old value (PP7)."""
    player = _player(code)
    form = CorrectionForm(request.POST, prefix="correct")
    if not form.is_valid():
        return _page(request, player, status=422, forms={"correct": form})
    data, by = form.cleaned_data, staff(request)

    def write() -> Player:
        return services.player_correct(
            player=player,
            by=by,
            reason=data["reason"].strip(),
            name=data["name"].strip(),
            birth_date=data["birth_date"],
        )

    done = _("The data of %(code)s is corrected.") % {"code": player.code}
    if recorded(request, write, done, _page_url(player)):
        return redirect(_page_url(player))
    return _page(request, player, status=422, forms={"correct": form})


@manager_only
@require_POST
def document_number(request: HttpRequest, document_id: int) -> HttpResponse:
    """Show a document's number to a manager, recording who was shown it and why
    (PP7). htmx gets the number alone, swapped in where the button was; a
    browser without it gets the player's page with the number."""
    document = get_object_or_404(
        IdentityDocument.objects.select_related("player"), pk=document_id
    )
    form = NumberForm(request.POST)
    purpose = form.cleaned_data["purpose"].strip() if form.is_valid() else ""
    number = services.document_number_show(
        document=document, by=staff(request), purpose=purpose
    )
    if getattr(request, "htmx", False):
        response = render(
            request,
            "staff/manager/protection/_number.html",
            {"document": document, "number": number},
        )
        response["Cache-Control"] = "no-store"
        return response
    return _page(request, document.player, shown=(document, number))
