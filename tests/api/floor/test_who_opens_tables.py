"""Who opens and closes tables: the floor, for the games the room has; a manager
sets the room up (a game, stakes, buy-ins or a policy it lacks, RK7)."""

from __future__ import annotations

import pytest

from cardroom.models import Table
from tests.api.floor.conftest import GAMES, POLICY

pytestmark = pytest.mark.django_db


def body(code: str, preset: str = "NL12", **extra):
    return {"code": code, **GAMES[preset], "seats": 9, "policy": POLICY, **extra}


def test_the_floor_opens_and_closes_a_table_of_a_game_the_room_has(
    manager, floor, clock
):
    assert manager.post("/api/v1/tables", body("T01"), format="json").status_code == 201
    answer = floor.post("/api/v1/tables", body("T02"), format="json")
    assert answer.status_code == 201, answer.content
    assert floor.post("/api/v1/tables/T02/close").status_code == 200
    assert Table.objects.get(code="T02").status == Table.Status.CLOSED


@pytest.mark.parametrize(
    "change",
    [
        {"game": "PLO"},
        {"big_blind": 400},
        {"max_buy_in": 50_000},
        {"policy": {**POLICY, "smallest_chip": 100}},
    ],
    ids=["game", "stakes", "buy-in", "policy"],
)
def test_the_floor_may_not_set_the_room_up_while_opening(manager, floor, clock, change):
    manager.post("/api/v1/tables", body("T01"), format="json")
    answer = floor.post("/api/v1/tables", body("T02", **change), format="json")
    assert answer.status_code == 403
    error = answer.json()["error"]
    assert (error["code"], error["rule"]) == ("room_setup_manager_only", "RK7")
    assert not Table.objects.filter(code="T02").exists()
    again = manager.post("/api/v1/tables", body("T02", **change), format="json")
    assert again.status_code == 201, again.content
