"""The public board in a browser: it follows the lists and the jackpots by itself
(WL11, JD6), and the README's screenshot is taken from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounting import chart
from accounting.models import AccountType, Player
from accounting.services import Leg, account_get_or_open, transaction_post
from cardroom import services as floor
from cardroom.models import Room
from tests.api.floor.conftest import GAMES, POLICY
from waitlist import services

pytestmark = pytest.mark.e2e

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "board.png"


def credit_pool(pool: str, cents: int, name: str = "") -> None:
    if name:  # as the jackpots app names its pools
        account_get_or_open(
            code=f"jackpot:{pool}:pool",
            name=name,
            type=AccountType.LIABILITY,
            currency="EUR",
            non_negative=True,
        )
    transaction_post(
        kind="jackpot_seed",
        legs=[
            Leg(chart.jackpot_pool(pool=pool), -cents),
            Leg(chart.house_capital(), cents),
        ],
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
    live_server, browser_page, stock_tray
):
    """WL11, JD6: the page fetches the board by itself; a player joining a list and
    a jackpot growing appear without a reload, and nothing private shows."""
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
        Player(code=f"P-{n}", name=name, nickname=nick, id_verified=True)
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
