"""The floor in a real browser: a player called from the list and seated with a
buy-in typed in euros, the call's countdown moving on the server's clock, and a
table broken after a confirm step (WL2, WL3, BI1, BI7); the map in Finnish and
Korean. The screenshots of each step go to docs/screens/floor/."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from cardroom.models import Room, SeatSession, Table
from core.roles import Role
from tests.conftest import PASSWORD, ROOM_EVENING
from tests.e2e.conftest import browser_page
from tests.integration.waitlist.conftest import (
    Clock,
    fill,
    nl12,
    open_table,
    players,
    stock_tray,
)
from waitlist import services as waitlist
from waitlist.models import Entry

__all__ = ["browser_page", "open_table", "players", "stock_tray"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "floor"


@pytest.fixture
def clock() -> Clock:
    """The tables open and players sit before the room clock's moment."""
    return Clock(ROOM_EVENING - timedelta(hours=1, minutes=30))


def shot(page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/floor/")


def test_the_floor_seats_a_player_from_the_list_and_breaks_a_table(
    live_server, browser_page, make_staff, open_table, players, clock
):
    page, expect = browser_page
    url = live_server.url
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    open_table("T01")
    open_table("T02")
    fill(clock, "T01", players[:4])
    fill(clock, "T02", players[4:6])
    waitlist.entry_join(waiting_list=nl12(), player_code=players[8])
    make_staff("fred", Role.FLOOR)
    page.set_default_timeout(10_000)

    # Sign in: the floor lands on the live map, the room clock in room time.
    sign_in(page, url, "fred")
    t01 = page.locator('[data-table="T01"]')
    expect(t01).to_contain_text("4 of 9 seats taken")
    expect(t01).to_contain_text("€200.00")
    expect(page.locator("#room-clock")).to_have_text(re.compile(r"^21:0\d:\d\d$"))
    shot(page, "01-map")

    # Call the next player from the list: the countdown moves without a reload.
    page.click("button:has-text('Call the next player')")
    entry = Entry.objects.get(player__code=players[8])
    where = f"{entry.call_table.code}, seat {entry.call_seat}"
    expect(page.locator(".messages")).to_contain_text(
        f"Player {players[8]} is called to {where}."
    )
    countdown = page.locator(".countdown")
    first = countdown.text_content()
    expect(countdown).not_to_have_text(first or "", timeout=3_000)
    shot(page, "02-called")

    # A buy-in typed as 50 means €50, below the table's minimum: told in euros.
    page.fill('form.seat input[name="amount"]', "50")
    page.click("button:has-text('Seat the player')")
    expect(page.locator(".messages .error")).to_have_text(
        "BI1: a buy-in here is between €100.00 and €400.00."
    )
    page.fill('form.seat input[name="amount"]', "250")
    page.click("button:has-text('Seat the player')")
    expect(page.locator(".messages")).to_contain_text(
        f"Player {players[8]} is seated at {where}."
    )
    seated = page.locator(f'[data-table="{entry.call_table.code}"]')
    expect(seated).to_contain_text("€250.00")
    shot(page, "03-seated")

    # Break T02 after the confirm step: its players move with their stacks.
    page.click('[data-table="T02"] >> text=Break the table')
    expect(page.locator("[data-figure=free]")).to_contain_text("free seats")
    shot(page, "04-break-confirm")
    page.click("button:has-text('Break the table')")
    expect(page.locator(".messages")).to_contain_text("Table T02 is broken")
    expect(page.locator('[data-table="T02"]')).to_have_count(0)
    expect(page.locator('[data-table="T01"]')).to_contain_text("seats taken")
    shot(page, "05-broken")
    assert Table.objects.get(code="T02").status == Table.Status.CLOSED
    assert set(
        SeatSession.objects.filter(ended_at=None).values_list("table__code", flat=True)
    ) == {"T01"}

    # The map in Finnish and Korean: the same floor person, his browser's language.
    for language, word in (("fi", "Pyydä korjausta"), ("ko", "정정 요청")):
        page.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{url}/floor/")
        expect(page.locator('[data-table="T01"]')).to_contain_text(word)
        shot(page, f"{language}-01-map")
