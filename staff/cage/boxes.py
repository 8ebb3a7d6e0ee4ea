"""The cage's box counts: each table's drop, rake and jackpot box counted at the end
of the gaming day, against the ledger, the variance per table (CA4).

The count is blind: the page shows what was recorded only once a box is counted,
so the count team counts what is in the box, not what the books expect. Each box
is counted once a day (the service refuses a second count, 409 CA4); the form is
booked once however often it is sent (staff.common.once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounting.domain import accounts
from accounting.models import Account, BoxCount
from accounting.selectors import box_counts_of_day
from accounting.services import cage as services
from cardroom.models import Room
from core.api.permissions import staff
from core.errors import Invalid
from staff.cage._shared import booked, cage_of, page_context, refuse
from staff.cage.forms import BoxCountForm
from staff.common.money import money_in
from staff.common.roles import cashier_only

BOXES = {
    BoxCount.Box.DROP: accounts.table_drop_box_code,
    BoxCount.Box.RAKE: accounts.table_rake_box_code,
    BoxCount.Box.JACKPOT: accounts.table_jackpot_box_code,
}


@dataclass(frozen=True, slots=True)
class BoxRow:
    """One box of one table: counted (with the ledger's figure and the variance)
    or still to count (with its form)."""

    table: str
    box: BoxCount.Box
    count: BoxCount | None
    form: BoxCountForm | None


def _days(room: Room | None) -> tuple[date, date]:
    """The gaming day counted by default (the last one that ended) and the latest
    that can be counted (today's, BI8)."""
    now = timezone.now()
    today = room.gaming_day(now) if room else timezone.localdate(now)
    return today - timedelta(days=1), today


def _day_of(text: str | None, default: date, latest: date) -> date:
    try:
        day = date.fromisoformat(text) if text else default
    except ValueError:
        return default
    return min(day, latest)


def _tables_with_boxes() -> list[str]:
    """Every table that has a box in the ledger: ``table:T01:drop_box`` …"""
    codes = Account.objects.filter(
        code__regex=r"^table:[^:]+:(drop|rake|jackpot)_box$"
    ).values_list("code", flat=True)
    return sorted({code.split(":")[1] for code in codes})


def _rows(day: date, currency: str) -> list[BoxRow]:
    counted = {(c.table, c.box): c for c in box_counts_of_day(gaming_day=day)}
    tables = sorted(set(_tables_with_boxes()) | {t for t, _b in counted})
    rows = []
    for table in tables:
        for box in BOXES:
            count = counted.get((table, box))
            form = None
            if count is None:
                form = BoxCountForm(currency=currency, prefix=f"{table}-{box}")
            rows.append(BoxRow(table, BoxCount.Box(box), count, form))
    return rows


@cashier_only
@require_GET
def boxes(request: HttpRequest) -> HttpResponse:
    """The boxes of a gaming day: those counted with their variance, the others
    with a form to enter the count (CA4)."""
    cage = cage_of(request)
    room = Room.objects.order_by("pk").first()
    default, latest = _days(room)
    day = _day_of(request.GET.get("day"), default, latest)
    rows = _rows(day, cage.currency)
    counted = [r.count for r in rows if r.count is not None]
    return render(
        request,
        "staff/cage/boxes.html",
        page_context(
            request,
            cage,
            day=day,
            latest=latest,
            rows=rows,
            left=sum(1 for r in rows if r.count is None),
            variance=sum(c.variance_cents for c in counted),
        ),
    )


@cashier_only
@require_POST
def box_count(request: HttpRequest) -> HttpResponse:
    """Record one box's count for the day, booked once (CA4)."""
    cage = cage_of(request)
    room = Room.objects.order_by("pk").first()
    default, latest = _days(room)
    day = _day_of(request.POST.get("day"), default, latest)
    table, box = request.POST.get("table", ""), request.POST.get("box", "")
    back = f"{reverse('staff:boxes')}?{urlencode({'day': day.isoformat()})}"
    if box not in BOXES or table not in _tables_with_boxes():
        refuse(request, cage, Invalid("invalid", _("CA4: choose a box on the list.")))
        return redirect(back)
    form = BoxCountForm(request.POST, currency=cage.currency, prefix=f"{table}-{box}")
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(str(e) for e in errors))
        return redirect(back)
    counted = form.cleaned_data["amount"]
    cashier = staff(request)

    def book() -> str:
        services.box_count_record(
            cage=cage.code,
            cashier=cashier,
            table=table,
            box=BoxCount.Box(box),
            gaming_day=day,
            counted_cents=counted,
        )
        return back

    done = capfirst(
        _("%(box)s of %(table)s counted: %(amount)s.")
        % {
            "box": BoxCount.Box(box).label,
            "table": table,
            "amount": money_in(cage.currency)(counted),
        }
    )
    return booked(request, cage, book, done) or redirect(back)
