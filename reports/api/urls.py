"""The reports' endpoints, included under ``/api/v1/reports/``."""

from django.urls import include, path

from reports.api import digests, views

reports_patterns = [
    path("", views.ReportListApi.as_view(), name="reports"),
    path("digests/<str:day>", digests.DigestApi.as_view(), name="digest"),
    path("digests/<str:day>/file", digests.DigestFileApi.as_view(), name="digest-file"),
    path(
        "proofs/hands/<str:table>/<int:hand_no>",
        digests.HandProofApi.as_view(),
        name="proof-hand",
    ),
    path(
        "proofs/receipts/<str:number>",
        digests.ReceiptProofApi.as_view(),
        name="proof-receipt",
    ),
    path(
        "proofs/awards/<int:award_id>",
        digests.AwardProofApi.as_view(),
        name="proof-award",
    ),
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
