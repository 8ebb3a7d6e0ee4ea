"""A table's state for its terminal (API.md "Table terminal", ``GET state``): the
game's structure, the policy in force, the seats with their names, kinds and
breaks (BI9), the last hand booked, the floor's calls to the table with the
buy-in each may bring (WL2, BI1, BI5), the room's jackpots (JD6) and a tournament
table's level (TO12)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounting.models import Account
from cardroom.models import Hand, Room, Table
from cardroom.services import room_default
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Pool
from tests.api.floor.conftest import POLICY, leave, post_hand, seat
from tests.api.floor.test_hands import heads_up
from tests.api.test_auth import assert_error_shape
from tournaments import services as tournament_services
from tournaments.models import Event, EventTable, Level, Structure

pytestmark = pytest.mark.django_db

STATE = "/api/v1/tables/T01/state"


@pytest.fixture
def t01(clock, open_table, players):
    t = open_table("T01")
    assert seat(t, "T01", 1, "P-1", 20_000).status_code == 201
    assert seat(t, "T01", 2, "P-2", 20_000).status_code == 201
    return t


def test_the_table_its_structure_policy_and_seats(t01, clock):
    """The terminal reads the game, the blinds in cents and the policy document as
    the table was opened with it; each seat with its player's name and stack."""
    answer = t01.get(STATE)
    assert answer.status_code == 200, answer.content
    state = answer.json()
    assert state["table"]["code"] == "T01" and state["table"]["status"] == "open"
    assert state["game"] == "NLHE"
    assert state["structure"] == {
        "kind": "NL",
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "bring_in": None,
        "small_bet": None,
        "big_bet": None,
        "straddle": 400,
    }
    assert state["buy_in"] == {"min": 10_000, "max": 40_000}
    assert state["policy"] == {"version": 1, "document": POLICY}
    assert [
        (s["seat"], s["player"], s["name"], s["stack"]) for s in state["seats"]
    ] == [
        (1, "P-1", "Player P-1", 20_000),
        (2, "P-2", "Player P-2", 20_000),
    ]
    first = state["seats"][0]
    assert first["kind"] == "buy_in" and first["state"] == "playing"
    assert first["away_since"] is None and first["on_break"] is False
    assert first["sat_down"] == clock.now.isoformat()
    assert state["last_hand"] is None
    assert state["calls"] == [] and state["tournament"] is None


def test_the_last_hand_and_the_stacks_it_left(t01, clock):
    """After a hand: its number, button, end and the seats dealt in, read from the
    booked hand; the stacks are the ledger's."""
    ended = (clock.now - timedelta(minutes=1)).isoformat()
    assert post_hand(t01, "T01", heads_up(button=2, ended_at=ended)).status_code == 201
    state = t01.get(STATE).json()
    hand = Hand.objects.get()
    last = state["last_hand"]
    assert datetime.fromisoformat(last.pop("ended_at")) == hand.ended_at
    assert last == {
        "hand_no": 1,
        "button": 2,
        "status": "booked",
        "seats": [1, 2],
    }
    stacks = {s["seat"]: s["stack"] for s in state["seats"]}
    assert stacks == {1: 24_500, 2: 15_000}
    assert [s["last_hand_no"] for s in state["seats"]] == [1, 1]


def test_a_player_away_on_his_long_break(t01, clock):
    """BI9: the seat is away since the moment he stepped away, on his long break."""
    answer = t01.post(
        "/api/v1/tables/T01/seats/2/away", {"long_break": True}, format="json"
    )
    assert answer.status_code == 201, answer.content
    seats = {s["seat"]: s for s in t01.get(STATE).json()["seats"]}
    assert seats[2]["state"] == "away" and seats[2]["on_break"] is True
    assert seats[2]["away_since"] == clock.now.isoformat()
    assert seats[1]["on_break"] is False


def test_the_floors_calls_with_the_buy_in_each_may_bring(t01, open_table, floor, clock):
    """WL2: each player called to the table, with what POST seats would take from
    him: the table's minimum for a new player (BI1), the stack he left a table of
    the same game with tonight for a returning one (BI5)."""
    t02 = open_table("T02")
    assert seat(t02, "T02", 1, "P-4", 30_000).status_code == 201
    assert leave(t02, "T02", 1, 30_000).status_code == 200
    for player in ("P-3", "P-4"):
        joined = floor.post(
            "/api/v1/waitlist/lists/NLHE-100-200/join",
            {"player": player},
            format="json",
        )
        assert joined.status_code == 201, joined.content
        call = floor.post(
            "/api/v1/waitlist/lists/NLHE-100-200/call", {"table": "T01"}, format="json"
        )
        assert call.status_code == 201, call.content
    calls = t01.get(STATE).json()["calls"]
    assert [(c["player"], c["name"], c["kind"]) for c in calls] == [
        ("P-3", "Player P-3", "list"),
        ("P-4", "Player P-4", "list"),
    ]
    new, back = calls
    assert new["seat"] == 3 and back["seat"] == 4
    assert new["house_move"] is False and new["refused"] is None
    assert new["expires_at"] == (clock.now + timedelta(minutes=5)).isoformat()
    assert new["buy_in"] == {
        "min": 10_000,
        "max": 40_000,
        "kind": "buy_in",
        "min_rule": "BI1",
        "max_rule": "BI1",
    }
    assert back["buy_in"]["min"] == 30_000 and back["buy_in"]["min_rule"] == "BI5"
    # What the state says is what POST seats takes.
    below = seat(t01, "T01", 4, "P-4", 29_999)
    assert_error_shape(below, 422, "below_minimum")
    assert seat(t01, "T01", 4, "P-4", 30_000).status_code == 201


