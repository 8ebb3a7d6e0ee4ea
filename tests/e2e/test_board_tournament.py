"""The tournament clock on the public board, in a browser (TO12, WL11): beside the
cash games, following the floor's changes without a reload, in English, Finnish
and Korean, and fitting a 1080-pixel screen."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from accounting import chart as ledger_chart
from accounting.models import Player
from accounting.services import Leg, transaction_post
from cardroom import services as floor_services
from cardroom.models import Room
from core.money import money_format
from core.roles import Role
from tests.e2e.test_board import open_game
from tournaments import chart, services
from tournaments.models import ChipMovement, Entry, Event, EventTable, Level, Structure

pytestmark = pytest.mark.e2e

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs"
SCREENS = SCREENSHOTS / "screens" / "tournaments"


def running_event(room: Room, *, players: int = 27, busted: int = 4) -> Event:
    """A €100 event with ``players`` entries, ``busted`` of them out, and chips."""
    structure = Structure.objects.create(code="deep", name="Deep stack")
    periods = [(100, 200, 0), (200, 400, 400), None, (300, 600, 600), (500, 1000, 1000)]
    for number, blinds in enumerate(periods, start=1):
        if blinds is None:
            Level.objects.create(
                structure=structure, number=number, minutes=10, is_break=True
            )
        else:
            Level.objects.create(
                structure=structure,
                number=number,
                small_blind=blinds[0],
                big_blind=blinds[1],
                ante=blinds[2],
                big_blind_ante=bool(blinds[2]),
                minutes=20,
            )
    event = Event.objects.create(
        room=room,
        code="sunday-100",
        name="Sunday Deepstack €100",
        currency="EUR",
        structure=structure,
        status=Event.Status.RUNNING,
        starts_at=timezone.now() - timedelta(minutes=30),
        buy_in_cents=10_000,
        fee_cents=1_500,
        starting_stack=25_000,
        guarantee_cents=300_000,
        payout_unit_cents=500,
        payout_table=[
            {"min_entries": 1, "shares": [10_000]},
            {"min_entries": 10, "shares": [5_000, 3_000, 2_000]},
            {"min_entries": 20, "shares": [3_500, 2_500, 1_800, 1_200, 1_000]},
        ],
    )
    for n in (1, 2, 3):
        EventTable.objects.create(event=event, table=f"TT{n}", seats=9, break_order=n)
    Player.objects.bulk_create(
        Player(code=f"P-{500 + n}", name=f"Player {n}", id_verified=True)
        for n in range(players)
    )
    for n in range(players):
        entry = Entry.objects.create(
            event=event,
            player=Player.objects.get(code=f"P-{500 + n}"),
            number=n + 1,
            kind=Entry.Kind.ENTRY,
            entered_at=timezone.now(),
            status=Entry.Status.BUSTED if n < busted else Entry.Status.ACTIVE,
        )
        ChipMovement.objects.create(
            event=event, entry=entry, cause="entry", chips=25_000, source="e2e",
            at=timezone.now(),
        )  # fmt: skip
    transaction_post(
        kind="tournament_entry",
        legs=[
            Leg(chart.prize_pool(event=event.code, currency="EUR"), -players * 10_000),
            Leg(ledger_chart.house_capital(), players * 10_000),
        ],
        reference="e2e entries",
        source="e2e",
    )
    return event


def no_overflow(page) -> list[str]:
    """What doesn't fit: the page wider than the screen, or a clock's text cut."""
    return page.evaluate(
        """() => {
          const bad = [];
          const root = document.documentElement;
          if (root.scrollWidth > root.clientWidth) bad.push("page " + root.scrollWidth);
          for (const node of document.querySelectorAll(
              ".tclock, .tclock *, .game, .jackpot")) {
            if (node.scrollWidth > node.clientWidth + 1)
              bad.push(node.className + " " + node.textContent.slice(0, 40));
          }
          return bad;
        }"""
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Tournaments", "Level 1", "Players left", "Prize pool", "Paused")),
        ("fi", ("Turnaukset", "Taso 1", "Pelaajia jäljellä", "Palkintopotti",
                "Pysäytetty")),
        ("ko", ("토너먼트", "레벨 1", "남은 플레이어", "상금", "일시 정지")),
    ],
)  # fmt: skip
def test_the_clock_shows_beside_the_cash_games_and_follows_the_floor(
    live_server, browser_page, stock_tray, make_staff, lang, words
):
    """TO12: level, blinds and ante, time left as mm:ss, next break, players left,
    average stack, the real prize pool beside the guarantee, and places paid; a
    pause and a move show without a reload, and nothing overflows at 1920×1080 or
    1080 wide."""
    page, expect = browser_page
    room = floor_services.room_default()
    Room.objects.filter(pk=room.pk).update(name="Casino Helsinki")
    open_game("T01", "NL12", 9)
    event = running_event(room)
    boss = make_staff("tina", Role.FLOOR)
    now = timezone.now()
    services.clock_change(
        event_code=event.code,
        action="start",
        by=boss,
        now=now - timedelta(minutes=7, seconds=30),
    )
    services.clock_change(event_code=event.code, action="pause", by=boss, now=now)

    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/board?lang={lang}")
    page.evaluate("window.boardLoadedOnce = true")
    card = page.locator('.tclock[data-event="sunday-100"]')
    expect(card.locator(".ttime")).to_have_text("12:30", timeout=15_000)
    for word in words:
        expect(page.locator("body")).to_contain_text(word)
    expect(card.locator(".tblinds")).to_contain_text("100")
    expect(card.locator(".tblinds")).to_contain_text("200")
    # 23 players left of 27; 27 × 25,000 chips over 23; the real prize pool (27 ×
    # €100), the guarantee beside it (TO7); 5 paid.
    stats = card.locator("dd")
    expect(stats.nth(0)).to_have_text("23 / 27")
    assert "29" in stats.nth(1).inner_text() and "347" in stats.nth(1).inner_text()
    # The money as core.money writes it in the board's language (issue 33).
    assert stats.nth(2).text_content() == money_format(270_000, "EUR", lang, whole=True)
    with translation.override(lang):
        guaranteed = translation.gettext("Guaranteed")
    assert card.locator(".tguarantee").text_content() == (
        f"{guaranteed} {money_format(300_000, 'EUR', lang, whole=True)}"
    )
    expect(stats.nth(3)).to_have_text("5")
    # Next break: 12:30 of level 1 and 20:00 of level 2.
    expect(card.locator(".tnext")).to_contain_text("32:30")
    # The board swaps its content as it refreshes: wait for the cash game's row.
    expect(page.locator('[data-game="NLHE-100-200"]')).to_have_count(1)
    assert no_overflow(page) == []
    if lang == "en":
        page.screenshot(path=str(SCREENSHOTS / "board-tournament.png"))
    SCREENS.mkdir(parents=True, exist_ok=True)
    name = "board.png" if lang == "en" else f"board-{lang}.png"
    page.screenshot(path=str(SCREENS / name))

    services.clock_change(event_code=event.code, action="resume", by=boss)
    services.clock_change(event_code=event.code, action="move", level=2, by=boss)
    expect(card.locator(".tlevel")).to_contain_text(words[1][:-1] + "2", timeout=15_000)
    expect(card.locator(".tblinds")).to_contain_text("400")
    expect(card.locator(".tante")).to_contain_text("400")
    assert page.evaluate("window.boardLoadedOnce") is True

    page.set_viewport_size({"width": 1080, "height": 1920})
    page.wait_for_timeout(300)
    assert no_overflow(page) == []
    page.set_viewport_size({"width": 1080, "height": 1080})
    page.wait_for_timeout(300)
    assert no_overflow(page) == []
    body = page.content()
    for private in ("P-5", "Player 1"):
        assert private not in body
