"""Reports through the API: who may read them, stored once, new versions, files."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pypdfium2
import pytest
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.test import Client
from openpyxl import load_workbook

from accounting.models import Account, CashTransaction, Receipt
from cardroom.models import HandSeat
from core.roles import Role
from jackpots.models import Hit, Pool
from jackpots.selectors import month_standings
from reports.document import rows_of
from reports.models import Report

from .conftest import DAY

pytestmark = pytest.mark.django_db


def make(client, **body):
    return client.post(
        "/api/v1/reports/",
        {"kind": "daily_audit", "first": DAY.isoformat(), **body},
        format="json",
    )


def test_only_auditors_and_managers_read_reports(
    played_day, auditor, staff_client, api
):
    """Auditor and manager read; cashier, floor, a terminal and nobody can't."""
    assert make(auditor).status_code == 201
    report = Report.objects.get()
    for role in (Role.CASHIER, Role.FLOOR):
        client = staff_client(role, username=f"someone-{role}")
        assert client.get("/api/v1/reports/").status_code == 403
        assert client.get(f"/api/v1/reports/{report.pk}/pdf").status_code == 403
        assert make(client).status_code == 403
    assert played_day.terminals["A1"].get("/api/v1/reports/").status_code in (401, 403)
    assert api.get(f"/api/v1/reports/{report.pk}").status_code == 401
    listed = auditor.get("/api/v1/reports/?kind=daily_audit&day=" + DAY.isoformat())
    assert listed.status_code == 200
    [row] = listed.json()["results"]
    assert (row["kind"], row["period_start"], row["version"]) == (
        "daily_audit",
        DAY.isoformat(),
        1,
    )
    assert row["generated_by"] == "audrey" and row["source"] == "api"
    assert row["files"]["pdf"] == f"/api/v1/reports/{report.pk}/pdf"
    assert auditor.get("/api/v1/reports/?kind=jackpot").json()["results"] == []


def test_a_period_is_stored_once_and_a_manager_may_add_versions(
    played_day, auditor, manager
):
    """Asking again stores nothing and says so; a new version needs a manager and a
    reason; the first version stays as it was, and the database refuses edits."""
    first = make(auditor)
    assert first.status_code == 201 and first.json()["created"] is True
    again = make(auditor)
    assert again.status_code == 200 and again.json()["created"] is False
    assert "stored already" in again.json()["detail"]
    assert again.json()["report"]["id"] == first.json()["report"]["id"]
    assert Report.objects.count() == 1

    refused = make(auditor, new_version=True, reason="recount")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "manager_required"
    no_reason = make(manager, new_version=True)
    assert no_reason.status_code == 400
    assert no_reason.json()["error"]["code"] == "reason_required"
    second = make(manager, new_version=True, reason="A1 drop box recounted")
    assert second.status_code == 201 and second.json()["report"]["version"] == 2
    assert Report.objects.count() == 2
    v1 = Report.objects.get(version=1)
    assert v1.digest == first.json()["report"]["digest"]
    assert Report.objects.get(version=2).reason == "A1 drop box recounted"
    with pytest.raises(DatabaseError), transaction.atomic():
        Report.objects.filter(pk=v1.pk).update(digest="0" * 64)
    with pytest.raises(DatabaseError), transaction.atomic():
        Report.objects.filter(pk=v1.pk).delete()


def test_an_unfinished_gaming_day_is_refused(played_day, auditor):
    """BI8: the day's report waits for its cut-off (the clock is at 07:00 of the
    next gaming day)."""
    answer = make(auditor, first=(DAY + timedelta(days=1)).isoformat())
    assert answer.status_code == 422
    assert answer.json()["error"]["rule"] == "BI8"
    assert answer.json()["error"]["code"] == "period_not_over"
    assert not Report.objects.exists()


