"""The cashier's shift at the cage (CA1, CA3): his home with the queue of fills
and credits, the shift opened and closed with a count by denomination and its
over/short while counting, the closed shift's drawer line by line, and the
floor's fills and credits issued from his drawer.

Server-rendered, with htmx for the live parts (the queue, the over/short while
counting). Every action calls the cage's services in ``accounting.services.cage``; every
form that moves money books once by its own key (:mod:`staff.common.once`).
Refusals are told in the room's words (:mod:`staff.common.refusals`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.models import Shift, TableSlip
from accounting.selectors import shift_report
from accounting.services import cage as services
from core.api.permissions import staff
from core.errors import Refusal
from staff.cage import selectors
from staff.cage._shared import booked, cage_of, page_context
from staff.cage.forms import CountForm
from staff.common.money import money_in
from staff.common.roles import cashier_only
from staff.models import ShiftCount


@cashier_only
@require_GET
def cage_home(request: HttpRequest) -> HttpResponse:
    """The cashier's home: his shift, the queue, awards to pay and the player search."""
    cage = cage_of(request)
    context = page_context(request, cage)
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
    cage = cage_of(request)
    context = page_context(request, cage)
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

        money = money_in(cage.currency)
        done = _("Shift opened with %(cash)s in cash and %(chips)s in chips.") % {
            "cash": money(form.cash_cents),
            "chips": money(form.chips_cents),
        }
        if answer := booked(request, cage, book, done):
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
    cage = cage_of(request)
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
        money = money_in(cage.currency)

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

        if answer := booked(request, cage, book, _("Shift closed.")):
            return answer
    if shift is None:
        return redirect("staff:cage-home")
    return render(
        request,
        "staff/cage/count.html",
        {
            **page_context(request, cage),
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
    cage = cage_of(request)
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
    cage = cage_of(request)
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
    cage = cage_of(request)
    shift = get_object_or_404(Shift, pk=shift_id, cashier=request.user)
    count = ShiftCount.objects.filter(
        shift=shift, moment=ShiftCount.Moment.CLOSE
    ).first()
    return render(
        request,
        "staff/cage/closed.html",
        {
            **page_context(request, cage),
            "closed": shift,
            "count": count,
            "report": shift_report(shift=shift),
        },
    )


@cashier_only
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    """The fills and credits waiting at the cage, polled by the home page (CA3)."""
    cage = cage_of(request)
    return render(
        request,
        "staff/cage/_queue.html",
        {
            **page_context(request, cage),
            "slips": selectors.slips_waiting(cage=cage),
            "now": timezone.now(),
        },
    )


@cashier_only
@require_POST
def slip_issue(request: HttpRequest, slip_id: int) -> HttpResponse:
    """Issue a waiting fill or credit from the cashier's drawer (CA3)."""
    cage = cage_of(request)
    slip = get_object_or_404(TableSlip, pk=slip_id, cage=cage)
    cashier = staff(request)

    def book() -> str:
        services.slip_issue(slip=slip, cashier=cashier)
        return reverse("staff:cage-home")

    fill = slip.kind == TableSlip.Kind.FILL
    money = money_in(cage.currency)
    done = (
        _("Fill of %(amount)s issued to table %(table)s.")
        if fill
        else _("Credit of %(amount)s taken from table %(table)s.")
    ) % {"amount": money(slip.amount_cents), "table": slip.table}
    short_of = "drawer_chips" if fill else "table_tray"
    answer = booked(request, cage, book, done, short_of=short_of)
    return answer or redirect("staff:cage-home")
