"""The floor's screens: the live table map, tables opened and closed, house moves and
table breaks (WL3, WL7, WL10, BI7), corrections and voids asked for (DC2, RK8), and
the waiting lists' calls counting down (WL2), players put on the lists (WL1), fills
asked of the cage (CA3) and bad-beat hits waiting for the floor's verification (BB5).

Every action calls the floor's services (``cardroom.services``), the waiting
lists' (``waitlist.services``) or the cage's (``accounting.cage``); the forms that
change the books or the lists (a buy-in, a void, a correction, a fill, a join)
book once by their own key (:mod:`staff.common.once`) and redirect after the POST. The
full waiting-list screen stays the admin's (``admin:waitlist_floor``), for
reference; the floor home links to it.

A table the floor has just opened has an empty tray, and a seat's cash buy-in
takes its chips from the tray (CA3): the floor asks the cage for the opening fill
from its home screen ("Ask the cage for a fill", per open table, in money), a
cashier issues it from the cage's queue, and the player is seated. A buy-in the
tray can't pay is refused with what the tray holds and the least fill that seats
him (:func:`staff.common.refusals.floor_shortfall`), never the ledger's account name.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting import cage as cage_services
from accounting.models import Player, TableSlip
from cardroom import services as floor
from cardroom.models import (
    Correction,
    HandVoid,
    Policy,
    Room,
    StackMovement,
    Table,
)
from core.api.permissions import staff
from core.errors import ApplicationError, Refusal
from core.money import money_format, symbol_of
from core.work import retried
from jackpots.models import Hit
from staff import floor_selectors as reads
from staff.common.once import book_once
from staff.common.refusals import floor_shortfall
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.floor_forms import (
    CorrectionForm,
    FillForm,
    ListJoinForm,
    MoveForm,
    SeatForm,
    TableOpenForm,
    VoidForm,
)
from waitlist import services as waitlist
from waitlist.models import Entry, WaitingList
from waitlist.services import Actor

View = Callable[..., HttpResponse]
MAP_SECONDS = 3
LISTS_SECONDS = 5


def _room_zone() -> ZoneInfo:
    room = Room.objects.order_by("pk").first()
    return room.tz if room else ZoneInfo(settings.TIME_ZONE)


def _clock(now: datetime) -> dict[str, Any]:
    """The room's clock as the server reads it, for the screen's script to run on."""
    zone = _room_zone()
    return {
        "server_ms": int(now.timestamp() * 1000),
        "zone": zone.key,
        "room_time": timezone.localtime(now, zone).strftime("%H:%M:%S"),
    }


def _context(**extra: Any) -> dict[str, Any]:
    room = room_facts()
    return {
        "room": room,
        "currency": room.currency,
        "currency_sign": symbol_of(room.currency),
        "methods": StackMovement.Method.choices,
        **extra,
    }


def _money(currency: str) -> Callable[[int], str]:
    language = get_language() or "en"
    return lambda cents: money_format(cents, currency, language)


def refusal_text(
    error: ApplicationError, *, currency: str, wanted: int | None = None
) -> str:
    """Say why the floor's services refused, with the buy-ins allowed in money and
    an overdraft (a tray that can't pay ``wanted``, CA3) in the room's words."""
    money = _money(currency)
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


def _refused(
    request: HttpRequest,
    error: ApplicationError,
    currency: str,
    wanted: int | None = None,
) -> None:
    messages.error(request, refusal_text(error, currency=currency, wanted=wanted))


def _run(
    request: HttpRequest, action: Callable[[], object], done: str, currency: str
) -> bool:
    """Run a service; say ``done`` or the refusal. Returns whether it ran."""
    try:
        action()
    except ApplicationError as error:
        _refused(request, error, currency)
        return False
    messages.success(request, done)
    return True


def _book(
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
        _refused(request, error, currency, wanted)
        return None
    if fresh:
        messages.success(request, done if isinstance(done, str) else done())
    else:
        messages.info(request, _("This form was already sent; it was booked once."))
    return redirect(url, permanent=False)


def _form_errors(request: HttpRequest, form: forms.Form) -> None:
    """Say what is wrong with a form posted from the home page, on the home page."""
    for errors in form.errors.values():
        messages.error(request, " ".join(str(e) for e in errors))


def _open_table(code: str) -> Table:
    return get_object_or_404(
        Table.objects.select_related("game"), code=code, status=Table.Status.OPEN
    )


# The home: the map, the lists and a table to open ---------------------------------


@floor_only
@require_GET
def floor_home(request: HttpRequest) -> HttpResponse:
    """The floor's home: every open table live, the lists' calls counting down."""
    now = timezone.now()
    context = _context(**_clock(now))
    games = reads.games_to_open()
    tables = reads.table_map(now=now, currency=context["currency"])
    codes = [row.table.code for row in tables]
    return render(
        request,
        "staff/floor/home.html",
        {
            **context,
            "tables": tables,
            "lists": reads.waiting_lists(now=now),
            "open_form": TableOpenForm(games=games) if games else None,
            "fill_form": FillForm(currency=context["currency"], tables=codes),
            "fills": _fills_waiting(),
            "hits": _hits_to_verify(),
            "map_seconds": MAP_SECONDS,
            "lists_seconds": LISTS_SECONDS,
        },
    )


@floor_only
@require_GET
def floor_map(request: HttpRequest) -> HttpResponse:
    """The table map alone, polled by the home page."""
    now = timezone.now()
    context = _context(**_clock(now))
    tables = reads.table_map(now=now, currency=context["currency"])
    return render(request, "staff/floor/_map.html", {**context, "tables": tables})


@floor_only
@require_GET
def floor_lists(request: HttpRequest) -> HttpResponse:
    """The waiting lists alone, with the server's clock, polled by the home page."""
    now = timezone.now()
    context = _context(**_clock(now))
    lists = reads.waiting_lists(now=now)
    return render(request, "staff/floor/_lists.html", {**context, "lists": lists})


@floor_only
@require_POST
def list_call(request: HttpRequest, list_id: int) -> HttpResponse:
    """Call the next player the rules pick for a free seat of the game (WL1, WL2, WL4);
    the whole list and its other actions are on the admin's floor screen. A player
    the list's door refuses is passed over, and the floor is told why (PP2–PP4)."""
    waiting_list = get_object_or_404(WaitingList, pk=list_id)
    said: list[str] = []
    passed: list[str] = []

    def act() -> None:
        result = waitlist.list_call(
            waiting_list=waiting_list, table_code=None, actor=Actor(by=staff(request))
        )
        passed.extend(passed_over(result.skipped))
        entry = result.entry
        if entry is None:
            raise Refusal(
                "nobody_to_call",
                _("WL1: nobody in the queue can take a free seat of this game."),
                rule="WL1",
            )
        said.append(
            _("%(p)s is called to %(t)s, seat %(s)s.")
            % {
                "p": entry.player.name or entry.player.code,
                "t": entry.call_table.code if entry.call_table else "",
                "s": entry.call_seat or "",
            }
        )

    try:
        act()
    except ApplicationError as error:
        _refused(request, error, room_facts().currency)
    else:
        messages.success(request, said[0])
    for text in passed:
        messages.warning(request, text)
    return redirect("staff:floor-home")


def passed_over(skipped: list[dict[str, Any]]) -> list[str]:
    """Why a call passed players over whom the waiting list's door refuses
    (PP2–PP4), for the floor: each keeps his place on the list."""
    texts = {
        "PP2": _(
            "%(p)s was passed over: under the room's minimum age or without a date "
            "of birth (PP2). He keeps his place on the list."
        ),
        "PP3": _(
            "%(p)s was passed over: barred (PP3). He keeps his place on the list."
        ),
        "PP4": _(
            "%(p)s was passed over: self-excluded (PP4). He keeps his place on the "
            "list."
        ),
    }
    refused = [one for one in skipped if one.get("rule") in texts]
    names = dict(
        Player.objects.filter(code__in=[one["player"] for one in refused]).values_list(
            "code", "name"
        )
    )
    return [
        texts[one["rule"]] % {"p": names.get(one["player"]) or one["player"]}
        for one in refused
    ]


@floor_only
@require_POST
def table_open(request: HttpRequest) -> HttpResponse:
    """Open a table dealing one of the room's games under its current policy."""
    games = reads.games_to_open()
    form = TableOpenForm(request.POST, games=games)
    currency = room_facts().currency
    if not form.is_valid():
        _form_errors(request, form)
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

    _run(request, act, _("Table %(t)s is open.") % {"t": code}, currency)
    return redirect("staff:floor-home")


@floor_only
@require_POST
def table_close(request: HttpRequest, code: str) -> HttpResponse:
    """Close an empty table; refused while players sit there (WL3)."""
    table = _open_table(code)
    _run(
        request,
        lambda: floor.table_close(table=table),
        _("Table %(t)s is closed.") % {"t": code},
        room_facts().currency,
    )
    return redirect("staff:floor-home")


# House moves and table breaks, each with a confirm step ---------------------------


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
    code: str, *, seed: int, actor: Actor, shown: list[list[Any]] | None
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
            result = waitlist.table_break(table_code=code, actor=actor, seed=seed)
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
    table = _open_table(code)
    currency = room_facts().currency
    actor = Actor(by=staff(request))
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
        plan, done = _break_tried(code, seed=seed, actor=actor, shown=shown)
    except ApplicationError as error:
        _refused(request, error, currency)
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
        _context(
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
    table = _open_table(code)
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
                _context(row=row, form=form, data=data),
            )
        actor = Actor(by=staff(request))
        if data["kind"] == MoveForm.MUST_MOVE:
            done = _("Table %(t)s must move to %(to)s.") % {"t": code, "to": data["to"]}

            def act() -> object:
                return waitlist.must_move_start(
                    table_code=code, main_code=data["to"], actor=actor
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
                    actor=actor,
                )

        if _run(request, act, done, currency):
            return redirect("staff:floor-home")
    return render(
        request, "staff/floor/move.html", _context(row=row, form=form, tables=tables)
    )


# Corrections and voids: asked for here, approved by another person ---------------


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
        ) % {"amount": _money(currency)(data["amount"]), "t": code}
        if answer := _book(request, book, done, currency):
            return answer
    pending = Correction.objects.filter(
        table=table, status=Correction.Status.PENDING
    ).order_by("-requested_at")[:10]
    return render(
        request,
        "staff/floor/correction.html",
        _context(table=table, form=form, pending=pending),
    )


