"""The manager's inbox: everything that needs a second person, each decided from
it.

Each decision calls the service that owns it: corrections and voids (DC2, RK8)
and stack reviews (HS6) in ``cardroom.services``, hits (BB5: verified by
the floor on the hit's page, approved by a manager), the promotions' prizes beside
them (PR5, the same way on the prize's page) and months (HM3) in
``jackpots.services``, shift sign-offs (CA1) in ``accounting.services.cage``. Four
eyes are theirs to keep (and the database's): a manager who asked for a correction,
verified a hit or counted the shift is refused, and the refusal is said on the page.
Every decision that books money carries its own key and books once
(:mod:`staff.common.once`).
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_POST,
)

from accounting.models import Shift
from accounting.services import cage as cage_services
from cardroom import services as floor_services
from cardroom.models import Correction, HandVoid, StackReview
from core.api.permissions import staff
from jackpots import services as jackpot_services
from jackpots.models import Hit, Month, PromotionPrize
from staff.common.roles import manager_only
from staff.manager._shared import approving, decided, page_context, reason_of
from staff.manager.prizes import period_words
from staff.models import ShiftCount


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
    prizes = (
        PromotionPrize.objects.filter(
            status__in=[PromotionPrize.Status.PENDING, PromotionPrize.Status.VERIFIED]
        )
        .select_related("promotion__room", "hand__table", "verified_by")
        .order_by("found_at", "pk")
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
    context = page_context(
        corrections=corrections,
        voids=voids,
        hits=hits,
        prizes=[(p, period_words(p)) for p in prizes],
        months=months,
        shifts=_shifts_waiting(),
        reviews=reviews,
    )
    context["empty"] = (
        not any(
            context[k]
            for k in ("corrections", "voids", "hits", "prizes", "months", "shifts")
        )
        and not reviews.exists()
    )
    return render(request, "staff/manager/inbox.html", context)


@manager_only
@require_POST
def correction_decide(request: HttpRequest, correction_id: int) -> HttpResponse:
    """Approve (book) or reject a correction another person asked for (DC2)."""
    correction = get_object_or_404(Correction, pk=correction_id)
    approve, by = approving(request), staff(request)
    done = (
        _("Correction %(id)d approved and booked.")
        if approve
        else _("Correction %(id)d rejected.")
    ) % {"id": correction.pk}
    return decided(
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
    approve, by = approving(request), staff(request)
    done = (
        _("The void of hand %(hand)s is approved and booked.")
        if approve
        else _("The void of hand %(hand)s is rejected.")
    ) % {"hand": void.hand}
    return decided(
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
    return decided(
        request,
        lambda: floor_services.stack_review_approve(review=review, by=by),
        done,
    )


@manager_only
@require_POST
def shift_sign_off(request: HttpRequest, shift_id: int) -> HttpResponse:
    """Sign off a closed shift's over/short, another person than its cashier (CA1)."""
    shift = get_object_or_404(Shift, pk=shift_id)
    by, note = staff(request), reason_of(request)
    done = _("Shift %(id)d is signed off and closed.") % {"id": shift.pk}
    return decided(
        request,
        lambda: cage_services.shift_sign_off(shift=shift, supervisor=by, note=note),
        done,
    )


@manager_only
@require_POST
def month_decide(request: HttpRequest, month_id: int) -> HttpResponse:
    """Approve (book) or reject, with a reason, a month's awards (HM3)."""
    month = get_object_or_404(Month, pk=month_id)
    approve, by, reason = approving(request), staff(request), reason_of(request)

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
    return decided(request, decide, done)