def test_a_called_player_seated_elsewhere_is_told_why(t01, open_table, floor):
    """WL6: a player seated at another table can't buy in here; the state says
    so instead of an amount."""
    t02 = open_table("T02", game="PLO12")
    assert seat(t02, "T02", 1, "P-5", 20_000).status_code == 201
    floor.post(
        "/api/v1/waitlist/lists/NLHE-100-200/join", {"player": "P-5"}, format="json"
    )
    call = floor.post(
        "/api/v1/waitlist/lists/NLHE-100-200/call", {"table": "T01"}, format="json"
    )
    assert call.status_code == 201, call.content
    (only,) = t01.get(STATE).json()["calls"]
    assert only["buy_in"] is None
    assert only["refused"]["code"] == "already_seated"
    assert only["refused"]["rule"] == "WL6"


def test_the_rooms_jackpots_are_the_ledgers(t01, make_staff):
    """JD6: each pool with the amount its ledger account holds."""
    boss = make_staff("owner", Role.MANAGER)
    pool = jackpot_services.pool_create(
        room=room_default(),
        code="bad-beat",
        name="Bad beat",
        kind=Pool.Kind.BAD_BEAT,
        drop_ratio=1,
        seed_cents=100_000,
        by=boss,
    )
    (jackpot,) = t01.get(STATE).json()["jackpots"]
    held = Account.objects.get(pk=pool.account_id).balance_cents
    assert jackpot == {
        "code": "bad-beat",
        "name": "Bad beat",
        "kind": "bad_beat",
        "amount": held,
    }
    assert held == 100_000


def test_a_tournament_table_shows_its_event_and_level(t01, make_staff):
    """TO12: a table playing in a running event shows the event's clock: its
    level, blinds and ante."""
    structure = Structure.objects.create(code="turbo", name="Turbo")
    Level.objects.create(
        structure=structure,
        number=1,
        minutes=20,
        small_blind=100,
        big_blind=200,
        ante=25,
    )
    event = Event.objects.create(
        room=Room.objects.get(),
        code="sunday",
        name="Sunday event",
        currency="EUR",
        structure=structure,
        starts_at=timezone.now(),
        buy_in_cents=10_000,
        fee_cents=1_000,
        starting_stack=20_000,
    )
    EventTable.objects.create(event=event, table="T01", break_order=1)
    tournament_services.clock_change(
        event_code="sunday", action="start", by=make_staff("td", Role.FLOOR)
    )
    shown = t01.get(STATE).json()["tournament"]
    assert shown["event"] == "sunday" and shown["name"] == "Sunday event"
    assert shown["status"] == "running" and shown["level"] == 1
    assert (shown["small_blind"], shown["big_blind"], shown["ante"]) == (100, 200, 25)
    assert shown["on_break"] is False and shown["seconds_left"] == 20 * 60


def test_stud_and_limit_structures(clock, open_table, manager):
    """A limit game's bets are the big blind and two; a stud game brings in the
    small blind's amount and takes no straddle."""
    answer = manager.post(
        "/api/v1/tables",
        {
            "code": "T05",
            "game": "STUD",
            "small_blind": 100,
            "big_blind": 200,
            "min_buy_in": 4_000,
            "max_buy_in": None,
            "seats": 8,
            "policy": POLICY,
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    structure = manager.get("/api/v1/tables/T05/state").json()["structure"]
    assert structure == {
        "kind": "L",
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "bring_in": 100,
        "small_bet": 200,
        "big_bet": 400,
        "straddle": None,
    }


def test_a_terminal_reads_its_own_table_only(t01, open_table, staff_client, api):
    open_table("T02")
    assert_error_shape(t01.get("/api/v1/tables/T02/state"), 403, "permission_denied")
    assert_error_shape(api.get(STATE), 401, "not_authenticated")
    cashier = staff_client(Role.CASHIER)
    assert cashier.get(STATE).status_code == 403
    floor_person = staff_client(Role.FLOOR, username="floor-reader")
    assert floor_person.get(STATE).status_code == 200
    assert_error_shape(floor_person.get("/api/v1/tables/T77/state"), 404, "not_found")


def test_reading_the_state_writes_nothing(t01, open_table, floor):
    """A read: no row anywhere changes (no door refusal kept, no account opened)."""
    from django.apps import apps

    floor.post(
        "/api/v1/waitlist/lists/NLHE-100-200/join", {"player": "P-3"}, format="json"
    )
    floor.post(
        "/api/v1/waitlist/lists/NLHE-100-200/call", {"table": "T01"}, format="json"
    )
    models = [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]
    before = {m: m.objects.count() for m in models}
    assert t01.get(STATE).status_code == 200
    assert {m: m.objects.count() for m in models} == before
    assert User.objects.exists() and Table.objects.count() == 1
