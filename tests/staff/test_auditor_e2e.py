"""An auditor produces a past gaming day's report and downloads it, in a real
browser, in English, Finnish and Korean (the room's language is the report's).
The screenshots of each step go to docs/screens/auditor-*.png."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pypdfium2
import pytest

from accounting.models import Cage
from accounting.services import cage as cage_services
from cardroom.models import Room
from core.roles import Role
from reports.models import Report
from tests.conftest import PASSWORD
from tests.e2e.conftest import browser_page

__all__ = ["browser_page"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.room_evening,
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
HELSINKI = ZoneInfo("Europe/Helsinki")

# (language, browser locale, a past gaming day, what the page and the PDF say)
RUNS = [
    ("en", "en-GB", "2026-11-28", "Stored the daily audit", "Totals", "-€30.00"),
    ("fi", "fi-FI", "2026-11-27", "Tallennettu", "Yhteensä", "\u221230,00\xa0€"),
    ("ko", "ko-KR", "2026-11-26", "저장했습니다", "합계", "-€30.00"),
]


def shot(page, name: str) -> None:
    page.screenshot(path=str(SCREENS / f"auditor-{name}.png"), full_page=True)


def shifts_short(room_clock, make_staff) -> None:
    """On each evening of the runs a cashier's shift closes €30 short."""
    evening = datetime(2026, 11, 25, 18, 0, tzinfo=HELSINKI)
    room_clock.move_to(evening)
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=2_000_000, chips_cents=2_000_000, by=make_staff("vault")
    )
    for n, (*_, day, _stored, _totals, _short) in enumerate(RUNS):
        kalle = make_staff(f"kalle-{n}", Role.CASHIER)
        room_clock.move_to(datetime.combine(date.fromisoformat(day), evening.timetz()))
        shift = cage_services.shift_open(
            cage=cage, cashier=kalle, cash_cents=500_000, chips_cents=500_000
        )
        cage_services.shift_close(
            shift=shift, cashier=kalle, cash_cents=497_000, chips_cents=500_000
        )
    room_clock.move_to(datetime(2026, 11, 29, 21, 0, tzinfo=HELSINKI))


def test_an_auditor_produces_and_downloads_a_past_day(
    live_server, browser_page, make_staff, room_clock, tmp_path
):
    """Sign in, land on the reports, produce a finished day (clicked twice: one
    report) whose shift closed €30 short, read its totals in the page, download
    the PDF, whose first page is the totals in the room's language, and (in
    English) the XLSX."""
    page, expect = browser_page
    url = live_server.url
    room = Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
    )
    shifts_short(room_clock, make_staff)
    browser = page.context.browser
    for language, locale, day, stored, totals, short in RUNS:
        Room.objects.filter(pk=room.pk).update(language=language)
        make_staff(f"audrey-{language}", Role.AUDITOR)
        context = browser.new_context(
            locale=locale,
            viewport={"width": 1280, "height": 800},
            accept_downloads=True,
        )
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        tab.goto(f"{url}/login")
        tab.fill('input[name="username"]', f"audrey-{language}")
        tab.fill('input[name="password"]', PASSWORD)
        tab.click('button[type="submit"]')
        tab.wait_for_url(f"{url}/auditor/")
        tab.fill('#produce-day input[name="day"]', day)
        shot(tab, f"{language}-1-reports")

        tab.dblclick("#produce-day button[type=submit]")
        tab.wait_for_url(f"{url}/auditor/reports/*")
        expect(tab.locator(".messages")).to_contain_text(stored)
        expect(tab.locator("#totals")).to_contain_text(short)
        shot(tab, f"{language}-2-preview")

        with tab.expect_download() as pdf:
            tab.locator("#download a", has_text="PDF").click()
        path = tmp_path / f"{language}.pdf"
        pdf.value.save_as(path)
        document = pypdfium2.PdfDocument(path.read_bytes())
        first = document[0]
        assert totals in first.get_textpage().get_text_range()
        image = first.render(scale=1.2).to_pil()
        image.save(SCREENS / f"auditor-{language}-3-pdf-first-page.png")
        document.close()
        if language == "en":
            with tab.expect_download() as xlsx:
                tab.locator("#download a", has_text="XLSX").click()
            assert xlsx.value.suggested_filename == f"daily_audit-{day}-v1.xlsx"

        tab.goto(f"{url}/auditor/")
        expect(tab.locator("#reports")).to_contain_text(day)
        shot(tab, f"{language}-4-list")
        context.close()
    assert Report.objects.count() == 3
    assert sorted(Report.objects.values_list("data__language", flat=True)) == [
        "en",
        "fi",
        "ko",
    ]
