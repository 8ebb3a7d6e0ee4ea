"""The public board in a browser: it follows the lists and the jackpots by itself
(WL11, JD6), shows what doesn't fit one screen in pages, keeps the room's time,
says when it is offline, and the README's screenshot is taken from it."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from accounting import chart
from accounting.models import AccountType, Player
from accounting.services import Leg, account_get_or_open, transaction_post
from cardroom import services as floor
from cardroom.models import Room
from core.money import money_format, stakes_format
from tests.api.floor.conftest import GAMES, POLICY
from waitlist import services
from waitlist import views as board_views

pytestmark = pytest.mark.e2e

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "board.png"
DOCS = SCREENSHOT.parent
# Five more games beside the test's two: seven, each with a long list.
MORE_GAMES = [
    ("T03", "NLHE", 50, 100),
    ("T04", "NLHE", 200, 500),
    ("T05", "NLHE", 500, 1_000),
    ("T06", "PLO5", 200, 500),
    ("T07", "PLO8", 500, 1_000),
]
# The board's own data, with its ?lang= (not the tournament clocks' data).
BOARD_DATA = re.compile(r"/api/v1/board(\?|$)")
# Outside the viewport, outside its region of the board, or text cut short.
OFF_SCREEN = """() => {
  const bad = [];
  for (const node of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE"].includes(node.tagName)) continue;
    if (!node.getClientRects().length) continue;
    const r = node.getBoundingClientRect();
    const region = node.closest(".region");
    const box = region ? region.getBoundingClientRect()
                       : {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
    const out = r.left < Math.max(0, box.left) - 1 || r.top < Math.max(0, box.top) - 1
      || r.right > Math.min(innerWidth, box.right) + 1
      || r.bottom > Math.min(innerHeight, box.bottom) + 1;
    const cut = node.scrollWidth > node.clientWidth + 1;
    if (out || (cut && node !== region))
      bad.push(node.className + " " + node.textContent.slice(0, 30));
  }
  return bad;
}"""
# The page shown now, what is off the screen on it, and its games and places.
ON_PAGE = f"""() => ({{
  page: document.body.dataset.page,
  off: ({OFF_SCREEN})(),
  games: [...document.querySelectorAll(".game")].filter((c) => !c.hidden).map((c) => [
    c.dataset.game || c.dataset.continues,
    [...c.querySelectorAll(".waiting .pos")].map((p) => p.textContent)]),
}})"""


def credit_pool(pool: str, cents: int, name: str = "", reserve: int = 0) -> None:
    if name:  # as the jackpots app names its pools
        account_get_or_open(
            code=f"jackpot:{pool}:pool",
            name=name,
            type=AccountType.LIABILITY,
            currency="EUR",
            non_negative=True,
        )
    legs = [Leg(chart.jackpot_pool(pool=pool), -cents)]
    if reserve:
        legs.append(Leg(chart.jackpot_reserve(pool=pool), -reserve))
    transaction_post(
        kind="jackpot_seed",
        legs=[*legs, Leg(chart.house_capital(), cents + reserve)],
        reference=f"seed {pool}",
        source="e2e",
    )


def open_game(code: str, game: str, seats: int) -> None:
    g = GAMES[game]
    floor.table_open(
        code=code,
        game_code=g["game"],
        small_blind=g["small_blind"],
        big_blind=g["big_blind"],
        min_buy_in=g["min_buy_in"],
        max_buy_in=g["max_buy_in"],
        seats=seats,
        policy=POLICY,
        by=None,
    )


def test_the_board_follows_the_list_and_the_jackpot_without_reloading(
    live_server, browser_page, stock_tray, monkeypatch
):
    """WL11, JD6: the page fetches the board by itself; a player joining a list and
    a jackpot growing appear without a reload, and nothing private shows. Seven
    games with long lists go to pages shown in turn, nothing off the screen, in
    every language; the clock is the room's in another time zone; offline, the
    notice is on the screen and the old data dimmed."""
    page, expect = browser_page
    room = floor.room_default()
    Room.objects.filter(pk=room.pk).update(name="Casino Helsinki")
    open_game("T01", "NL12", 9)
    open_game("T02", "PLO12", 6)
    names = [
        ("Mika Virtanen", ""),
        ("Anna Korhonen", "Jokeri"),
        ("Kim Min-jun", ""),
    ] + [(f"Seated Player{n}", "") for n in range(4, 14)]
    Player.objects.bulk_create(
        Player(
            code=f"P-{n}",
            name=name,
            nickname=nick,
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
        for n, (name, nick) in enumerate(names, 1)
    )
    for table, first, count in (("T01", 4, 7), ("T02", 11, 3)):
        stock_tray(table, 1_000_000)
        for seat_no, n in enumerate(range(first, first + count), 1):
            floor.seat_take(
                table_code=table,
                seat=seat_no,
                player_code=f"P-{n}",
                amount=20_000,
                method="cash",
                source="e2e",
            )
    credit_pool("bad_beat", 1_234_500, name="Bad beat jackpot")
    credit_pool("hand_of_the_month", 98_000, name="Hand of the month")
    nl = services.list_for_game(room.games.get(code="NLHE"))
    services.entry_join(waiting_list=nl, player_code="P-1")

    monkeypatch.setattr(board_views, "REFRESH_SECONDS", 1)
    page.goto(f"{live_server.url}/board")
    page.evaluate("window.boardLoadedOnce = true")
    game = page.locator('[data-game="NLHE-100-200"]')
    expect(game.locator(".waiting li")).to_have_count(1, timeout=15_000)
    expect(game).to_contain_text("M. V.")
    expect(game).to_contain_text("T01 · 7")
    pool = page.locator(".jackpot", has_text="Bad beat jackpot").locator(".amount")
    expect(pool).to_have_text("€12,345")

    services.entry_join(waiting_list=nl, player_code="P-2")
    plo = services.list_for_game(room.games.get(code="PLO"))
    services.entry_join(waiting_list=plo, player_code="P-3")
    services.list_call(waiting_list=nl, table_code="T01")
    credit_pool("bad_beat", 50_050)

    expect(game.locator(".waiting li")).to_have_count(2, timeout=15_000)
    expect(game.locator(".waiting li").nth(1)).to_contain_text("Jokeri")
    expect(game.locator(".waiting li.called")).to_contain_text("M. V. → T01")
    expect(page.locator('[data-game="PLO-100-200"]')).to_contain_text("K. M.")
    expect(pool).to_have_text("€12,845.50", timeout=15_000)
    # The same page all along: no reload, no navigation.
    assert page.evaluate("window.boardLoadedOnce") is True
    body = page.content()
    for private in ("P-1", "Mika", "Virtanen", "Korhonen", "Seated"):
        assert private not in body

    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    # Seven games with long lists: more than one screen, in every language.
    for code, game, small, big in MORE_GAMES:
        floor.table_open(
            code=code,
            game_code=game,
            small_blind=small,
            big_blind=big,
            min_buy_in=big * 50,
            max_buy_in=big * 200,
            seats=9,
            policy=POLICY,
            by=None,
        )
    Player.objects.bulk_create(
        Player(
            code=f"P-{n}",
            name=f"Waiting Player{n}",
            nickname=f"장거리닉네임선수{n}",
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
        for n in range(100, 158)
    )
    lists = [services.list_for_game(g) for g in room.games.order_by("pk")]
    for n, waiting_list in enumerate(lists):
        for k in range(6):
            services.entry_join(
                waiting_list=waiting_list, player_code=f"P-{100 + 6 * n + k}"
            )
    # One list longer than a whole screen: it goes on on the next page.
    longest = services.list_for_game(room.games.get(code="NLHE", big_blind_cents=100))
    for n in range(142, 158):
        services.entry_join(waiting_list=longest, player_code=f"P-{n}")
    expected = {
        f"{g['game']}-{g['small_blind']}-{g['big_blind']}": len(g["waiting"])
        for g in page.evaluate(
            "fetch('/api/v1/board').then((a) => a.json()).then((b) => b.games)"
        )
    }
    assert len(expected) == 7
    monkeypatch.setattr(board_views, "PAGE_SECONDS", 0.4)

    # Another screen, set to New York's time: the board keeps the room's.
    tv = page.context.browser.new_page(
        viewport={"width": 1920, "height": 1080}, timezone_id="America/New_York"
    )
    for lang in ("ko", "fi", "en"):
        tv.goto(f"{live_server.url}/board?lang={lang}")
        expect(tv.locator("#pages")).to_be_visible(timeout=10_000)
        pages = int(tv.locator("body").get_attribute("data-pages"))
        assert pages > 1
        shown: dict[str, list[list]] = {}
        while len(shown) < pages:
            now_on = tv.evaluate(ON_PAGE)
            assert now_on["off"] == [], (lang, now_on)
            shown[now_on["page"]] = now_on["games"]
            if lang == "ko" and now_on["page"] == "1":
                tv.screenshot(path=str(DOCS / "board-pages-ko.png"))
            tv.wait_for_function(f"document.body.dataset.page !== '{now_on['page']}'")
        places: dict[str, list[str]] = {}
        for games in shown.values():
            for game, positions in games:
                places.setdefault(game, []).extend(positions)
        # Every game on some page, every place on its list once.
        assert {g: len(set(p)) for g, p in places.items()} == expected, lang
        assert all(len(p) == len(set(p)) for p in places.values()), lang
        assert len(places["NLHE-50-100"]) == 22

    # The room's minute, read a moment after the page showed it: on a loaded
    # machine the minute may have turned since.
    room_now = timezone.localtime(timezone.now(), room.tz)
    in_room = {f"{room_now + timedelta(minutes=m):%H:%M}" for m in (-1, 0, 1)}
    assert tv.locator("#clock").get_attribute("datetime") in in_room

    tv.set_viewport_size({"width": 1080, "height": 1920})
    tv.wait_for_timeout(300)
    assert tv.evaluate(OFF_SCREEN) == []
    tv.screenshot(path=str(DOCS / "board-pages-portrait.png"))
    tv.set_viewport_size({"width": 1920, "height": 1080})

    # The server stops answering: the notice is on the screen, the data dimmed.
    tv.route(BOARD_DATA, lambda route: route.abort())
    notice = tv.locator("#status")
    expect(notice).to_be_visible(timeout=5_000)
    expect(notice).to_contain_text("Reconnecting…")
    expect(notice).to_contain_text("Last updated")
    expect(tv.locator("body")).to_have_class("stale")
    box = notice.bounding_box()
    assert box and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080
    tv.screenshot(path=str(DOCS / "board-offline.png"))
    tv.unroute(BOARD_DATA)
    expect(notice).to_be_hidden(timeout=5_000)
    expect(tv.locator("body")).not_to_have_class("stale")


def test_the_board_shows_money_and_stakes_as_core_money_writes_them(
    live_server, browser_page, monkeypatch
):
    """Issue 33: the board shows the jackpots, their reserves and the stakes
    exactly as core.money writes them in the board's language (Finnish, Korean),
    written by the server, not by the browser; offline it keeps showing them."""
    page, expect = browser_page
    floor.room_default()
    open_game("T01", "NL051", 9)
    credit_pool("bad_beat", 1_234_550, name="Bad beat jackpot", reserve=250_000)
    monkeypatch.setattr(board_views, "REFRESH_SECONDS", 1)
    # A screen set up for another country: the board writes the board's language.
    tv = page.context.browser.new_page(
        viewport={"width": 1920, "height": 1080}, locale="de-DE"
    )
    for lang, amount, reserve, stakes in (
        ("fi", "12\xa0345,50\xa0€", "2\xa0500\xa0€", "0,50/1"),
        ("ko", "€12,345.50", "€2,500", "0.50/1"),
    ):
        assert amount == money_format(1_234_550, "EUR", lang)
        assert reserve == money_format(250_000, "EUR", lang, whole=True)
        assert stakes == stakes_format(50, 100, "EUR", lang)
        with translation.override(lang):
            reserve_label = translation.gettext("reserve")
        tv.goto(f"{live_server.url}/board?lang={lang}")
        jackpot = tv.locator(".jackpot", has_text="Bad beat jackpot")
        expect(jackpot.locator(".amount")).to_have_text(amount, timeout=15_000)
        expect(jackpot.locator(".reserve")).to_have_text(f"{reserve_label} {reserve}")
        expect(tv.locator('[data-game="NLHE-50-100"] h3')).to_have_text(
            f"NLHE {stakes}"
        )
        # Character for character (to_have_text folds the no-break spaces).
        assert jackpot.locator(".amount").text_content() == amount
        assert (
            jackpot.locator(".reserve").text_content() == f"{reserve_label} {reserve}"
        )

    # Offline: the last amounts stay on the screen, as the server wrote them.
    tv.route(BOARD_DATA, lambda route: route.abort())
    expect(tv.locator("#status")).to_be_visible(timeout=5_000)
    expect(jackpot.locator(".amount")).to_have_text("€12,345.50")
    expect(tv.locator('[data-game="NLHE-50-100"] h3')).to_have_text("NLHE 0.50/1")
