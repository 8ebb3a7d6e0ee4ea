"""The server is the only clock (TO1, TO12): late registration, the rebuy period
and the add-on are open or closed by the event's clock on the server at the moment
of the sale, never by the level a desk sends; the clock's own changes are checked
before anything is written; starting the clock starts the event.

The event's structure (tests/integration/tournaments/conftest.py): levels 1, 2, 3
of 20 minutes, a 10-minute break numbered 4, levels 5 and 6. Registration closes
after level 3, rebuys end with level 3, the add-on is sold at the break (4). The
clock is moved by the tests (``now``/``at``, or a stopped ``time_machine`` for the
HTTP requests), never read from the wall.
"""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from core.api.errors import status_of
from core.errors import ApplicationError
from tests.api.tournaments.test_strict_input import tournament_state
from tests.conftest import PASSWORD, ROOM_EVENING
from tournaments import selectors, services
from tournaments.domain.clock import Status
from tournaments.models import ClockChange, Entry, Event, Purchase

pytestmark = pytest.mark.django_db

T0 = ROOM_EVENING + timedelta(minutes=10)  # the clock starts
MINUTE = timedelta(minutes=1)
SECOND = timedelta(seconds=1)
END_OF_3 = T0 + 60 * MINUTE  # levels 1-3 are 20 minutes each; the break follows
END_OF_BREAK = END_OF_3 + 10 * MINUTE


def login(username: str) -> APIClient:
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/login",
        {"username": username, "password": PASSWORD},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
    return client


@pytest.fixture
def seated(event, cage, shift, cashier, players, floor_person):
    """Four players registered before the start (level 0), seated by the draw."""
    for p in players[:4]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier, at=T0 - MINUTE
        )
    return event


def start(event: Event, by: User, *, at=T0, level: int | None = None) -> None:
    services.clock_change(
        event_code=event.code, action="start", level=level, by=by, now=at
    )


def change(event: Event, by: User, action: str, at, **kw) -> None:
    services.clock_change(event_code=event.code, action=action, by=by, now=at, **kw)


def sell(kind: str, event: Event, cashier: User, player: str, at, **kw):
    """An entry for ``player``, or a rebuy or the add-on to his entry, at ``at``."""
    if kind == "entry":
        return services.entry_register(
            event=event, player=player, cage="MAIN", cashier=cashier, at=at, **kw
        )
    entry = Entry.objects.get(event=event, player__code=player, status="active")
    if kind == "rebuy":
        return services.rebuy_buy(
            entry=entry, cage="MAIN", cashier=cashier, stack=0, at=at, **kw
        )
    return services.addon_buy(entry=entry, cage="MAIN", cashier=cashier, at=at, **kw)


def refused(call, *args, **kwargs) -> ApplicationError:
    before = tournament_state()
    with pytest.raises(ApplicationError) as error:
        call(*args, **kwargs)
    assert tournament_state() == before
    return error.value


def windows(event: Event, at) -> tuple[int, bool, bool, bool]:
    w = selectors.cage_windows(event=event, at=at)
    return w.number, w.registration, w.rebuys, w.addon


# --- The windows at each boundary (TO1) -------------------------------------------


def test_before_the_start_registration_is_open_and_rebuys_are_not(
    seated, cashier, players
):
    """TO1: before the clock starts (level 0) registration is open; rebuys and the
    add-on are not."""
    assert windows(seated, T0) == (0, True, False, False)
    error = refused(sell, "rebuy", seated, cashier, players[0].code, T0)
    assert (error.code, error.rule) == ("rebuy_period_not_started", "TO1")
    error = refused(sell, "addon", seated, cashier, players[0].code, T0)
    assert (error.code, error.allowed) == ("not_addon_time", {"level": 4})
    assert sell("entry", seated, cashier, players[4].code, T0, level=0).seat


def test_the_last_second_of_a_level_and_the_first_of_the_break(
    seated, cashier, floor_person, players
):
    """TO1, TDA "MLR": registration that closes after level 3 is open in its last
    second and closed in the first second of the break after it; rebuys likewise;
    the add-on (at the break) the other way round."""
    start(seated, floor_person)
    last = END_OF_3 - SECOND
    assert windows(seated, last) == (3, True, True, False)
    assert windows(seated, END_OF_3) == (4, False, False, True)
    sell("entry", seated, cashier, players[4].code, last)
    sell("rebuy", seated, cashier, players[0].code, last, level=3)
    error = refused(sell, "entry", seated, cashier, players[5].code, END_OF_3)
    assert (error.code, error.rule, error.allowed) == (
        "registration_closed",
        "TO1",
        {"until_level": 3},
    )
    error = refused(sell, "rebuy", seated, cashier, players[1].code, END_OF_3)
    assert (error.code, error.allowed) == ("rebuy_period_over", {"until_level": 3})
    sell("addon", seated, cashier, players[1].code, END_OF_3, level=4)
    # The add-on's break ends: level 5, no add-on.
    assert windows(seated, END_OF_BREAK) == (5, False, False, False)
    refused(sell, "addon", seated, cashier, players[2].code, END_OF_BREAK)
    sell("addon", seated, cashier, players[2].code, END_OF_BREAK - SECOND)


