"""The floor's screens through the test client: the map, tables opened and closed,
house moves and breaks with their confirm step, corrections and voids asked for,
players called and seated with buy-ins typed in euros (WL1–WL10, BI1, BI7, DC2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from cardroom import services as floor
from cardroom.models import Correction, HandVoid, SeatSession, Table
from core.roles import Role
from staff.common.landing import landing_url
from tests.api.floor.test_voids import misdeal
from tests.conftest import ROOM_EVENING
from tests.integration.waitlist.conftest import (
    Clock,
    fill,
    nl12,
    open_table,
    players,
    stock_tray,
)
from waitlist import services as waitlist
from waitlist.models import Entry, MustMove, TableBreak

__all__ = ["open_table", "players", "stock_tray"]

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]


@pytest.fixture
def clock() -> Clock:
    """The tables open and players sit before the room clock's moment."""
    return Clock(ROOM_EVENING - timedelta(hours=2))


@pytest.fixture
def floor_user(make_staff):
    return make_staff("fred", Role.FLOOR)


@pytest.fixture
def desk(floor_user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(floor_user)
    return client


@pytest.fixture
def room(open_table, players, clock):
    """Two NL 1/2 tables: T01 with three players, T02 with two."""
    open_table("T01")
    open_table("T02")
    fill(clock, "T01", players[:3])
    fill(clock, "T02", players[3:5])
    return players


def messages_of(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def test_floor_staff_land_on_the_floor(floor_user):
    assert landing_url(floor_user) == "/floor/"


def test_the_map_shows_the_ledger_stacks_absences_and_time_played_and_tables_open(
    room, desk
):
    floor.seat_away(table_code="T01", seat=2, now=ROOM_EVENING - timedelta(minutes=12))
    page = desk.get("/floor/")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-table="T01"' in body and 'data-table="T02"' in body
    assert "Player P-1" in body and "€200.00" in body  # the ledger's stack
    assert "3 of 9 seats taken" in body
    # Seated two hours before the room clock's moment, less a minute or two.
    row = next(r for r in page.context["tables"] if r.table.code == "T01")
    assert [s.player for s in row.seats if s.taken] == room[:3]
    assert 6_900 < row.seats[0].played_seconds <= 7_200
    assert row.stacks_cents == 60_000
    assert [s.away_seconds is not None for s in row.seats[:3]] == [False, True, False]
    assert 720 <= row.seats[1].away_seconds < 780
    assert "Away 0:12" in body
    assert desk.get("/floor/map").context["tables"][0].table.code == "T01"

    # A table opens under its game's policy and closes when it is empty.
    game = Table.objects.get(code="T01").game
    answer = desk.post(
        "/floor/tables/open", {"code": "t03", "game": game.pk, "seats": 6}, follow=True
    )
    assert "Table T03 is open." in messages_of(answer)
    t03 = Table.objects.get(code="T03")
    assert (t03.status, t03.seats, t03.game) == (Table.Status.OPEN, 6, game)
    answer = desk.post("/floor/tables/T03/close", follow=True)
    assert "Table T03 is closed." in messages_of(answer)
    answer = desk.post("/floor/tables/T01/close", follow=True)
    assert any(m.startswith("WL3: 3 players") for m in messages_of(answer))
    assert Table.objects.get(code="T01").status == Table.Status.OPEN


def test_house_moves_and_a_break_are_confirmed_before_they_are_done(room, desk):
    step = desk.post("/floor/tables/T02/move", {"kind": "must_move", "to": "T01"})
    assert step.templates[0].name == "staff/floor/move_confirm.html"
    assert not MustMove.objects.exists()
    answer = desk.post(
        "/floor/tables/T02/move",
        {"kind": "must_move", "to": "T01", "confirm": "yes"},
        follow=True,
    )
    assert "Table T02 must move to T01." in messages_of(answer)
    assert MustMove.objects.get().main.code == "T01"

    refused = desk.post("/floor/tables/T01/move", {"kind": "seat_change", "to": "T02"})
    assert "Choose the player who changes seat." in refused.content.decode()
    desk.post(
        "/floor/tables/T01/move",
        {"kind": "seat_change", "player": room[0], "to": "T02", "confirm": "yes"},
    )
    change = Entry.objects.get(player__code=room[0])
    assert (change.kind, change.table.code) == (Entry.Kind.SEAT_CHANGE, "T02")

    # Then T02 is broken, after the floor confirms it.
    confirm = desk.get("/floor/tables/T02/break")
    assert confirm.context["free"] == 6
    assert not TableBreak.objects.exists()
    plan = confirm.context["plan"]  # the draw shown, signed
    answer = desk.post(
        "/floor/tables/T02/break", {"confirm": "yes", "plan": plan}, follow=True
    )
    assert "Table T02 is broken: 2 moved, 0 wait at the head of the list." in (
        messages_of(answer)
    )
    moved = SeatSession.objects.filter(player__code__in=room[3:5], ended_at=None)
    assert {(s.table.code, s.stack_cents) for s in moved} == {("T01", 20_000)}
    assert Table.objects.get(code="T02").status == Table.Status.CLOSED
    # Their time played tonight goes with them.
    t01 = desk.get("/floor/map").context["tables"][0]
    moved_rows = [s for s in t01.seats if s.player in room[3:5]]
    assert len(moved_rows) == 2
    assert all(6_900 < s.played_seconds <= 7_200 for s in moved_rows)


def test_a_correction_and_a_void_are_asked_for_once(room, desk, clock):
    form = desk.get("/floor/tables/T01/correction").context["form"]
    body = {
        "once": form.key,
        "kind": "receivable",
        "from_player": room[0],
        "amount": "150",
        "reason": "Short-paid buy-in at the table",
    }
    first = desk.post("/floor/tables/T01/correction", body, follow=True)
    again = desk.post("/floor/tables/T01/correction", body, follow=True)
    assert (
        "Correction of €150.00 asked for at T01; it waits for a manager."
        in messages_of(first)
    )
    assert "This form was already sent; it was booked once." in messages_of(again)
    asked = Correction.objects.get()
    assert (asked.amount_cents, asked.status) == (15_000, Correction.Status.PENDING)

    # RK8: no rake, no drop, so the void books at once; a resend books nothing.
    record = misdeal()
    record["seats"] = [dict(s, player=room[s["seat"] - 1]) for s in record["seats"]]
    floor.hand_record(table_code="T01", record=record, source="T01", now=clock.now)
    form = desk.get("/floor/tables/T01/void").context["form"]
    assert form.initial["hand_no"] == 1
    body = {"once": form.key, "hand_no": 1, "reason": "misdeal"}
    first = desk.post("/floor/tables/T01/void", body, follow=True)
    again = desk.post("/floor/tables/T01/void", body, follow=True)
    assert messages_of(first) == ["Hand 1 is void and booked back."]
    assert messages_of(again) == ["This form was already sent; it was booked once."]
    assert HandVoid.objects.get().status == HandVoid.Status.BOOKED
    refused = desk.post(
        "/floor/tables/T01/void",
        {"once": "other", "hand_no": 1, "reason": "foul_deck"},
        follow=True,
    )
    assert HandVoid.objects.count() == 1 and len(messages_of(refused)) == 1


def test_a_called_player_is_seated_with_a_buy_in_typed_in_euros(room, desk, clock):
    waiting = nl12()
    waitlist.entry_join(waiting_list=waiting, player_code=room[6])
    answer = desk.post(f"/floor/lists/{waiting.pk}/call", follow=True)
    entry = Entry.objects.get(player__code=room[6])
    where = f"{entry.call_table.code}, seat {entry.call_seat}"
    assert messages_of(answer) == [f"Player {room[6]} is called to {where}."]
    lists = desk.get("/floor/lists")
    (row,) = [r for r in lists.context["lists"][0].rows if r.entry.pk == entry.pk]
    assert row.deadline == entry.expires_at and row.seconds_left > 0
    assert f'data-deadline="{int(entry.expires_at.timestamp() * 1000)}"' in (
        lists.content.decode()
    )
    # The map names him at the seat he is called to, as the list does.
    mapped = desk.get("/floor/map").content.decode()
    assert f"Called: Player {room[6]} {room[6]}" in mapped

    low = desk.post(
        f"/floor/entries/{entry.pk}/seat",
        {"once": "k-1", "amount": "50", "method": "cash"},
        follow=True,
    )
    assert messages_of(low) == ["BI1: a buy-in here is between €100.00 and €400.00."]
    seated = desk.post(
        f"/floor/entries/{entry.pk}/seat",
        {"once": "k-2", "amount": "250", "method": "cash"},
        follow=True,
    )
    assert messages_of(seated) == [f"Player {room[6]} is seated at {where}."]
    session = SeatSession.objects.get(player__code=room[6], ended_at=None)
    assert session.stack_cents == 25_000
