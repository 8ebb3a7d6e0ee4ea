"""The night's seams on the floor's screens: a table the floor has just opened is
seated once the floor has asked the cage for its opening fill (CA3), and players
join the waiting lists from the floor's own screen (WL1), not the admin's."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.models import Cage, TableSlip
from accounting.services import cage as cage_services
from cardroom.models import Game, Policy, SeatSession, Table
from cardroom.services.tables import room_default
from core.roles import Role
from tests.api.floor.conftest import GAMES, POLICY, players
from tests.conftest import PASSWORD
from tests.staff.browser import browser_in, chromium, say
from waitlist.models import Entry
from waitlist.services import list_for_game

__all__ = ["browser_in", "chromium", "players"]

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_user(make_staff):
    return make_staff("fred", Role.FLOOR)


@pytest.fixture
def cashier_user(make_staff):
    return make_staff("kalle", Role.CASHIER)


@pytest.fixture
def desk(floor_user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(floor_user)
    return client


@pytest.fixture
def cashier(cashier_user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(cashier_user)
    return client


@pytest.fixture
def cage(cashier_user) -> Cage:
    """The room's cage, its vault funded and the cashier's shift open."""
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=10**8, chips_cents=10**8, by=cashier_user
    )
    cage_services.shift_open(
        cage=cage, cashier=cashier_user, cash_cents=10**6, chips_cents=10**7
    )
    return cage


@pytest.fixture
def game(db) -> Game:
    """NL 1/2 with its policy published, so the floor can open a table of it."""
    g = GAMES["NL12"]
    game = Game.objects.create(
        room=room_default(),
        code=g["game"],
        small_blind_cents=g["small_blind"],
        big_blind_cents=g["big_blind"],
        min_buy_in_cents=g["min_buy_in"],
        max_buy_in_cents=g["max_buy_in"],
    )
    Policy.objects.create(game=game, version=1, document=POLICY)
    return game


def messages_of(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def test_a_new_table_is_seated_after_the_floor_asks_the_cage_for_its_fill(
    desk, cashier, cage, game, players
):
    opened = desk.post(
        "/floor/tables/open", {"code": "t04", "game": game.pk, "seats": 9}, follow=True
    )
    assert messages_of(opened) == ["Table T04 is open."]
    waiting = list_for_game(game)

    # The floor adds the player to the list from its own screen (WL1).
    joined = desk.post(
        "/floor/lists/join",
        {"once": "j-1", "waiting_list": waiting.pk, "player": players[0]},
        follow=True,
    )
    assert messages_of(joined) == [f"Player {players[0]} is on the list."]
    assert joined.redirect_chain == [("/floor/", 302)]
    called = desk.post(f"/floor/lists/{waiting.pk}/call", follow=True)
    assert messages_of(called) == [f"Player {players[0]} is called to T04, seat 1."]
    entry = Entry.objects.get(player__code=players[0])

    # The new table's tray is empty: the refusal says so in money, with the rule.
    refused = desk.post(
        f"/floor/entries/{entry.pk}/seat",
        {"once": "s-1", "amount": "100", "method": "cash"},
        follow=True,
    )
    (said,) = messages_of(refused)
    assert said == (
        "T04's tray has €0.00; ask the cage for a fill of at least €100.00 (CA3)."
    )
    assert "table:" not in said and "10000" not in said
    assert not SeatSession.objects.filter(player__code=players[0]).exists()

    # The floor asks the cage for the opening fill from the floor screen.
    page = desk.get("/floor/")
    assert b'action="/floor/fills"' in page.content
    asked = desk.post(
        "/floor/fills",
        {"once": "f-1", "table": "T04", "amount": "2000", "cage": cage.pk},
        follow=True,
    )
    assert messages_of(asked) == [
        "Fill of €2,000.00 for T04 asked of the cage; a cashier issues it."
    ]
    again = desk.post(
        "/floor/fills",
        {"once": "f-1", "table": "T04", "amount": "2000", "cage": cage.pk},
        follow=True,
    )
    assert messages_of(again) == ["This form was already sent; it was booked once."]
    slip = TableSlip.objects.get()
    assert (slip.kind, slip.table, slip.amount_cents, slip.status) == (
        TableSlip.Kind.FILL,
        "T04",
        200_000,
        TableSlip.Status.PENDING,
    )
    assert slip.requested_by.username == "fred"

    # The cashier sees it in the cage's queue and issues it.
    queue = cashier.get("/cage/queue")
    assert b"T04" in queue.content
    issued = cashier.post(f"/cage/slips/{slip.pk}/issue", {"once": "i-1"}, follow=True)
    assert messages_of(issued) == ["Fill of €2,000.00 issued to table T04."]

    # Now the seat's cash buy-in flows: cash to the drop box, chips from the tray.
    seated = desk.post(
        f"/floor/entries/{entry.pk}/seat",
        {"once": "s-2", "amount": "100", "method": "cash"},
        follow=True,
    )
    assert messages_of(seated) == [f"Player {players[0]} is seated at T04, seat 1."]
    session = SeatSession.objects.get(player__code=players[0], ended_at=None)
    assert (session.table.code, session.stack_cents) == ("T04", 10_000)


def test_a_fill_asked_from_the_floor_is_refused_with_the_rule_and_books_nothing(
    desk, cage, game
):
    desk.post("/floor/tables/open", {"code": "T05", "game": game.pk, "seats": 9})
    for bad in ("", "0", "-5", "12,345,6", "lots"):
        answer = desk.post(
            "/floor/fills",
            {"once": f"b-{bad}", "table": "T05", "amount": bad, "cage": cage.pk},
            follow=True,
        )
        assert answer.status_code == 200
        assert messages_of(answer), bad
    # Only the floor's open tables are offered; a closed one is refused (CA3).
    desk.post("/floor/tables/T05/close")
    closed = desk.post(
        "/floor/fills",
        {"once": "c-1", "table": "T05", "amount": "500", "cage": cage.pk},
        follow=True,
    )
    assert closed.status_code == 200 and messages_of(closed)
    assert not TableSlip.objects.exists()
    assert Table.objects.get(code="T05").status == Table.Status.CLOSED


def test_a_list_join_from_the_floor_keeps_the_lists_rules(desk, game, players):
    waiting = list_for_game(game)
    first = desk.post(
        "/floor/lists/join",
        {"once": "j-1", "waiting_list": waiting.pk, "player": players[1].lower()},
        follow=True,
    )
    assert messages_of(first) == [f"Player {players[1]} is on the list."]
    twice = desk.post(
        "/floor/lists/join",
        {"once": "j-2", "waiting_list": waiting.pk, "player": players[1]},
        follow=True,
    )
    (said,) = messages_of(twice)
    assert said.startswith("WL1:")
    unknown = desk.post(
        "/floor/lists/join",
        {"once": "j-3", "waiting_list": waiting.pk, "player": "P-404"},
        follow=True,
    )
    assert len(messages_of(unknown)) == 1
    replay = desk.post(
        "/floor/lists/join",
        {"once": "j-1", "waiting_list": waiting.pk, "player": players[1].lower()},
        follow=True,
    )
    assert messages_of(replay) == ["This form was already sent; it was booked once."]
    missing = desk.post(
        "/floor/lists/join",
        {"waiting_list": waiting.pk, "player": players[2]},
        follow=True,
    )
    assert len(messages_of(missing)) == 1
    assert list(Entry.objects.values_list("player__code", flat=True)) == [players[1]]
    # The lists screen offers the join form for each list.
    lists = desk.get("/floor/lists").content.decode()
    assert 'action="/floor/lists/join"' in lists


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_the_floor_asks_for_a_new_tables_fill_in_the_browser(
    live_server, browser_in, floor_user, cage, game
):
    """From the floor's home in Chromium: open a table, ask the cage for its fill
    in euros; the slip waits in the cage's queue, listed on the floor's home."""
    open_page, expect = browser_in
    page = open_page("en")
    url = live_server.url
    page.goto(f"{url}/login")
    page.fill('input[name="username"]', "fred")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{url}/floor/")
    page.get_by_label("Table", exact=True).last.fill("T04")
    page.get_by_role("button", name=say("en", "Open the table")).click()
    expect(page.locator(".messages")).to_contain_text("Table T04 is open.")
    fills = page.locator("#fills")
    fills.get_by_label(say("en", "Table")).select_option("T04")
    fills.get_by_label(say("en", "Amount")).fill("2000")
    fills.get_by_role("button", name=say("en", "Ask for the fill")).click()
    page.wait_for_url(f"{url}/floor/")
    expect(page.locator(".messages")).to_contain_text(
        say(
            "en",
            "Fill of %(amount)s for %(t)s asked of the cage; a cashier issues it.",
            amount="€2,000.00",
            t="T04",
        )
    )
    expect(page.locator("#fills [data-slip]")).to_contain_text("T04: €2,000.00")
    slip = TableSlip.objects.get()
    assert (slip.table, slip.amount_cents, slip.status) == (
        "T04",
        200_000,
        TableSlip.Status.PENDING,
    )
