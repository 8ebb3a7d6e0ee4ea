"""Floor terminals acting on one list at the same moment (WL2, WL6).

Real threads, real connections, committed transactions: the list's row lock makes
the second caller see the first one's call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connections

from accounting.selectors import trial_balance
from cardroom.models import SeatSession
from core.roles import Role
from tests.api.waitlist.conftest import fill, joined, key

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(*jobs: Callable[[], object]) -> list[object]:
    """Run ``jobs`` in threads released together; return their results in order."""
    gate = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(n: int, job: Callable[[], object]) -> None:
        try:
            gate.wait(10)
            results[n] = job()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, j)) for n, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.fixture(autouse=True)
def roles(transactional_db) -> None:
    """A transactional test empties the tables after it, the roles' groups too."""
    from django.contrib.auth.models import Group

    for role in Role:
        Group.objects.get_or_create(name=role.value)


@pytest.fixture
def terminals(staff_client):
    return [staff_client(Role.FLOOR, username=f"floor-{n}") for n in range(4)]


def test_two_terminals_calling_for_one_seat_call_one_player_once(
    open_table, players, terminals
):
    """WL2: one open seat, two calls at the same moment: one call, one 409."""
    t = open_table("T01", seats=3)
    fill(t, "T01", ["P-1", "P-2"])
    for n in (5, 6, 7):
        joined(terminals[0], f"P-{n}")
    url = f"/api/v1/waitlist/lists/{key()}/call"
    answers = at_once(
        *[
            lambda c=c: c.post(url, {"table": "T01"}, format="json")
            for c in terminals[:2]
        ]
    )
    assert sorted(a.status_code for a in answers) == [201, 409]
    (won,) = [a.json()["entry"] for a in answers if a.status_code == 201]
    assert (won["player"], won["seat"]) == ("P-5", 3)
    body = terminals[0].get(f"/api/v1/waitlist/lists/{key()}").json()
    assert [(e["player"], e["status"]) for e in body["entries"]] == [
        ("P-5", "called"),
        ("P-6", "waiting"),
        ("P-7", "waiting"),
    ]


def test_four_terminals_for_two_seats_call_two_players_to_two_seats(
    open_table, players, terminals
):
    """WL2, WL6: two seats, four callers: two different players, two seats."""
    t = open_table("T01", seats=4)
    fill(t, "T01", ["P-1", "P-2"])
    for n in (5, 6, 7, 8):
        joined(terminals[0], f"P-{n}")
    url = f"/api/v1/waitlist/lists/{key()}/call"
    answers = at_once(*[lambda c=c: c.post(url, {}, format="json") for c in terminals])
    assert sorted(a.status_code for a in answers) == [201, 201, 409, 409]
    calls = [a.json()["entry"] for a in answers if a.status_code == 201]
    assert sorted(c["player"] for c in calls) == ["P-5", "P-6"]
    assert sorted(c["seat"] for c in calls) == [3, 4]


def test_two_terminals_seating_one_called_player_seat_him_once(
    open_table, players, terminals
):
    """WL6: the same seat request twice at once: one seat, one buy-in."""
    t = open_table("T01", seats=3)
    fill(t, "T01", ["P-1", "P-2"])
    entry = joined(terminals[0], "P-5")
    url = f"/api/v1/waitlist/lists/{key()}/call"
    assert terminals[0].post(url, {"table": "T01"}, format="json").status_code == 201
    seat_url = f"/api/v1/waitlist/entries/{entry}/seat"
    body = {"amount": 20_000, "method": "cash"}
    answers = at_once(
        *[lambda c=c: c.post(seat_url, body, format="json") for c in terminals[:2]]
    )
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert SeatSession.objects.filter(player__code="P-5").count() == 1
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
