"""Stored reports in the admin: listed for auditors and managers, read-only, with
their files to download. Nothing here makes, changes or deletes a report."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounting.admin import ReadOnlyAdmin
from core.roles import Role
from reports.models import Report
from reports.render import FORMATS
from reports.render.files import file_response


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    readers = (Role.MANAGER, Role.AUDITOR)
    list_display = [
        "kind",
        "period_start",
        "period_end",
        "version",
        "generated_at",
        "generated_by",
        "source",
        "checks",
        "files",
    ]
    list_filter = ["kind", "source"]
    date_hierarchy = "period_end"
    exclude = ["data"]
    readonly_fields = ["checks", "files"]

    def get_queryset(self, request: HttpRequest):
        return (
            super().get_queryset(request).select_related("generated_by").defer("data")
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: object = None
    ) -> list[str]:
        return [f.name for f in self.model._meta.fields if f.name != "data"] + list(
            self.readonly_fields
        )

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:report_id>/file/<str:fmt>/",
                self.admin_site.admin_view(self.file_view),
                name="reports_report_file",
            ),
            *super().get_urls(),
        ]

    def file_view(self, request: HttpRequest, report_id: int, fmt: str) -> HttpResponse:
        """The report as a CSV, XLSX or PDF download."""
        report = get_object_or_404(
            Report.objects.select_related("generated_by"), pk=report_id
        )
        if not self.has_view_permission(request, report):
            raise PermissionDenied
        if fmt not in FORMATS:
            raise Http404
        return file_response(report, fmt)

    @admin.display(description=_("checks agree"))
    def checks(self, report: Report) -> str:
        if not report.checks_total:
            return "—"
        agree = report.checks_total - report.checks_failed
        return f"{agree}/{report.checks_total}"

    @admin.display(description=_("files"))
    def files(self, report: Report) -> SafeString:
        return format_html_join(
            " · ",
            '<a href="{}">{}</a>',
            (
                (
                    reverse("admin:reports_report_file", args=[report.pk, fmt]),
                    fmt.upper(),
                )
                for fmt in FORMATS
            ),
        )
