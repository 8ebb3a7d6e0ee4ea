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

from cardroom.services import room_default
from core.roles import Role
from reports.document import rows_of
from reports.models import Report
from reports.render import FORMATS

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]

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
    assert f'value="{DONE_DAY}"' in page and f'max="{TODAY}"' in page
    assert 'max="2026-10"' in page
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
    [{"day": "2026-11-30"}, {"day": "2026-12-05"}, {"month": "2026-11"}],
    ids=["tomorrow", "future", "this-month"],
)
def test_the_future_and_this_month_are_refused_in_words(audrey, fields):
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
    [message] = said(produce(aino, day="2026-11-30"))
    assert message.startswith("BI8: Pelipäivä 2026-11-30 päättyy")
    assert "viimeisin päivä, jonka raportin voi tehdä, on 2026-11-28" in message


def test_today_open_is_shown_provisional_in_the_page_and_files_and_stores_nothing(
    audrey,
):
    """A new room's auditor sees today's figures as they stand, said provisional
    everywhere, and nothing is stored: the day's report is made when it ends (BI8).
    """
    answer = produce(audrey, day=TODAY)
    assert answer.status_code == 302
    assert answer["Location"] == f"/auditor/today?kind=daily_audit&day={TODAY}"
    page = audrey.get(answer["Location"]).content.decode()
    assert 'id="provisional"' in page
    assert f"Gaming day {TODAY} is still open: these figures are provisional" in page
    assert "Trial balance" in page and "Hands dealt" in page
    assert f"/auditor/today/pdf?kind=daily_audit&amp;day={TODAY}" in page
    csv = audrey.get(f"/auditor/today/csv?kind=daily_audit&day={TODAY}")
    assert csv.status_code == 200
    assert csv["Content-Disposition"] == (
        f'attachment; filename="daily_audit-{TODAY}-provisional.csv"'
    )
    head = csv.content.decode()
    assert f"provisional: gaming day {TODAY} is still open" in head
    pdf = audrey.get(f"/auditor/today/pdf?kind=jackpot&day={TODAY}")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert not Report.objects.exists()
    # Only today's day is provisional: an ended day is produced and stored.
    ended = audrey.get(f"/auditor/today?kind=daily_audit&day={DONE_DAY}")
    assert ended["Location"] == "/auditor/"
    assert said(ended)[-1].startswith(f"BI8: Gaming day {DONE_DAY} has ended")
    assert not Report.objects.exists()


def test_the_audit_reports_a_missing_guard_schema_as_a_finding(audrey, monkeypatch):
    """A database set up with one role has no guard schema: the audit says the
    schema's history is not kept, it doesn't fail."""
    from core.db import guards

    monkeypatch.setattr(guards, "SCHEMA", "cardroom_guard_never_installed")
    monkeypatch.setattr(guards, "LOG", "cardroom_guard_never_installed.schema_change")
    answer = produce(audrey)
    report = Report.objects.get()
    assert answer["Location"] == f"/auditor/reports/{report.pk}"
    rows = {r["item"]: r for r in rows_of(report.data, "database_guards")}
    assert rows["schema_changes"]["found"] == "not kept"
    assert rows["schema_changes"]["agrees"] is False
    assert report.checks_failed >= 1


def test_a_finnish_rooms_report_is_previewed_in_the_auditors_language(
    audrey, make_staff
):
    """The stored document is in the room's language; the preview names its
    sections in the reader's (the sections keep their English msgid)."""
    room = room_default()
    room.language = "fi"
    room.save()
    produce(audrey)
    report = Report.objects.get()
    boxes = next(s for s in report.data["sections"] if s["key"] == "box_counts")
    assert boxes["msgid"] == "Drop, rake and jackpot box counts (CA4)"
    assert boxes["title"] != boxes["msgid"]  # stored in Finnish
    page = audrey.get(f"/auditor/reports/{report.pk}").content.decode()
    assert f"<td>{boxes['msgid']}</td>" in page
    assert f"<td>{boxes['title']}</td>" not in page
    aino = Client(HTTP_ACCEPT_LANGUAGE="fi")
    aino.force_login(make_staff("aino", Role.AUDITOR))
    finnish = aino.get(f"/auditor/reports/{report.pk}").content.decode()
    assert f"<td>{boxes['title']}</td>" in finnish
