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


@pytest.mark.parametrize(
    ("change", "code", "allowed"),
    [
        (
            {"small_blind": 400, "big_blind": 200},
            "blinds_out_of_order",
            "min_big_blind",
        ),
        (
            {"min_buy_in": 40_000, "max_buy_in": 10_000},
            "buy_ins_out_of_order",
            "min_max_buy_in",
        ),
    ],
    ids=["blinds", "buy-ins"],
)
def test_stakes_out_of_order_are_refused_for_what_they_are(
    manager, clock, change, code, allowed
):
    """A big blind below the small one, a maximum buy-in below the minimum: each
    number reads well (the schema allows them) and they contradict each other,
    which the schema can't state. Refused with 422 naming what would do, not as
    malformed (400 before)."""
    answer = manager.post("/api/v1/tables", body("T01", **change), format="json")
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["code"], error["rule"]) == (code, None)
    assert error["allowed"] == {allowed: max(change.values())}
    assert not Table.objects.filter(code="T01").exists()


@pytest.mark.parametrize("percent", ["1e2", " 5", "+5", "101", "moved by the house"])
def test_a_rake_percentage_is_what_the_schema_says(manager, clock, percent):
    """RK7: ``rake.percent`` is a decimal string from "0" to "100", as the
    schema's pattern says; what it forbids is malformed (400 invalid), though
    the engine's own reading took "1e2", " 5" and "+5"."""
    policy = {**POLICY, "rake": {"scheme": "percent", "percent": percent}}
    answer = manager.post("/api/v1/tables", body("T01", policy=policy), format="json")
    assert answer.status_code == 400, answer.content
    assert not Table.objects.filter(code="T01").exists()
    policy = {**POLICY, "rake": {"scheme": "percent", "percent": "2.5"}}
    answer = manager.post("/api/v1/tables", body("T01", policy=policy), format="json")
    assert answer.status_code == 201, answer.content
