"""Lockups: seats held for players on their way, and their limits (WL8)."""

from __future__ import annotations

import pytest

from tests.api.floor.conftest import seat
from tests.api.waitlist.conftest import call, events, joined
from waitlist.models import Lockup
from waitlist.tasks import sweep_task

pytestmark = pytest.mark.django_db


def lock(client, seat_no: int, kind: str = "seat", **extra):
    return client.post(
        "/api/v1/waitlist/lockups",
        {"table": "T01", "seat": seat_no, "kind": kind, **extra},
        format="json",
    )


def held() -> list[int]:
    return sorted(
        Lockup.objects.filter(released_at__isnull=True).values_list("seat", flat=True)
    )


@pytest.fixture
def t01(open_table, players, clock):
    t = open_table("T01", seats=3)
    assert seat(t, "T01", 1, "P-1", 20_000).status_code == 201
    return t


def test_a_lockup_holds_its_seat_against_calls(floor, t01, clock):
    """WL8: a held seat isn't free; with every seat held nobody is called."""
    assert lock(floor, 2).status_code == 201
    assert lock(floor, 3, note="Mika, parking").status_code == 201
    joined(floor, "P-5")
    answer_ = call(floor, table="T01")
    assert answer_.status_code == 409
    assert lock(floor, 3).status_code == 409  # held already
    assert lock(floor, 1).status_code == 409  # taken


def test_without_a_list_the_floor_holds_as_long_as_it_likes(floor, t01, clock):
    """WL8 applies only while players wait on the game's list."""
    lock(floor, 2, kind="new_game")
    lock(floor, 3)
    clock.advance(minutes=45)
    sweep_task()
    floor.get("/api/v1/waitlist/lockups")
    assert held() == [2, 3]


def test_with_a_list_a_new_game_lockup_ends_after_five_minutes(floor, t01, clock):
    """WL8: at 4:59 still held; at 5:00 released, and the seat can be called."""
    lock(floor, 2, kind="new_game")
    joined(floor, "P-5")
    clock.advance(minutes=4, seconds=59)
    assert len(floor.get("/api/v1/waitlist/lockups").json()) == 1
    clock.advance(seconds=1)
    assert floor.get("/api/v1/waitlist/lockups").json() == []
    (released,) = events("lockup_released")
    assert (released.rule, released.source) == ("WL8", "timer")
    assert Lockup.objects.get().release == "timed_out"
    assert call(floor, table="T01").json()["entry"]["seat"] == 2


def test_with_a_list_no_seat_is_held_over_ten_minutes(floor, t01, clock):
    """WL8: a player's lockup lasts 10 minutes while the list waits."""
    lock(floor, 2)
    joined(floor, "P-5")
    clock.advance(minutes=9, seconds=59)
    sweep_task()
    assert held() == [2]
    clock.advance(seconds=1)
    assert sweep_task() == 1
    assert held() == []


def test_a_list_forming_late_releases_a_long_held_seat_at_once(floor, t01, clock):
    """WL8: held 12 minutes with nobody waiting; the first name on the list ends it."""
    lock(floor, 2)
    clock.advance(minutes=12)
    assert held() == [2]
    joined(floor, "P-5")
    entry = call(floor, table="T01").json()["entry"]
    assert entry["seat"] == 2
    assert held() == []


def test_a_lockup_ends_when_its_player_sits_down(floor, t01, clock):
    """The player it was held for sat down (by the terminal): the lockup is done."""
    lock(floor, 2, player="P-7")
    assert seat(t01, "T01", 2, "P-7", 20_000).status_code == 201
    sweep_task()
    assert Lockup.objects.get().release == "taken"


def test_the_floor_releases_a_lockup(floor, t01, clock):
    pk = lock(floor, 2).json()["id"]
    answer_ = floor.post(f"/api/v1/waitlist/lockups/{pk}/release")
    assert answer_.status_code == 200 and answer_.json()["release"] == "floor"
    assert floor.post(f"/api/v1/waitlist/lockups/{pk}/release").status_code == 409
