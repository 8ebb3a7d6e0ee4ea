"""Pairing a tablet in a real browser, in English, Finnish and Korean (issue 37):
a manager opens a table's tablets from its card on the floor's map, makes a
one-time code and sees it large with its QR code and expiry; the tablet redeems
it and the page, polling, shows it paired and lists it. A hand the tablet posts
and the server refuses appears on the floor's home. The screenshots go to
docs/screens/floor/terminal-pairing-<lang>.png and refused-hands-<lang>.png."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from cardroom import services as floor
from cardroom.models import HandRefusal, Room, TerminalKey
from core.roles import Role
from tests.api.floor.conftest import post_hand
from tests.api.floor.test_hands import heads_up
from tests.conftest import PASSWORD, ROOM_EVENING
from tests.integration.waitlist.conftest import Clock, open_table, stock_tray
from tests.staff.browser import LANGUAGES, browser_in, chromium, say

__all__ = ["browser_in", "chromium", "open_table", "stock_tray"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.room_evening,
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "floor"
TABLES = {"en": "T01", "fi": "T03", "ko": "T05"}


@pytest.fixture
def clock() -> Clock:
    return Clock(ROOM_EVENING - timedelta(hours=1))


def test_a_manager_pairs_a_tablet_in_each_language(
    live_server, browser_in, make_staff, open_table, clock
):
    open_page, expect = browser_in
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    make_staff("mia", Role.MANAGER)
    url = live_server.url
    for language in LANGUAGES:
        table = TABLES[language]
        open_table(table)
        page = open_page(language)
        page.goto(f"{url}/login")
        page.fill('input[name="username"]', "mia")
        page.fill('input[name="password"]', PASSWORD)
        page.click('button[type="submit"]')
        page.wait_for_load_state()
        page.goto(f"{url}/floor/")
        pair = say(language, "Pair a tablet")
        page.click(f'[data-table="{table}"] >> text={pair}')
        expect(page.locator("#tablets")).to_contain_text(
            say(language, "No tablet is paired with this table.")
        )
        page.click(f"#pairing button:has-text('{pair}')")
        code = page.locator("[data-code]")
        expect(code).to_have_text(
            re.compile(r"^[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}$")
        )
        expect(page.locator("#pairing svg.qr")).to_be_visible()
        expect(page.locator("#pairing")).to_contain_text(
            say(language, "Valid once, until %(time)s.", time="21:10")
        )
        box = page.locator("#pairing svg.qr").bounding_box()
        assert box is not None and box["width"] >= 200
        page.screenshot(
            path=str(SCREENS / f"terminal-pairing-{language}.png"), full_page=True
        )

        # The tablet redeems the code; the page sees it arrive without a reload.
        key, raw = floor.terminal_pairing_redeem(code=code.text_content() or "")
        assert key.table.code == table
        expect(page.locator("[data-paired]")).to_contain_text(
            say(language, "Paired: %(name)s", name=key.name), timeout=10_000
        )
        expect(page.locator(f'[data-tablet="{key.prefix}"]')).to_be_visible()
        expect(page.locator("[data-code]")).to_have_count(0)

        # The tablet posts a hand of another game: refused, kept for the floor.
        tablet = APIClient()
        tablet.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
        posted = post_hand(tablet, table, {**heads_up(game="PLO"), "table": table})
        assert posted.status_code == 422
        page.goto(f"{url}/floor/")
        refused = page.locator("#refused-hands")
        expect(refused).to_contain_text(say(language, "Refused hands"))
        expect(refused.locator("tr[data-refusal]")).to_contain_text("HS9")
        refused.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENS / f"refused-hands-{language}.png"))
        page.fill("#refused-hands input[name=note]", "PLO → NLHE")
        page.click(f"#refused-hands button:has-text('{say(language, 'Handled')}')")
        expect(page.locator("#refused-hands")).to_contain_text(
            say(language, "No refused hand waits.")
        )
        page.context.close()
    assert TerminalKey.objects.filter(revoked=False).count() == len(LANGUAGES)
    assert HandRefusal.objects.filter(handled_by__username="mia").count() == 3
