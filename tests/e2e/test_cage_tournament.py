"""The cage's tournament screens in a browser (TO1, TO9, CA2, CA6): a cashier
registers a player and sees the receipt with its split, then pays a prize; the
prize's form sent twice books once. Screenshots go to docs/screens/tournaments/."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounting import cage as cage_services
from accounting.models import Cage, Receipt
from cardroom.models import Room
from core.roles import Role
from tests.conftest import PASSWORD
from tests.integration.tournaments.conftest import make_event
from tournaments import services
from tournaments.models import Entry, Level, Payout, PayoutSheet, Structure

pytestmark = pytest.mark.e2e

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "tournaments"


def night(make_staff):
    """A funded cage with the cashier's shift open, four players, the Sunday
    event open for entries and a small event whose prize waits at the cage."""
    cashier = make_staff("kalle", Role.CASHIER)
    floor_person = make_staff("fred", Role.FLOOR)
    manager = make_staff("mia", Role.MANAGER)
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=5_000_000, chips_cents=5_000_000, by=manager
    )
    cage_services.shift_open(
        cage=cage, cashier=cashier, cash_cents=500_000, chips_cents=500_000
    )
    for n in range(4):
        cage_services.player_register(
            code=f"P-{100 + n}", name=f"Player {n}", id_verified=True
        )
    room = Room.objects.create(
        code="hki", name="Helsinki", time_zone="Europe/Helsinki", currency="EUR"
    )
    structure = Structure.objects.create(code="turbo", name="Turbo")
    for number in (1, 2, 3, 4):
        Level.objects.create(
            structure=structure,
            number=number,
            small_blind=100 * number,
            big_blind=200 * number,
            minutes=20,
        )
    make_event(room, structure, addon_level=None)
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
    )
    for code in ("P-102", "P-103"):
        services.entry_register(
            event=mini, player=code, cage="MAIN", cashier=cashier, level=1
        )
    services.event_start(event=mini)
    out = Entry.objects.get(event=mini, player__code="P-102")
    services.busts_record(
        event=mini, hand="1", busts=[services.BustIn(out, 500)], by=floor_person
    )
    sheet = services.payout_sheet_prepare(event=mini, by=floor_person)
    services.payout_sheet_approve(sheet=sheet, by=manager)


def test_register_see_the_receipt_and_pay_a_prize_once(
    live_server, browser_page, make_staff
):
    page, expect = browser_page
    night(make_staff)
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{live_server.url}/admin/login/?next=/cage/tournaments/sunday-100")
    page.fill("input[name=username]", "kalle")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("#register")).to_be_visible()
    expect(page.locator("body")).to_contain_text("115.00 €")

    # Register: the cashier types what he counted; a wrong count books nothing.
    page.fill("#register input[name=player]", "P-100")
    page.fill("#register input[name=amount]", "100")
    page.click("#register button")
    expect(page.locator(".messagelist")).to_contain_text("TO1")
    assert not Entry.objects.filter(event__code="sunday-100").exists()
    page.fill("#register input[name=player]", "P-100")
    page.fill("#register input[name=amount]", "115.00")
    page.screenshot(path=str(SCREENS / "cage-register.png"), full_page=True)
    page.click("#register button")
    page.wait_for_url("**/receipts/**")
    receipt = page.frame_locator("iframe")
    expect(receipt.locator("body")).to_contain_text("Buy-in (prize pool)")
    expect(receipt.locator("body")).to_contain_text("100.00 EUR")
    expect(receipt.locator("body")).to_contain_text("Seat draw seed")
    page.screenshot(path=str(SCREENS / "cage-receipt.png"), full_page=True)
    entry = Entry.objects.get(event__code="sunday-100")
    assert entry.seat is not None and entry.purchases.count() == 1

    # The prize: approved by two others, paid here against the signature.
    page.goto(f"{live_server.url}/cage/tournaments/mini")
    pay = page.locator("form:has(input[name=action][value=pay])")
    pay.locator("input[name=player]").fill("P-103")
    pay.locator("input[name=amount]").fill("100.00")
    pay.locator("input[name=signed]").check()
    fields = pay.evaluate("f => Object.fromEntries(new FormData(f).entries())")
    page.screenshot(path=str(SCREENS / "cage-payout-sheet.png"), full_page=True)
    pay.locator("button").dblclick()
    page.wait_for_url("**/receipts/**")
    expect(page.frame_locator("iframe").locator("body")).to_contain_text(
        "Player's signature"
    )
    page.screenshot(path=str(SCREENS / "cage-prize-receipt.png"), full_page=True)
    # The same form once more (a retry after a lost answer): the same receipt.
    again = page.request.post(
        f"{live_server.url}/cage/tournaments/mini",
        form=fields,
        headers={"Referer": f"{live_server.url}/cage/tournaments/mini"},
    )
    assert again.ok and "/receipts/" in again.url
    assert again.url.endswith(page.url.rsplit("/cage", 1)[1])
    assert Receipt.objects.filter(kind=Receipt.Kind.AWARD_PAYOUT).count() == 1
    line = Payout.objects.get(sheet=PayoutSheet.objects.get(event__code="mini"))
    assert line.status == Payout.Status.PAID

    # In Finnish: euros with a decimal comma.
    page.set_extra_http_headers({"Accept-Language": "fi"})
    page.goto(f"{live_server.url}/cage/tournaments/mini")
    expect(page.locator("body")).to_contain_text("100,00 €")
    page.screenshot(path=str(SCREENS / "cage-payout-sheet-fi.png"), full_page=True)
