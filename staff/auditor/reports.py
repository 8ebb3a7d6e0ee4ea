"""The auditor's reports (BI8): every stored report, "produce" for a finished gaming day
or month, a preview of a report's totals, and its files (BI8); today's gaming day,
still open, shown as it stands and marked provisional, stored nothing.

Each action calls ``reports.services.report_generate``, which stores a period's
report once: asking again answers with the stored one (a manager may store a new
version, with a reason). The form carries its own key (:mod:`staff.common.once`)
so a double submit produces once; unlike a money form, the key is claimed in a
transaction of its own (:func:`staff.common.once.claim_once`) and the report
computed after it, in the read-only snapshot the service opens (a report read
inside another transaction would see hands booked while it is computed).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cardroom.services import room_default
from core.api.permissions import staff
from core.errors import ApplicationError
from core.roles import Role, has_role
from reports.document import rows_of, title_for_reader
from reports.models import Report
from reports.render import FORMATS
from reports.render.files import file_response
from reports.services import month_bounds, report_generate, report_provisional
from reports.totals import failed_checks, totals
from staff.common.once import Claimed, claim_once
from staff.common.roles import auditor_only
from staff.common.selectors import room_facts

HOME = "staff:auditor-home"
MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def last_ended_day(now: datetime) -> date:
    """The last gaming day whose cut-off has passed: the latest one a report can
    be made of (BI8)."""
    return room_default().gaming_day(now) - timedelta(days=1)


def open_day(now: datetime) -> date:
    """Today's gaming day, still open: its reports are provisional (BI8)."""
    return room_default().gaming_day(now)


def last_ended_month(now: datetime) -> date:
    """The first day of the last calendar month whose every gaming day has ended."""
    day = last_ended_day(now)
    if month_bounds(day)[1] == day:
        return day.replace(day=1)
    return (day.replace(day=1) - timedelta(days=1)).replace(day=1)


def _context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    room = room_default()
    now = timezone.now()
    return {
        "room": room_facts(),
        "currency": room.currency,
        "zone": room.time_zone,
        "last_day": last_ended_day(now),
        "open_day": open_day(now),
        "last_month": last_ended_month(now),
        "kinds": Report.Kind.choices,
        "manager": has_role(request.user, Role.MANAGER),
        **extra,
    }


@auditor_only
@require_GET
def auditor_home(request: HttpRequest) -> HttpResponse:
    """The auditor's home: every stored report, newest period first, and the
    forms that produce one for a finished day or month."""
    reports = Report.objects.select_related("generated_by").defer("data")[:200]
    return render(
        request,
        "staff/auditor/home.html",
        _context(request, reports=reports, formats=list(FORMATS)),
    )


class PeriodUnreadable(ValueError):
    """The form's day or month can't be read; the message says what to type."""


def _period(post: Any) -> tuple[date, date]:
    """The form's period: a gaming day (``day``) or a calendar month (``month``).

    Raises :class:`PeriodUnreadable`."""
    if post.get("month"):
        found = MONTH.match(post["month"].strip())
        if not found or not 1 <= int(found[2]) <= 12:
            raise PeriodUnreadable(_("Choose a month, as 2026-11."))
        return month_bounds(date(int(found[1]), int(found[2]), 1))
    try:
        day = date.fromisoformat((post.get("day") or "").strip())
    except ValueError as error:
        raise PeriodUnreadable(_("Choose a gaming day, as 2026-11-30.")) from error
    return day, day


def _refused(request: HttpRequest, error: ApplicationError) -> None:
    text = error.detail
    if error.code == "period_not_over":
        last = last_ended_day(timezone.now())
        text = " ".join(
            [
                text,
                _(
                    "Today's gaming day is still open and the future hasn't "
                    "happened: the latest day that can be produced is %(day)s."
                )
                % {"day": last.isoformat()},
            ]
        )
    rule = f"{error.rule}: " if error.rule else ""
    messages.error(request, f"{rule}{text}")


def _replayed(request: HttpRequest, claimed: Claimed) -> HttpResponse:
    """The answer to a form sent again: the first one's page, producing nothing."""
    url = claimed.replayed(request)
    if url is None:
        messages.info(
            request,
            _(
                "This form was already sent; its report is being produced and shows "
                "in the list when it is done."
            ),
        )
        return redirect(HOME)
    messages.info(request, _("This form was already sent; it was produced once."))
    return redirect(url)


