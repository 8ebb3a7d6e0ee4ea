"""A room with open tables, players and a clock, and the floor's waiting-list calls."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.floor.conftest import *  # noqa: F403 (clock, open_table, players…)
from tests.api.floor.conftest import GAMES, POLICY, seat
from waitlist.models import Entry, Event

TIME_POLICY = {
    **POLICY,
    "rake": {"scheme": "time"},
    "jackpot_drop": None,
    "time": {"period_minutes": 30, "amount": 600},
}


def key(game: str = "NL12") -> str:
    """The list of one of the floor fixtures' games: ``NLHE-100-200``."""
    g = GAMES[game]
    return f"{g['game']}-{g['small_blind']}-{g['big_blind']}"


def join(client: APIClient, player: str, game: str = "NL12"):
    return client.post(
        f"/api/v1/waitlist/lists/{key(game)}/join", {"player": player}, format="json"
    )


def call(client: APIClient, game: str = "NL12", **body: Any):
    return client.post(f"/api/v1/waitlist/lists/{key(game)}/call", body, format="json")


def seat_entry(client: APIClient, entry: int, **body: Any):
    return client.post(f"/api/v1/waitlist/entries/{entry}/seat", body, format="json")


def answer(client: APIClient, entry: int, accept: bool):
    return client.post(
        f"/api/v1/waitlist/entries/{entry}/answer", {"accept": accept}, format="json"
    )


def joined(client: APIClient, player: str, game: str = "NL12") -> int:
    answer_ = join(client, player, game)
    assert answer_.status_code == 201, answer_.content
    return answer_.json()["id"]


def called(client: APIClient, game: str = "NL12", **body: Any) -> dict:
    answer_ = call(client, game, **body)
    assert answer_.status_code == 201, answer_.content
    return answer_.json()["entry"]


def refused(answer_, rule: str, status: int = 422) -> dict:
    assert answer_.status_code == status, answer_.content
    error = answer_.json()["error"]
    assert error["rule"] == rule, error
    return error


def fill(terminal: APIClient, table: str, players: list[str], stack: int = 20_000):
    """Seat ``players`` in seats 1, 2, … of ``table`` with a cash buy-in each."""
    for n, player in enumerate(players, 1):
        answer_ = seat(terminal, table, n, player, stack)
        assert answer_.status_code == 201, answer_.content


def status_of(entry_id: int) -> tuple[str, str]:
    entry = Entry.objects.get(pk=entry_id)
    return entry.status, entry.end


def events(kind: str, **filters: Any) -> list[Event]:
    return list(Event.objects.filter(kind=kind, **filters).order_by("pk"))


@pytest.fixture
def small(open_table, players, clock):
    """T01 (NL 1/2, three seats) with two players: one seat free."""
    t = open_table("T01", seats=3)
    fill(t, "T01", ["P-1", "P-2"])
    return t


@pytest.fixture(autouse=True)
def games(db) -> None:
    """The room deals the floor fixtures' games, so players can list for them
    before a table opens (a list can start a game)."""
    from cardroom.models import Game
    from cardroom.services import room_default

    room = room_default()
    for g in GAMES.values():
        Game.objects.get_or_create(
            room=room,
            code=g["game"],
            small_blind_cents=g["small_blind"],
            big_blind_cents=g["big_blind"],
            defaults={
                "min_buy_in_cents": g["min_buy_in"],
                "max_buy_in_cents": g["max_buy_in"],
            },
        )
