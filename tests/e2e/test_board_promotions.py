"""The promotions on the public board, in a browser (PR6, WL11): an hourly high
hand's leading hand drawn as cards, the prize it would pay now and the time left
running down; a bonus table and aces cracked beside it; in English, Finnish and
Korean, on a 1920×1080 and a 1280×720 screen, nothing cut or off the screen.

The room's clock is moved to the evening the hands were dealt and runs from
there at the pace of the test (never the wall clock's time)."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.utils import translation

from cardroom.models import Room
from cardroom.services import room_default
from cardroom.templatetags.hands import hand_words
from core.money import money_format
from core.roles import Role
from jackpots import services
from jackpots.domain.promotions import EXAMPLES
from tests.api.floor.conftest import HELSINKI, clock, manager, open_table, players
from tests.api.jackpots.conftest import dealer, pools, sweep
from tests.e2e.test_board import OFF_SCREEN
from waitlist import views as board_views

__all__ = ["clock", "dealer", "manager", "open_table", "players", "pools", "sweep"]

pytestmark = pytest.mark.e2e

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "board"
HIGH_HAND = {
    "kind": "high_hand",
    "games": ["NLHE"],
    "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
    "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
    "min_pot_big_blinds": 10,
    "min_dealt_in": 4,
    "period_minutes": 60,
    "carry_over": True,
    "prize": {"fixed": 10_000, "pool_percent": 50, "funding": "both"},
}
# The page shown now, what is off the screen or cut on it, its promotions.
ON_PAGE = f"""() => ({{
  page: document.body.dataset.page,
  off: ({OFF_SCREEN})(),
  cut: [...document.querySelectorAll(".promo, .promo *")]
    .filter((n) => n.getClientRects().length && n.scrollWidth > n.clientWidth + 1)
    .map((n) => n.className + " " + n.textContent.slice(0, 30)),
  promos: [...document.querySelectorAll(".promo")]
    .filter((n) => n.getClientRects().length).map((n) => n.dataset.promotion),
}})"""


class RunningClock:
    """The room's clock from ``start``, running at the test's pace: the board
    counts the time left down between its fetches and each fetch agrees."""

    def __init__(self, start: datetime) -> None:
        self.start, self.since = start, time.monotonic()

    def __call__(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self.since)


@pytest.fixture
def evening(clock, pools, dealer, sweep, make_staff, monkeypatch):
    """Three promotions; four nines lead the hour; the clock at 21:15:30,
    running."""
    room = room_default()
    Room.objects.filter(pk=room.pk).update(name="Casino Helsinki")
    boss = make_staff("promoter", Role.MANAGER)
    for code, name, rules, ratio in (
        ("high-hand", "Hourly high hand", HIGH_HAND, 1),
        ("royal", "Royal flush bonus", EXAMPLES["royal-flush"], 0),
        ("aces", "Aces cracked", EXAMPLES["aces-cracked"], 0),
    ):
        services.promotion_create(
            room=room, code=code, name=name, rules=rules, by=boss, drop_ratio=ratio
        )
    clock.set("2026-11-29T21:10")
    dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})
    sweep()
    monkeypatch.setattr(
        "django.utils.timezone.now",
        RunningClock(datetime(2026, 11, 29, 21, 15, 30, tzinfo=HELSINKI)),
    )
    monkeypatch.setattr(board_views, "REFRESH_SECONDS", 1)
    monkeypatch.setattr(board_views, "PAGE_SECONDS", 2)


def seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return parts[-2] * 60 + parts[-1] + (parts[0] * 3600 if len(parts) == 3 else 0)


@pytest.mark.parametrize("lang", ["en", "fi", "ko"])
def test_the_board_shows_each_running_promotion(
    live_server, browser_page, evening, lang
):
    """PR6: the leading hand as five cards (the two hole cards marked), its
    words and table, the prize it would pay now (€100 from the house and half of
    the 20 cents free) and the time left, running down; the royal flush table and
    aces cracked with their amounts; the words and money in the board's language,
    no player named; nothing cut or off the screen at 1920×1080 or 1280×720."""
    page, expect = browser_page
    with translation.override(lang):
        words = {
            "title": translation.gettext("Promotions"),
            "hand": hand_words("four of a kind, nines"),
            "royal": translation.gettext("Royal flush"),
            "aces": translation.gettext("Pocket aces beaten at a showdown"),
        }
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/board?lang={lang}")
        high = page.locator('.promo[data-promotion="high-hand"]')
        # The side column goes in pages: wait for the one with the high hand.
        expect(high).to_be_visible(timeout=15_000)
        expect(page.locator("#promotions-title")).to_have_text(words["title"])
        cards = high.locator(".pcard")
        expect(cards).to_have_count(5)
        assert cards.all_text_contents() == ["9♠", "9♥", "9♣", "9♦", "K♠"]
        assert high.locator(".pcard.hole").all_text_contents() == ["9♠", "9♥"]
        assert high.locator(".pcard.red").all_text_contents() == ["9♥", "9♦"]
        assert high.locator(".phand").text_content() == words["hand"]
        assert "T01" in high.locator(".plead").text_content()
        assert high.locator(".pprize").text_content() == money_format(
            10_010, "EUR", lang, whole=True
        )
        first = seconds(high.locator(".ptime").text_content())
        assert 40 * 60 < first <= 44 * 60 + 30
        page.wait_for_timeout(2_200)
        later = seconds(high.locator(".ptime").text_content())
        assert first - 4 <= later < first  # running down, as the server agrees

        # Every page of the board: nothing cut or off the screen; each promotion
        # on one of them, the bonuses with their amounts.
        pages = int(page.locator("body").get_attribute("data-pages"))
        shown: dict[str, list[str]] = {}
        while len(shown) < pages:
            now_on = page.evaluate(ON_PAGE)
            assert now_on["off"] == [] and now_on["cut"] == [], (lang, width, now_on)
            shown[now_on["page"]] = now_on["promos"]
            if now_on["promos"]:
                name = f"promo-{lang}-{width}x{height}-page{now_on['page']}.png"
                page.screenshot(path=str(SCREENS / name))
            if pages > 1:
                page.wait_for_function(
                    f"document.body.dataset.page !== '{now_on['page']}'"
                )
        assert sorted(c for codes in shown.values() for c in codes) == [
            "aces",
            "high-hand",
            "royal",
        ]
        royal = page.locator('.promo[data-promotion="royal"] .plines li')
        assert royal.count() == 3
        assert words["royal"] in royal.nth(0).text_content()
        assert royal.nth(0).locator(".pamount").text_content() == money_format(
            50_000, "EUR", lang, whole=True
        )
        aces = page.locator('.promo[data-promotion="aces"] .plines li')
        assert words["aces"] in aces.text_content()
        assert aces.locator(".pamount").text_content() == money_format(
            5_000, "EUR", lang, whole=True
        )
    body = page.content()
    for private in ("P-1", "Player P-1"):
        assert private not in body