@auditor_only
@require_POST
def report_produce(request: HttpRequest) -> HttpResponse:
    """Produce (or find stored) the report of a finished gaming day or month.

    Today's open gaming day is shown provisionally, stored nothing
    (:func:`report_open`); the future is refused in words, with the latest day
    that can be produced (BI8); a period stored already answers with the
    stored report, or a new version when a manager asks with a reason.
    """
    try:
        first, last = _period(request.POST)
    except PeriodUnreadable as error:
        messages.error(request, str(error))
        return redirect(HOME)
    if not request.POST.get("month") and first == open_day(timezone.now()):
        # Today's open gaming day is shown as it stands, stored nothing (BI8).
        query = urlencode({"kind": request.POST.get("kind", ""), "day": first})
        return redirect(f"{reverse('staff:report-open')}?{query}")
    try:
        claimed = claim_once(request)
        if claimed.record_id is None:
            return _replayed(request, claimed)
    except ApplicationError as error:
        _refused(request, error)
        return redirect(HOME)
    try:
        outcome = report_generate(
            kind=request.POST.get("kind", ""),
            first=first,
            last=last,
            source="screen",
            by=staff(request),
            new_version=bool(request.POST.get("new_version")),
            reason=request.POST.get("reason", ""),
        )
    except ApplicationError as error:
        # Let the auditor correct the form and send it again.
        claimed.release()
        _refused(request, error)
        return redirect(HOME)
    url = reverse("staff:report-preview", args=[outcome.report.pk])
    claimed.answer(url)
    (messages.success if outcome.created else messages.info)(request, outcome.detail)
    return redirect(url)


@auditor_only
@require_GET
def report_preview(request: HttpRequest, report_id: int) -> HttpResponse:
    """A stored report's totals and the checks that disagree, before downloading."""
    report = get_object_or_404(
        Report.objects.select_related("generated_by"), pk=report_id
    )
    sections = [
        {"title": title_for_reader(s), "rows": len(s["rows"])}
        for s in report.data["sections"]
    ]
    try:
        digests = rows_of(report.data, "ledger_digest")  # reports.builders.digest
    except KeyError:
        digests = None  # not a daily audit, or one stored before days were sealed
    return render(
        request,
        "staff/auditor/preview.html",
        _context(
            request,
            report=report,
            digests=digests,
            totals=totals(report.data),
            failed=failed_checks(report.data),
            sections=sections,
            formats=list(FORMATS),
            report_currency=report.data.get("currency"),
        ),
    )


def _provisional(request: HttpRequest) -> Report:
    """The report the query asks of today's open gaming day, computed now and
    not stored (BI8). Raises :class:`core.errors.ApplicationError`,
    :class:`PeriodUnreadable`."""
    day = _period({"day": request.GET.get("day", "")})[0]
    return report_provisional(
        kind=request.GET.get("kind", ""), day=day, by=staff(request)
    )


@auditor_only
@require_GET
def report_open(request: HttpRequest) -> HttpResponse:
    """A report of today's gaming day as it stands: its totals and checks, said to
    be provisional (the day is open; its figures move with every hand), stored
    nothing (BI8). A day that has ended is produced and stored instead."""
    try:
        report = _provisional(request)
    except PeriodUnreadable as error:
        messages.error(request, str(error))
        return redirect(HOME)
    except ApplicationError as error:
        _refused(request, error)
        return redirect(HOME)
    sections = [
        {"title": title_for_reader(s), "rows": len(s["rows"])}
        for s in report.data["sections"]
    ]
    return render(
        request,
        "staff/auditor/preview.html",
        _context(
            request,
            report=report,
            provisional=True,
            query=request.GET.urlencode(),
            totals=totals(report.data),
            failed=failed_checks(report.data),
            sections=sections,
            formats=list(FORMATS),
            report_currency=report.data.get("currency"),
        ),
    )


@auditor_only
@require_GET
def report_open_download(request: HttpRequest, fmt: str) -> HttpResponse:
    """A report of today's open gaming day as a file, provisional in its title
    and its head (BI8)."""
    if fmt not in FORMATS:
        raise Http404(
            _("Reports are files of these formats: %(f)s.") % {"f": ", ".join(FORMATS)}
        )
    try:
        report = _provisional(request)
    except PeriodUnreadable as error:
        messages.error(request, str(error))
        return redirect(HOME)
    except ApplicationError as error:
        _refused(request, error)
        return redirect(HOME)
    return file_response(report, fmt)


@auditor_only
@require_GET
def report_download(request: HttpRequest, report_id: int, fmt: str) -> HttpResponse:
    """A stored report as a PDF, XLSX or CSV file."""
    if fmt not in FORMATS:
        raise Http404(
            _("Reports are files of these formats: %(f)s.") % {"f": ", ".join(FORMATS)}
        )
    report = get_object_or_404(
        Report.objects.select_related("generated_by"), pk=report_id
    )
    return file_response(report, fmt)


__all__ = [
    "auditor_home",
    "report_download",
    "report_open",
    "report_open_download",
    "report_preview",
    "report_produce",
]
