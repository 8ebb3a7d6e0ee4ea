"""The cage's screens (CA1–CA6): a cashier's shift in the browser.

Server-rendered, with htmx for the live parts (the queue of fills and credits, the
over/short while counting, the player search). Every action calls the cage's
services in ``accounting.cage``; every form that moves money books once by its
own key (:mod:`staff.common.once`). Refusals are told in the room's words
(:mod:`staff.common.refusals`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting import cage as services
from accounting.cage import protection
from accounting.cage.selectors import receipt_get, shift_report
from accounting.models import Cage, Payable, Player, Shift, TableSlip
from core.api.permissions import staff
from core.errors import ApplicationError, Refusal
from core.money import symbol_of
from core.roles import Role, has_role
from staff import selectors
from staff.common.money import money_in
from staff.common.once import book_once
from staff.common.protection import player_glance, players_flags
from staff.common.refusals import refusal_text
from staff.common.roles import cashier_only
from staff.common.selectors import players_find, room_facts
from staff.forms import AmountForm, AwardPayForm, CountForm
from staff.models import ShiftCount
from staff.protection_forms import DocumentForm

CAGE_SESSION_KEY = "staff_cage"
View = Callable[..., HttpResponse]


def _cage(request: HttpRequest) -> Cage:
    chosen = request.GET.get("cage") or request.session.get(CAGE_SESSION_KEY)
    cage = selectors.cage_choose(chosen)
    if cage is None:
        raise Http404(_("No cage is set up yet; a manager adds one in the admin."))
    request.session[CAGE_SESSION_KEY] = cage.code
    return cage


def _money(cage: Cage) -> Callable[[int], str]:
    return money_in(cage.currency)


def _context(request: HttpRequest, cage: Cage, **extra: Any) -> dict[str, Any]:
    return {
        "room": room_facts(),
        "cage": cage,
        "cages": Cage.objects.order_by("code"),
        "currency": cage.currency,
        "currency_sign": symbol_of(cage.currency),
        "shift": selectors.shift_current(cage=cage, cashier=request.user),
        **extra,
    }


def _refuse(
    request: HttpRequest, cage: Cage, error: ApplicationError, **how: Any
) -> None:
    messages.error(request, refusal_text(error, money=_money(cage), **how))


def _book(
    request: HttpRequest, cage: Cage, book: Callable[[], str], done: str, **how: Any
) -> HttpResponse | None:
    """Book the form once (staff.common.once) and go to the page ``book`` names, saying
    ``done``; on a refusal say why (``how``: what ran short) and return None."""
    try:
        url, fresh = book_once(request, book)
    except ApplicationError as error:
        _refuse(request, cage, error, **how)
        return None
    if fresh:
        messages.success(request, done)
    else:
        messages.info(request, _("This form was already sent; it was booked once."))
    return redirect(url, permanent=False)


@cashier_only
@require_GET
def cage_home(request: HttpRequest) -> HttpResponse:
    """The cashier's home: his shift, the queue, awards to pay and the player search."""
    cage = _cage(request)
    context = _context(request, cage)
    shift = context["shift"]
    return render(
        request,
        "staff/cage/home.html",
        {
            **context,
            "report": shift_report(shift=shift) if shift else None,
            "slips": selectors.slips_waiting(cage=cage),
            "payables": selectors.payables_open(currency=cage.currency)[:20],
        },
    )


@cashier_only
def shift_open(request: HttpRequest) -> HttpResponse:
    """Open the cashier's shift with a float counted by denomination (CA1)."""
    cage = _cage(request)
    context = _context(request, cage)
    if context["shift"] is not None and request.method == "GET":
        return redirect("staff:cage-home")
    form = CountForm(request.POST or None, currency=cage.currency)
    if request.method == "POST" and form.is_valid():
        cashier = staff(request)

        def book() -> str:
            shift = services.shift_open(
                cage=cage,
                cashier=cashier,
                cash_cents=form.cash_cents,
                chips_cents=form.chips_cents,
            )
            _count_record(shift, form, ShiftCount.Moment.OPEN, cashier)
            return reverse("staff:cage-home")

        money = _money(cage)
        done = _("Shift opened with %(cash)s in cash and %(chips)s in chips.") % {
            "cash": money(form.cash_cents),
            "chips": money(form.chips_cents),
        }
        if answer := _book(request, cage, book, done):
            return answer
    return render(
        request, "staff/cage/count.html", {**context, "form": form, "moment": "open"}
    )


