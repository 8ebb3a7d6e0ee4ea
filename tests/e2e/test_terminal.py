"""The reference table terminal (issue 37) on a tablet, against a real server.

gunicorn serves the product on a committed database, on the test's clock; the
terminal runs in Debian's Chromium on a tablet's viewport (1180 x 820 landscape,
820 x 1180 portrait), its clock Playwright's, set to the same moment. A manager
makes a pairing code over the API; the dealer types it. Then the dealer deals:
every hand is booked, once, and every seat's stack on the tablet is its stack
account's balance in the ledger. With the server stopped the dealer deals on;
started again, the ten hands queued on the tablet are booked once each, in order.

The taps the dealer makes are counted (a tap is one click of the test).
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils.translation.trans_real import DjangoTranslation

from accounting import chart
from accounting.models import Player
from cardroom import services as floor
from cardroom.models import Hand, SeatSession
from core.models import IdempotencyRecord
from jackpots import services as jackpots
from jackpots.models import Pool
from tests.api.floor.conftest import HELSINKI, clock, manager, open_table, players, seat
from tests.reliability.conftest import Web
from tests.staff.browser import chromium
from waitlist import services as waitlist
from waitlist.models import Entry

__all__ = ["chromium", "clock", "manager", "open_table", "players"]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "docs" / "screens" / "terminal"
TABLE = "T01"
AT = datetime(2026, 11, 29, 21, 0, tzinfo=HELSINKI)
LANDSCAPE = {"width": 1180, "height": 820}
PORTRAIT = {"width": 820, "height": 1180}
LANGUAGES = ("en", "fi", "ko")
NAMES = {
    "P-1": "Aino Virtanen",
    "P-2": "Mika Korhonen",
    "P-3": "Kim Min-jun",
    "P-4": "Lee Seo-yeon",
    "P-5": "Johan Lindqvist",
    "P-6": "Sara Nieminen",
    "P-7": "Park Ji-ho",
    "P-8": "Emma Laine",
    "P-9": "Ville Mäkinen",
    "P-10": "Choi Yuna",
}

# What the terminal holds, read from the page (its IndexedDB's copy in memory).
STATE = """() => {
  const t = window.terminal;
  const s = t.hand && t.hand.hand;
  const live = s && !s.over;
  return {
    screen: document.body.dataset.screen,
    events: s ? s.events.length : null,
    toAct: live ? s.toAct : null,
    options: live && s.toAct !== null ? s.options() : null,
    needs: live && s.toAct === null ? s.needs() : null,
    plan: t.hand ? t.hand.log.plan : null,
    seats: t.table ? t.table.seats : [],
    lastHandNo: t.table ? t.table.lastHandNo : null,
    waiting: t.outbox.waiting().length,
    refused: t.outbox.refused().length,
    online: t.outbox.online,
    push: t.push ? {source: t.push.source, settlement: t.push.settlement,
                    record: t.push.record} : null,
  };
}"""


def js_say(language: str, message: str) -> str:
    """``message`` as the terminal's catalogue (djangojs) of ``language`` has it."""
    return DjangoTranslation(language, domain="djangojs").gettext(message)


