"""The tournament director's part of an event in a real browser, in English, Finnish
and Korean: the structure, the event, its tables and payout table set up on the
screens; seats drawn with where each player goes; the clock started and read in
minutes and seconds; a bust, a table's chip count, a colour-up with its race dealt
on screen and recorded; a deal from the chip-chop and ICM figures, signed by every
player and approved by a manager (TO1–TO12). The players buy in at the cage
(another screen's part) through its service. Each language runs its own event in
one browser; the screenshots go to docs/screens/tournaments/ (``…-fi.png``,
``…-ko.png``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.roles import Role
from tests.conftest import PASSWORD
from tests.integration.tournaments.conftest import (
    cage,
    cashier,
    manager,
    players,
    room,
    shift,
)
from tests.staff.browser import (
    LANGUAGES,
    browser_in,
    chromium,
    euros,
    say,
    screenshot_name,
)
from tournaments import selectors, services
from tournaments.models import (
    Bust,
    ChipCount,
    ChipRace,
    ClockChange,
    Deal,
    Entry,
    Event,
    EventTable,
    Structure,
)

__all__ = [
    "browser_in",
    "cage",
    "cashier",
    "chromium",
    "manager",
    "players",
    "room",
    "shift",
]

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens" / "tournaments"
CLOCK = re.compile(r"^(20:00|19:[0-5]\d)$")


def shot(page, name: str, language: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / screenshot_name(name, language)), full_page=True)


def sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_load_state()


def said(page, expect, message: str, language: str, **params) -> None:
    expect(page.locator(".messages")).to_contain_text(say(language, message, **params))


def post_button(page, action: str) -> None:
    """Click the button of the form posting to ``…/action``."""
    page.locator(f'form[action$="/{action}"] button[type=submit]').first.click()


def test_the_director_runs_an_event_in_three_languages(
    live_server, browser_in, make_staff, room, cage, shift, cashier, manager, players
):
    open_page, expect = browser_in
    make_staff("fred", Role.FLOOR)
    for n, language in enumerate(LANGUAGES):
        page = open_page(language)
        codes = [p.code for p in players[4 * n : 4 * n + 4]]
        director_night(
            page, expect, live_server.url, language, codes, cashier, open_page
        )
        page.context.close()


def director_night(page, expect, url, language, codes, cashier, open_page) -> None:
    structure, event_code = f"turbo-{language}", f"friday-{language}"
    sign_in(page, url, "fred")
    # The floor's navigation leads to the tournaments.
    page.click(f'.bar nav a:has-text("{say(language, "Tournaments")}")')
    expect(page).to_have_url(f"{url}/floor/events/")
    shot(page, "director-01-events", language)

    # A structure of three levels and a break that retires the 25s.
    page.goto(f"{url}/floor/events/structures/new")
    page.fill('input[name="code"]', structure)
    page.fill('input[name="name"]', f"Turbo {language}")
    levels = [
        ("20", "100", "200", "200", False, ""),
        ("20", "200", "400", "400", False, ""),
        ("10", "", "", "", True, "25"),
    ]
    for i, (minutes, sb, bb, ante, is_break, retire) in enumerate(levels):
        page.fill(f'input[name="level-{i}-minutes"]', minutes)
        page.fill(f'input[name="level-{i}-small_blind"]', sb)
        page.fill(f'input[name="level-{i}-big_blind"]', bb)
        page.fill(f'input[name="level-{i}-ante"]', ante)
        if is_break:
            page.check(f'input[name="level-{i}-is_break"]')
        page.fill(f'input[name="level-{i}-retire_denomination"]', retire)
    shot(page, "director-02-structure", language)
    page.click("#structure button[type=submit]")
    said(
        page,
        expect,
        "The structure %(code)s is saved with %(n)d levels.",
        language,
        code=structure,
        n=3,
    )
    assert Structure.objects.get(code=structure).levels.count() == 3

    # The event: money typed in euros as the language writes them.
    page.goto(f"{url}/floor/events/new")
    page.fill('input[name="code"]', event_code)
    page.fill('input[name="name"]', f"Friday {language}")
    page.fill('input[name="starts_at"]', "2026-11-28T19:00")
    page.select_option('select[name="structure"]', structure)
    page.fill('input[name="buy_in_cents"]', "100")
    page.fill('input[name="fee_cents"]', "10")
    page.fill('input[name="starting_stack"]', "20000")
    page.fill('input[name="late_registration_level"]', "2")
    page.click("#settings button[type=submit]")
    said(
        page,
        expect,
        "The event %(name)s is created; add its tables.",
        language,
        name=f"Friday {language}",
    )
    event = Event.objects.get(code=event_code)
    assert (event.buy_in_cents, event.fee_cents) == (10_000, 1_000)

    # The players buy in at the cage before the tables are set: they wait.
    for code in codes:
        services.entry_register(
            event=event, player=code, cage="MAIN", cashier=cashier, level=0
        )
    assert Entry.objects.filter(event=event, seat__isnull=True).count() == 4

    tables = [f"F{language.upper()}1", f"F{language.upper()}2"]
    for table in tables:
        page.fill('#tables input[name="table"]', table)
        page.click("#tables button[type=submit]")
        said(page, expect, "Table %(t)s plays in the event.", language, t=table)
    page.fill('textarea[name="rows"]', "1: 100\n4: 65, 35")
    page.click("#payouts button[type=submit]")
    said(page, expect, "The payout table is saved.", language)
    expect(page.locator("#payouts")).to_contain_text(euros(65_000, language))
    shot(page, "director-03-setup", language)
    assert EventTable.objects.filter(event=event).count() == 2

    # The floor screen: seats drawn, where each player goes.
    page.goto(f"{url}/floor/events/{event_code}/")
    post_button(page, "seats/draw")
    expect(page.locator("#moves tbody tr")).to_have_count(4)
    assert not Entry.objects.filter(event=event, seat__isnull=True).exists()

    # The clock starts, and the event with it; it reads minutes and seconds.
    page.locator(
        'form:has(input[name="action"][value="start"]) button[type=submit]'
    ).click()
    said(page, expect, "The clock is running.", language)
    expect(page.locator("#time-left")).to_have_text(CLOCK)
    expect(page.locator("#blinds")).to_have_text("100 / 200")
    first = page.locator("#time-left").text_content()
    expect(page.locator("#time-left")).not_to_have_text(first or "", timeout=4_000)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert ClockChange.objects.filter(event=event, action="start").count() == 1
    shot(page, "floor-04-clock-and-seats", language)

    # A bust at its table, with the stack he had at the start of the hand.
    out = Entry.objects.filter(event=event).order_by("number").first()
    page.select_option('#busts select[name="table"]', out.table)
    page.fill('#busts input[name="hand"]', "12")
    page.select_option('#busts select[name="player_1"]', out.player.code)
    page.fill('#busts input[name="stack_1"]', "20000")
    page.click("#busts button[type=submit]")
    said(
        page,
        expect,
        "%(p)s is out in place %(place)s.",
        language,
        p=out.player.name,
        place=4,
    )
    assert Bust.objects.get(entry=out).place_high == 4

    # Each table's chips counted, the four stacks' 80,000 between them: the
    # latest count of every table balances the chips issued (TO3).
    counts = {tables[0]: 45_000, tables[1]: 35_000}
    for table, chips in counts.items():
        page.select_option('#counts select[name="table"]', table)
        page.fill('#counts input[name="chips"]', str(chips))
        page.click("#counts button[type=submit]")
        said(
            page,
            expect,
            "%(chips)s chips counted at %(t)s.",
            language,
            chips=format(chips, ",").replace(",", "\xa0" if language == "fi" else ","),
            t=table,
        )
    for table in counts:
        expect(page.locator(f'[data-table="{table}"] .tag.fill')).to_be_visible()
    expect(page.locator("#reconciliation")).to_contain_text(say(language, "Balanced"))
    assert (
        dict(ChipCount.objects.filter(event=event).values_list("table", "chips"))
        == counts
    )
    shot(page, "floor-05-bust-and-counts", language)

    # The colour-up of the 25s at the table with most players, raced for 100s.
    table = max(
        tables,
        key=lambda t: Entry.objects.filter(
            event=event, status="active", table=t
        ).count(),
    )
    page.goto(f"{url}/floor/events/{event_code}/race?table={table}")
    expect(page.locator('input[name="denomination"]')).to_have_value("25")
    page.fill('input[name="new_denomination"]', "100")
    sitting = Entry.objects.filter(event=event, status="active", table=table).order_by(
        "seat"
    )
    for i, entry in enumerate(sitting):
        page.fill(f'input[name="stack_{entry.seat}"]', str(20_000 + 25 * (i + 2)))
        page.fill(f'input[name="retired_{entry.seat}"]', str(i + 2))
    page.click("#race button[type=submit]")
    expect(page.locator("#drawn .playing-card").first).to_be_visible()
    shot(page, "director-06-race-dealt", language)
    page.click("#drawn button[type=submit]")
    said(page, expect, "The colour-up at %(t)s is recorded.", language, t=table)
    race = ChipRace.objects.get(event=event)
    assert (len(race.result["winners"]), race.removed_chips) == (1, 25)
    expect(page.locator("#race-result .won")).to_have_count(len(race.result["winners"]))
    expect(page.locator("#race-result .playing-card").first).to_be_visible()
    shot(page, "director-07-race-recorded", language)

    # The deal among the three left: the figures side by side, ICM chosen.
    left = list(Entry.objects.filter(event=event, status="active").order_by("pk"))
    page.goto(f"{url}/floor/events/{event_code}/deal")
    page.fill('input[name="button"]', "1")
    for i, entry in enumerate(left):
        page.fill(f'input[name="s_{entry.pk}"]', str(10_000 + 15_000 * i))
    page.click("#stacks button[type=submit]")
    expect(page.locator("#figures tbody tr")).to_have_count(3)
    page.click(f'#figures a:has-text("{say(language, "Use the ICM figures")}")')
    offers = selectors.deal_offers(
        event=event, stacks={e.pk: 10_000 + 15_000 * i for i, e in enumerate(left)}
    )
    for entry in left:
        expect(page.locator(f'input[name="amount_{entry.pk}"]')).to_have_value(
            re.compile(r"\d")
        )
    shot(page, "director-08-deal-figures", language)
    page.click("#figures form button[type=submit]")
    said(page, expect, "The deal is proposed; every player signs it now.", language)
    deal = Deal.objects.get(event=event)
    assert {int(k): v for k, v in deal.amounts.items()} == offers["icm"]
    for entry in left:
        page.locator(f'tr[data-entry="{entry.pk}"] form button[type=submit]').click()
        said(page, expect, "%(p)s signed the deal.", language, p=entry.player.name)
    deal.refresh_from_db()
    assert deal.status == "signed"
    shot(page, "director-09-deal-signed", language)

    # A manager who didn't propose it approves; the event ends with the deal.
    boss = open_page(language)
    sign_in(boss, url, "mia")
    boss.goto(f"{url}/floor/events/{event_code}/deals/{deal.pk}")
    boss.click('form[action$="/approve"] button[type=submit]')
    said(boss, expect, "The deal is approved.", language)
    deal.refresh_from_db()
    assert deal.status == "approved"
    assert not Entry.objects.filter(event=event, status="active").exists()
    shot(boss, "director-10-deal-approved", language)

    # The payout sheet follows: the floor prepares it, holding the third
    # place's prize for a reason; the manager approves it (TO7, TO9).
    third = Entry.objects.get(event=event, place=3)
    page.goto(f"{url}/floor/events/{event_code}/payouts")
    page.fill(f'input[name="hold_{third.pk}"]', "absent at the end")
    page.click("#prepare button[type=submit]")
    said(
        page,
        expect,
        "The payout sheet is prepared; a manager approves it.",
        language,
    )
    expect(page.locator("#sheet tbody tr")).to_have_count(3)
    expect(page.locator("#sheet")).to_contain_text(euros(40_000, language))
    shot(page, "director-11-payouts-prepared", language)
    boss.goto(f"{url}/floor/events/{event_code}/payouts")
    boss.click('form[action$="/payouts/approve"] button[type=submit]')
    said(
        boss,
        expect,
        "The payout sheet is approved; the prizes are payable at the cage.",
        language,
    )
    expect(boss.locator('form[action$="/release"]')).to_have_count(1)
    shot(boss, "director-12-payouts-approved", language)
    boss.context.close()