def _count_record(
    shift: Shift,
    form: CountForm,
    moment: str,
    by: Any,
    over_short: tuple[int, int] = (0, 0),
) -> ShiftCount:
    return ShiftCount.objects.create(
        shift=shift,
        moment=moment,
        notes=form.counts("note"),
        chips=form.counts("chip"),
        coins_cents=form.coins_cents,
        cash_cents=form.cash_cents,
        chips_cents=form.chips_cents,
        over_short_cash_cents=over_short[0],
        over_short_chips_cents=over_short[1],
        note=(form.cleaned_data.get("note") or "").strip(),
        counted_by=by,
        counted_at=shift.closed_at or shift.opened_at,
    )


@cashier_only
def shift_close(request: HttpRequest) -> HttpResponse:
    """Close the shift with a count by denomination; an over/short needs a note
    (CA1)."""
    cage = _cage(request)
    shift = selectors.shift_current(cage=cage, cashier=request.user)
    # A second post of the close (a double click) finds the shift closed: it is
    # answered from the form's key, not refused.
    if shift is None and request.method == "GET":
        messages.error(request, _("CA1: open your shift with a counted float first."))
        return redirect("staff:cage-home")
    form = CountForm(request.POST or None, currency=cage.currency)
    if request.method == "POST" and form.is_valid():
        cashier = staff(request)
        note = (form.cleaned_data.get("note") or "").strip()
        money = _money(cage)

        def book() -> str:
            if shift is None:
                raise Refusal(
                    "no_open_shift",
                    _("CA1: open your shift with a counted float first."),
                    rule="CA1",
                )
            closed = services.shift_close(
                shift=shift,
                cashier=cashier,
                cash_cents=form.cash_cents,
                chips_cents=form.chips_cents,
            )
            over_short = (
                closed.over_short_cash_cents or 0,
                closed.over_short_chips_cents or 0,
            )
            if any(over_short) and not note:
                raise Refusal(
                    "note_required",
                    _(
                        "CA1: the count is %(cash)s off in cash and %(chips)s in "
                        "chips; say why in the note before closing."
                    )
                    % {"cash": money(over_short[0]), "chips": money(over_short[1])},
                    rule="CA1",
                )
            _count_record(closed, form, ShiftCount.Moment.CLOSE, cashier, over_short)
            return reverse("staff:shift-closed", args=[closed.pk])

        if answer := _book(request, cage, book, _("Shift closed.")):
            return answer
    if shift is None:
        return redirect("staff:cage-home")
    return render(
        request,
        "staff/cage/count.html",
        {
            **_context(request, cage),
            "form": form,
            "moment": "close",
            "report": shift_report(shift=shift),
        },
    )


@cashier_only
@require_POST
def count_totals(request: HttpRequest) -> HttpResponse:
    """The running totals of a count being typed, line by line and each side's,
    written by the one money formatter (core.money), swapped into the form's
    outputs (CA1)."""
    cage = _cage(request)
    form = CountForm(request.POST, currency=cage.currency)
    return render(
        request, "staff/cage/_count_totals.html", _count_totals(form, cage.currency)
    )


def _count_totals(form: CountForm, currency: str) -> dict[str, Any]:
    lines, sums = form.line_totals()
    return {"currency": currency, "lines": lines, "sums": sums}


@cashier_only
@require_POST
def shift_close_preview(request: HttpRequest) -> HttpResponse:
    """The over/short of the count being typed, against the drawer's ledger (CA1),
    with the count's running totals."""
    cage = _cage(request)
    shift = selectors.shift_current(cage=cage, cashier=request.user)
    if shift is None:
        return HttpResponse(status=204)
    form = CountForm(request.POST, currency=cage.currency)
    report = shift_report(shift=shift)
    valid = form.is_valid()
    cash = form.cash_cents if valid else None
    chips = form.chips_cents if valid else None
    return render(
        request,
        "staff/cage/_over_short.html",
        {
            **_count_totals(form, cage.currency),
            "currency": cage.currency,
            "counted_cash": cash,
            "counted_chips": chips,
            "over_short_cash": None if cash is None else cash - report.cash.expected,
            "over_short_chips": None
            if chips is None
            else chips - report.chips.expected,
        },
    )