class Tablet:
    """The dealer's tablet: taps, counted, and what the terminal shows."""

    def __init__(self, page: Any, expect: Any, base: str) -> None:
        self.page = page
        self.expect = expect
        self.base = base
        self.taps = 0
        self.posted: list[str] = []
        page.on("request", self._seen)

    def _seen(self, request: Any) -> None:
        if request.method == "POST" and "/hands" in request.url:
            self.posted.append(request.url)

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.taps += 1

    def state(self) -> dict[str, Any]:
        return self.page.evaluate(STATE)

    def wait_events(self, events: int) -> None:
        self.page.wait_for_function(
            "n => document.body.dataset.events === String(n)"
            " || document.body.dataset.screen !== 'hand'",
            arg=events,
        )

    def act(self, action: str) -> None:
        """One action of the seat to act, and wait for the terminal to draw it."""
        events = self.state()["events"]
        self.tap(f'.actions [data-action="{action}"]')
        self.wait_events(events + 1)

    def cards(self, *cards: str) -> None:
        """Pick ``cards`` in the open card picker (it closes on the last one)."""
        state = self.state()
        picker = self.page.locator('dialog[data-sheet="cards"]')
        self.expect(picker).to_be_visible()
        for card in cards:
            self.tap(f'dialog[data-sheet="cards"] button[data-card="{card}"]')
        if state["screen"] == "hand" and state["events"] is not None:
            self.wait_events(state["events"] + 1)

    def deal(self) -> dict[str, Any]:
        self.tap('[data-action="deal"]')
        self.page.wait_for_selector('body[data-screen="hand"]')
        return self.state()["plan"]

    def play(self, script: dict[int, str]) -> None:
        """A betting round, each seat acting as ``script`` says, in order: ``c``
        check or call, ``x`` check, ``r`` the minimum bet or raise, ``a`` all in,
        ``f`` fold. A seat past its script checks when it can, else folds."""
        moves = {seat: list(letters) for seat, letters in script.items()}
        while (state := self.state())["toAct"] is not None:
            options = state["options"]
            letters = moves.get(state["toAct"]) or []
            letter = letters.pop(0) if letters else ("x" if options["check"] else "f")
            self.act(
                {
                    "c": "check" if options["check"] else "call",
                    "x": "check",
                    "r": "raise-min" if options["raise"] else "bet-min",
                    "a": "allin",
                    "f": "fold",
                }[letter]
            )

    def showdown(self, hands: list[tuple[str, ...] | None]) -> None:
        """Each seat asked shows its cards, in the order asked (``None``: mucks)."""
        for cards in hands:
            needs = self.state()["needs"]
            assert needs and needs["kind"] == "showdown", needs
            if cards is None:
                self.act("muck")
            else:
                self.show(*cards)

    def next_plan(self) -> dict[str, Any]:
        return self.page.evaluate(
            """async () => {
              const d = await import("/static/terminal/js/app/dealer.js");
              const t = window.terminal;
              return d.nextPlan(t.table, {post: t.postNow || [],
                                          straddle: Boolean(t.straddleNext)}).plan;
            }"""
        )

    def refresh(self) -> None:
        """Let the terminal's own timer read the table again (the page's clock)."""
        self.page.clock.run_for(21_000)
        self.booked()

    def show(self, *cards: str) -> None:
        self.tap('.actions [data-action="show"]')
        self.cards(*cards)

    def seat_sheet(self, seat_no: int, action: str) -> None:
        """Tap a seat, then one of its sheet's keys; wait for the table read."""
        self.tap(f'.felt [data-seat="{seat_no}"]')
        self.tap(f'dialog[data-sheet="seat"] [data-action="{action}"]')
        self.page.wait_for_selector('dialog[data-sheet="seat"]', state="detached")
        self.booked()

    def settled(self) -> dict[str, Any]:
        """The push screen with its settlement."""
        self.page.wait_for_selector(
            'body[data-screen="push"] [data-action="post"]:not([disabled])'
        )
        push = self.state()["push"]
        assert push["settlement"] is not None
        return push

    def post(self) -> dict[str, Any]:
        push = self.settled()
        self.tap('[data-action="post"]')
        self.page.wait_for_selector('body[data-screen="table"]')
        return push

    def booked(self, timeout: float = 15_000) -> None:
        """Wait until no hand waits and the table was read again."""
        self.page.wait_for_function(
            "() => window.terminal.outbox.waiting().length === 0"
            " && !window.terminal.reading",
            timeout=timeout,
        )

    def language(self, code: str) -> None:
        self.page.locator(f'[data-lang="{code}"]').click()
        self.page.wait_for_function(
            "code => document.documentElement.lang === code"
            " && document.querySelector(`[data-lang='${code}'].on`)",
            arg=code,
        )

    def shoot(self, step: str, says: tuple[str, str] | None = None) -> None:
        """The screen in every language, the dialogs open included; ``says``: an
        element and the message it shows, as each language's catalogue has it."""
        for code in LANGUAGES:
            self.language(code)
            if says is not None:
                selector, message = says
                self.expect(self.page.locator(selector)).to_contain_text(
                    js_say(code, message)
                )
            name = f"{step}.png" if code == "en" else f"{step}-{code}.png"
            self.page.screenshot(path=str(SCREENS / name))
        self.language("en")


