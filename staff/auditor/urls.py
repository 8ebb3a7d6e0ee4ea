"""The auditor's screens, under ``/auditor/`` (BI8)."""

from django.urls import path

from staff.auditor import reports

urlpatterns = [
    path("auditor/", reports.auditor_home, name="auditor-home"),
    path("auditor/produce", reports.report_produce, name="report-produce"),
    path("auditor/today", reports.report_open, name="report-open"),
    path(
        "auditor/today/<str:fmt>",
        reports.report_open_download,
        name="report-open-download",
    ),
    path(
        "auditor/reports/<int:report_id>",
        reports.report_preview,
        name="report-preview",
    ),
    path(
        "auditor/reports/<int:report_id>/<str:fmt>",
        reports.report_download,
        name="report-download",
    ),
]