@floor_only
def void_request(request: HttpRequest, code: str) -> HttpResponse:
    """Void the table's last hand (RK8): at once without rake, else a manager
    approves it."""
    table = _open_table(code)
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

        if answer := _book(request, book, done, currency):
            return answer
    return render(
        request, "staff/floor/void.html", _context(table=table, form=form, last=last)
    )


# Seating a called player, with a buy-in typed in the room's currency -------------


@floor_only
@require_POST
def entry_seat(request: HttpRequest, entry_id: int) -> HttpResponse:
    """Seat a called player at the seat he was called to (WL2, WL5, BI1–BI7)."""
    entry = get_object_or_404(
        Entry.objects.select_related("player", "call_table"), pk=entry_id
    )
    currency = room_facts().currency
    form = SeatForm(request.POST, currency=currency)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("staff:floor-home")
    amount = form.cleaned_data.get("amount")
    actor = Actor(by=staff(request))

    def book() -> str:
        waitlist.entry_seat(
            entry_id=entry.pk,
            amount=amount or None,
            method=form.cleaned_data["method"] if amount else None,
            actor=actor,
        )
        return reverse("staff:floor-home")

    done = _("%(p)s is seated at %(t)s, seat %(s)s.") % {
        "p": entry.player.name or entry.player.code,
        "t": entry.call_table.code if entry.call_table else "",
        "s": entry.call_seat or "",
    }
    answer = _book(request, book, done, currency, wanted=amount or None)
    return answer or redirect("staff:floor-home")


