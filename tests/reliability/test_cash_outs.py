"""Concurrent cash-outs of the same chips over HTTP: exactly the covered ones are paid
(DESIGN.md, "Reliability and security targets"; CA2).

The service-level race is in tests/integration/cage/test_race.py; here four cashiers
at two cages, logged in to gunicorn with their own tokens, send sixteen redemptions
of one player's chips at the same moment.
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest

from accounting import chart
from accounting.models import Receipt, Shift
from accounting.services import cage as services
from core.roles import Role
from tests.conftest import PASSWORD
from tests.integration.cage.helpers import cage_desks, paid_exactly
from tests.reliability.conftest import Answer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

REQUESTS = 16
EACH = 3_000
HOLDING = 20_000  # covers six redemptions of 3,000 (18,000); 2,000 stay
PLAYER = "P-1001"


def drawers() -> dict[int, tuple[int, int]]:
    """Each shift's drawer: (cash, chips)."""
    return {
        s.pk: (
            chart.drawer_cash(cage=s.cage.code, shift=s.pk).balance_cents,
            chart.drawer_chips(cage=s.cage.code, shift=s.pk).balance_cents,
        )
        for s in Shift.objects.select_related("cage")
    }


def test_cashiers_cashing_out_the_same_chips_at_once_pay_only_what_is_covered(
    make_staff, web
):
    """16 redemptions of 3,000 from a player holding 20,000, at four desks at once:
    six are paid (201), ten refused with insufficient_funds (422); the ledger holds."""
    desks = cage_desks(make_staff, make_staff("mia", Role.MANAGER))
    services.player_register(
        code=PLAYER, name="Aino Virtanen", id_verified=True, birth_date=date(1985, 1, 1)
    )
    services.chip_purchase(
        cage="MAIN", cashier=desks[0][1], player=PLAYER, amount_cents=HOLDING
    )
    before = drawers()

    web.start()
    clients = []
    for code, cashier in desks:
        login = web.client().post(
            "/api/v1/auth/login", {"username": cashier.username, "password": PASSWORD}
        )
        assert login.status == 200, login.text
        clients.append((code, web.client(f"Bearer {login.json()['token']}")))
    barrier = threading.Barrier(REQUESTS)

    def desk(n: int) -> Answer:
        code, client = clients[n % len(clients)]
        # A connection of its own per request: all sixteen are in flight at once.
        client = web.client(client.authorization)
        body = {"cage": code, "player": PLAYER, "amount": EACH}
        barrier.wait(30)
        try:
            return client.post(
                "/api/v1/cage/redemptions", body, key=f"cash-out-{uuid.uuid4()}"
            )
        finally:
            client.close()

    with ThreadPoolExecutor(REQUESTS) as pool:
        answers = list(pool.map(desk, range(REQUESTS)))

    paid = HOLDING // EACH
    assert sorted(a.status for a in answers) == [201] * paid + [422] * (
        REQUESTS - paid
    ), [a.text for a in answers]
    for refused in (a for a in answers if a.status == 422):
        assert refused.json()["error"]["code"] == "insufficient_funds", refused.text
    receipts = [a.json() for a in answers if a.status == 201]
    assert {(r["kind"], r["player"], r["amount"]) for r in receipts} == {
        (Receipt.Kind.REDEMPTION, PLAYER, EACH)
    }
    stored = Receipt.objects.filter(kind=Receipt.Kind.REDEMPTION)
    assert sorted(stored.values_list("cage__code", "number")) == sorted(
        (r["cage"], r["number"]) for r in receipts
    )

    # Each desk paid out in cash what it took in in chips, for its own receipts.
    after = drawers()
    for shift, (cash, chips_in_drawer) in after.items():
        took = sum(r["amount"] for r in receipts if r["shift"] == shift)
        assert (cash, chips_in_drawer) == (
            before[shift][0] - took,
            before[shift][1] + took,
        )
    paid_exactly(PLAYER, holding=HOLDING, paid=paid, each=EACH)
