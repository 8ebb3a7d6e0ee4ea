"""Writes of the reports: compute a period's report once and store it.

A report is stored once per kind and period: asking again returns the stored one
and says so, replacing nothing. A manager may ask for a new version, with a reason;
the earlier versions stay as they were (the table is append-only).
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounting.services import snapshot_at
from cardroom.models import Room
from cardroom.services import room_default
from core.errors import SharedCode
from core.roles import Role, has_role
from reports.builders import BUILDERS, guards
from reports.builders.digest import digest_section
from reports.document import digest, rows_of
from reports.errors import Code, forbidden, invalid, refuse, unprocessable
from reports.models import Report
from reports.selectors import Period
from reports.services.digests import digests_seal


@dataclass(frozen=True, slots=True)
class Outcome:
    """The stored report, whether this call created it, and what happened."""

    report: Report
    created: bool
    detail: str


def month_bounds(month: date) -> tuple[date, date]:
    """Return the first and last day of ``month``'s calendar month."""
    first = month.replace(day=1)
    return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])


@contextmanager
def report_snapshot() -> Iterator[None]:
    """Read every figure from one snapshot of the database.

    Hands booked while the report is computed must not show in one query and not
    in the next (a balance and the entries after it, say): a read-only REPEATABLE
    READ transaction. Inside a caller's transaction the caller's view is used.
    """
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _stored(kind: str, first: date, last: date) -> Report | None:
    return (
        Report.objects.filter(kind=kind, period_start=first, period_end=last)
        .order_by("-version")
        .first()
    )


def _already(report: Report) -> str:
    return _(
        "The %(kind)s of %(period)s is stored already (version %(v)d, generated "
        "%(at)s); nothing was replaced. A manager may ask for a new version."
    ) % {
        "kind": report.get_kind_display(),
        "period": report.period_label,
        "v": report.version,
        "at": timezone.localtime(report.generated_at, room_default().tz).isoformat(
            timespec="seconds"
        ),
    }


def _check(
    *,
    kind: str,
    first: date,
    last: date | None,
    by: User | None,
    new_version: bool,
    reason: str,
) -> date:
    """Refuse what can't be asked for (see :func:`report_generate`); return the
    period's last day."""
    if kind not in BUILDERS:
        raise invalid(Code.UNKNOWN_REPORT, allowed={"kinds": sorted(BUILDERS)}, k=kind)
    last = last or first
    if last < first:
        raise unprocessable(
            Code.INVALID_PERIOD, allowed={"last_from": first.isoformat()}
        )
    if new_version:
        if by is None or not has_role(by, Role.MANAGER):
            raise forbidden(Code.MANAGER_REQUIRED)
        if not reason.strip():
            raise invalid(SharedCode.REASON_REQUIRED)
    return last


def _check_over(period: Period, *, kind: str, now: datetime) -> None:
    """Refuse a period whose last gaming day hasn't ended (BI8)."""
    if period.end > now:
        raise refuse(
            Code.PERIOD_NOT_OVER,
            rule="BI8",
            day=period.last.isoformat(),
            end=period.end.astimezone(period.room.tz).isoformat(timespec="minutes"),
            kind=Report.Kind(kind).label,
        )


def report_generate(
    *,
    kind: str,
    first: date,
    last: date | None = None,
    source: str,
    by: User | None = None,
    new_version: bool = False,
    reason: str = "",
    now: datetime | None = None,
    progress: Callable[[str], None] | None = None,
    full: bool = False,
) -> Outcome:
    """Compute and store the ``kind`` report of gaming days ``first``…``last``.

    When the period's report is stored already, return it with ``created`` false
    and store nothing, unless ``new_version``: then a manager (``by``) stores the
    next version, saying why (``reason``). ``full`` makes a daily audit add up
    every entry ever posted (:func:`reports.builders.daily_audit`).

    Raises :class:`core.errors.Invalid` (``unknown_report``, ``reason_required``)
    for an unknown kind or a new version without a reason (the API's schema says
    both); :class:`core.errors.Unprocessable` (``invalid_period``) for a period
    that ends before it starts; :class:`core.errors.Forbidden` (``manager_required``)
    for a new version asked by anyone but a manager; :class:`core.errors.Refusal`
    (BI8, ``period_not_over``) for a period whose last gaming day hasn't ended.
    """
    last = _check(
        kind=kind, first=first, last=last, by=by, new_version=new_version, reason=reason
    )
    now = now or timezone.now()
    room = room_default()
    period = Period.of(room, first, last)
    _check_over(period, kind=kind, now=now)
    stored = _stored(kind, first, last)
    if stored is not None and not new_version:
        return Outcome(stored, False, _already(stored))

    if kind == Report.Kind.DAILY_AUDIT:
        # The days it covers are sealed first: their digests are printed on it.
        digests_seal(through=period.last, now=now)
    started = time.perf_counter()
    data = _build(kind, period, now=now, progress=progress, full=full)
    elapsed = int((time.perf_counter() - started) * 1000)
    try:
        report = _store(
            kind,
            period,
            data,
            version=(stored.version + 1) if stored else 1,
            reason=reason.strip() if new_version else "",
            now=now,
            by=by,
            source=source,
            elapsed=elapsed,
        )
    except IntegrityError:
        # Another run stored this period (or this version) a moment before us.
        stored = _stored(kind, first, last)
        if stored is None:
            raise
        return Outcome(stored, False, _already(stored))
    return Outcome(
        report,
        True,
        _("Stored the %(kind)s of %(period)s, version %(v)d.")
        % {
            "kind": report.get_kind_display(),
            "period": report.period_label,
            "v": report.version,
        },
    )


