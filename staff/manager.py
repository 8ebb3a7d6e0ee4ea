"""The manager's screens: one inbox of everything that needs a second person, and
the tables' terminal keys.

Each decision calls the service that owns it: corrections and voids (DC2, RK8)
and stack reviews (HS6) in ``cardroom.services``, hits (BB5: verified by
the floor on the hit's page, approved by a manager) and months (HM3) in
``jackpots.services``, shift sign-offs (CA1) in ``accounting.cage``. Four eyes are
theirs to keep (and the database's): a manager who asked for a correction, verified
a hit or counted the shift is refused, and the refusal is said on the page. Every
decision that books money carries its own key and books once (:mod:`staff.common.once`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from accounting import cage as cage_services
from accounting.models import Shift
from cardroom import services as floor_services
from cardroom.models import Correction, HandVoid, StackReview, Table, TerminalKey
from core.api.permissions import staff
from core.errors import ApplicationError
from core.money import money_format
from core.roles import Role, has_role
from jackpots import services as jackpot_services
from jackpots.models import Hit, Month
from staff.common.once import book_once
from staff.common.refusals import refusal_text
from staff.common.roles import floor_only, manager_only
from staff.common.selectors import room_facts
from staff.models import ShiftCount

INBOX = "staff:approvals"


def _context(**extra: Any) -> dict[str, Any]:
    room = room_facts()
    return {"room": room, "currency": room.currency, "manager": True, **extra}


def _decide(
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
        language = get_language() or "en"
        messages.error(
            request,
            refusal_text(error, money=lambda c: money_format(c, currency, language)),
        )
        return redirect(back)
    if fresh:
        messages.success(request, done)
    else:
        messages.info(request, _("This form was already sent; it was decided once."))
    return redirect(url)


def _approve(request: HttpRequest) -> bool:
    return request.POST.get("decision") != "reject"


def _reason(request: HttpRequest) -> str:
    return (request.POST.get("reason") or "").strip()


# The inbox -------------------------------------------------------------------------


def _shifts_waiting() -> list[tuple[Shift, ShiftCount | None]]:
    shifts = list(
        Shift.objects.filter(status=Shift.Status.PENDING_SIGN_OFF)
        .select_related("cage", "cashier")
        .order_by("closed_at", "pk")
    )
    counts = {
        c.shift_id: c
        for c in ShiftCount.objects.filter(
            shift__in=shifts, moment=ShiftCount.Moment.CLOSE
        )
    }
    return [(s, counts.get(s.pk)) for s in shifts]


@manager_only
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    """The manager's home: everything waiting for a second person, oldest first."""
    corrections = (
        Correction.objects.filter(status=Correction.Status.PENDING)
        .select_related("table", "hand", "from_player", "to_player", "requested_by")
        .order_by("requested_at", "pk")
    )
    voids = (
        HandVoid.objects.filter(status=HandVoid.Status.PENDING)
        .select_related("hand", "hand__table", "requested_by")
        .prefetch_related(
            # What the void takes back besides the hand (RK8, DC2).
            Prefetch(
                "hand__corrections",
                queryset=Correction.objects.filter(status=Correction.Status.APPROVED)
                .select_related("from_player", "to_player")
                .order_by("-pk"),
                to_attr="booked",
            )
        )
        .order_by("requested_at", "pk")
    )
    hits = (
        Hit.objects.filter(status__in=[Hit.Status.PENDING, Hit.Status.VERIFIED])
        .select_related("hand", "hand__table", "pool", "verified_by")
        .order_by("hand_ended_at", "pk")
    )
    months = (
        Month.objects.filter(status=Month.Status.PENDING)
        .select_related("pool", "closed_by")
        .order_by("month", "pk")
    )
    reviews = (
        StackReview.objects.filter(status=StackReview.Status.PROPOSED)
        .select_related("table", "player", "to_player", "proposed_by")
        .order_by("proposed_at", "pk")
    )
    context = _context(
        corrections=corrections,
        voids=voids,
        hits=hits,
        months=months,
        shifts=_shifts_waiting(),
        reviews=reviews,
    )
    context["empty"] = (
        not any(
            context[k] for k in ("corrections", "voids", "hits", "months", "shifts")
        )
        and not reviews.exists()
    )
    return render(request, "staff/manager/inbox.html", context)


