"""A jackpot hit's page (BB5, BB6): its hands drawn as cards and its award split
by share; the floor verifies it there (the cards, the camera), a manager, another
person, approves or rejects it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_POST,
)

from core.api.permissions import staff
from core.roles import Role, has_role
from jackpots import services as jackpot_services
from jackpots.models import Hit
from staff.common.roles import floor_only, manager_only
from staff.manager._shared import decided, page_context, reason_of


def _hit_context(hit: Hit, request: HttpRequest | None = None) -> dict[str, Any]:
    awards = list(hit.awards.select_related("player").order_by("position"))
    user = request.user if request is not None else None
    manager = user is not None and has_role(user, Role.MANAGER)
    return page_context(
        manager=manager,
        verified_by_me=user is not None and hit.verified_by_id == user.pk,
        hit=hit,
        details=hit.details,
        awards=awards,
        awarded_cents=sum(a.amount_cents for a in awards),
        hand=hit.hand,
        board=(hit.hand.record or {}).get("board", []),
    )


def _hit(hit_id: int) -> Hit:
    return get_object_or_404(
        Hit.objects.select_related(
            "hand", "hand__table", "pool", "category", "verified_by"
        ),
        pk=hit_id,
    )


@floor_only
@require_GET
def hit_detail(request: HttpRequest, hit_id: int) -> HttpResponse:
    """A hit with its hands drawn as cards and its award split by share (BB5, BB6).

    The floor opens it to verify a pending hit (the cards, the camera); a manager
    to approve or reject a verified one. Whoever verified it can't approve it
    (BB5, four eyes): the page says so and offers him no approval."""
    hit = _hit(hit_id)
    return render(request, "staff/manager/hit.html", _hit_context(hit, request))


@floor_only
@require_POST
def hit_verify(request: HttpRequest, hit_id: int) -> HttpResponse:
    """A floor person (or a manager) verifies a pending hit with a note: the
    cards, the camera (BB5). Another manager then approves it; the service refuses
    a hit decided already (409) or one whose hand was voided (RK8)."""
    hit = _hit(hit_id)
    by, note = staff(request), (request.POST.get("note") or "").strip()[:500]
    page = reverse("staff:hit", args=[hit.pk])
    done = _("Hit %(id)d verified; a manager, another person, approves it.") % {
        "id": hit.pk
    }
    return decided(
        request,
        lambda: jackpot_services.hit_verify(hit=hit, by=by, note=note),
        done,
        back=page,
        after=page,
    )


@manager_only
def hit_approve(request: HttpRequest, hit_id: int) -> HttpResponse:
    """Ask once more (GET), then approve and book the hit's awards (POST, BB5).

    Only a verified hit is asked about; any other is shown as it stands."""
    hit = _hit(hit_id)
    if request.method != "POST":
        if hit.status != Hit.Status.VERIFIED:
            return redirect("staff:hit", hit.pk)
        return render(
            request, "staff/manager/hit_confirm.html", _hit_context(hit, request)
        )
    by = staff(request)
    done = _("Hit %(id)d approved: its awards are payable at the cage.") % {
        "id": hit.pk
    }
    return decided(
        request,
        lambda: jackpot_services.hit_approve(hit=hit, by=by),
        done,
        back=reverse("staff:hit", args=[hit.pk]),
    )


@manager_only
@require_POST
def hit_reject(request: HttpRequest, hit_id: int) -> HttpResponse:
    """Reject a hit with a reason: the pool is untouched (BB5)."""
    hit = _hit(hit_id)
    by, reason = staff(request), reason_of(request)
    done = _("Hit %(id)d rejected.") % {"id": hit.pk}
    return decided(
        request,
        lambda: jackpot_services.hit_reject(hit=hit, by=by, reason=reason),
        done,
        back=reverse("staff:hit", args=[hit.pk]),
    )
