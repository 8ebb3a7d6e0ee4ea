"""The day's signed digest in a browser (docs/digest.md): an auditor produces a
played night's audit, reads its digest on the preview, proves a hand, and the
audit's PDF prints the digest and the signature on its first page. Screenshots
in docs/screens/auditor-en-5…7 (looked at)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from cardroom.models import Hand
from core.roles import Role
from reports.models import DayDigest
from tests.conftest import PASSWORD
from tests.e2e.conftest import browser_page
from tests.integration.reports.conftest import (
    DAY,
    build,
    clock,
    floor,
    manager,
    open_table,
    played_day,
    players,
    stock_tray,
)

__all__ = [
    "browser_page",
    "build",
    "clock",
    "floor",
    "manager",
    "open_table",
    "played_day",
    "players",
    "stock_tray",
]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"


def test_an_auditor_reads_the_digest_proves_a_hand_and_prints_the_signature(
    played_day, live_server, browser_page, make_staff, tmp_path
):
    page, expect = browser_page
    url = live_server.url
    make_staff("audrey-digest", Role.AUDITOR)
    context = page.context.browser.new_context(
        locale="en-GB", viewport={"width": 1280, "height": 800}, accept_downloads=True
    )
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.goto(f"{url}/login")
    tab.fill('input[name="username"]', "audrey-digest")
    tab.fill('input[name="password"]', PASSWORD)
    tab.click('button[type="submit"]')
    tab.wait_for_url(f"{url}/auditor/")
    tab.fill('#produce-day input[name="day"]', str(DAY))
    tab.click("#produce-day button[type=submit]")
    tab.wait_for_url(f"{url}/auditor/reports/*")
    sealed = DayDigest.objects.get(gaming_day=DAY)
    expect(tab.locator("#ledger-digest")).to_contain_text(f"{DAY}:{sealed.hash}")
    tab.locator("#ledger-digest").screenshot(
        path=str(SCREENS / "auditor-en-5-digest-preview.png")
    )

    with tab.expect_download() as pdf:
        tab.locator("#download a", has_text="PDF").click()
    path = tmp_path / "audit.pdf"
    pdf.value.save_as(path)
    document = pypdfium2.PdfDocument(path.read_bytes())
    first = document[0]
    text = first.get_textpage().get_text_range()
    assert f"{DAY}:{sealed.hash}" in text
    assert sealed.signature in text.replace("\r", "").replace("\n", "")
    first.render(scale=1.2).to_pil().save(
        SCREENS / "auditor-en-7-digest-pdf-first-page.png"
    )
    document.close()

    hand = Hand.objects.filter(table__code="A1", ledger_transaction__isnull=False)[3]
    tab.goto(f"{url}/auditor/proof")
    tab.select_option('#ask select[name="kind"]', "hand")
    tab.fill('#ask input[name="of"]', f"A1#{hand.hand_no}")
    tab.click("#ask button[type=submit]")
    expect(tab.locator("#verdict")).to_contain_text(
        f"This record is in the signed digest of gaming day {DAY}"
    )
    expect(tab.locator("#record")).to_contain_text(f"A1#{hand.hand_no}")
    tab.screenshot(path=str(SCREENS / "auditor-en-6-proof.png"), full_page=True)
    with tab.expect_download() as proof:
        tab.locator("#verdict a", has_text="Download the proof").click()
    assert proof.value.suggested_filename == f"proof-hand-A1-{hand.hand_no}.json"
    context.close()
