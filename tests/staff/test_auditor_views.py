"""The auditor's screens through the test client: the list, producing a past day
and a month, today's and the future refused, a double submit producing once, the
preview and the files (BI8).

Every test starts at 21:00 on gaming day 2026-11-29 (tests/conftest.py): the last
gaming day that has ended is the 28th, the last whole month October.
"""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from core.roles import Role
from reports.models import Report
from reports.render import FORMATS

pytestmark = pytest.mark.django_db

DONE_DAY, TODAY = "2026-11-28", "2026-11-29"


@pytest.fixture
def audrey(make_staff) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_staff("audrey", Role.AUDITOR))
    return client


def produce(client: Client, key: str = "k1", **fields: str):
    body = {"kind": "daily_audit", "once": key, **fields}
    if "month" not in body and "day" not in body:
        body["day"] = DONE_DAY
    return client.post("/auditor/produce", body)


def said(answer) -> list[str]:
    return [str(m) for m in get_messages(answer.wsgi_request)]


def test_an_auditor_lands_on_the_reports_and_the_list_starts_empty(audrey):
    home = audrey.get("/home")
    assert home.status_code == 302 and home["Location"] == "/auditor/"
    page = audrey.get("/auditor/").content.decode()
    assert "No report is stored yet" in page
    assert f'max="{DONE_DAY}"' in page and 'max="2026-10"' in page
    assert "Europe/Helsinki" in page


def test_producing_a_past_day_stores_it_and_lists_it_with_its_files(audrey):
    answer = produce(audrey)
    report = Report.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/auditor/reports/{report.pk}"
    assert (report.kind, str(report.period_start), report.version) == (
        "daily_audit",
        DONE_DAY,
        1,
    )
    assert (report.source, report.generated_by.username) == ("screen", "audrey")
    assert any("Stored the daily audit of 2026-11-28" in m for m in said(answer))
    page = audrey.get("/auditor/").content.decode()
    assert DONE_DAY in page and "audrey" in page
    for fmt in FORMATS:
        assert f"/auditor/reports/{report.pk}/{fmt}" in page


def test_producing_a_month_stores_its_calendar_month(audrey):
    produce(audrey, kind="jackpot", month="2026-10")
    report = Report.objects.get()
    assert (report.kind, str(report.period_start), str(report.period_end)) == (
        "jackpot",
        "2026-10-01",
        "2026-10-31",
    )


@pytest.mark.parametrize(
    "fields",
    [{"day": TODAY}, {"day": "2026-12-05"}, {"month": "2026-11"}],
    ids=["today", "future", "this-month"],
)
def test_today_and_the_future_are_refused_in_words(audrey, fields):
    answer = produce(audrey, **fields)
    assert answer.status_code == 302 and answer["Location"] == "/auditor/"
    [message] = said(answer)
    assert message.startswith("BI8: Gaming day")
    assert "the latest day that can be produced is 2026-11-28" in message
    assert not Report.objects.exists()
    # The refused form may be corrected and sent again with its key.
    assert produce(audrey, day=DONE_DAY).status_code == 302
    assert Report.objects.count() == 1


def test_an_unreadable_day_is_said_and_nothing_produced(audrey):
    [message] = said(produce(audrey, day="yesterday"))
    assert "as 2026-11-30" in message
    assert "as 2026-11." in said(produce(audrey, key="k2", month="2026-13"))[-1]
    assert not Report.objects.exists()


def test_a_double_submit_produces_once_and_a_new_form_answers_with_the_stored(
    audrey, make_staff
):
    first = produce(audrey)
    again = produce(audrey)
    assert again["Location"] == first["Location"]
    assert said(again)[-1] == "This form was already sent; it was produced once."
    other = produce(audrey, key="k2")
    assert other["Location"] == first["Location"]
    assert any("stored already" in m for m in said(other))
    assert Report.objects.count() == 1

    # A manager's new version is one version, however often the form is sent.
    mia = Client(HTTP_ACCEPT_LANGUAGE="en")
    mia.force_login(make_staff("mia", Role.MANAGER))
    fields = {"new_version": "1", "reason": "A1 drop box recounted"}
    produce(mia, key="m1", **fields)
    produce(mia, key="m1", **fields)
    assert sorted(Report.objects.values_list("version", flat=True)) == [1, 2]
    assert said(produce(audrey, key="k3", **fields))[-1] == (
        "Only a manager may ask for a new version of a stored report."
    )


def test_the_preview_shows_the_totals_and_the_checks(audrey):
    produce(audrey)
    report = Report.objects.get()
    page = audrey.get(f"/auditor/reports/{report.pk}").content.decode()
    assert "Totals" in page and "Hands dealt" in page and "Rake" in page
    assert "€0.00" in page
    assert "Every reconciliation check agrees." in page
    assert "Trial balance" in page
    assert "Generated 2026-11-29 21:" in page and "(Europe/Helsinki)" in page


def test_the_files_download_with_their_types(audrey):
    produce(audrey)
    report = Report.objects.get()
    for fmt, content_type in FORMATS.items():
        answer = audrey.get(f"/auditor/reports/{report.pk}/{fmt}")
        assert answer.status_code == 200
        assert answer["Content-Type"] == content_type
        assert answer["Content-Disposition"] == (
            f'attachment; filename="daily_audit-{DONE_DAY}-v1.{fmt}"'
        )
    assert audrey.get(f"/auditor/reports/{report.pk}/doc").status_code == 404
    assert audrey.get("/auditor/reports/999999/pdf").status_code == 404


def test_a_finnish_auditor_reads_the_refusal_in_finnish(make_staff):
    aino = Client(HTTP_ACCEPT_LANGUAGE="fi")
    aino.force_login(make_staff("aino", Role.AUDITOR))
    [message] = said(produce(aino, day=TODAY))
    assert message.startswith("BI8: Pelipäivä 2026-11-29 päättyy")
    assert "viimeisin päivä, jonka raportin voi tehdä, on 2026-11-28" in message
