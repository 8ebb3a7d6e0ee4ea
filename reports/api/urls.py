"""The reports' endpoints, included under ``/api/v1/reports/``."""

from django.urls import include, path

from reports.api import views

reports_patterns = [
    path("", views.ReportListApi.as_view(), name="reports"),
    path("<int:report_id>", views.ReportDetailApi.as_view(), name="report"),
    path(
        "<int:report_id>/<str:fmt>",
        views.ReportFileApi.as_view(),
        name="report-file",
    ),
    path(
        "tournaments/<slug:event>/<str:fmt>",
        views.TournamentReportApi.as_view(),
        name="report-tournament-file",
    ),
]

urlpatterns = [path("reports/", include(reports_patterns))]