def portrait(tablet: Tablet, step: str) -> None:
    """The screen on the tablet held upright (in English)."""
    tablet.page.set_viewport_size(PORTRAIT)
    tablet.page.screenshot(path=str(SCREENS / f"{step}.png"))
    tablet.page.set_viewport_size(LANDSCAPE)


def web_server(tmp_path: Path, monkeypatch: Any) -> Web:
    # No collectstatic in the tests: WhiteNoise serves the apps' static folders.
    monkeypatch.setenv("WHITENOISE_USE_FINDERS", "true")
    return Web(tmp_path / "gunicorn.log", workers=1, threads=4)


def open_tablet(chromium: Any, web: Web, viewport: dict[str, int] = LANDSCAPE) -> Any:
    browser, expect = chromium
    context = browser.new_context(
        locale="en-GB",
        viewport=viewport,
        timezone_id="Europe/Helsinki",
        service_workers="allow",
        has_touch=True,
    )
    context.clock.install(time=AT)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, Tablet(page, expect, f"http://127.0.0.1:{web.port}")


def name_players(codes: list[str]) -> None:
    for code, name in NAMES.items():
        Player.objects.filter(code=code).update(name=name)


def pair(tablet: Tablet, manager: Any) -> str:
    """A manager makes a code over the API; the dealer types it on the tablet."""
    answer = manager.post("/api/v1/terminal-pairings", {"table": TABLE}, format="json")
    assert answer.status_code == 201, answer.content
    code = answer.json()["code"]
    tablet.page.goto(f"{tablet.base}/terminal/")
    tablet.page.wait_for_selector('body[data-ready="true"][data-screen="pairing"]')
    tablet.page.locator("#pair-code").fill(code)
    tablet.tap('[data-action="pair"]')
    tablet.page.wait_for_selector('body[data-screen="table"] [data-action="deal"]')
    return code


def stacks_agree(tablet: Tablet) -> dict[int, int]:
    """Every seat's stack on the tablet is the ledger's balance of the player's
    stack account at the table, and the seat session's; return them by seat."""
    on_tablet = {s["seat"]: s for s in tablet.state()["seats"]}
    sessions = SeatSession.objects.filter(
        table__code=TABLE, ended_at__isnull=True
    ).select_related("player")
    assert {s.seat for s in sessions} == set(on_tablet)
    stacks = {}
    for session in sessions:
        account = chart.player_stack(player=session.player.code, table=TABLE)
        shown = on_tablet[session.seat]
        assert shown["player"] == session.player.code
        assert session.stack_cents == account.balance_cents == shown["stack"], (
            session.seat
        )
        stacks[session.seat] = shown["stack"]
    return stacks


def booked_in_order(numbers: list[int]) -> None:
    """Each hand booked once, in the order dealt, as the tablet posted it."""
    hands = list(Hand.objects.filter(table__code=TABLE).order_by("pk"))
    assert [h.hand_no for h in hands] == numbers
    assert len({h.hand_no for h in hands}) == len(hands)


