"""What the floor decided for seats and players beyond the lists: seats locked up
(WL8), tables that must move (WL7) and pairs of players kept out of the same game
(WL9), each ended from here; a pair kept apart is recorded here too, with why.

Every action calls the waiting lists' services (``waitlist.services``), which
record who decided and why; each form books once by its own key
(:mod:`staff.common.once`) and redirects after the POST.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.api.permissions import staff
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.floor import selectors as reads
from staff.floor._shared import booked, form_errors, page_context
from staff.floor.forms import PairForm
from waitlist import services as waitlist
from waitlist.models import KeptApart, Lockup, MustMove

PAGE = "staff:floor-decisions"


@floor_only
@require_GET
def decisions(request: HttpRequest) -> HttpResponse:
    """The seats locked up, the must-move tables and the pairs kept apart now,
    each with its end, and the form that keeps a pair apart (WL7–WL9)."""
    return render(
        request,
        "staff/floor/decisions.html",
        page_context(
            lockups=reads.lockups_held(),
            must_moves=reads.must_moves_running(),
            pairs=reads.pairs_kept_apart(),
            pair_form=PairForm(),
            names={
                "lockups": Lockup._meta.verbose_name_plural,
                "must_moves": MustMove._meta.verbose_name_plural,
                "pairs": KeptApart._meta.verbose_name_plural,
                "main": MustMove._meta.get_field("main").verbose_name,
            },
        ),
    )


def _back() -> str:
    return reverse(PAGE)


@floor_only
@require_POST
def lockup_release(request: HttpRequest, lockup_id: int) -> HttpResponse:
    """Release a seat locked up for a player or a new game (WL8)."""
    lockup = get_object_or_404(Lockup, pk=lockup_id)
    by = staff(request)

    def book() -> str:
        waitlist.lockup_release(lockup_id=lockup.pk, by=by)
        return _back()

    done = _("Seat %(s)s released.") % {"s": lockup.seat}
    return booked(request, book, done, room_facts().currency) or redirect(PAGE)


@floor_only
@require_POST
def must_move_end(request: HttpRequest, must_move_id: int) -> HttpResponse:
    """End a must-move: the table no longer feeds the main game (WL7)."""
    must_move = get_object_or_404(MustMove, pk=must_move_id)
    by = staff(request)

    def book() -> str:
        waitlist.must_move_end(must_move_id=must_move.pk, by=by)
        return _back()

    done = _("Must-move ended.")
    return booked(request, book, done, room_facts().currency) or redirect(PAGE)


@floor_only
@require_POST
def pair_keep(request: HttpRequest) -> HttpResponse:
    """Keep two players out of the same game from now on, saying why (WL9); the
    service refuses one player twice and a pair kept apart already."""
    form = PairForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(PAGE)
    data, by = form.cleaned_data, staff(request)

    def book() -> str:
        waitlist.kept_apart_start(
            player_codes=(data["player_a"].code, data["player_b"].code),
            reason=data["reason"].strip(),
            by=by,
        )
        return _back()

    done = _("%(a)s and %(b)s are kept apart.") % {
        "a": data["player_a"].name or data["player_a"].code,
        "b": data["player_b"].name or data["player_b"].code,
    }
    return booked(request, book, done, room_facts().currency) or redirect(PAGE)


@floor_only
@require_POST
def pair_end(request: HttpRequest, pair_id: int) -> HttpResponse:
    """Stop keeping a pair of players apart (WL9)."""
    pair = get_object_or_404(KeptApart, pk=pair_id)
    by = staff(request)

    def book() -> str:
        waitlist.kept_apart_end(pair_id=pair.pk, by=by)
        return _back()

    done = _("Pair ended.")
    return booked(request, book, done, room_facts().currency) or redirect(PAGE)