@cashier_only
@require_GET
def shift_closed(request: HttpRequest, shift_id: int) -> HttpResponse:
    """The closed shift's counts, over/short and note, and its drawer line by line:
    every receipt and slip on a named line, tournaments' too (CA1)."""
    cage = _cage(request)
    shift = get_object_or_404(Shift, pk=shift_id, cashier=request.user)
    count = ShiftCount.objects.filter(
        shift=shift, moment=ShiftCount.Moment.CLOSE
    ).first()
    return render(
        request,
        "staff/cage/closed.html",
        {
            **_context(request, cage),
            "closed": shift,
            "count": count,
            "report": shift_report(shift=shift),
        },
    )


@cashier_only
@require_GET
def player_search(request: HttpRequest) -> HttpResponse:
    """Find a player by name, id or card, marked with what refuses him at every
    door (PP2–PP4); the results only when htmx asks."""
    cage = _cage(request)
    query = request.GET.get("q", "")
    players = list(players_find(query))
    if len(players) == 1 and request.GET.get("go"):
        return redirect("staff:player", code=players[0].code)
    partial = bool(getattr(request, "htmx", False))  # django_htmx's middleware
    template = "staff/cage/_players.html" if partial else "staff/cage/players.html"
    flags = players_flags(players)
    found = [(p, [str(f) for f in flags[p.pk]]) for p in players]
    return render(
        request,
        template,
        {**_context(request, cage), "query": query, "players": found},
    )


def _player(code: str) -> Player:
    return get_object_or_404(Player, code=code)


@cashier_only
@require_GET
def player_detail(request: HttpRequest, code: str) -> HttpResponse:
    """A player's chips held, tonight's buy-ins and cash-outs, CA5 standing; at a
    glance his age on the gaming day (PP2), his restrictions (PP3, PP4) and his
    valid identity document, never its number (PP1, PP7); sell and redeem forms."""
    cage = _cage(request)
    return _player_page(request, cage, _player(code))


def _player_page(
    request: HttpRequest,
    cage: Cage,
    player: Player,
    sell: AmountForm | None = None,
    redeem: AmountForm | None = None,
    identity: DocumentForm | None = None,
) -> HttpResponse:
    tonight = selectors.player_tonight(player=player, cage=cage)
    return render(
        request,
        "staff/cage/player.html",
        {
            **_context(request, cage),
            "player": player,
            "chips": selectors.chips_held(player=player, currency=cage.currency),
            "tonight": tonight,
            "receipts": selectors.receipts_of(
                player=player, gaming_day=tonight.gaming_day
            ),
            "payables": selectors.payables_open(currency=cage.currency).filter(
                player=player
            ),
            "glance": player_glance(player),
            "numbers": has_role(request.user, Role.MANAGER),
            "identity": identity or DocumentForm(),
            "sell": sell or AmountForm(currency=cage.currency, prefix="sell"),
            "redeem": redeem or AmountForm(currency=cage.currency, prefix="redeem"),
        },
    )


def _exchange(request: HttpRequest, code: str, *, selling: bool) -> HttpResponse:
    cage = _cage(request)
    player = _player(code)
    prefix = "sell" if selling else "redeem"
    form = AmountForm(request.POST, currency=cage.currency, prefix=prefix)

    def _again() -> HttpResponse:
        if selling:
            return _player_page(request, cage, player, sell=form)
        return _player_page(request, cage, player, redeem=form)

    if not form.is_valid():
        return _again()
    amount = form.cleaned_data["amount"]
    cashier = staff(request)
    service = services.chip_purchase if selling else services.chip_redemption

    def book() -> str:
        receipt = service(
            cage=cage.code, cashier=cashier, player=player.code, amount_cents=amount
        )
        return reverse("staff:receipt", args=[receipt.no])

    how: dict[str, Any] = {"short_of": "drawer_chips", "who": player.name}
    if not selling:
        held = selectors.chips_held(player=player, currency=cage.currency)
        if amount > held:
            how.update(short_of="player_chips", held=held)
        else:
            how.update(short_of="drawer_cash")
    money = _money(cage)
    done = (
        _("Sold %(amount)s in chips to %(who)s.")
        if selling
        else _("Cashed %(amount)s of chips for %(who)s.")
    ) % {"amount": money(amount), "who": player.name}
    answer = _book(request, cage, book, done, **how)
    return answer or _again()


@cashier_only
@require_POST
def chips_sell(request: HttpRequest, code: str) -> HttpResponse:
    """Sell chips for cash to the player (CA2, CA5)."""
    return _exchange(request, code, selling=True)


@cashier_only
@require_POST
def chips_redeem(request: HttpRequest, code: str) -> HttpResponse:
    """Cash the player's chips (CA2, CA5)."""
    return _exchange(request, code, selling=False)