# Fills asked of the cage, players put on the lists, hits to verify ----------------


def _open_codes() -> list[str]:
    return list(
        Table.objects.filter(status=Table.Status.OPEN)
        .order_by("code")
        .values_list("code", flat=True)
    )


def _fills_waiting() -> list[TableSlip]:
    """The fills the floor asked for that no cashier has issued yet (CA3)."""
    return list(
        TableSlip.objects.filter(
            kind=TableSlip.Kind.FILL, status=TableSlip.Status.PENDING
        )
        .select_related("cage", "requested_by")
        .order_by("requested_at", "pk")
    )


def _hits_to_verify() -> list[Hit]:
    """Bad-beat hits waiting for a floor person's verification (BB5)."""
    return list(
        Hit.objects.filter(status=Hit.Status.PENDING)
        .select_related("hand", "hand__table", "pool")
        .order_by("hand_ended_at", "pk")
    )


@floor_only
@require_POST
def fill_request(request: HttpRequest) -> HttpResponse:
    """Ask the cage for a fill of an open table's tray (CA3), signed by the floor
    person asking; a cashier, another person, issues it from the cage's queue.

    This is how a new table gets its opening fill before its first cash buy-in.
    A closed table gets no fill (CA3, ``table_closed``)."""
    currency = room_facts().currency
    form = FillForm(request.POST, currency=currency, tables=_open_codes())
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("staff:floor-home")
    data = form.cleaned_data
    by = staff(request)

    def book() -> str:
        cage_services.slip_request(
            kind=TableSlip.Kind.FILL,
            cage=data["cage"],
            table=data["table"],
            amount_cents=data["amount"],
            requested_by=by,
        )
        return reverse("staff:floor-home")

    done = _("Fill of %(amount)s for %(t)s asked of the cage; a cashier issues it.") % {
        "amount": _money(currency)(data["amount"]),
        "t": data["table"],
    }
    return _book(request, book, done, currency) or redirect("staff:floor-home")


@floor_only
@require_POST
def list_join(request: HttpRequest) -> HttpResponse:
    """Put a registered player on a game's list from the floor's lists (WL1);
    the lists' rules refuse him when he is on it already (WL1), plays the game
    (WL10) or is barred from it (WL7)."""
    currency = room_facts().currency
    form = ListJoinForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("staff:floor-home")
    player = form.cleaned_data["player"]
    waiting_list = form.cleaned_data["waiting_list"]
    actor = Actor(by=staff(request))

    def book() -> str:
        waitlist.entry_join(
            waiting_list=waiting_list, player_code=player.code, actor=actor
        )
        return reverse("staff:floor-home")

    done = _("%(p)s is on the list.") % {"p": player.name or player.code}
    return _book(request, book, done, currency) or redirect("staff:floor-home")
