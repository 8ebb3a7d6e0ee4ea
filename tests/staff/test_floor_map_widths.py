"""The floor's table map at the widths of the room's screens (1280, 1366 and
1920 px), in English and Finnish, with long names, big stacks and every tag a
seat can show: no table card's content runs out of its card. Screenshots go to
docs/screens/night/floor-map-<width>-<language>.png."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from accounting.models import Player
from cardroom import services as floor
from cardroom.models import Room, Table
from core.roles import Role
from tests.conftest import PASSWORD, ROOM_EVENING
from tests.integration.waitlist.conftest import Clock, open_table, sit, stock_tray
from tests.staff.browser import browser_in, chromium, say
from waitlist import services as waitlist

__all__ = ["browser_in", "chromium", "open_table", "stock_tray"]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "night"
WIDTHS = (1280, 1366, 1920)
# Long names as a Finnish room has them, and a code as long as the field allows.
NAMES = [
    "Aleksanteri Kristiansson-Hämäläinen",
    "Marja-Leena Vähä-Pietilä-Korhonen",
    "Juha-Pekka Järvenpää-Rautiainen",
    "Hannu-Tapani Kärkkäinen",
    "Kyllikki Ylönen-Väisänen",
    "Eeva-Kaarina Lindqvist-Östman",
]

# Every element of a card whose box runs outside the card's box (1 px slack for
# rounding), and whether the card scrolls sideways.
OVERFLOWS = """
() => [...document.querySelectorAll('.table-card')].map(card => {
  const box = card.getBoundingClientRect();
  const out = [...card.querySelectorAll('*')].filter(el => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
  }).map(el => el.tagName + '.' + el.className + ': ' + el.textContent.trim()
    .slice(0, 40));
  return {table: card.dataset.table, scroll: card.scrollWidth,
          client: card.clientWidth, out};
})
"""


@pytest.fixture
def clock() -> Clock:
    return Clock(ROOM_EVENING - timedelta(hours=3))


@pytest.fixture
def night(open_table, clock, make_staff):
    """Three full tables of long names with big stacks, away players, a call and
    a must-move."""
    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    codes = [f"P-{100_000 + n}" for n in range(30)]
    Player.objects.bulk_create(
        Player(
            code=c,
            name=NAMES[n % len(NAMES)],
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
        for n, c in enumerate(codes)
    )
    make_staff("fred", Role.FLOOR)
    for t in ("T01", "T02", "T03"):
        open_table(t, seats=10)
    taken = iter(codes)
    for t, seats in (("T01", 10), ("T02", 9), ("T03", 6)):
        for seat in range(1, seats + 1):
            sit(clock, t, seat, next(taken), amount=40_000)
    clock.advance(hours=2, minutes=47)
    floor.seat_away(table_code="T01", seat=3, now=clock.now)
    floor.seat_away(table_code="T02", seat=5, now=clock.now)
    waitlist.must_move_start(table_code="T03", main_code="T02", now=clock.now)
    game_list = waitlist.list_for_game(Table.objects.get(code="T01").game)
    waitlist.entry_join(waiting_list=game_list, player_code=next(taken), now=clock.now)
    waitlist.list_call(waiting_list=game_list, table_code="T03", seat=8, now=clock.now)


@pytest.mark.parametrize("language", ("en", "fi"))
def test_no_card_of_the_map_overflows(live_server, browser_in, night, language):
    open_page, _expect = browser_in
    page = open_page(language)
    page.goto(f"{live_server.url}/login")
    page.fill('input[name="username"]', "fred")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{live_server.url}/floor/")
    assert say(language, "Played tonight") in page.content()
    SCREENS.mkdir(parents=True, exist_ok=True)
    found = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 1000})
        page.wait_for_timeout(100)  # the layout after the resize
        cards = page.evaluate(OVERFLOWS)
        assert len(cards) == 3
        page.locator("#map").screenshot(
            path=str(SCREENS / f"floor-map-{width}-{language}.png")
        )
        found[width] = [c for c in cards if c["scroll"] > c["client"] or c["out"]]
    assert found == {width: [] for width in WIDTHS}
