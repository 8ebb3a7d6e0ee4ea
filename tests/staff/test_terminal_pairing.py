"""A table's tablets on the floor screen and the refused hands on the floor's home
(issue 37), through the test client: a manager pairs a tablet from the table's
card (a one-time code, large, with its QR code and expiry), sees it arrive and
unpairs it after a confirm step; a floor person marks a refused hand handled with
a note."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from cardroom.models import HandRefusal, TerminalKey, TerminalPairing
from core.roles import Role
from tests.api.floor.conftest import (  # noqa: F401 (fixtures)
    clock,
    manager,
    open_table,
    players,
    post_hand,
    stock_tray,
)
from tests.api.floor.test_hands import heads_up

pytestmark = pytest.mark.django_db

TABLETS = "/floor/tables/T01/tablets"


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()


@pytest.fixture
def t01(clock, open_table) -> APIClient:  # noqa: F811
    return open_table("T01")


def browser(make_staff, name: str, role: Role) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_staff(name, role))
    return client


@pytest.fixture
def boss(make_staff) -> Client:
    return browser(make_staff, "mia", Role.MANAGER)


@pytest.fixture
def desk(make_staff) -> Client:
    return browser(make_staff, "fred", Role.FLOOR)


def messages_of(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def test_a_manager_pairs_a_tablet_from_the_tables_card(t01, boss, desk, api):
    """The card links to the table's tablets for a manager only; the code is shown
    large with its QR code of the terminal page's address and its expiry, again on
    a reload; the tablet redeems it and the page shows it paired."""
    home = boss.get("/floor/").content.decode()
    assert f'href="{TABLETS}"' in home and "Pair a tablet" in home
    assert TABLETS not in desk.get("/floor/").content.decode()
    assert TABLETS not in desk.get("/floor/map").content.decode()
    assert TABLETS in boss.get("/floor/map").content.decode()
    assert desk.get(TABLETS).status_code == 403

    before = boss.get(TABLETS)
    assert before.context["waiting"] is None
    # The table's terminal key (the fixture's) is one of its terminals.
    assert [k.name for k in before.context["tablets"]] == ["T01"]

    made = boss.post(TABLETS)
    assert made.status_code == 302 and made["Location"] == TABLETS
    page = boss.get(TABLETS)
    waiting = page.context["waiting"]
    code = waiting["code"]
    body = page.content.decode()
    assert f'<p class="pairing-code" data-code>{code}</p>' in body
    assert f"http://testserver/terminal/?pair={code}" in body
    assert '<svg width="' in body and 'class="qr"' in body
    assert "Valid once, until 21:10." in body
    assert page["Cache-Control"] == "no-store"
    assert 'hx-trigger="every 3s"' in body
    assert boss.get(TABLETS).context["waiting"]["code"] == code  # a reload

    paired = api.post("/api/v1/terminal/pair", {"code": code}, format="json")
    assert paired.status_code == 201, paired.content
    # The polled part sees the tablet arrive: the code gives way, polling stops.
    live = boss.get(TABLETS + "?part=live")
    listed = live.content.decode()
    assert live.templates[0].name == "staff/floor/_tablets.html"
    assert "Paired: tablet 2026-11-29 21:00" in listed
    assert code not in listed and "hx-trigger" not in listed
    assert f'data-tablet="{paired.json()["prefix"]}"' in listed
    after = boss.get(TABLETS)
    assert after.context["waiting"] is None and after.context["paired"] is None
    names = [k.name for k in after.context["tablets"]]
    assert names == ["T01", "tablet 2026-11-29 21:00"]


def test_an_expired_code_leaves_the_page(t01, boss, clock):  # noqa: F811
    boss.post(TABLETS)
    assert boss.get(TABLETS).context["waiting"] is not None
    clock.advance(minutes=10)
    assert boss.get(TABLETS).context["waiting"] is None
    assert TerminalPairing.objects.get().redeemed_at is None


def test_unpairing_asks_first_then_revokes_the_key(t01, boss):
    """GET and a POST without the confirmation ask; the confirmed POST revokes
    the tablet's key, and its next request is refused."""
    key, raw = TerminalKey.objects.create_key(
        name="tablet 2026-11-29 20:00", table=t01_table()
    )
    url = f"{TABLETS}/{key.prefix}/unpair"
    ask = boss.get(url)
    assert ask.templates[0].name == "staff/floor/tablet_unpair.html"
    assert "Unpair tablet 2026-11-29 20:00 from table T01?" in ask.content.decode()
    assert boss.post(url).templates[0].name == "staff/floor/tablet_unpair.html"
    key.refresh_from_db()
    assert not key.revoked
    done = boss.post(url, {"confirm": "unpair"}, follow=True)
    assert "tablet 2026-11-29 20:00 is unpaired from table T01." in messages_of(done)
    key.refresh_from_db()
    assert key.revoked
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    assert tablet.get("/api/v1/tables/T01/state").status_code == 401
    again = boss.get(url, follow=True)
    assert "This tablet was unpaired already." in messages_of(again)
    assert boss.get(f"{TABLETS}/nope/unpair").status_code == 404


def test_a_table_without_terminals_says_so(clock, boss, manager):  # noqa: F811
    from cardroom.models import Table

    Table.objects.create(code="T09")
    page = boss.get("/floor/tables/T09/tablets").content.decode()
    assert "No tablet is paired with this table." in page


def t01_table():
    from cardroom.models import Table

    return Table.objects.get(code="T01")


def test_the_floor_marks_a_refused_hand_handled(t01, desk, players, clock):  # noqa: F811
    """The home lists the refused hand with its table, number, time, rule and
    reason; an empty note is refused; with a note it is handled, by whom and when,
    and leaves the list."""
    assert post_hand(t01, "T01", heads_up(game="PLO")).status_code == 422
    home = desk.get("/floor/")
    body = home.content.decode()
    refusal = HandRefusal.objects.get()
    assert f'data-refusal="{refusal.pk}"' in body
    part = desk.get("/floor/refused-hands").content.decode()
    assert "HS9" in part and "The table deals NLHE, not PLO." in part
    assert "21:00" in part
    url = f"/floor/refused-hands/{refusal.pk}/handle"
    blank = desk.post(url, {"note": "  "}, follow=True)
    assert "Say what was done with the refused hand." in messages_of(blank)
    refusal.refresh_from_db()
    assert refusal.handled_at is None
    clock.advance(minutes=1)
    done = desk.post(url, {"note": "Dealer re-posted it as NLHE."}, follow=True)
    assert "The refused hand 1 of T01 is marked handled." in messages_of(done)
    refusal.refresh_from_db()
    assert refusal.handled_by.username == "fred"
    assert refusal.handled_at == clock.now
    assert refusal.note == "Dealer re-posted it as NLHE."
    assert "No refused hand waits." in desk.get("/floor/refused-hands").content.decode()
    twice = desk.post(url, {"note": "again"}, follow=True)
    assert "This refused hand was marked handled already." in messages_of(twice)