def test_the_dealer_deals_a_night_and_the_ledger_agrees(
    chromium, tmp_path, monkeypatch, clock, manager, open_table, players
):
    """Pairing by a one-time code; on a tablet the dealer deals: a 6-handed hand to
    the river with a showdown (taps counted), a player called by the floor joins
    (a buy-in above the maximum refused first, with the rule and the amounts
    allowed), a full nine-handed table with side pots, a split pot, a run twice, a
    straddle, an illegal raise refused with its reason before anything is posted,
    and a player leaving. Every hand is booked once, previewed by the server
    before it was pushed, and the stacks agree with the ledger."""
    clock.now = AT
    name_players(players)
    setup = open_table(TABLE)
    for n, stack in enumerate([20_000, 30_000, 25_000, 40_000, 15_000, 22_000], 1):
        assert seat(setup, TABLE, n, f"P-{n}", stack).status_code == 201
    jackpots.pool_create(
        room=floor.room_default(),
        code="bad-beat",
        name="Bad beat jackpot",
        kind=Pool.Kind.BAD_BEAT,
        seed_cents=1_234_500,
        by=None,
    )
    web = web_server(tmp_path, monkeypatch)
    web.start()
    context, tablet = open_tablet(chromium, web)
    try:
        _night(tablet, manager, setup)
    finally:
        context.close()
        web.stop()


def _night(tablet: Tablet, manager: Any, setup: Any) -> None:
    page, expect = tablet.page, tablet.expect
    page.goto(f"{tablet.base}/terminal/")
    page.wait_for_selector('body[data-ready="true"]')
    tablet.shoot("01-pairing")
    pair(tablet, manager)
    expect(page.locator('[data-role="stakes"]')).to_contain_text("NLHE")
    expect(page.locator('[data-role="jackpots"]')).to_contain_text("€12,345")
    stacks_agree(tablet)
    tablet.shoot("02-table", says=('[data-action="deal"]', "Deal"))
    portrait(tablet, "02-table-portrait")
    hands = [_typical_hand(tablet)]
    hands.append(_joining_and_side_pots(tablet, setup))
    hands.append(_split_pot(tablet))
    hands.append(_run_twice(tablet))
    hands.append(_straddle(tablet))
    hands.append(_illegal_raise(tablet))
    hands += _leaving(tablet)
    booked_in_order(hands)
    stacks_agree(tablet)
    assert tablet.state()["refused"] == 0


def _typical_hand(tablet: Tablet) -> int:
    """Six-handed, to the river with a showdown; the taps it takes are counted."""
    taps = tablet.taps
    plan = tablet.deal()
    order = [s["seat"] for s in plan["seats"]]
    button, big = plan["button"], plan["bigBlind"]
    utg = order[(order.index(big) + 1) % len(order)]
    tablet.play({utg: "r", button: "c", big: "c"})
    tablet.cards("Ah", "Kd", "7c")
    tablet.shoot("03-hand-mid-street")
    portrait(tablet, "03-hand-mid-street-portrait")
    tablet.play({big: "xc", utg: "r", button: "f"})
    tablet.cards("2s")
    tablet.play({})
    tablet.cards("9h")
    tablet.play({})
    tablet.showdown([("As", "Qd"), None])
    push = tablet.settled()
    assert push["source"] == "server"
    tablet.shoot("04-push")
    tablet.post()
    # docs/terminal.md and the README give this count: deal 1, the six players'
    # actions before the flop 6, the flop's three cards 3 and four actions 4, the
    # turn's card and two checks 3, the river's 3, a show (1 + two cards) and a
    # muck 4, the push 1.
    assert tablet.taps - taps == 25
    tablet.booked()
    stacks_agree(tablet)
    return push["record"]["hand_no"]


