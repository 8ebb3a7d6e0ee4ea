"""The manager's protection screens in a real browser, in English, Finnish and
Korean: a held award forfeited after its confirm step (PP6), a new version of the
settings recorded (PP2, PP4), and the exclusion list for the door staff, printed
on A4 without the screen's bar (PP3, PP4). The screenshots of each step go to
docs/screens/protection/ (``mgr-…``, ``…-fi.png``, ``…-ko.png``)."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pypdfium2
import pytest

from accounting.models import AwardDecision, Payable, ProtectionRules
from accounting.services import cage as services
from accounting.services.cage import protection
from cardroom.models import Room
from core.roles import Role
from tests.conftest import PASSWORD
from tests.integration.cage.helpers import book_award
from tests.staff.browser import (
    LANGUAGES,
    browser_in,
    chromium,
    euros,
    say,
    screenshot_name,
)

__all__ = ["browser_in", "chromium"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "protection"
POINTS_PER_MM = 72 / 25.4
PLAYERS = {
    "en": ("P-4001", "Aino Virtanen", 150_000),
    "fi": ("P-4002", "Mikko Laine", 82_550),
    "ko": ("P-4003", "Kim Min-jun", 1_234_500),
}
SETTINGS = {"en": (19, 200, 36), "fi": (18, 365, 48), "ko": (20, 180, 72)}


def shot(page, step: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    name = screenshot_name(f"mgr-{step}", language)
    page.screenshot(path=str(SCREENS / name), full_page=True)


def sign_in(page, url: str, username: str, lands: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}{lands}")


@pytest.fixture
def room(make_staff):
    """A room in Helsinki and two managers: mia bars, max decides."""
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    return make_staff("mia", Role.MANAGER), make_staff("max", Role.MANAGER)


def held_award(language: str, mia) -> Payable:
    """A barred player's bad beat share, approved before the bar: held (PP6)."""
    code, name, cents = PLAYERS[language]
    player = services.player_register(
        code=code, name=name, birth_date=date(1984, 6, 2), id_verified=True
    )
    award = services.payable_create(
        player=player,
        amount_cents=cents,
        reference=f"bad beat hit {code[-1]}",
        approved_by=mia,
        booking=book_award(code, cents),
    )
    protection.restriction_set(
        player=player,
        kind="bar",
        scope="room",
        until=None,
        reason="collusion at T03, camera 4",
        by=mia,
    )
    return award


def test_a_held_award_is_forfeited_and_the_settings_change(
    live_server, browser_in, room
):
    """In each language: max opens the held awards from the navigation, forfeits
    the barred player's award after its confirm step, records a new version of
    the settings, and opens the exclusion list, which prints on A4 without the
    navigation."""
    open_page, expect = browser_in
    expect.set_options(timeout=10_000)
    url = live_server.url
    mia, _max = room
    for language in LANGUAGES:
        award = held_award(language, mia)
        page = open_page(language)
        sign_in(page, url, "max", "/manager/")
        forfeit(page, expect, url, language, award)
        award.refresh_from_db()
        assert award.status == Payable.Status.FORFEITED
        assert AwardDecision.objects.get(payable=award).by.username == "max"

        settings_change(page, expect, url, language)
        row = ProtectionRules.objects.order_by("-version").first()
        assert (
            row.min_age,
            row.min_self_exclusion_days,
            row.cooling_off_hours,
        ) == SETTINGS[language]

        exclusions(page, expect, url, language)
        page.context.close()


def forfeit(page, expect, url, language, award) -> None:
    _code, name, cents = PLAYERS[language]
    page.click(f"header nav >> text={say(language, 'Held awards')}")
    page.wait_for_url(f"{url}/manager/held-awards")
    row = page.locator(f'[data-award="{award.pk}"]')
    expect(row).to_contain_text(name)
    expect(row).to_contain_text(euros(cents, language))
    expect(row).to_contain_text(
        say(language, "Barred from %(scope)s for good", scope=say(language, "the room"))
    )
    shot(page, "1-held-awards", language)
    row.get_by_role("link", name=say(language, "Forfeit…")).click()
    expect(page.locator("h1")).to_contain_text(
        say(
            language,
            "Forfeit award %(ref)s of %(name)s?",
            ref=award.reference,
            name=name,
        )
    )
    page.locator('textarea[name="reason"]').fill(
        "Excluded players receive no winnings (house rules 7.2)"
    )
    shot(page, "2-forfeit-confirm", language)
    page.get_by_role("button", name=say(language, "Yes, forfeit it")).click()
    page.wait_for_url(f"{url}/manager/held-awards")
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Award %(ref)s of %(amount)s to %(who)s is forfeited (PP6).",
            ref=award.reference,
            amount=euros(cents, language),
            who=name,
        )
    )
    expect(page.locator("#held")).to_contain_text(
        say(language, "No award is held now.")
    )
    expect(page.locator("#decisions")).to_contain_text(say(language, "Forfeited"))
    shot(page, "3-forfeited", language)


def settings_change(page, expect, url, language) -> None:
    min_age, days, hours = SETTINGS[language]
    page.click(f"header nav >> text={say(language, 'Players')}")
    page.get_by_role("link", name=say(language, "Protection settings")).click()
    page.wait_for_url(f"{url}/manager/protection-settings")
    form = page.locator("#change")
    form.locator('input[name="min_age"]').fill(str(min_age))
    form.locator('input[name="min_self_exclusion_days"]').fill(str(days))
    form.locator('input[name="cooling_off_hours"]').fill(str(hours))
    form.locator('textarea[name="note"]').fill("Licence conditions 2027, §4")
    shot(page, "4-settings", language)
    form.get_by_role("button", name=say(language, "Record the new version")).click()
    version = ProtectionRules.objects.count()
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Version %(version)d of the protection settings is in force.",
            version=version,
        )
    )
    expect(page.locator('[data-figure="min-age"]')).to_have_text(str(min_age))
    expect(page.locator(f'[data-version="{version}"]')).to_contain_text(
        "Licence conditions 2027, §4"
    )
    shot(page, "5-settings-recorded", language)


def exclusions(page, expect, url, language) -> None:
    code, name, _cents = PLAYERS[language]
    page.click(f"header nav >> text={say(language, 'Exclusion list')}")
    page.wait_for_url(f"{url}/manager/exclusions")
    expect(page.locator("#exclusions tbody")).to_contain_text(name)
    shot(page, "6-exclusions", language)
    # Printed as the Print button prints it (the page's CSS page size), saved as
    # the sheet the door staff get.
    page.emulate_media(media="print")
    pdf = pypdfium2.PdfDocument(
        io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True))
    )
    name_a4 = screenshot_name("mgr-7-exclusions-a4", language)
    pdf[0].render(scale=100 / 72).to_pil().save(str(SCREENS / name_a4))
    width, height = pdf[0].get_size()
    assert (width, height) == (
        pytest.approx(210 * POINTS_PER_MM, abs=0.5),
        pytest.approx(297 * POINTS_PER_MM, abs=0.5),
    )
    printed = pdf[0].get_textpage().get_text_range()
    assert name in printed and code in printed
    for hidden in ("Held awards", "Download CSV", "Terminal keys"):
        assert say(language, hidden) not in printed
    page.emulate_media(media="screen")
