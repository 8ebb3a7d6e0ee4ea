"""A closed table gets no fills (CA3): asked for, or issued after it closed.

A credit is still taken from a closed table: it is how its chips go back to the
cage.
"""

from __future__ import annotations

import pytest

from accounting.models import TableSlip
from accounting.services import cage as services
from cardroom.models import Table
from cardroom.services.tables import table_close, table_open
from core.errors import Refusal
from core.roles import Role
from tests.api.floor.conftest import GAMES, POLICY
from tests.integration.cage.helpers import snapshot

from .conftest import post

pytestmark = pytest.mark.django_db

FILL = {"cage": "MAIN", "table": "T01", "amount": 25_000}


@pytest.fixture
def t01(db) -> Table:
    """T01 open, dealing no-limit hold'em, nobody seated."""
    game = GAMES["NL12"]
    return table_open(
        code="T01",
        game_code=game["game"],
        small_blind=game["small_blind"],
        big_blind=game["big_blind"],
        min_buy_in=game["min_buy_in"],
        max_buy_in=game["max_buy_in"],
        seats=9,
        policy=POLICY,
        by=None,
    )


def test_a_fill_for_a_closed_table_is_refused_when_asked(cage, floor, open_shift, t01):
    table_close(table=t01)
    before = snapshot()
    answer = post(floor, "cage/fills", FILL, "f-1")
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == ("CA3", "table_closed")
    assert "table T01 is closed; a closed table gets no fills" in error["detail"]
    assert not TableSlip.objects.exists() and snapshot() == before
    # Its chips go back to the cage by a credit.
    assert post(floor, "cage/credits", FILL).status_code == 201


def test_a_fill_asked_while_open_is_refused_at_issue_once_the_table_closed(
    cage, floor, cashier, open_shift, t01
):
    slip = post(floor, "cage/fills", FILL).json()
    table_close(table=t01)
    before = snapshot()
    answer = post(cashier, f"cage/fills/{slip['id']}/issue", None, "i-1")
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == ("CA3", "table_closed")
    assert f"fill {slip['id']} is for table T01, which has closed" in error["detail"]
    assert snapshot() == before
    assert TableSlip.objects.get().status == TableSlip.Status.PENDING
    # The floor cancels it; nothing moved.
    cancel = post(floor, f"cage/fills/{slip['id']}/cancel", {"reason": "T01 closed"})
    assert cancel.status_code == 200


def test_the_service_refuses_the_fill_and_issues_it_while_the_table_is_open(
    cage, make_staff, t01
):
    floor_user = make_staff("fiona", Role.FLOOR)
    cashier_user = make_staff("cas", Role.CASHIER)
    services.shift_open(
        cage=cage, cashier=cashier_user, cash_cents=500_000, chips_cents=500_000
    )
    ask = {"cage": cage, "table": "T01", "requested_by": floor_user}
    kept = services.slip_request(kind=TableSlip.Kind.FILL, amount_cents=10_000, **ask)
    late = services.slip_request(kind=TableSlip.Kind.FILL, amount_cents=20_000, **ask)
    assert services.slip_issue(slip=kept, cashier=cashier_user).status == "issued"
    table_close(table=t01)
    with pytest.raises(Refusal) as refused:
        services.slip_issue(slip=late, cashier=cashier_user)
    assert (refused.value.rule, refused.value.code) == ("CA3", "table_closed")
    with pytest.raises(Refusal):
        services.slip_request(kind=TableSlip.Kind.FILL, amount_cents=1_000, **ask)
    credit = services.slip_request(
        kind=TableSlip.Kind.CREDIT, amount_cents=10_000, **ask
    )
    assert services.slip_issue(slip=credit, cashier=cashier_user).status == "issued"