# Decisions -------------------------------------------------------------------------


@manager_only
@require_POST
def correction_decide(request: HttpRequest, correction_id: int) -> HttpResponse:
    """Approve (book) or reject a correction another person asked for (DC2)."""
    correction = get_object_or_404(Correction, pk=correction_id)
    approve, by = _approve(request), staff(request)
    done = (
        _("Correction %(id)d approved and booked.")
        if approve
        else _("Correction %(id)d rejected.")
    ) % {"id": correction.pk}
    return _decide(
        request,
        lambda: floor_services.correction_decide(
            correction=correction, approve=approve, by=by
        ),
        done,
    )


@manager_only
@require_POST
def void_decide(request: HttpRequest, void_id: int) -> HttpResponse:
    """Approve (book) or reject the void of a raked hand (RK8)."""
    void = get_object_or_404(HandVoid, pk=void_id)
    approve, by = _approve(request), staff(request)
    done = (
        _("The void of hand %(hand)s is approved and booked.")
        if approve
        else _("The void of hand %(hand)s is rejected.")
    ) % {"hand": void.hand}
    return _decide(
        request,
        lambda: floor_services.hand_void_decide(void=void, approve=approve, by=by),
        done,
    )


@manager_only
@require_POST
def review_approve(request: HttpRequest, review_id: int) -> HttpResponse:
    """Approve the resolution a floor person proposed for a stack review (HS6)."""
    review = get_object_or_404(StackReview, pk=review_id)
    by = staff(request)
    done = _("The stack review of seat %(seat)d is approved and booked.") % {
        "seat": review.seat
    }
    return _decide(
        request,
        lambda: floor_services.stack_review_approve(review=review, by=by),
        done,
    )


@manager_only
@require_POST
def shift_sign_off(request: HttpRequest, shift_id: int) -> HttpResponse:
    """Sign off a closed shift's over/short, another person than its cashier (CA1)."""
    shift = get_object_or_404(Shift, pk=shift_id)
    by, note = staff(request), _reason(request)
    done = _("Shift %(id)d is signed off and closed.") % {"id": shift.pk}
    return _decide(
        request,
        lambda: cage_services.shift_sign_off(shift=shift, supervisor=by, note=note),
        done,
    )


@manager_only
@require_POST
def month_decide(request: HttpRequest, month_id: int) -> HttpResponse:
    """Approve (book) or reject, with a reason, a month's awards (HM3)."""
    month = get_object_or_404(Month, pk=month_id)
    approve, by, reason = _approve(request), staff(request), _reason(request)

    def decide() -> Month:
        if approve:
            return jackpot_services.month_approve(month=month, by=by)
        return jackpot_services.month_reject(month=month, by=by, reason=reason)

    label = month.month.strftime("%Y-%m")
    done = (
        _("The awards of %(month)s are approved and booked.")
        if approve
        else _("The awards of %(month)s are rejected; the pool carries forward.")
    ) % {"month": label}
    return _decide(request, decide, done)


# Jackpot hits ----------------------------------------------------------------------


def _hit_context(hit: Hit, request: HttpRequest | None = None) -> dict[str, Any]:
    awards = list(hit.awards.select_related("player").order_by("position"))
    user = request.user if request is not None else None
    manager = user is not None and has_role(user, Role.MANAGER)
    return _context(
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
    return _decide(
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
    return _decide(
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
    by, reason = staff(request), _reason(request)
    done = _("Hit %(id)d rejected.") % {"id": hit.pk}
    return _decide(
        request,
        lambda: jackpot_services.hit_reject(hit=hit, by=by, reason=reason),
        done,
        back=reverse("staff:hit", args=[hit.pk]),
    )


# Terminal keys ---------------------------------------------------------------------


def _keys_page(request: HttpRequest, **extra: Any) -> HttpResponse:
    keys = TerminalKey.objects.select_related("table").order_by("revoked", "-created")
    tables = Table.objects.order_by("code")
    return render(
        request,
        "staff/manager/keys.html",
        _context(keys=keys[:200], tables=tables, **extra),
    )


# The new key, between the POST that made it and the page that shows it: in the
# session (kept by the server), popped when shown.
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
            request, "staff/manager/key_revoke.html", _context(terminal_key=key)
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