def report_provisional(
    *,
    kind: str,
    day: date,
    by: User | None = None,
    now: datetime | None = None,
) -> Report:
    """The ``kind`` report of today's gaming day ``day``, still open, as it stands
    at ``now``: computed and not stored (BI8).

    A gaming day's report is stored once it has ended; until then its figures move
    with every hand, so the auditor of a new room may look at them, marked
    provisional in the report's title, its data (``"provisional": true``) and every
    file of it. The returned :class:`Report` has no primary key and version 0.

    Raises :class:`core.errors.Invalid` (``unknown_report``) for an unknown kind;
    :class:`core.errors.Refusal` (BI8) ``period_not_over`` for a day after today's
    and ``period_ended`` for a day that has ended (it is produced and stored).
    """
    _check(kind=kind, first=day, last=day, by=by, new_version=False, reason="")
    now = now or timezone.now()
    room = room_default()
    today = room.gaming_day(now)
    period = Period.of(room, day, day)
    if day > today:
        _check_over(period, kind=kind, now=now)
    if day < today:
        raise refuse(
            Code.PERIOD_ENDED,
            rule="BI8",
            day=day.isoformat(),
            kind=Report.Kind(kind).label,
        )
    data = _build(kind, period, now=now, progress=None, full=False)
    with translation.override(data["language"]):
        data["title"] = _(
            "%(title)s (provisional: gaming day %(day)s is still open, figures as "
            "of %(at)s)"
        ) % {
            "title": data["title"],
            "day": day.isoformat(),
            "at": timezone.localtime(now, room.tz).isoformat(timespec="minutes"),
        }
    data["provisional"] = True
    return Report(
        kind=kind,
        period_start=day,
        period_end=day,
        version=0,
        data=data,
        digest=digest(data),
        generated_at=now,
        generated_by=by,
        source="screen",
        duration_ms=0,
    )


def report_language(room: Room) -> str:
    """The language a report is written in: the room's, whoever asks for it, so
    a period's stored report reads the same from the schedule and from a person."""
    return room.language or settings.LANGUAGE_CODE


def _build(
    kind: str,
    period: Period,
    *,
    now: datetime,
    progress: Callable[[str], None] | None,
    full: bool,
) -> dict[str, Any]:
    """Compute the report's document from one snapshot, in the room's language;
    a daily audit of days that have ended prints their signed digests."""
    shown: dict[str, Any] = {"progress": progress} if progress is not None else {}
    sealed = kind == Report.Kind.DAILY_AUDIT and period.end <= now
    if full and kind == Report.Kind.DAILY_AUDIT:
        shown["full"] = True
    elif kind == Report.Kind.DAILY_AUDIT:
        # Written before the read-only snapshot the report is built in: the
        # balances stored at the period's opening (the audit starts from them)
        # and at its end (the next day's opening).
        shown["snapshot"] = snapshot_at(period.start)
        if period.end <= now:
            # Not for a day still open: a snapshot is of a moment past.
            snapshot_at(period.end)
    language = report_language(period.room)
    with report_snapshot(), translation.override(language):
        data = BUILDERS[kind](period=period, now=now, **shown)
        if sealed:
            data["sections"].append(digest_section(period).as_json())
    data["language"] = language
    return data


def _store(
    kind: str,
    period: Period,
    data: dict[str, Any],
    *,
    version: int,
    reason: str,
    now: datetime,
    by: User | None,
    source: str,
    elapsed: int,
) -> Report:
    try:
        checks = rows_of(data, "checks")
    except KeyError:
        checks = []
    guards_total, guards_failed = guards.failed(data)
    with transaction.atomic():
        return Report.objects.create(
            kind=kind,
            period_start=period.first,
            period_end=period.last,
            version=version,
            reason=reason,
            data=data,
            digest=digest(data),
            checks_total=len(checks) + guards_total,
            checks_failed=sum(1 for check in checks if not check["agrees"])
            + guards_failed,
            generated_at=now,
            generated_by=by,
            source=source,
            duration_ms=elapsed,
        )


def reports_of_last_gaming_day(*, now: datetime | None = None) -> list[Outcome]:
    """Store the daily audit and player activity of the gaming day that ended last.

    What the schedule runs every hour; a run after the first stores nothing.
    """
    now = now or timezone.now()
    day = room_default().gaming_day(now) - timedelta(days=1)
    return [
        report_generate(kind=kind, first=day, source="schedule", now=now)
        for kind in (Report.Kind.DAILY_AUDIT, Report.Kind.PLAYER_ACTIVITY)
    ]


def jackpot_report_of_last_month(*, now: datetime | None = None) -> Outcome:
    """Store the jackpot report of the last calendar month of gaming days."""
    now = now or timezone.now()
    today = room_default().gaming_day(now)
    first, last = month_bounds(today.replace(day=1) - timedelta(days=1))
    return report_generate(
        kind=Report.Kind.JACKPOT, first=first, last=last, source="schedule", now=now
    )
