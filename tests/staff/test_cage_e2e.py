"""A cashier's whole shift in a real browser (CA1–CA6), and its first screens in
Finnish and Korean. The screenshots of each step go to docs/screens/cage/."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from accounting.models import Cage, Receipt, Shift, TableSlip
from accounting.services import cage as services
from cardroom.models import Room
from core.roles import Role
from staff.models import ShiftCount
from tests.conftest import PASSWORD
from tests.e2e.conftest import browser_page
from tests.integration.cage.helpers import book_award

__all__ = ["browser_page"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "cage"
VAULT = 10_000_000


def shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/cage/")


def count(page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.fill(f'input[name="{name}"]', value)


def test_a_cashiers_whole_shift_in_the_browser(live_server, browser_page, make_staff):
    """Open with a count, sell, redeem, issue a fill, pay an award, close with a
    count (€30 short, with a note); a double submit books once; the same first
    screens in Finnish and Korean."""
    page, expect = browser_page
    url = live_server.url
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
    player = services.player_register(
        code="P-1001",
        name="Aino Virtanen",
        id_verified=True,
        birth_date=date(1985, 1, 1),
    )
    services.player_register(
        code="P-1002", name="Mika Virtala", birth_date=date(1985, 1, 1)
    )
    cashier = make_staff("kalle", Role.CASHIER)
    floor = make_staff("fred", Role.FLOOR)
    manager = make_staff("mia", Role.MANAGER)
    award = services.payable_create(
        player=player,
        amount_cents=150_000,
        reference="Bad beat hit 12",
        memo="Aces full beaten by four kings, T01 hand 1042",
        approved_by=manager,
        booking=book_award(player.code, 150_000),
    )
    page.set_default_timeout(10_000)

    # Sign in: a cashier lands on the cage.
    sign_in(page, url, "kalle")
    expect(page.locator("h2", has_text="Your shift")).to_be_visible()
    shot(page, "01-home-no-shift")

    # Open with a count by denomination: €5,000 in notes, €5,000 in chips.
    page.click("text=Open a shift with a count")
    count(
        page,
        {
            "note_50000": "6",
            "note_10000": "10",
            "note_5000": "20",
            "chip_100000": "2",
            "chip_50000": "4",
            "chip_2500": "40",
        },
    )
    expect(page.locator('output[data-total="note"]')).to_have_text("€5,000.00")
    shot(page, "02-open-count")
    page.click("text=Open the shift")
    expect(page.locator(".messages")).to_contain_text(
        "Shift opened with €5,000.00 in cash and €5,000.00 in chips."
    )
    shift = Shift.objects.get(cashier=cashier)

    # Find the player by part of his name and open his page. htmx binds the search
    # box when the page has loaded; typed before that, nothing would be asked.
    page.wait_for_load_state()
    page.wait_for_function(
        "document.querySelector('input[type=search]')['htmx-internal-data']"
        "?.listenerInfos?.length > 0"
    )
    page.fill('input[type="search"]', "virta")
    expect(page.locator("#found li")).to_have_count(2)
    page.click("#found >> text=Aino Virtanen")
    expect(page.locator('[data-figure="identity"]')).to_contain_text("Verified")

    # Sell: typing 500 means €500.
    page.fill('input[name="sell-amount"]', "500")
    shot(page, "03-player-sell")
    page.click("button:has-text('Sell chips')")
    expect(page.locator(".messages")).to_contain_text("Sold €500.00 in chips")
    expect(page.locator(".receipt")).to_contain_text("500,00\xa0€")
    shot(page, "04-receipt-sale")

    # A double submit (the same form posted twice at once) books once.
    page.click("text=Back to the player")
    page.fill('input[name="sell-amount"]', "200")
    urls = page.evaluate(
        """async () => {
            const form = document.querySelector('form[action$="/sell"]');
            const send = () => fetch(form.action, {method: "POST",
                                                   body: new FormData(form)});
            const answers = await Promise.all([send(), send()]);
            return answers.map((answer) => answer.url);
        }"""
    )
    assert urls[0] == urls[1] and "/cage/receipts/MAIN-" in urls[0]
    assert Receipt.objects.filter(amount_cents=20_000).count() == 1

    # Redeem; a refusal first, told in the room's words.
    page.reload()
    page.fill('input[name="redeem-amount"]', "2000")
    page.click("button:has-text('Cash chips')")
    expect(page.locator(".messages .error")).to_contain_text(
        "Aino Virtanen holds chips worth €700.00; at most €700.00 can be cashed."
    )
    shot(page, "05-refusal-redemption")
    page.fill('input[name="redeem-amount"]', "120")
    page.click("button:has-text('Cash chips')")
    expect(page.locator(".messages")).to_contain_text("Cashed €120.00 of chips")

    # A player without an identity document: what he may still move tonight (CA5).
    page.goto(f"{url}/cage/players/P-1002")
    expect(page.locator('[data-figure="identity"]')).to_contain_text("€1,999.99")
    shot(page, "05-player-without-identity")

    # The queue shows a fill the floor asks for, without a reload.
    page.click("header nav >> text=Cage")
    expect(page.locator("#queue")).to_contain_text("Nothing is waiting.")
    services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=100_000,
        requested_by=floor,
    )
    expect(page.locator("#queue")).to_contain_text("€1,000.00", timeout=8_000)
    shot(page, "06-queue")

    # The notice when the connection is lost, and back.
    page.route("**/cage/queue", lambda route: route.abort())
    expect(page.locator("#offline")).to_be_visible(timeout=8_000)
    shot(page, "07-connection-lost")
    page.unroute("**/cage/queue")
    expect(page.locator("#offline")).to_be_hidden(timeout=8_000)

    page.click("text=Issue the fill")
    expect(page.locator(".messages")).to_contain_text(
        "Fill of €1,000.00 issued to table T01."
    )

    # Pay the award against the player's signature.
    page.click("header nav >> text=Awards")
    page.click("a.button:has-text('Pay')")
    page.check('input[name="signed"]')
    shot(page, "08-award")
    page.click("button:has-text('Pay €1,500.00')")
    expect(page.locator(".receipt")).to_contain_text("Pelaajan allekirjoitus")
    shot(page, "09-receipt-award")
    award.refresh_from_db()
    assert award.status == "paid"

    # Close: cash expected €5,000 + 500 + 200 − 120 − 1,500 = €4,080, counted
    # €4,050; chips €5,000 − 700 + 120 − 1,000 = €3,420, counted right.
    page.click("header nav >> text=Close shift")
    count(
        page,
        {
            "note_50000": "8",
            "note_2000": "2",
            "coins": "10",
            "chip_100000": "3",
            "chip_10000": "4",
            "chip_500": "4",
        },
    )
    expect(page.locator('[data-over-short="cash"]')).to_have_text("-€30.00")
    expect(page.locator('[data-over-short="chips"]')).to_have_text("€0.00")
    page.click("button:has-text('Close the shift')")
    expect(page.locator(".messages .error")).to_contain_text("CA1")
    page.fill('textarea[name="note"]', "€30 short: change given twice")
    shot(page, "10-close-count")
    page.click("button:has-text('Close the shift')")
    expect(page.locator("h1")).to_contain_text(f"Shift {shift.pk} closed")
    shot(page, "11-closed")
    shift.refresh_from_db()
    assert shift.status == Shift.Status.PENDING_SIGN_OFF
    assert shift.over_short_cash_cents == -3_000
    closing = ShiftCount.objects.get(shift=shift, moment="close")
    assert closing.note == "€30 short: change given twice"

    # The first screens in Finnish and Korean, in the same browser.
    browser = page.context.browser
    for language, locale, opened, player_word in (
        ("fi", "fi-FI", "Vuoro avattu", "Pelimerkit hallussa"),
        ("ko", "ko-KR", "근무 시작", "보유 칩"),
    ):
        make_staff(f"cashier-{language}", Role.CASHIER)
        context = browser.new_context(
            locale=locale, viewport={"width": 1600, "height": 900}
        )
        other = context.new_page()
        other.set_default_timeout(10_000)
        sign_in(other, url, f"cashier-{language}")
        shot(other, f"{language}-01-home")
        other.click("a[href='/cage/shift/open']")
        count(other, {"note_50000": "10", "chip_100000": "5"})
        shot(other, f"{language}-02-open-count")
        other.click("form.count button[type=submit]")
        expect(other.locator(".messages")).to_contain_text(opened)
        other.goto(f"{url}/cage/players/P-1001")
        expect(other.locator("body")).to_contain_text(player_word)
        money = "580,00\xa0€" if language == "fi" else "€580.00"
        expect(other.locator('[data-figure="chips"]')).to_have_text(money)
        shot(other, f"{language}-03-player")
        context.close()