@cashier_only
@require_POST
def player_identify(request: HttpRequest, code: str) -> HttpResponse:
    """Record the identity document the cashier checked, with its expiry (PP1,
    CA5), once for the form's key (staff.common.once): a double post records one check.
    An expired one is refused (PP1)."""
    cage = _cage(request)
    player = _player(code)
    form = DocumentForm(request.POST)
    if not form.is_valid():
        return _player_page(request, cage, player, identity=form)
    data, cashier = form.cleaned_data, staff(request)

    def book() -> str:
        protection.document_record(
            player=player,
            kind=data["document_type"],
            number=data["document_number"],
            expires=data["expires"],
            by=cashier,
        )
        return reverse("staff:player", args=[player.code])

    done = _("Identity document recorded for %(who)s.") % {"who": player.name}
    answer = _book(request, cage, book, done)
    return answer or _player_page(request, cage, player, identity=form)


@cashier_only
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    """The fills and credits waiting at the cage, polled by the home page (CA3)."""
    cage = _cage(request)
    return render(
        request,
        "staff/cage/_queue.html",
        {
            **_context(request, cage),
            "slips": selectors.slips_waiting(cage=cage),
            "now": timezone.now(),
        },
    )


@cashier_only
@require_POST
def slip_issue(request: HttpRequest, slip_id: int) -> HttpResponse:
    """Issue a waiting fill or credit from the cashier's drawer (CA3)."""
    cage = _cage(request)
    slip = get_object_or_404(TableSlip, pk=slip_id, cage=cage)
    cashier = staff(request)

    def book() -> str:
        services.slip_issue(slip=slip, cashier=cashier)
        return reverse("staff:cage-home")

    fill = slip.kind == TableSlip.Kind.FILL
    money = _money(cage)
    done = (
        _("Fill of %(amount)s issued to table %(table)s.")
        if fill
        else _("Credit of %(amount)s taken from table %(table)s.")
    ) % {"amount": money(slip.amount_cents), "table": slip.table}
    short_of = "drawer_chips" if fill else "table_tray"
    answer = _book(request, cage, book, done, short_of=short_of)
    return answer or redirect("staff:cage-home")


@cashier_only
@require_GET
def awards(request: HttpRequest) -> HttpResponse:
    """Approved awards and payables waiting to be paid (CA6)."""
    cage = _cage(request)
    return render(
        request,
        "staff/cage/awards.html",
        {
            **_context(request, cage),
            "payables": selectors.payables_open(currency=cage.currency),
        },
    )


@cashier_only
def award_pay(request: HttpRequest, payable_id: int) -> HttpResponse:
    """Pay an approved award in cash, against the player's signature (CA6)."""
    cage = _cage(request)
    payable = get_object_or_404(
        Payable.objects.select_related(
            "player", "approved_by", "jackpot_award__pool", "jackpot_award__hand__table"
        ),
        pk=payable_id,
    )
    form = AwardPayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        cashier = staff(request)

        def book() -> str:
            receipt = services.payable_pay(
                payable=payable,
                cage=cage.code,
                cashier=cashier,
                player=payable.player.code,
                player_signed=form.cleaned_data["signed"],
            )
            return reverse("staff:receipt", args=[receipt.no])

        money = _money(cage)
        done = _("Award %(ref)s paid: %(amount)s to %(who)s.") % {
            "ref": selectors.payable_name(payable),
            "amount": money(payable.amount_cents),
            "who": payable.player.name,
        }
        who = payable.player.name
        if answer := _book(request, cage, book, done, short_of="drawer_cash", who=who):
            return answer
    return render(
        request,
        "staff/cage/award.html",
        {
            **_context(request, cage),
            "payable": payable,
            "form": form,
            "tonight": selectors.player_tonight(player=payable.player, cage=cage),
        },
    )


@cashier_only
@require_GET
def receipt(request: HttpRequest, no: str) -> HttpResponse:
    """A receipt on the cage's 80 mm printer, in the room's language (CA2, CA6)."""
    cage = _cage(request)
    try:
        found = receipt_get(no=no)
    except ApplicationError as error:
        raise Http404(error.detail) from error
    room = room_facts()
    context = _context(request, cage)
    with translation.override(room.receipt_language):
        slip = render(
            request,
            "staff/cage/_receipt.html",
            {"receipt": found, "room": room, "currency": found.cage.currency},
        ).content.decode()
    return render(
        request, "staff/cage/receipt.html", {**context, "slip": slip, "receipt": found}
    )
