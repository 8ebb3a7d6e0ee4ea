"""Two cashiers collecting the same receivable at the same moment (DC3).

Real threads, real connections, committed transactions: the player's row lock
makes the second cashier see the first one's collection, so the last euro is
collected once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connections

from accounting.models import Account, Receipt
from accounting.selectors import trial_balance
from core.roles import Role
from tests.api.floor.conftest import seat

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


def test_the_last_euro_is_collected_once(clock, open_table, players, staff_client):
    t01 = open_table("T01")
    assert seat(t01, "T01", 1, "P-1", 20_000).status_code == 201
    anna = staff_client(Role.FLOOR, username="anna")
    ben = staff_client(Role.FLOOR, username="ben")
    asked = anna.post(
        "/api/v1/corrections",
        {
            "kind": "receivable",
            "table": "T01",
            "from_player": "P-1",
            "amount": 5_000,
            "reason": "camera: paid twice for one pot",
        },
        format="json",
    )
    approved = ben.post(f"/api/v1/corrections/{asked.json()['id']}/approve")
    assert approved.status_code == 200, approved.content
    cashiers = [staff_client(Role.CASHIER, username=f"cashier-{n}") for n in (1, 2)]
    for c in cashiers:
        opened = c.post(
            "/api/v1/cage/shifts",
            {"cage": "MAIN", "cash": 100_000, "chips": 100_000},
            format="json",
        )
        assert opened.status_code == 201, opened.content
    body = {"cage": "MAIN", "player": "P-1", "amount": 5_000}
    answers = at_once(
        *[
            lambda c=c: c.post(
                "/api/v1/cage/receivables/collections", body, format="json"
            )
            for c in cashiers
        ]
    )
    assert sorted(a.status_code for a in answers) == [201, 422]
    (lost,) = [a.json()["error"] for a in answers if a.status_code == 422]
    assert (lost["rule"], lost["allowed"]["max"]) == ("DC3", 0)
    assert Account.objects.get(code="receivable:P-1").balance_cents == 0
    assert Receipt.objects.filter(kind="collection").count() == 1
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
