"""Player protection in a real browser, in English, Finnish and Korean (PP1–PP3,
PP7): a manager bars a player, the cage sees the bar at a glance and refuses his
chip purchase, the manager who set the bar is refused its end, and a second
manager ends it after a confirm step. The screenshots of each step go to
docs/screens/protection/ (``…-fi.png``, ``…-ko.png``)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from accounting.errors import TEXTS, Code
from accounting.models import (
    Cage,
    DocumentLookup,
    Receipt,
    Restriction,
    RestrictionEnd,
)
from accounting.services import cage as services
from accounting.services.cage import gaming_day_of, protection
from cardroom.models import Room
from core.roles import Role
from tests.conftest import PASSWORD
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
VAULT = 10_000_000
PLAYERS = {
    "en": ("P-3001", "Aino Virtanen"),
    "fi": ("P-3002", "Mikko Laine"),
    "ko": ("P-3003", "Kim Min-jun"),
}


def shot(page, step: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / screenshot_name(step, language)), full_page=True)


def sign_in(page, url: str, username: str, lands: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}{lands}")


@pytest.fixture
def room(make_staff):
    """A room in Helsinki, its funded cage, a cashier with an open shift and two
    managers."""
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    keeper = User.objects.create_user("vault-keeper")
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    services.cage_vault_fund(cage=cage, cash_cents=VAULT, chips_cents=VAULT, by=keeper)
    kalle = make_staff("kalle", Role.CASHIER)
    services.shift_open(
        cage=cage, cashier=kalle, cash_cents=500_000, chips_cents=500_000
    )
    make_staff("mia", Role.MANAGER)
    make_staff("max", Role.MANAGER)
    return kalle


def test_a_bar_is_set_refused_at_the_cage_and_ended_by_a_second_manager(
    live_server, browser_in, room
):
    """In each language: mia bars a player from the room for 90 days and is
    refused its end; the cashier sees the bar and his purchase is refused; max
    ends the bar after a confirm step. Then the cage sells to him again."""
    open_page, expect = browser_in
    # The machine may be busy: a page is given as long to show what is expected
    # as an action is given to happen (browser_in's default, 10 s).
    expect.set_options(timeout=10_000)
    url = live_server.url
    until = gaming_day_of() + timedelta(days=90)
    for language in LANGUAGES:
        code, name = PLAYERS[language]
        player = services.player_register(
            code=code, name=name, birth_date=date(1988, 3, 14), id_verified=True
        )
        protection.document_record(
            player=player,
            kind="passport",
            number="XP4455667",
            expires=gaming_day_of() + timedelta(days=1500),
            by=room,
        )
        bar(open_page(language), expect, url, language, code, name, until)
        restriction = Restriction.objects.get(player=player)
        assert (restriction.scope, restriction.until) == ("room", until)

        cage_refuses(open_page(language), expect, url, language, code, name, until)
        assert not Receipt.objects.filter(player=player).exists()

        end(open_page(language), expect, url, language, name, restriction)
        assert RestrictionEnd.objects.get(restriction=restriction).by.username == "max"

    # Once the bar is ended, the cage sells him chips again; a player without a
    # date of birth and a minor are flagged at a glance (PP2).
    services.player_register(code="P-3010", name="Ville Vailla")
    services.player_register(
        code="P-3011",
        name="Teemu Nuori",
        birth_date=date(gaming_day_of().year - 17, 1, 1),  # 17 all year
    )
    page = open_page("en")
    sign_in(page, url, "kalle", "/cage/")
    page.goto(f"{url}/cage/players/P-3001")
    page.fill('input[name="sell-amount"]', "200")
    page.get_by_role("button", name="Sell chips").click()
    expect(page.locator(".messages")).to_contain_text(
        f"Sold {euros(20_000, 'en')} in chips to Aino Virtanen."
    )
    page.goto(f"{url}/cage/players/P-3010")
    expect(page.locator('[data-figure="age"]')).to_contain_text("No date of birth")
    shot(page, "7-cage-no-date-of-birth", "en")
    page.goto(f"{url}/cage/players/P-3011")
    expect(page.locator('[data-figure="age"]')).to_contain_text("17: under age")
    shot(page, "8-cage-minor", "en")
    page.context.close()

    # A manager asks to see the passport's number: shown, and his look-up kept.
    page = open_page("en")
    sign_in(page, url, "mia", "/manager/")
    page.goto(f"{url}/manager/players/P-3001")
    page.wait_for_function(
        "document.querySelector('form.show-number')['htmx-internal-data']"
        "?.listenerInfos?.length > 0"
    )
    page.get_by_placeholder("Why you look").fill("police request 2211")
    page.get_by_role("button", name="Show number").click()
    expect(page.locator("[data-number]")).to_contain_text("XP4455667")
    shot(page, "9-manager-sees-number", "en")
    lookup = DocumentLookup.objects.get()
    assert (lookup.by.username, lookup.purpose) == ("mia", "police request 2211")


def bar(page, expect, url, language, code, name, until) -> None:
    """mia finds the player and bars him from the room until ``until``."""
    sign_in(page, url, "mia", "/manager/")
    page.click(f"header nav >> text={say(language, 'Players')}")
    page.fill('input[type="search"]', code)
    page.get_by_role("button", name=say(language, "Find")).click()
    page.wait_for_url(f"{url}/manager/players/{code}")
    expect(page.locator('[data-figure="restriction"]')).to_contain_text(
        say(language, "None")
    )
    form = page.locator("#bar")
    form.locator('input[name="bar-until"]').fill(until.isoformat())
    form.locator('textarea[name="bar-reason"]').fill("collusion at T03, camera 4")
    shot(page, "1-manager-bars", language)
    form.get_by_role("button", name=say(language, "Bar the player")).click()
    scope = say(language, "the room")
    expect(page.locator(".messages")).to_contain_text(
        say(language, "%(who)s is barred from %(scope)s.", who=name, scope=scope)
    )
    expect(page.locator('[data-figure="restriction"]')).to_contain_text(
        say(
            language,
            "Barred from %(scope)s until %(until)s",
            scope=scope,
            until=until.isoformat(),
        )
    )
    shot(page, "2-barred", language)

    # Her own end of the bar is refused: a second manager ends it (PP3).
    page.get_by_role("link", name=say(language, "End early…")).click()
    page.locator('textarea[name="reason"]').fill("he apologised")
    page.get_by_role("button", name=say(language, "Yes, end the bar")).click()
    expect(page.locator(".messages .error")).to_contain_text(
        say(language, TEXTS[Code.SECOND_MANAGER])
    )
    shot(page, "3-same-manager-refused", language)
    page.context.close()


def cage_refuses(page, expect, url, language, code, name, until) -> None:
    """The cashier sees the bar at a glance, the document without its number,
    and the chip purchase is refused with the rule (PP3)."""
    sign_in(page, url, "kalle", "/cage/")
    page.goto(f"{url}/cage/players/{code}")
    scope = say(language, "the room")
    expect(page.locator('[data-figure="restriction"]')).to_contain_text(
        say(
            language,
            "Barred from %(scope)s until %(until)s",
            scope=scope,
            until=until.isoformat(),
        )
    )
    expect(page.locator('[data-figure="document"]')).to_contain_text(
        say(language, "passport").capitalize()
    )
    expect(page.locator("body")).not_to_contain_text("XP4455667")
    page.fill('input[name="sell-amount"]', "200")
    page.get_by_role("button", name=say(language, "Sell chips")).click()
    expect(page.locator(".messages .error")).to_contain_text(
        say(
            language,
            TEXTS[Code.PLAYER_BARRED],
            player=code,
            scope=scope,
            until=until.isoformat(),
        )
    )
    shot(page, "4-cage-refuses-purchase", language)
    page.context.close()


def end(page, expect, url, language, name, restriction) -> None:
    """max, another manager, ends the bar after the confirm step."""
    sign_in(page, url, "max", "/manager/")
    page.goto(f"{url}/manager/players/{restriction.player.code}")
    page.get_by_role("link", name=say(language, "End early…")).click()
    expect(page.locator("h1")).to_contain_text(
        say(language, "End the bar on %(name)s early?", name=name)
    )
    page.locator('textarea[name="reason"]').fill("apologised in writing")
    shot(page, "5-second-manager-confirms", language)
    page.get_by_role("button", name=say(language, "Yes, end the bar")).click()
    expect(page.locator(".messages")).to_contain_text(
        say(language, "The bar on %(who)s is ended.", who=name)
    )
    expect(page.locator('[data-figure="restriction"]')).to_contain_text(
        say(language, "None")
    )
    expect(page.locator("#restrictions")).to_contain_text(say(language, "ended early"))
    shot(page, "6-bar-ended", language)
    page.context.close()
