"""A waiting list's whole screen in a browser, in English and Korean: reached from
the floor's home in the staff screens' frame (their bar, the floor's navigation
and the room clock), a player called to a named table and seated with a buy-in
typed in euros, another taken off the list (WL1–WL10)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.models import Room, SeatSession
from core.roles import Role
from tests.conftest import PASSWORD, ROOM_EVENING
from tests.integration.waitlist.conftest import (
    Clock,
    fill,
    nl12,
    open_table,
    players,
    stock_tray,
)
from tests.staff.browser import browser_in, chromium, say
from waitlist import services as waitlist
from waitlist.models import Entry

__all__ = ["browser_in", "chromium", "open_table", "players", "stock_tray"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.room_evening,
]


@pytest.fixture
def clock() -> Clock:
    """The tables open and players sit before the room clock's moment."""
    return Clock(ROOM_EVENING - timedelta(hours=1, minutes=30))


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_floor_works_a_whole_list_in_the_staff_frame(
    live_server, browser_in, make_staff, open_table, players, clock, language, tmp_path
):
    open_page, expect = browser_in
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    make_staff("fred", Role.FLOOR)
    open_table("T01", seats=4)
    fill(clock, "T01", players[:2])
    waitlist.entry_join(waiting_list=nl12(), player_code=players[5])
    waitlist.entry_join(waiting_list=nl12(), player_code=players[6])
    page = open_page(language)
    url = live_server.url
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', "fred")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/floor/")

    # The floor's home leads to the whole list, a staff screen like the others.
    page.click(f"a:has-text('{say(language, 'The whole list')}')")
    page.wait_for_url(f"{url}/floor/lists/{nl12().pk}")
    expect(page.locator("header.bar .brand")).to_have_text("Casino Helsinki")
    expect(page.locator("header.bar nav")).to_contain_text(say(language, "Floor"))
    expect(page.locator("#room-clock")).to_be_visible()
    expect(page.locator("#queue")).to_contain_text(f"Player {players[6]}")
    page.screenshot(path=str(tmp_path / f"list-{language}.png"), full_page=True)

    # Call the next player to T01, then seat him with €200.
    page.locator('[data-table="T01"]').get_by_role(
        "button", name=say(language, "Call next")
    ).click()
    entry = Entry.objects.get(player__code=players[5])
    called = {"p": f"Player {players[5]}", "t": "T01", "s": entry.call_seat}
    expect(page.locator(".messages")).to_contain_text(
        say(language, "%(p)s is called to %(t)s, seat %(s)s.", **called)
    )
    page.screenshot(path=str(tmp_path / f"called-{language}.png"), full_page=True)
    row = page.locator(f'#queue tr[data-player="{players[5]}"]')
    row.locator('input[name="amount"]').fill("200")
    row.get_by_role("button", name=say(language, "Seat the player")).click()
    expect(page.locator(".messages")).to_contain_text(
        say(language, "%(p)s is seated at %(t)s, seat %(s)s.", **called)
    )
    page.screenshot(path=str(tmp_path / f"seated-{language}.png"), full_page=True)

    # The other one goes home: off the list.
    page.locator(f'#queue tr[data-player="{players[6]}"]').get_by_role(
        "button", name=say(language, "Remove")
    ).click()
    expect(page.locator(".messages")).to_contain_text(
        say(language, "Removed from the list.")
    )
    assert Entry.objects.get(player__code=players[6]).status == "removed"
    assert SeatSession.objects.filter(player__code=players[5], ended_at=None).exists()
