"""The auditor's screens, under ``/auditor/`` (BI8)."""

from django.urls import path

from staff.auditor import proofs, reports

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
    path("auditor/proof", proofs.ledger_proof, name="ledger-proof"),
    path(
        "auditor/proof.json",
        proofs.ledger_proof_download,
        name="ledger-proof-download",
    ),
    path(
        "auditor/digests/<str:day>.json",
        proofs.digest_download,
        name="digest-download",
    ),
]
