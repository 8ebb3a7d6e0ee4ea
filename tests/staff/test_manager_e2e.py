"""A manager's approvals in a real browser, in English, Finnish and Korean: a
correction, a jackpot hit (with its confirm step) and a short shift (DC2, BB5, CA1).
The three languages share one room and one browser, each deciding its own three
requests. The screenshots of each step go to docs/screens/manager/ (``…-fi.png``,
``…-ko.png``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounting.models import Cage, Shift
from accounting.services import cage as cage_services
from cardroom import services as floor_services
from cardroom.models import Correction
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Hit
from tests.api.jackpots.conftest import (
    clock,
    dealer,
    manager,
    open_table,
    players,
    pools,
    stock_tray,
)
from tests.conftest import PASSWORD
from tests.staff.browser import (
    LANGUAGES,
    browser_in,
    chromium,
    euros,
    say,
    screenshot_name,
)

__all__ = [
    "browser_in",
    "chromium",
    "clock",
    "dealer",
    "manager",
    "open_table",
    "players",
    "pools",
    "stock_tray",
]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "manager"


def shot(page, step: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / screenshot_name(step, language)
    page.screenshot(path=str(path), full_page=True)


def test_a_manager_approves_a_correction_a_hit_and_a_shift(
    live_server, browser_in, pools, dealer, make_staff
):
    """Another person asked for the correction, verified the hit and counted the
    shift; the manager decides each from his inbox, the hit after a confirm step;
    then (in English) he gives T01's terminal a key."""
    open_page, expect = browser_in
    fred = make_staff("fred", Role.FLOOR)
    kalle = make_staff("kalle", Role.CASHIER)
    make_staff("mia", Role.MANAGER)
    for language in LANGUAGES:
        correction = floor_services.correction_request(
            kind=Correction.Kind.RECEIVABLE,
            table_code="T01",
            amount=25_000,
            reason="marker: rebuy on credit, signed",
            by=fred,
            from_player="P-3",
        )
        [hit] = jackpot_services.hand_qualify(hand_id=dealer.bad_beat().pk)
        jackpot_services.hit_verify(hit=hit, by=fred, note="cards and camera 3 checked")
        shift = cage_services.shift_open(
            cage=Cage.objects.get(code="MAIN"),
            cashier=kalle,
            cash_cents=500_000,
            chips_cents=500_000,
        )
        cage_services.shift_close(
            shift=shift, cashier=kalle, cash_cents=497_000, chips_cents=500_000
        )
        page = open_page(language)
        decide(page, expect, live_server.url, language, correction, hit, shift)
        page.context.close()

        correction.refresh_from_db()
        shift.refresh_from_db()
        assert correction.status == Correction.Status.APPROVED
        assert Hit.objects.get(pk=hit.pk).status == Hit.Status.APPROVED
        assert (shift.status, shift.sign_off_note) == (
            Shift.Status.CLOSED,
            "counted twice, ok",
        )


def decide(page, expect, url, language, correction, hit, shift) -> None:
    """Sign in as the manager and decide ``correction``, ``hit`` and ``shift``."""
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', "mia")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/manager/")
    expect(page.locator("#corrections")).to_contain_text(euros(25_000, language))
    expect(page.locator("#shifts")).to_contain_text(euros(-3_000, language))
    shot(page, "1-inbox", language)

    approve = say(language, "Approve")
    page.locator("#corrections").get_by_role("button", name=approve).click()
    expect(page.locator(".messages")).to_contain_text(
        say(language, "Correction %(id)d approved and booked.", id=correction.pk)
    )
    shot(page, "2-correction-approved", language)

    look = say(language, "Look at the hit")
    page.locator("#hits").get_by_role("link", name=look).click()
    expect(page.locator(".playing-card.red").first).to_be_visible()
    shot(page, "3-hit", language)
    page.get_by_role("link", name=say(language, "Approve…")).click()
    book = page.get_by_role("button", name=say(language, "Yes, approve and book"))
    expect(book).to_be_visible()
    assert Hit.objects.get(pk=hit.pk).status == Hit.Status.VERIFIED
    shot(page, "4-hit-confirm", language)
    book.click()
    page.wait_for_url(f"{url}/manager/")
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Hit %(id)d approved: its awards are payable at the cage.",
            id=hit.pk,
        )
    )

    shifts = page.locator("#shifts")
    shifts.get_by_placeholder(say(language, "Your note")).fill("counted twice, ok")
    shifts.get_by_role("button", name=say(language, "Sign off")).click()
    expect(page.locator(".messages")).to_contain_text(
        say(language, "Shift %(id)d is signed off and closed.", id=shift.pk)
    )
    nothing = say(language, "Nothing is waiting for your approval.")
    expect(page.get_by_text(nothing)).to_be_visible()
    shot(page, "5-all-decided", language)
    if language != "en":
        return

    page.get_by_role("link", name="Terminal keys").click()
    page.get_by_label("What it is for").fill("T01 dealer tablet")
    page.get_by_role("button", name="Create the key").click()
    expect(page.locator(".secret")).to_be_visible()
    shot(page, "6-terminal-key-shown-once", language)
