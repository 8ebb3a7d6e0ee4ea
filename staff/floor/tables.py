"""The floor's tables (WL3, WL7, WL10, BI7): a table opened and closed, a house
move (a seat change or a must-move) and a table break, each shown for the floor
to confirm before it is done, and corrections and voids asked for at a table for
a manager to approve (DC2, RK8).

Every action calls the floor's services (``cardroom.services``) or the waiting
lists' (``waitlist.services``); the forms that change the books (a void, a
correction) book once by their own key (:mod:`staff.common.once`) and redirect
after the POST.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardroom import services as floor
from cardroom.models import (
    Correction,
    HandVoid,
    Policy,
    Table,
)
from core.api.permissions import staff
from core.errors import ApplicationError
from core.work import retried
from staff.common.money import money_in
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.floor import selectors as reads
from staff.floor._shared import (
    booked,
    form_errors,
    open_table,
    page_context,
    ran,
    refused,
)
from staff.floor.forms import (
    CorrectionForm,
    MoveForm,
    TableOpenForm,
    VoidForm,
)
from waitlist import services as waitlist


@floor_only
@require_POST
def table_open(request: HttpRequest) -> HttpResponse:
    """Open a table dealing one of the room's games under its current policy."""
    games = reads.games_to_open()
    form = TableOpenForm(request.POST, games=games)
    currency = room_facts().currency
    if not form.is_valid():
        form_errors(request, form)
        return redirect("staff:floor-home")
    game = form.cleaned_data["game"]
    code = form.cleaned_data["code"].upper()
    policy = Policy.objects.filter(game=game).order_by("-version").first()
    assert policy is not None  # games_to_open has a policy for each

    def act() -> None:
        floor.table_open(
            code=code,
            game_code=game.code,
            small_blind=game.small_blind_cents,
            big_blind=game.big_blind_cents,
            min_buy_in=game.min_buy_in_cents,
            max_buy_in=game.max_buy_in_cents,
            seats=form.cleaned_data["seats"],
            policy=policy.document,
            by=staff(request),
        )

    ran(request, act, _("Table %(t)s is open.") % {"t": code}, currency)
    return redirect("staff:floor-home")


@floor_only
@require_POST
def table_close(request: HttpRequest, code: str) -> HttpResponse:
    """Close an empty table; refused while players sit there (WL3)."""
    table = open_table(code)
    ran(
        request,
        lambda: floor.table_close(table=table),
        _("Table %(t)s is closed.") % {"t": code},
        room_facts().currency,
    )
    return redirect("staff:floor-home")


class _Unchanged(Exception):
    """Undo a break whose moves are not the ones the floor confirmed."""

    def __init__(self, plan: list[list[Any]]) -> None:
        self.plan = plan


def _break_plan(result: waitlist.BreakResult) -> list[list[Any]]:
    """[draw no, player, table, seat] of each of a break's players, in the draw's
    order; table and seat are None for a player left to wait (WL3)."""
    rows = [[m["draw_no"], m["player"], m["table"], m["seat"]] for m in result.moved]
    rows += [[e.draw_no, e.player.code, None, None] for e in result.waiting]
    return sorted(rows)


@retried()
def _break_tried(
    code: str, *, seed: int, by: User, shown: list[list[Any]] | None
) -> tuple[list[list[Any]], bool]:
    """Break ``code`` with the draw's ``seed`` and keep it only when its moves are
    ``shown``, the ones the floor confirmed; otherwise undo it all. Returns the
    plan and whether it was kept. Raises the break's application errors (WL3).

    The plan the floor is shown is the service's own run, undone, so what is
    confirmed is exactly what is then done with the same seed; if the tables
    changed in between, nothing is done and the new plan is shown instead.
    """
    try:
        with transaction.atomic():
            result = waitlist.table_break(table_code=code, by=by, seed=seed)
            plan = _break_plan(result)
            if plan != shown:
                raise _Unchanged(plan)
    except _Unchanged as undone:
        return undone.plan, False
    return plan, True