def test_a_paused_clock_stays_at_its_level_and_resumes_there(
    seated, cashier, floor_person, players
):
    """TO12: paused in the break, the clock stays in it however long: registration
    stays closed, the add-on open; after resuming, the break's time runs out."""
    start(seated, floor_person)
    change(seated, floor_person, "pause", END_OF_3 + 5 * MINUTE)
    much_later = END_OF_3 + 90 * MINUTE
    assert windows(seated, much_later) == (4, False, False, True)
    refused(sell, "entry", seated, cashier, players[4].code, much_later)
    sell("addon", seated, cashier, players[0].code, much_later)
    change(seated, floor_person, "resume", much_later)
    assert windows(seated, much_later + 5 * MINUTE - SECOND)[0] == 4
    assert windows(seated, much_later + 5 * MINUTE) == (5, False, False, False)
    refused(sell, "addon", seated, cashier, players[1].code, much_later + 5 * MINUTE)


def test_after_a_move_the_clock_is_where_the_floor_put_it(
    seated, cashier, floor_person, players
):
    """TO12: the floor moves the clock back to level 2 (logged): registration and
    rebuys are open there, by the server's clock."""
    start(seated, floor_person)
    at = END_OF_3 + 2 * MINUTE
    refused(sell, "entry", seated, cashier, players[4].code, at)
    change(seated, floor_person, "move", at, level=2, reason="started too early")
    assert windows(seated, at + SECOND) == (2, True, True, False)
    sell("entry", seated, cashier, players[4].code, at + SECOND, level=2)
    sell("rebuy", seated, cashier, players[0].code, at + SECOND, level=2)


def test_a_stopped_clock_sells_nothing_and_the_event_goes_on(
    seated, cashier, floor_person, players
):
    """TO1: stopping the clock closes registration, rebuys and the add-on; the event
    runs on until its winner is known (busts are still taken)."""
    start(seated, floor_person)
    change(seated, floor_person, "stop", T0 + 5 * MINUTE)
    at = T0 + 6 * MINUTE
    assert windows(seated, at) == (1, False, False, False)
    error = refused(sell, "entry", seated, cashier, players[4].code, at)
    assert error.code == "registration_closed" and "stopped" in error.detail
    assert refused(sell, "rebuy", seated, cashier, players[0].code, at).rule == "TO1"
    seated.refresh_from_db()
    assert seated.status == Event.Status.RUNNING
    loser = Entry.objects.get(event=seated, player=players[0])
    services.busts_record(
        event=seated, hand="h1", busts=[services.BustIn(loser, 100)], by=floor_person
    )


# --- What the client believes: 409 with the server's level (TO12) ------------------


@pytest.mark.parametrize("kind", ["entry", "rebuy", "addon"])
def test_a_level_the_server_does_not_have_is_a_conflict(
    seated, cashier, floor_person, players, kind
):
    """TO12: a desk that believes the clock is at level 3 when it is at the break
    is answered 409 with the server's level; nothing is sold."""
    start(seated, floor_person)
    player = players[4 if kind == "entry" else 0].code
    error = refused(sell, kind, seated, cashier, player, END_OF_3, level=3)
    assert (error.code, error.rule, status_of(error)) == (
        "level_mismatch",
        "TO12",
        409,
    )
    assert error.allowed == {"level": 4, "on_break": True}


def test_the_cage_api_at_the_break_takes_the_servers_level(
    seated, shift, floor_person, players
):
    """TO1, TO12 (issue 32): with the clock at the break, an entry sent with level 1
    and a rebuy with level 2 are 409 with the server's level; sent without a level
    they are refused by the rule; the add-on is sold."""
    start(seated, floor_person)
    desk = login("kalle")
    base = f"/api/v1/tournaments/{seated.code}"
    with time_machine.travel(END_OF_3 + 30 * SECOND, tick=False):
        before = tournament_state()
        entry = desk.post(
            f"{base}/entries",
            {"cage": "MAIN", "player": players[5].code, "level": 1},
            format="json",
        )
        assert entry.status_code == 409, entry.content
        assert entry.json()["error"]["allowed"] == {"level": 4, "on_break": True}
        rebuy = desk.post(
            f"{base}/entries/1/rebuys",
            {"cage": "MAIN", "stack": 100, "level": 2},
            format="json",
        )
        assert rebuy.status_code == 409, rebuy.content
        assert rebuy.json()["error"]["code"] == "level_mismatch"
        closed = desk.post(
            f"{base}/entries",
            {"cage": "MAIN", "player": players[5].code},
            format="json",
        )
        assert closed.status_code == 422
        assert closed.json()["error"]["code"] == "registration_closed"
        assert tournament_state() == before
        addon = desk.post(f"{base}/entries/1/addons", {"cage": "MAIN"}, format="json")
        assert addon.status_code == 201, addon.content
        shown = desk.get(f"{base}/clock").json()
        assert (shown["structure_level"], shown["on_break"], shown["level"]) == (
            4,
            True,
            3,
        )
        assert (
            shown["registration_open"],
            shown["rebuys_open"],
            shown["addon_open"],
        ) == (False, False, True)
    assert Purchase.objects.filter(kind="addon").count() == 1