def _joining_and_side_pots(tablet: Tablet, setup: Any) -> int:
    """The floor calls a player to seat 7: a buy-in above the maximum is refused
    with the rule and the amounts allowed, the minimum seats him. Two more sit
    down; the new players post now. Three players all in with different stacks:
    side pots."""
    page, expect = tablet.page, tablet.expect
    game = Table_game()
    waitlist.entry_join(waiting_list=waitlist.list_for_game(game), player_code="P-7")
    waitlist.list_call(
        waiting_list=waitlist.list_for_game(game), table_code=TABLE, seat=7
    )
    tablet.refresh()
    tablet.tap('[data-player="P-7"] [data-action="seat-call"]')
    for key in "500":
        tablet.tap(f'dialog[data-sheet="seat-player"] [data-key="{key}"]')
    tablet.tap('dialog[data-sheet="seat-player"] [data-action="keypad-ok"]')
    refusal = page.locator('dialog[data-sheet="seat-player"] [data-role="refusal"]')
    expect(refusal).to_contain_text("BI1")
    expect(refusal).to_contain_text("€400")
    tablet.tap('dialog[data-sheet="seat-player"] [data-quick="min"]')
    page.wait_for_selector('dialog[data-sheet="seat-player"]', state="detached")
    tablet.booked()
    # Seated through his call (WL2): the call ends as seated, as the floor's would.
    called = Entry.objects.get(player__code="P-7")
    assert (called.status, called.end) == (Entry.Status.SEATED, Entry.End.SEATED)
    for n, stack in [(8, 35_000), (9, 12_000)]:
        assert seat(setup, TABLE, n, f"P-{n}", stack).status_code == 201
    tablet.refresh()
    assert {s["seat"] for s in tablet.state()["seats"]} == set(range(1, 10))
    for n in tablet.next_plan()["canPost"]:
        tablet.tap(f'[data-post="{n}"]')
    plan = tablet.deal()
    dealt = [s["seat"] for s in plan["seats"]]
    stacks = {s["seat"]: s["stack"] for s in plan["seats"]}
    first = tablet.state()["toAct"]
    # The first three to act go all in, with three different stacks.
    order = dealt[dealt.index(first) :] + dealt[: dealt.index(first)]
    shorts = sorted(order[:5], key=lambda n: stacks[n])[:3]
    assert len({stacks[n] for n in shorts}) == 3
    tablet.play({n: "a" for n in shorts})
    tablet.cards("Qs", "Jh", "4d")
    tablet.cards("8c")
    tablet.cards("3s")
    shown = [("Ac", "Ad"), ("Kc", "Kh"), ("Tc", "Td"), ("5c", "5d")]
    asked = tablet.state()["needs"]["seats"]
    tablet.showdown(shown[: len(asked)])
    push = tablet.post()
    assert len(push["settlement"]["pots"]) >= 2
    tablet.booked()
    stacks_agree(tablet)
    return push["record"]["hand_no"]


def Table_game() -> Any:
    from cardroom.models import Table

    return Table.objects.get(code=TABLE).game


def _split_pot(tablet: Tablet) -> int:
    """Broadway on the board, four players play it: the pot (after the jackpot
    drop) is split four ways, the odd chips shown."""
    plan = tablet.deal()
    dealt = [s["seat"] for s in plan["seats"]]
    button, big = plan["button"], plan["bigBlind"]
    cutoff = dealt[dealt.index(button) - 1]
    small = plan["smallBlind"]
    tablet.play({cutoff: "c", button: "c", small: "c", big: "x"})
    tablet.cards("As", "Ks", "Qd")
    tablet.play({})
    tablet.cards("Jc")
    tablet.play({})
    tablet.cards("Th")
    tablet.play({})
    tablet.showdown([("2c", "3c"), ("2d", "3d"), ("2h", "3h"), ("4c", "5d")])
    push = tablet.settled()
    [pot] = push["settlement"]["pots"]
    assert len(pot["winners"]) == 4
    least = min(w["amount"] for w in pot["winners"])
    odd = [w for w in pot["winners"] if w["amount"] > least]
    assert odd, pot
    tablet.expect(tablet.page.locator("[data-odd]")).to_have_count(len(odd))
    tablet.post()
    tablet.booked()
    stacks_agree(tablet)
    return push["record"]["hand_no"]