@floor_only
def table_break(request: HttpRequest, code: str) -> HttpResponse:
    """Break a table after the floor confirms where each player goes: its players
    move by a recorded draw, keeping their stacks, before the list (WL3, BI7).

    The confirm page shows each player's table and seat, from the draw's seed it
    carries (signed); the POST does that, or, when the tables changed since, does
    nothing and shows the new plan to confirm again."""
    table = open_table(code)
    currency = room_facts().currency
    by = staff(request)
    salt = f"staff.floor.break:{table.pk}"
    shown: list[list[Any]] | None = None
    seed = secrets.randbits(62)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            signed = signing.loads(request.POST.get("plan", ""), salt=salt)
            seed, shown = int(signed["seed"]), signed["plan"]
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            shown = None
    try:
        plan, done = _break_tried(code, seed=seed, by=by, shown=shown)
    except ApplicationError as error:
        refused(request, error, currency)
        return redirect("staff:floor-home")
    if done:
        moved = sum(1 for row in plan if row[2] is not None)
        messages.success(
            request,
            _(
                "Table %(t)s is broken: %(moved)d moved, %(waiting)d wait at the "
                "head of the list."
            )
            % {"t": code, "moved": moved, "waiting": len(plan) - moved},
        )
        return redirect("staff:floor-home")
    if shown is not None:
        messages.warning(
            request,
            _(
                "The tables changed since the plan was shown, so nothing was done. "
                "This is where each player goes now: confirm again."
            ),
        )
    row = reads.table_row(table, now=timezone.now(), currency=currency)
    seats = {s.player: s for s in row.seats if s.taken}
    goes = [
        {
            "draw_no": draw_no,
            "seat": seats.get(player),
            "player": player,
            "to_table": to_table,
            "to_seat": to_seat,
        }
        for draw_no, player, to_table, to_seat in plan
    ]
    free = sum(
        1
        for other in reads.table_map(now=timezone.now(), currency=currency)
        if other.table.game_id == table.game_id and other.table.pk != table.pk
        for seat in other.seats
        if not seat.taken and not seat.called and not seat.locked
    )
    return render(
        request,
        "staff/floor/break.html",
        page_context(
            row=row,
            goes=goes,
            free=free,
            currency=row.currency,
            plan=signing.dumps({"seed": seed, "plan": plan}, salt=salt),
        ),
    )


@floor_only
def house_move(request: HttpRequest, code: str) -> HttpResponse:
    """A house move from the map (BI7): a seat change (WL10) or a must-move (WL7),
    shown for the floor to confirm before it is asked of the lists."""
    table = open_table(code)
    currency = room_facts().currency
    row = reads.table_row(table, now=timezone.now(), currency=currency)
    others = reads.table_map(now=timezone.now(), currency=currency)
    tables = [
        t.table.code
        for t in others
        if t.table.game_id == table.game_id and t.table.pk != table.pk
    ]
    players = [
        (s.player, f"{s.seat}: {s.name or s.player}") for s in row.seats if s.taken
    ]
    form = MoveForm(request.POST or None, players=players, tables=tables)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if request.POST.get("confirm") != "yes":
            return render(
                request,
                "staff/floor/move_confirm.html",
                page_context(row=row, form=form, data=data),
            )
        by = staff(request)
        if data["kind"] == MoveForm.MUST_MOVE:
            done = _("Table %(t)s must move to %(to)s.") % {"t": code, "to": data["to"]}

            def act() -> object:
                return waitlist.must_move_start(
                    table_code=code, main_code=data["to"], by=by
                )

        else:
            done = _("%(p)s will move to %(to)s when a seat opens there.") % {
                "p": data["player"],
                "to": data["to"],
            }

            def act() -> object:
                return waitlist.seat_change_request(
                    player_code=data["player"],
                    table_code=data["to"],
                    seat=data.get("seat"),
                    by=by,
                )

        if ran(request, act, done, currency):
            return redirect("staff:floor-home")
    return render(
        request,
        "staff/floor/move.html",
        page_context(row=row, form=form, tables=tables),
    )


@floor_only
def correction_request(request: HttpRequest, code: str) -> HttpResponse:
    """Ask for a correction at a table (DC1–DC3); a manager approves it elsewhere."""
    table = get_object_or_404(Table, code=code)
    currency = room_facts().currency
    form = CorrectionForm(request.POST or None, currency=currency)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        by = staff(request)

        def book() -> str:
            floor.correction_request(
                kind=data["kind"],
                table_code=code,
                amount=data["amount"],
                reason=data["reason"],
                by=by,
                hand_no=data.get("hand_no"),
                from_player=data.get("from_player") or None,
                to_player=data.get("to_player") or None,
                held_id=data.get("held"),
            )
            return reverse("staff:floor-home")

        done = _(
            "Correction of %(amount)s asked for at %(t)s; it waits for a manager."
        ) % {"amount": money_in(currency)(data["amount"]), "t": code}
        if answer := booked(request, book, done, currency):
            return answer
    pending = Correction.objects.filter(
        table=table, status=Correction.Status.PENDING
    ).order_by("-requested_at")[:10]
    return render(
        request,
        "staff/floor/correction.html",
        page_context(table=table, form=form, pending=pending),
    )


@floor_only
def void_request(request: HttpRequest, code: str) -> HttpResponse:
    """Void the table's last hand (RK8): at once without rake, else a manager
    approves it."""
    table = open_table(code)
    currency = room_facts().currency
    last = table.hands.order_by("-hand_no").values_list("hand_no", flat=True).first()
    form = VoidForm(request.POST or None, initial={"hand_no": last})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        by = staff(request)
        said: list[str] = []

        def book() -> str:
            void = floor.hand_void(
                table_code=code, hand_no=data["hand_no"], reason=data["reason"], by=by
            )
            said.append(
                _("Hand %(n)s is void and booked back.")
                if void.status == HandVoid.Status.BOOKED
                else _("Void of hand %(n)s asked for; it waits for a manager.")
            )
            return reverse("staff:floor-home")

        def done() -> str:
            return said[0] % {"n": data["hand_no"]}

        if answer := booked(request, book, done, currency):
            return answer
    return render(
        request,
        "staff/floor/void.html",
        page_context(table=table, form=form, last=last),
    )
