"""A stored report as a file to download, for the API, the admin and the screens."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from reports.models import Report
from reports.render import FORMATS, language_of, render, room_time_text


def meta_of(report: Report) -> dict[str, str]:
    """The identity printed at the head of every file of ``report``, in the
    report's language, "generated" on the room's clock."""
    by = report.generated_by.get_username() if report.generated_by else report.source
    with translation.override(language_of(report.data)):
        meta = {
            "report": f"#{report.pk} {report.get_kind_display()} {report.period_label}"
            if report.pk
            else f"{report.get_kind_display()} {report.period_label}",
            # A report of a day still open is not stored (BI8).
            "version": str(report.version) if report.pk else _("provisional"),
            "generated": _("%(at)s by %(who)s")
            % {"at": room_time_text(report.data, report.generated_at), "who": by},
            "digest": f"sha256 {report.digest}",
        }
    if report.reason:
        meta["reason"] = report.reason
    return meta


def file_name(report: Report, fmt: str) -> str:
    version = f"v{report.version}" if report.pk else "provisional"
    return f"{report.kind}-{report.period_label}-{version}.{fmt}"


def file_response(report: Report, fmt: str) -> HttpResponse:
    """Answer ``report`` as a file download in ``fmt`` (csv, xlsx, pdf).

    Raises :class:`KeyError` for another format."""
    content = render(report.data, fmt, meta=meta_of(report))
    response = HttpResponse(content, content_type=FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="{file_name(report, fmt)}"'
    return response