def _run_twice(tablet: Tablet) -> int:
    """Two players all in before the flop agree to run it twice: two boards."""
    plan = tablet.deal()
    first = tablet.state()["toAct"]
    tablet.play({first: "a", plan["bigBlind"]: "c"})
    tablet.tap('dialog[data-sheet="cards"] [data-action="run-twice"]')
    for board in (("2c", "7d", "9s", "Jd", "Qh"), ("3c", "8d", "Ts", "Kd", "4h")):
        tablet.cards(*board[:3])
        tablet.cards(board[3])
        tablet.cards(board[4])
    tablet.showdown([("Ac", "Kc"), ("8h", "8s")])
    push = tablet.post()
    assert len(push["record"]["boards"]) == 2
    tablet.booked()
    stacks_agree(tablet)
    return push["record"]["hand_no"]


def _straddle(tablet: Tablet) -> int:
    """The player left of the big blind straddles (HS11); everyone folds to him."""
    tablet.tap('[data-action="straddle"]')
    plan = tablet.deal()
    assert plan["straddle"]
    tablet.play({})
    push = tablet.post()
    [row] = [s for s in push["record"]["seats"] if s["seat"] == plan["straddle"]]
    assert row["straddle"] == 400
    tablet.booked()
    return push["record"]["hand_no"]


