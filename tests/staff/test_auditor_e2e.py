"""An auditor produces a past gaming day's report and downloads it, in a real
browser, in English, Finnish and Korean (the room's language is the report's).
The screenshots of each step go to docs/screens/auditor-*.png."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from cardroom.models import Room
from core.roles import Role
from reports.models import Report
from tests.conftest import PASSWORD
from tests.e2e.conftest import browser_page

__all__ = ["browser_page"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"

# (language, browser locale, a past gaming day, what the page and the PDF say)
RUNS = [
    ("en", "en-GB", "2026-11-28", "Stored the daily audit", "Totals", "Hands dealt"),
    ("fi", "fi-FI", "2026-11-27", "Tallennettiin", "Yhteensä", "Jaetut jaot"),
    ("ko", "ko-KR", "2026-11-26", "저장했습니다", "합계", "딜한 핸드"),
]


def shot(page, name: str) -> None:
    page.screenshot(path=str(SCREENS / f"auditor-{name}.png"), full_page=True)


def test_an_auditor_produces_and_downloads_a_past_day(
    live_server, browser_page, make_staff, tmp_path
):
    """Sign in, land on the reports, produce a finished day (clicked twice: one
    report), read its totals in the page, download the PDF, whose first page is
    the totals in the room's language, and (in English) the XLSX."""
    page, expect = browser_page
    url = live_server.url
    room = Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
    )
    browser = page.context.browser
    for language, locale, day, stored, totals, dealt in RUNS:
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
        expect(tab.locator("#totals")).to_contain_text(dealt)
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
