"""The floor in a real browser, in English, Finnish and Korean: a player called from
the list and seated with a buy-in typed in euros, the call's countdown moving on the
server's clock, and a table broken after a confirm step (WL2, WL3, BI1, BI7). The
three languages share one room (a pair of tables each) and one browser, so the
database is set up and emptied once. The screenshots of each step go to
docs/screens/floor/ (``…-fi.png``, ``…-ko.png``)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from accounting.models import Player
from cardroom.models import Room, SeatSession, Table
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
from tests.staff.browser import (
    LANGUAGES,
    browser_in,
    chromium,
    euros,
    say,
    say_count,
    screenshot_name,
)
from waitlist import services as waitlist
from waitlist.models import Entry

__all__ = ["browser_in", "chromium", "open_table", "players", "stock_tray"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.room_evening,
]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "floor"


@pytest.fixture
def clock() -> Clock:
    """The tables open and players sit before the room clock's moment."""
    return Clock(ROOM_EVENING - timedelta(hours=1, minutes=30))


def shot(page, step: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / screenshot_name(step, language)
    page.screenshot(path=str(path), full_page=True)


def sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/floor/")


def test_the_floor_seats_a_player_from_the_list_and_breaks_a_table(
    live_server, browser_in, make_staff, open_table, players, clock
):
    open_page, expect = browser_in
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    more = [f"P-{n}" for n in range(13, 23)]
    Player.objects.bulk_create(
        Player(
            code=c, name=f"Player {c}", id_verified=True, birth_date=date(1985, 1, 1)
        )
        for c in more
    )
    make_staff("fred", Role.FLOOR)
    # Each language's night: a table to look at, one to break, who waits.
    nights = {
        "en": ("T01", players[:4], "T02", players[4:6], players[8]),
        "fi": ("T03", more[0:2], "T04", more[2:4], more[4]),
        "ko": ("T05", more[5:7], "T06", more[7:9], more[9]),
    }
    for language in LANGUAGES:
        looked_at, sitting, broken, moving, waiting = nights[language]
        open_table(looked_at)
        open_table(broken)
        fill(clock, looked_at, sitting)
        fill(clock, broken, moving)
        waitlist.entry_join(waiting_list=nl12(), player_code=waiting)
        page = open_page(language)
        floor_night(page, expect, live_server.url, language, looked_at, broken, waiting)
        # A page left open polls the map: the next language's would wait on it.
        page.context.close()


def floor_night(page, expect, url, language, looked_at, broken, waiting) -> None:
    """Call and seat ``waiting`` from the list, then break table ``broken``."""
    # Sign in: the floor lands on the live map, the room clock in room time.
    sign_in(page, url, "fred")
    table = page.locator(f'[data-table="{looked_at}"]')
    n = SeatSession.objects.filter(table__code=looked_at, ended_at=None).count()
    one, many = "%(n)s of %(seats)s seat taken", "%(n)s of %(seats)s seats taken"
    expect(table).to_contain_text(say_count(language, one, many, n, seats=9))
    expect(table).to_contain_text(euros(20_000, language))
    # 21:05:09 in English and Korean, 21.05.09 in Finnish.
    expect(page.locator("#room-clock")).to_have_text(re.compile(r"^21[:.]0\d[:.]\d\d$"))
    shot(page, "01-map", language)

    # Call the next player from the list: the countdown moves without a reload.
    page.click(f"button:has-text('{say(language, 'Call the next player')}')")
    entry = Entry.objects.get(player__code=waiting)
    where = {"p": f"Player {waiting}", "t": entry.call_table.code}
    where["s"] = entry.call_seat
    expect(page.locator(".messages")).to_contain_text(
        say(language, "%(p)s is called to %(t)s, seat %(s)s.", **where)
    )
    if language == "en":
        countdown = page.locator(".countdown")
        first = countdown.text_content()
        expect(countdown).not_to_have_text(first or "", timeout=3_000)
    shot(page, "02-called", language)

    # A buy-in typed as 50 means €50, below the table's minimum: told in euros.
    seat = f"button:has-text('{say(language, 'Seat the player')}')"
    page.fill('form.seat input[name="amount"]', "50")
    page.click(seat)
    refusal = page.locator(".messages .error")
    expect(refusal).to_contain_text("BI1")
    expect(refusal).to_contain_text(euros(10_000, language))
    expect(refusal).to_contain_text(euros(40_000, language))
    page.fill('form.seat input[name="amount"]', "250")
    page.click(seat)
    expect(page.locator(".messages")).to_contain_text(
        say(language, "%(p)s is seated at %(t)s, seat %(s)s.", **where)
    )
    seated = page.locator(f'[data-table="{entry.call_table.code}"]')
    expect(seated).to_contain_text(euros(25_000, language))
    shot(page, "03-seated", language)

    # Break the table after the confirm step: its players move with their stacks.
    breaking = say(language, "Break the table")
    moved = SeatSession.objects.filter(table__code=broken, ended_at=None).count()
    page.click(f'[data-table="{broken}"] >> text={breaking}')
    expect(page.locator("[data-figure=free]")).to_be_visible()
    shot(page, "04-break-confirm", language)
    page.click(f"button:has-text('{breaking}')")
    done = say(
        language,
        "Table %(t)s is broken: %(moved)d moved, %(waiting)d wait at the head of "
        "the list.",
        t=broken,
        moved=moved,
        waiting=0,
    )
    expect(page.locator(".messages")).to_contain_text(done)
    expect(page.locator(f'[data-table="{broken}"]')).to_have_count(0)
    expect(table).to_contain_text(say(language, "Ask for a correction"))
    shot(page, "05-broken", language)
    assert Table.objects.get(code=broken).status == Table.Status.CLOSED
    assert not SeatSession.objects.filter(table__code=broken, ended_at=None).exists()