def _illegal_raise(tablet: Tablet) -> int:
    """A raise below the minimum is refused on the tablet with its reason, before
    anything is posted; the hand goes on."""
    page, expect = tablet.page, tablet.expect
    tablet.deal()
    options = tablet.state()["options"]
    posted = len(tablet.posted)
    tablet.tap('.actions [data-action="raise"]')
    below = options["raise"]["min"] - 100
    for key in str(below // 100):
        tablet.tap(f'dialog[data-sheet="bet"] [data-key="{key}"]')
    tablet.tap('dialog[data-sheet="bet"] [data-action="keypad-ok"]')
    refusal = page.locator('dialog[data-sheet="bet"] [data-role="refusal"]')
    # Translated by its code (below_minimum), with the amount allowed.
    reason = js_say("en", "Too small: at least %(min)s (the minimum bet or raise).")
    expect(refusal).to_contain_text(
        reason % {"min": f"€{options['raise']['min'] // 100}"}
    )
    page.screenshot(path=str(SCREENS / "06-illegal-raise.png"))
    assert len(tablet.posted) == posted
    tablet.tap('dialog[data-sheet="bet"] [data-action="keypad-cancel"]')
    tablet.play({})
    push = tablet.post()
    tablet.booked()
    return push["record"]["hand_no"]


def _leaving(tablet: Tablet) -> list[int]:
    """A player leaves with his stack (BI5); the game goes on without him."""
    # A top-up (BI2) first: up to the table's maximum, in cash.
    seats = tablet.state()["seats"]
    short = min((s for s in seats if s["stack"] > 0), key=lambda s: s["stack"])
    tablet.tap(f'.felt [data-seat="{short["seat"]}"]')
    tablet.tap('dialog[data-sheet="seat"] [data-action="top-up"]')
    tablet.tap('dialog[data-sheet="top-up"] [data-quick="max"]')
    tablet.page.wait_for_selector('dialog[data-sheet="top-up"]', state="detached")
    tablet.booked()
    [topped] = [s for s in tablet.state()["seats"] if s["seat"] == short["seat"]]
    assert topped["stack"] == 40_000
    stacks_agree(tablet)
    leaving = max(s["seat"] for s in tablet.state()["seats"])
    tablet.seat_sheet(leaving, "leave")
    assert leaving not in {s["seat"] for s in tablet.state()["seats"]}
    # Folded round to the big blind: deal, a fold each but the big blind's, the
    # push (docs/terminal.md).
    taps = tablet.taps
    plan = tablet.deal()
    tablet.play({})
    push = tablet.post()
    assert tablet.taps - taps == len(plan["seats"]) + 1
    tablet.booked()
    stacks_agree(tablet)
    return [push["record"]["hand_no"]]


def test_with_the_server_stopped_the_dealer_deals_on_and_every_hand_is_booked_once(
    chromium, tmp_path, monkeypatch, clock, manager, open_table, players
):
    """The server stops after the first hand. The dealer deals ten hands, each
    settled on the tablet (and saying so) and queued; the page reloads from the
    service worker with the server down, the hands still waiting. Started again,
    the server books the ten, once each and in order, when the queue tries again on
    its own; the stacks agree with the ledger."""
    clock.now = AT
    started = time.monotonic()
    name_players(players)
    setup = open_table(TABLE)
    for n, stack in enumerate([20_000, 30_000, 25_000, 40_000, 15_000], 1):
        assert seat(setup, TABLE, n, f"P-{n}", stack).status_code == 201
    web = web_server(tmp_path, monkeypatch)
    web.start()
    context, tablet = open_tablet(chromium, web)
    try:
        page = tablet.page
        pair(tablet, manager)
        # The service worker has the page and everything it loads.
        page.wait_for_function(
            "async () => !!(await navigator.serviceWorker.ready).active"
        )
        tablet.deal()
        tablet.play({})
        tablet.post()
        tablet.booked()
        # The player due the small blind steps away (BI9): he misses it, and the
        # big blind when it passes him.
        away = tablet.next_plan()["smallBlind"]
        tablet.seat_sheet(away, "away")
        web.stop()

        for n in range(10):
            plan = tablet.deal()
            if n % 3 == 0:
                # Now and then a flop, checked down to a showdown.
                tablet.play({plan["button"]: "c", plan["bigBlind"]: "x"})
                tablet.cards("Ac", "Kc", "Qc")
                tablet.play({})
                tablet.cards("2d")
                tablet.play({})
                tablet.cards("3h")
                tablet.play({})
                tablet.showdown([("Jc", "Tc"), None])
            else:
                tablet.play({})
            push = tablet.post()
            assert push["source"] == "terminal"
            if n == 0:
                page.wait_for_selector(
                    '[data-role="status"][data-online="false"]', timeout=15_000
                )
        state = tablet.state()
        assert state["waiting"] == 10
        assert state["lastHandNo"] == 11
        page.reload()
        page.wait_for_selector('body[data-ready="true"][data-screen="table"]')
        status = page.locator('[data-role="status"]')
        tablet.expect(status).to_have_attribute("data-waiting", "10")
        # Offline, the catalogues come from the service worker's cache.
        tablet.shoot("07-offline-waiting", says=('[data-role="status"]', "Offline"))
        assert Hand.objects.filter(table__code=TABLE).count() == 1

        # The server's clock goes on from where the test's is now.
        clock.now = AT + timedelta(seconds=time.monotonic() - started)
        web.start()
        # The queue tries again by itself (its pause is at most a minute).
        page.clock.run_for(61_000)
        tablet.booked(timeout=60_000)
        booked_in_order(list(range(1, 12)))
        # Each hand was posted with its own key and answered once.
        records = IdempotencyRecord.objects.filter(path=f"/api/v1/tables/{TABLE}/hands")
        assert records.count() == 11
        assert {r.status_code for r in records} == {201}
        stacks_agree(tablet)
        tablet.expect(status).to_have_attribute("data-waiting", "0")

        # Back, he posts now: the big blind live, the small blind dead.
        tablet.seat_sheet(away, "back")
        assert away in tablet.next_plan()["canPost"]
        tablet.tap(f'[data-post="{away}"]')
        tablet.shoot("05-missed-blinds")
        plan = tablet.deal()
        posts = {p["kind"]: p for p in plan["posts"] if p["seat"] == away}
        assert posts["missed_small_blind"]["dead"] == 100, plan["posts"]
        assert posts["missed_big_blind"]["live"] == 200, plan["posts"]
        tablet.play({away: "r"})
        push = tablet.post()
        tablet.booked()
        [row] = [s for s in push["record"]["seats"] if s["seat"] == away]
        assert row["dead"] == 100
        booked = Hand.objects.get(table__code=TABLE, hand_no=12)
        assert booked.record["seats"] == push["record"]["seats"]
        stacks_agree(tablet)
    finally:
        context.close()
        web.stop()
