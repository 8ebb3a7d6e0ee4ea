"""The manager's player-protection screens beside the player's page
(:mod:`staff.manager.players`): the awards held for restricted players and the
decisions on them (PP6), the exclusion list for the door staff (PP3, PP4), and
the versioned settings (PP2, PP4).

Every write calls its service
(:func:`accounting.services.cage.held_awards.held_award_decide`,
:func:`accounting.services.cage.protection.protection_settings_change`) once for the
form's key (:mod:`staff.common.once`); the services' refusals are said on the
page in its language. An auditor reads the held awards and their decisions, without
forms.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounting.errors import Code, conflict
from accounting.models import AwardDecision, Payable, ProtectionRules
from accounting.selectors import protection_settings_versions, restrictions_in_force
from accounting.services.cage import (
    Settings,
    gaming_day_of,
    held_award_decide,
    protection_settings,
    protection_settings_change,
)
from core.api.permissions import staff
from core.errors import SharedCode
from staff.common.money import money_in
from staff.common.roles import manager_only, manager_or_auditor
from staff.manager._shared import protection_context, recorded, refused
from staff.manager.forms import ReasonForm, SettingsForm
from staff.manager.selectors import award_decisions, held_award_of, held_award_rows

# Held awards (PP6) -----------------------------------------------------------------


@manager_or_auditor
@require_GET
def held_awards(request: HttpRequest) -> HttpResponse:
    """The awards held now for restricted players, each with the restriction
    holding it, and the latest decisions on held awards, newest first (PP6).
    A manager pays or forfeits each from here; an auditor reads."""
    return render(
        request,
        "staff/manager/protection/held_awards.html",
        protection_context(
            request, held=held_award_rows(), decisions=award_decisions()
        ),
    )


def _held_url() -> str:
    return reverse("staff:held-awards")


@manager_only
def held_award(request: HttpRequest, payable_id: int, decision: str) -> HttpResponse:
    """Ask once more, with why (GET), then pay a held award to the player after
    all or forfeit it (POST, PP6).

    The service refuses an award no longer held (409 ``not_held``: paid,
    decided, or its player no longer restricted); the refusal is said on the
    list, where it no longer shows, and nothing is booked."""
    payable = get_object_or_404(Payable.objects.select_related("player"), pk=payable_id)
    form = ReasonForm(request.POST or None)
    tried = request.method == "POST" and form.is_valid()
    if tried:
        by, reason = staff(request), form.cleaned_data["reason"].strip()
        if recorded(
            request,
            lambda: held_award_decide(
                payable=payable, decision=decision, reason=reason, by=by
            ),
            _decided(payable, decision),
            _held_url(),
        ):
            return redirect(_held_url())
    held = held_award_of(payable)
    if held is None:
        if not tried:
            refused(
                request,
                conflict(SharedCode.NOT_HELD, rule="PP6", ref=payable.reference),
            )
        return redirect(_held_url())
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "staff/manager/protection/held_award.html",
        protection_context(request, held=held, form=form, pay=decision == "pay"),
        status=status,
    )


def _decided(payable: Payable, decision: str) -> str:
    """What the manager is told once his decision is booked (PP6)."""
    amount = money_in(payable.currency)(payable.amount_cents)
    if decision == AwardDecision.Decision.PAY:
        done = _(
            "Award %(ref)s of %(amount)s is to be paid to %(who)s: the cage pays "
            "it against his identity document and signature (CA6)."
        )
    else:
        done = _("Award %(ref)s of %(amount)s to %(who)s is forfeited (PP6).")
    return done % {
        "ref": payable.reference,
        "amount": amount,
        "who": payable.player.name,
    }


# The exclusion list (PP3, PP4) -----------------------------------------------------


@manager_only
@require_GET
def exclusions(request: HttpRequest) -> HttpResponse:
    """Every player a bar or a self-exclusion keeps out now, by name, for the
    door staff (PP3, PP4): printed from here, or downloaded as the API's CSV.
    As the API's list, it says neither which kind keeps him out nor any
    document (PP7)."""
    return render(
        request,
        "staff/manager/protection/exclusions.html",
        protection_context(
            request,
            rows=restrictions_in_force(),
            gaming_day=gaming_day_of(),
            now=timezone.now(),
        ),
    )


# The settings (PP2, PP4) -----------------------------------------------------------


@manager_only
def settings_page(request: HttpRequest) -> HttpResponse:
    """The protection settings in force and every version recorded, with who,
    when and why (GET); a new version in force from now (POST, PP2, PP4).

    A version recorded by someone else since the form was read is refused as the
    service refuses two at once (409 ``settings_changed``) and nothing is
    recorded: the manager is shown the new one, his form kept, to send again."""
    current = protection_settings()
    form = SettingsForm(request.POST or None, initial=_initial(current))
    status = 422 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        data, by = form.cleaned_data, staff(request)

        def write() -> ProtectionRules:
            latest = protection_settings().version
            if data["version"] != latest:
                raise conflict(Code.SETTINGS_CHANGED, version=latest)
            return protection_settings_change(
                min_age=data["min_age"],
                min_self_exclusion_days=data["min_self_exclusion_days"],
                cooling_off_hours=data["cooling_off_hours"],
                note=data["note"].strip(),
                by=by,
            )

        done = _("Version %(version)d of the protection settings is in force.")
        if recorded(
            request,
            write,
            done % {"version": data["version"] + 1},
            reverse("staff:protection-settings"),
        ):
            return redirect("staff:protection-settings")
        current = protection_settings()
        form = _read_again(request, current.version)
        status = 409
    return render(
        request,
        "staff/manager/protection/settings.html",
        protection_context(
            request,
            current=current,
            versions=protection_settings_versions(),
            form=form,
        ),
        status=status,
    )


def _initial(current: Settings) -> dict[str, int]:
    """The form starts from the settings in force."""
    return {
        "min_age": current.min_age,
        "min_self_exclusion_days": current.min_self_exclusion_days,
        "cooling_off_hours": current.cooling_off_hours,
        "version": current.version,
    }


def _read_again(request: HttpRequest, version: int) -> SettingsForm:
    """The manager's form as he sent it, against the version now in force: sent
    again, it records his values over the ones he has now been shown."""
    data: Any = request.POST.copy()
    data["version"] = str(version)
    return SettingsForm(data)