# --- The clock's changes: checked before they are written (TO12) -------------------


def test_starting_the_clock_starts_the_event_and_busts_are_taken(
    seated, floor_client, players
):
    """TO12, TO4: the floor's start is the event's start (scheduled → running), in
    one transaction; the next bust is recorded."""
    assert seated.status == Event.Status.SCHEDULED
    started = floor_client.post(
        f"/api/v1/tournaments/{seated.code}/clock", {"action": "start"}, format="json"
    )
    assert started.status_code == 200, started.content
    seated.refresh_from_db()
    assert seated.status == Event.Status.RUNNING
    at_tt1 = Entry.objects.filter(event=seated, table="TT1").order_by("seat")
    loser = at_tt1.first()
    assert loser is not None
    bust = floor_client.post(
        f"/api/v1/tournaments/{seated.code}/tables/TT1/busts",
        {"hand": "1", "busts": [{"player": loser.player.code, "stack": 20_000}]},
        format="json",
    )
    assert bust.status_code == 201, bust.content


def test_a_refused_start_leaves_the_event_scheduled(seated, floor_person):
    """TO12: a start the clock refuses (a time left longer than the level) starts
    neither the clock nor the event."""
    with pytest.raises(ApplicationError):
        services.clock_change(
            event_code=seated.code,
            action="start",
            seconds=99_999,
            by=floor_person,
            now=T0,
        )
    seated.refresh_from_db()
    assert seated.status == Event.Status.SCHEDULED
    assert not ClockChange.objects.exists()


ACTIONS = ["start", "pause", "resume", "move", "add_time", "stop"]
LEVELS = ["absent", None, 1, 4, 99, 0, "1", 1.0, True]
SECONDS = ["absent", None, 0, 60, -60, 1200, 86_401, "60", 1.5]


def test_every_clock_body_is_answered_without_a_5xx(seated, floor_client):
    """TO12, API.md (issue 32: pause with a level was a 500): every combination of
    action, level and seconds is answered 200, 400, 409 or 422 in the error shape;
    a refused one writes nothing, an accepted one logs exactly itself."""
    url = f"/api/v1/tournaments/{seated.code}/clock"
    seen = set()
    for action, level, seconds in itertools.product(ACTIONS, LEVELS, SECONDS):
        body: dict[str, object] = {"action": action}
        if level != "absent":
            body["level"] = level
        if seconds != "absent":
            body["seconds"] = seconds
        logged = ClockChange.objects.count()
        answer = floor_client.post(url, body, format="json")
        seen.add(answer.status_code)
        assert answer.status_code in (200, 400, 409, 422), (body, answer.content)
        if answer.status_code == 200:
            last = ClockChange.objects.order_by("-pk").first()
            assert ClockChange.objects.count() == logged + 1
            assert last is not None and last.action == action
            assert last.level == (None if level == "absent" else level)
        else:
            error = answer.json()["error"]
            assert {"code", "rule", "detail", "allowed"} <= set(error), body
            assert ClockChange.objects.count() == logged, body
    assert seen == {200, 400, 422}


@pytest.mark.parametrize(
    "body",
    [
        {"action": "pause", "level": 1},
        {"action": "pause", "seconds": 60},
        {"action": "resume", "level": 2},
        {"action": "stop", "seconds": 1},
        {"action": "add_time", "level": 1, "seconds": 60},
    ],
)
def test_a_level_or_seconds_the_action_does_not_take_is_400(seated, floor_client, body):
    """TO12: the field the action doesn't take is named, with what it takes."""
    url = f"/api/v1/tournaments/{seated.code}/clock"
    assert floor_client.post(url, {"action": "start"}, format="json").status_code == 200
    if body["action"] == "resume":
        floor_client.post(url, {"action": "pause"}, format="json")
    before = tournament_state()
    answer = floor_client.post(url, body, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert (error["code"], error["rule"]) == ("clock_field_not_taken", "TO12")
    assert "fields" in error["allowed"]
    assert tournament_state() == before


def test_the_clock_shows_the_real_pool_beside_the_guarantee(
    room, structure, cage, shift, cashier, players, floor_person
):
    """TO7: the board's prize pool is what the pool holds; the guarantee is shown
    beside it, not in its place."""
    from tests.integration.tournaments.conftest import make_event

    event = make_event(room, structure, code="gtd", guarantee_cents=500_000)
    for p in players[:3]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier, at=T0
        )
    shown = selectors.clock_shown(event, now=T0)
    assert (shown["prize_pool"], shown["guarantee"]) == (30_000, 500_000)
    assert shown["status"] == Status.NOT_STARTED and shown["structure_level"] == 0
