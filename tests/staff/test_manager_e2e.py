"""A manager's approvals in a real browser: a correction, a jackpot hit (with its
confirm step) and a short shift (DC2, BB5, CA1). The screenshots of each step go to
docs/screens/manager/."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounting import cage as cage_services
from accounting.models import Cage, Shift
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
from tests.e2e.conftest import browser_page

__all__ = [
    "browser_page",
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


def shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def test_a_manager_approves_a_correction_a_hit_and_a_shift(
    live_server, browser_page, pools, dealer, make_staff
):
    """Another person asked for the correction, verified the hit and counted the
    shift; the manager decides each from his inbox, the hit after a confirm step;
    then he gives T01's terminal a key."""
    page, expect = browser_page
    url = live_server.url
    fred = make_staff("fred", Role.FLOOR)
    kalle = make_staff("kalle", Role.CASHIER)
    make_staff("mia", Role.MANAGER)
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
    page.set_default_timeout(10_000)

    page.goto(f"{url}/login")
    page.fill('input[name="username"]', "mia")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/manager/")
    expect(page.locator("#corrections")).to_contain_text("€250.00")
    expect(page.locator("#shifts")).to_contain_text("-€30.00")
    shot(page, "1-inbox")

    page.locator("#corrections").get_by_role("button", name="Approve").click()
    expect(page.locator(".messages")).to_contain_text("approved and booked")
    shot(page, "2-correction-approved")

    page.locator("#hits").get_by_role("link", name="Look at the hit").click()
    expect(page.locator(".playing-card.red").first).to_be_visible()
    shot(page, "3-hit")
    page.get_by_role("link", name="Approve…").click()
    expect(page.get_by_role("button", name="Yes, approve and book")).to_be_visible()
    assert Hit.objects.get(pk=hit.pk).status == Hit.Status.VERIFIED
    shot(page, "4-hit-confirm")
    page.get_by_role("button", name="Yes, approve and book").click()
    page.wait_for_url(f"{url}/manager/")
    expect(page.locator(".messages")).to_contain_text("payable at the cage")

    page.locator("#shifts").get_by_placeholder("Your note").fill("counted twice, ok")
    page.locator("#shifts").get_by_role("button", name="Sign off").click()
    expect(page.locator(".messages")).to_contain_text("signed off and closed")
    expect(page.get_by_text("Nothing is waiting for your approval.")).to_be_visible()
    shot(page, "5-all-decided")

    page.get_by_role("link", name="Terminal keys").click()
    page.get_by_label("What it is for").fill("T01 dealer tablet")
    page.get_by_role("button", name="Create the key").click()
    expect(page.locator(".secret")).to_be_visible()
    shot(page, "6-terminal-key-shown-once")

    correction.refresh_from_db()
    shift.refresh_from_db()
    assert correction.status == Correction.Status.APPROVED
    assert Hit.objects.get(pk=hit.pk).status == Hit.Status.APPROVED
    assert (shift.status, shift.sign_off_note) == (
        Shift.Status.CLOSED,
        "counted twice, ok",
    )
