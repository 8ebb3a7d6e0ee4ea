"""A table break's confirm page shows where each player goes, and confirming does
exactly that (WL3, BI7); when the tables change in between, nothing is done and
the new plan is shown to confirm again."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from cardroom.models import SeatSession, Table
from core.roles import Role
from tests.conftest import ROOM_EVENING
from tests.integration.waitlist.conftest import (
    Clock,
    fill,
    open_table,
    players,
    sit,
    stock_tray,
)
from waitlist.models import Entry, TableBreak

__all__ = ["open_table", "players", "stock_tray"]

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-player="([^"]+)" data-to="([^"]+)">')


@pytest.fixture
def clock() -> Clock:
    return Clock(ROOM_EVENING - timedelta(hours=2))


@pytest.fixture
def desk(make_staff) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_staff("fred", Role.FLOOR))
    return client


@pytest.fixture
def room(open_table, players, clock):
    """T01 with four seats and three players (one seat free), T02 with two."""
    open_table("T01", seats=4)
    open_table("T02")
    fill(clock, "T01", players[:3])
    fill(clock, "T02", players[3:5])
    return players


def shown(page) -> dict[str, str]:
    """Where the confirm page says each player goes: "T01/4" or "list"."""
    return dict(ROW.findall(page.content.decode()))


def plan_of(page) -> str:
    return re.search(r'name="plan" value="([^"]+)"', page.content.decode()).group(1)


def where_they_are(codes: list[str]) -> dict[str, str]:
    seated = {
        s.player.code: f"{s.table.code}/{s.seat}"
        for s in SeatSession.objects.filter(player__code__in=codes, ended_at=None)
    }
    waiting = Entry.objects.filter(
        player__code__in=codes, kind=Entry.Kind.CLOSED_TABLE
    ).values_list("player__code", flat=True)
    return {**seated, **dict.fromkeys(waiting, "list")}


def test_the_confirm_page_shows_each_destination_and_confirming_does_it(room, desk):
    """Before confirming, each player's table and seat (or the list) is shown;
    nothing is done; confirming moves each of them there, by the shown draw."""
    page = desk.get("/floor/tables/T02/break")
    assert page.status_code == 200
    plan = shown(page)
    assert sorted(plan) == room[3:5]
    assert sorted(plan.values()) == ["T01/4", "list"]
    body = page.content.decode()
    assert "Table T01, seat 4" in body and "Waits at the head of the list" in body
    # Shown, not done: the draw isn't recorded and both still sit at T02.
    assert not TableBreak.objects.exists()
    assert where_they_are(room[3:5]) == {room[3]: "T02/1", room[4]: "T02/2"}

    answer = desk.post(
        "/floor/tables/T02/break",
        {"confirm": "yes", "plan": plan_of(page)},
        follow=True,
    )
    assert answer.redirect_chain[-1][0] == "/floor/"
    assert where_they_are(room[3:5]) == plan
    assert Table.objects.get(code="T02").status == Table.Status.OPEN  # one waits
    assert TableBreak.objects.count() == 1


def test_changed_tables_do_nothing_and_show_the_new_plan(room, desk, clock):
    """A seat taken between the confirm page and the POST: nothing is done, the
    page shows where each goes now, and confirming that does it."""
    page = desk.get("/floor/tables/T02/break")
    assert sorted(shown(page).values()) == ["T01/4", "list"]
    sit(clock, "T01", 4, room[5])

    again = desk.post(
        "/floor/tables/T02/break", {"confirm": "yes", "plan": plan_of(page)}
    )
    assert again.status_code == 200
    assert not TableBreak.objects.exists()
    assert where_they_are(room[3:5]) == {room[3]: "T02/1", room[4]: "T02/2"}
    assert "The tables changed since the plan was shown" in again.content.decode()
    assert shown(again) == {room[3]: "list", room[4]: "list"}

    desk.post("/floor/tables/T02/break", {"confirm": "yes", "plan": plan_of(again)})
    assert where_they_are(room[3:5]) == {room[3]: "list", room[4]: "list"}


def test_a_post_without_the_shown_plan_breaks_nothing(room, desk):
    """A confirmation that doesn't carry the page's signed plan only shows it."""
    for data in ({"confirm": "yes"}, {"confirm": "yes", "plan": "forged"}):
        page = desk.post("/floor/tables/T02/break", data)
        assert page.status_code == 200
        assert sorted(shown(page).values()) == ["T01/4", "list"]
    assert not TableBreak.objects.exists()