def test_the_report_downloads_as_csv_xlsx_and_a_pdf_that_renders(
    played_day, auditor, tmp_path
):
    """CSV with cents, XLSX with a sheet per section, and a PDF whose first page
    holds the day's totals, its second the chart, both renders that are not
    blank."""
    report_id = make(auditor).json()["report"]["id"]
    data = Report.objects.get().data

    answer = auditor.get(f"/api/v1/reports/{report_id}/csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(answer.content.decode())))
    start = lines.index(["section", "tables_hands", "Tables: hands, rake and drop"])
    header = lines[start + 1]
    assert "rake (cents)" in header
    rows = {line[0]: line for line in lines[start + 2 : start + 4]}
    expected = {r["table"]: r for r in rows_of(data, "tables_hands")}
    assert int(rows["A1"][header.index("rake (cents)")]) == expected["A1"]["rake"]

    answer = auditor.get(f"/api/v1/reports/{report_id}/xlsx")
    assert answer.status_code == 200
    book = load_workbook(io.BytesIO(answer.content))
    assert "Trial balance" in book.sheetnames
    sheet = book["Tables hands rake and drop"]
    titles = [c.value for c in sheet[1]]
    a1 = next(r for r in sheet.iter_rows(min_row=2, values_only=True) if r[0] == "A1")
    assert a1[titles.index("rake")] * 100 == expected["A1"]["rake"]

    answer = auditor.get(f"/api/v1/reports/{report_id}/pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF")
    pdf = pypdfium2.PdfDocument(answer.content)
    assert len(pdf) >= 2
    text = pdf[0].get_textpage().get_text_range()
    assert "Daily audit" in text and DAY.isoformat() in text
    rake = sum(r["rake"] for r in rows_of(data, "tables_hands"))
    assert "Totals" in text and f"rake €{rake // 100:,}.{rake % 100:02d}" in text
    assert "Europe/Helsinki" in text
    for n in (0, 1):
        image = pdf[n].render(scale=1.5).to_pil().convert("RGB")
        image.save(tmp_path / f"page{n + 1}.png")
        width, height = image.size
        grey = image.convert("L").histogram()
        assert sum(grey[:200]) > 0.01 * width * height, f"page {n + 1} is blank"
    # The chart's bars are in colour; text and rules are black and grey.
    hue = image.convert("HSV").split()[1].histogram()  # saturation
    assert sum(hue[100:]) > 0.002 * width * height, "no chart on the second page"

    wrong = auditor.get(f"/api/v1/reports/{report_id}/doc")
    assert wrong.status_code == 404
    assert wrong.json()["error"]["code"] == "unknown_format"


def test_the_jackpot_report_and_player_activity(played_day, auditor):
    """Pools and their drops, the award with its approver; players' buy-ins,
    cash-outs, hands and time, with the CA5 flag."""
    made = auditor.post(
        "/api/v1/reports/",
        {"kind": "jackpot", "first": DAY.isoformat(), "last": DAY.isoformat()},
        format="json",
    )
    assert made.status_code == 201, made.content
    data = auditor.get(f"/api/v1/reports/{made.json()['report']['id']}").json()["data"]
    assert all(c["agrees"] for c in rows_of(data, "checks"))
    funds = {r["account"]: r for r in rows_of(data, "jackpot_funds")}
    for code, row in funds.items():
        assert row["closing"] == Account.objects.get(code=code).balance_cents
    days = {(r["gaming_day"], r["account"]): r for r in rows_of(data, "contributions")}
    pool = Pool.objects.get(code="bad-beat").account.code
    assert days[(DAY.isoformat(), pool)]["drops"] == funds[pool]["drops"]
    hit = Hit.objects.get(pk=played_day.facts["hit"])
    awards = [
        r
        for r in rows_of(data, "hits_awards")
        if r["what"].startswith(f"bad beat #{hit.pk} ")
    ]
    assert {(r["verified_by"], r["approved_by"], r["status"]) for r in awards} == {
        ("floor", "manager", "approved")
    }
    assert sorted((r["role"], r["player"], r["amount"]) for r in awards) == sorted(
        (a.role, a.player.code, a.amount_cents) for a in hit.awards.all()
    )
    assert (
        sum(r["amount"] for r in awards)
        == hit.payout_cents
        == played_day.facts["award"]
    )
    assert all(r["paid"].startswith("paid ") for r in awards)
    [chart] = data["charts"]
    assert chart["key"] == "pools_over_time" and chart["x"] == [DAY.isoformat()]
    assert {s["name"]: s["values"][-1] for s in chart["series"]} == {
        code: row["closing"] for code, row in funds.items()
    }
    standings = rows_of(data, "hm_standings")
    month_pool = Pool.objects.get(kind=Pool.Kind.HAND_OF_THE_MONTH)
    expected = month_standings(pool=month_pool, month=DAY.replace(day=1))
    assert standings and [(r["place"], r["player"], r["hand"]) for r in standings] == [
        (n, e.player.code, e.description) for n, e in enumerate(expected, start=1)
    ]
    assert standings[0]["hand"] == "four of a kind, tens"

    made = auditor.post(
        "/api/v1/reports/",
        {"kind": "player_activity", "first": DAY.isoformat()},
        format="json",
    )
    assert made.status_code == 201, made.content
    data = auditor.get(f"/api/v1/reports/{made.json()['report']['id']}").json()["data"]
    players = {r["player"]: r for r in rows_of(data, "players")}
    for code, row in players.items():
        cash = sum(
            t.amount_cents for t in CashTransaction.objects.filter(player__code=code)
        )
        assert row["cash_total"] == cash, code
        assert row["ca5"] == (cash >= 200_000), code
        assert (
            row["hands"]
            == HandSeat.objects.filter(player__code=code, hand__status="booked").count()
        )
    assert players["P-1"]["minutes_seated"] == 8 * 60  # 19:00 to 03:00
    assert (
        players["P-1"]["cashed_out"]
        == Receipt.objects.get(kind="chip_redemption").amount_cents
    )
    assert players["P-9"]["buy_ins_chips"] == 40_000
    assert players["P-20"]["hands"] == 0 and players["P-20"]["chips_bought"] == 100_000
    hit = Hit.objects.get(pk=played_day.facts["hit"])
    for award in hit.awards.select_related("player"):
        assert players[award.player.code]["award_payouts"] == award.amount_cents
    assert (
        sum(r["award_payouts"] for r in players.values()) == played_day.facts["award"]
    )
    review = {r["player"]: r for r in rows_of(data, "ca5_review")}
    assert "P-12" in review and "P-20" not in review
    assert review["P-12"]["flag"] == "review"


def test_the_admin_lists_reports_for_auditors_with_their_files(
    played_day, auditor, make_staff
):
    """An auditor sees the list and downloads the PDF; a cashier sees nothing."""
    make(auditor)
    report = Report.objects.get()
    reader = Client()
    reader.force_login(make_staff("ada", Role.AUDITOR))
    page = reader.get("/admin/reports/report/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/admin/reports/report/{report.pk}/file/pdf/" in html
    assert f"{report.checks_total}/{report.checks_total}" in html
    detail = reader.get(f"/admin/reports/report/{report.pk}/change/")
    assert detail.status_code == 200 and report.digest in detail.content.decode()
    pdf = reader.get(f"/admin/reports/report/{report.pk}/file/pdf/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    desk = Client()
    desk.force_login(make_staff("desk", Role.CASHIER))
    assert desk.get("/admin/reports/report/").status_code == 403
    assert desk.get(f"/admin/reports/report/{report.pk}/file/pdf/").status_code == 403


def test_the_command_stores_a_report_once_and_writes_its_file(played_day, tmp_path):
    """`manage.py report` computes, stores and writes the PDF; run again, it says the
    report is stored and changes nothing."""
    out, target = io.StringIO(), tmp_path / "audit.pdf"
    call_command(
        "report",
        "daily_audit",
        "--day",
        DAY.isoformat(),
        "--output",
        str(target),
        "--no-progress",
        stdout=out,
    )
    assert "Stored the daily audit" in out.getvalue()
    assert target.read_bytes().startswith(b"%PDF")
    again = io.StringIO()
    call_command(
        "report",
        "player_activity",
        "--from",
        DAY.isoformat(),
        "--to",
        DAY.isoformat(),
        "--no-progress",
        stdout=again,
    )
    call_command(
        "report", "daily_audit", "--day", DAY.isoformat(), "--no-progress", stdout=again
    )
    assert "stored already" in again.getvalue()
    assert Report.objects.count() == 2


def test_a_period_that_ends_before_it_starts_is_refused_for_what_it_is(
    played_day, auditor
):
    """Two dates the schema allows, in the wrong order: refused with 422 and the
    first day the period may end, not as malformed (400 before)."""
    answer = make(auditor, last=(DAY - timedelta(days=1)).isoformat())
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["code"], error["rule"]) == ("invalid_period", None)
    assert error["allowed"] == {"last_from": DAY.isoformat()}
    assert not Report.objects.exists()


@pytest.mark.parametrize("kind", Report.Kind.values)
def test_a_report_of_the_first_day_a_date_holds_is_made(played_day, auditor, kind):
    """1 January of year 1 is a date the schema allows: its report is made (it
    holds nothing), not a 500 (the daily audit looked for the day before)."""
    answer = make(auditor, kind=kind, first="0001-01-01")
    assert answer.status_code == 201, answer.content
    assert answer.json()["report"]["period_start"] == "0001-01-01"
