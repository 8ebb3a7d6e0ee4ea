"""The tournament desk at the cage in a real browser (TO1, TO9, TO10, CA2, CA6), in
English, Finnish and Korean: from the cage's navigation to tonight's events, a
cashier sells two entries, a rebuy and an add-on while the server's clock says they
are open, a manager approves part of a refund that the cashier pays, and the
cashier pays a prize against the player's signature and tax document; each with its
printed receipt, a double submit booking once. Screenshots go to
docs/screens/tournaments/ (cage-*.png)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from accounting.models import Cage, Receipt
from accounting.services import cage as cage_services
from cardroom.models import Room
from core.roles import Role
from tests.conftest import PASSWORD
from tests.integration.tournaments.conftest import make_event
from tests.staff.browser import (
    LANGUAGES,
    browser_in,
    chromium,
    euros,
    say,
    screenshot_name,
)
from tournaments import services
from tournaments.models import Entry, Level, Payout, Purchase, Refund, Structure

__all__ = ["browser_in", "chromium"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "tournaments"
# What a cashier types for €115 in each language.
TYPED = {"en": "115.00", "fi": "115,00", "ko": "115"}


def shot(page, step: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / screenshot_name(f"cage-{step}", language)
    page.screenshot(path=str(path), full_page=True)


def sign_in(page, url: str, username: str, lands: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}{lands}")


def night(make_staff, language: str) -> dict:
    """A funded cage with the cashier's shift open, four identified players, the
    Sunday event open for entries, and a small event over whose prize waits."""
    cashier = make_staff("kalle", Role.CASHIER)
    floor_person = make_staff("fred", Role.FLOOR)
    manager = make_staff("mia", Role.MANAGER)
    keeper = User.objects.create_user("vault-keeper")
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=5_000_000, chips_cents=5_000_000, by=keeper
    )
    cage_services.shift_open(
        cage=cage, cashier=cashier, cash_cents=500_000, chips_cents=500_000
    )
    names = ["Aino Virtanen", "Mika Virtala", "Jae-won Kim", "Liisa Laine"]
    for n, name in enumerate(names):
        cage_services.player_register(
            code=f"P-{100 + n}",
            name=name,
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
    room = Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language=language,
    )
    structure = Structure.objects.create(code="turbo", name="Turbo")
    for number in (1, 2, 3, 4, 5):
        Level.objects.create(
            structure=structure,
            number=number,
            small_blind=0 if number == 4 else 100 * number,
            big_blind=0 if number == 4 else 200 * number,
            minutes=10 if number == 4 else 20,
            is_break=number == 4,
        )
    sunday = make_event(
        room, structure, name="Sunday Deepstack €100", guarantee_cents=300_000
    )
    mini = make_event(
        room,
        structure,
        code="mini",
        name="Mini €55",
        buy_in_cents=5_000,
        fee_cents=500,
        staff_fee_cents=0,
        rebuy_max=0,
        addon_level=None,
        tax_document_threshold_cents=10_000,
        payout_table=[{"min_entries": 1, "shares": [10_000]}],
    )
    for code in ("P-102", "P-103"):
        services.entry_register(event=mini, player=code, cage="MAIN", cashier=cashier)
    services.event_start(event=mini)
    services.clock_change(event_code=mini.code, action="start", by=floor_person)
    out = Entry.objects.get(event=mini, player__code="P-103")
    services.busts_record(
        event=mini, hand="1", busts=[services.BustIn(out, 500)], by=floor_person
    )
    sheet = services.payout_sheet_prepare(event=mini, by=floor_person)
    services.payout_sheet_approve(sheet=sheet, by=manager)
    return {"sunday": sunday, "floor": floor_person, "names": names}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cashier_runs_the_tournament_desk(
    live_server, browser_in, make_staff, language
):
    open_page, expect = browser_in
    url = live_server.url
    facts = night(make_staff, language)
    sunday, boss, names = facts["sunday"], facts["floor"], facts["names"]
    desk = f"{url}/cage/events/sunday-100"
    page = open_page(language)

    # From the cage's navigation to tonight's events, then the event's desk.
    sign_in(page, url, "kalle", "/cage/")
    page.click(f"header nav >> text={say(language, 'Tournaments')}")
    expect(page.locator("h1")).to_have_text(say(language, "Tonight's tournaments"))
    expect(page.locator('tr[data-event="mini"]')).to_be_visible()
    shot(page, "01-events", language)
    page.click('tr[data-event="sunday-100"] a.button')
    expect(page.locator('[data-open="registration"]')).to_contain_text(
        say(language, "open now")
    )
    expect(page.locator("[data-price]").first).to_have_text(euros(11_500, language))

    # An entry: the player by his id, the cash counted as the language writes it.
    page.fill("#entry-form input[name=player]", "P-100")
    page.fill("#entry-form input[name=amount]", TYPED[language])
    shot(page, "02-desk-entry", language)
    page.click("#entry-form button")
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Entry #%(no)d sold to %(who)s for %(amount)s.",
            no=1,
            who=names[0],
            amount=euros(11_500, language),
        )
    )
    expect(page.locator(".receipt")).to_contain_text(euros(11_500, language))
    shot(page, "03-receipt-entry", language)

    # A wrong count is refused with its rule and books nothing.
    page.goto(desk)
    page.fill("#entry-form input[name=player]", "P-101")
    page.fill("#entry-form input[name=amount]", "110")
    page.click("#entry-form button")
    expect(page.locator(".messages .error")).to_contain_text("TO1")
    assert Entry.objects.filter(event=sunday).count() == 1

    # The second entry, its form sent twice at once: booked once.
    page.fill("#entry-form input[name=player]", "P-101")
    page.fill("#entry-form input[name=amount]", TYPED[language])
    urls = page.evaluate(
        """async () => {
            const form = document.getElementById("entry-form");
            const send = () => fetch(form.action, {method: "POST",
                                                   body: new FormData(form)});
            const answers = await Promise.all([send(), send()]);
            return answers.map((answer) => answer.url);
        }"""
    )
    assert urls[0] == urls[1] and "/receipts/MAIN-" in urls[0]
    assert Entry.objects.filter(event=sunday).count() == 2

    # The floor starts the clock: rebuys open. A rebuy for entry #1.
    services.event_start(event=sunday)
    services.clock_change(event_code=sunday.code, action="start", by=boss)
    page.goto(desk)
    expect(page.locator('[data-open="rebuys"]')).to_contain_text(
        say(language, "open now")
    )
    rebuy = page.locator('tr[data-entry="1"] form.rebuy')
    rebuy.locator("input[name=stack]").fill("0")
    rebuy.locator("input[name=amount]").fill("105")
    shot(page, "04-desk-rebuy", language)
    rebuy.locator("button").click()
    expect(page.locator(".receipt")).to_contain_text(euros(10_500, language))
    shot(page, "05-receipt-rebuy", language)

    # The clock at the break after level 3: the add-on, for entry #2.
    services.clock_change(event_code=sunday.code, action="move", level=4, by=boss)
    page.goto(desk)
    expect(page.locator('[data-open="addon"]')).to_contain_text(
        say(language, "open now")
    )
    expect(page.locator('[data-open="registration"]')).to_contain_text(
        say(language, "closed now")
    )
    addon = page.locator('tr[data-entry="2"] form.addon')
    addon.locator("input[name=amount]").fill("105")
    addon.locator("button").click()
    expect(page.locator(".messages")).to_contain_text(
        say(
            language,
            "Add-on sold to %(who)s (entry #%(no)d) for %(amount)s.",
            who=names[1],
            no=2,
            amount=euros(10_500, language),
        )
    )
    assert Purchase.objects.filter(kind=Purchase.Kind.ADDON).count() == 1

    # A manager approves €50 of the rebuy's refund, saying why.
    no = Purchase.objects.get(kind=Purchase.Kind.REBUY).receipt.no
    manager_page = open_page(language)
    sign_in(manager_page, url, "mia", "/manager/")
    manager_page.goto(desk)
    approve = manager_page.locator(f'tr[data-receipt="{no}"] form.refund-approve')
    approve.locator("input[name=reason]").fill("Rebuy sold by mistake")
    approve.locator("input[name=amount]").fill("50")
    shot(manager_page, "06-manager-refund", language)
    approve.locator("button").click()
    expect(manager_page.locator(".messages")).to_contain_text(no)

    # The cashier pays it: exactly what was approved.
    page.goto(desk)
    pay = page.locator(f'tr[data-receipt="{no}"] form.refund-pay')
    expect(page.locator(f'tr[data-receipt="{no}"]')).to_contain_text(
        "Rebuy sold by mistake"
    )
    pay.locator("input[name=amount]").fill("50")
    shot(page, "07-desk-refund", language)
    pay.locator("button").click()
    expect(page.locator(".receipt")).to_contain_text(euros(5_000, language))
    expect(page.locator(".receipt")).to_contain_text("mia")
    shot(page, "08-receipt-refund", language)
    assert Refund.objects.get().amount_cents == 5_000

    # The prize of the event that is over, to the identified player.
    page.click(f"header nav >> text={say(language, 'Tournaments')}")
    page.click('tr[data-event="mini"] a.button')
    line = Payout.objects.get(sheet__event__code="mini")
    prize = page.locator(f'tr[data-line="{line.pk}"] form.prize-pay')
    prize.locator("input[name=player]").fill("P-102")
    prize.locator("input[name=amount]").fill("100")
    prize.locator("input[name=tax_document]").fill("VERO-2026-0042")
    prize.locator("input[name=signed]").check()
    shot(page, "09-desk-prize", language)
    prize.locator("button").click()
    expect(page.locator(".receipt")).to_contain_text("VERO-2026-0042")
    expect(page.locator(".receipt")).to_contain_text(euros(10_000, language))
    shot(page, "10-receipt-prize", language)
    line.refresh_from_db()
    assert line.status == Payout.Status.PAID
    # Two entries, a rebuy, an add-on, a refund and a prize: six receipts, plus the
    # small event's two entries.
    assert Receipt.objects.count() == 8
