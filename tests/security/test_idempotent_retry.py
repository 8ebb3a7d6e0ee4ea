"""A serialization failure or deadlock is retried also under an Idempotency-Key.

The key's claim and the write share one database transaction (core.idempotency),
so the services' retry, which must wrap the outermost transaction, never ran for a
request with a key: it answered 500. These force the failure inside the view, after
the claim, and find the request answered once, booked once, and replayed after.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import connection

from accounting.api.views import PurchaseApi
from accounting.models import Cage, Receipt
from accounting.services import cage as services
from core.models import IdempotencyRecord
from core.roles import Role
from tests.security.ledger import fingerprint

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cashier(db, staff_client):
    keeper = User.objects.create_user("vault-keeper")
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    services.cage_vault_fund(cage=cage, cash_cents=10**7, chips_cents=10**7, by=keeper)
    services.player_register(
        code="P-1001", name="Aino", id_verified=True, birth_date=date(1985, 1, 1)
    )
    client = staff_client(Role.CASHIER, username="kalle")
    opened = client.post(
        "/api/v1/cage/shifts", {"cage": "MAIN", "cash": 10**5, "chips": 10**5}, "json"
    )
    assert opened.status_code == 201, opened.content
    return client


# What PostgreSQL raises for a serialization failure and for a deadlock.
FAIL = {
    code: f"DO $$ BEGIN RAISE EXCEPTION 'forced' USING ERRCODE = '{code}'; END $$"
    for code in ("40001", "40P01")
}


def failing(times: int, sqlstate: str):
    """The purchase, failing its first ``times`` calls as PostgreSQL would."""
    calls = {"n": 0}
    original = PurchaseApi.exchange

    def exchange(**kwargs):
        calls["n"] += 1
        if calls["n"] <= times:
            with connection.cursor() as cursor:
                cursor.execute(FAIL[sqlstate])
        return original(**kwargs)

    return staticmethod(exchange), calls


def buy(client, key: str):
    return client.post(
        "/api/v1/cage/purchases",
        {"cage": "MAIN", "player": "P-1001", "amount": 40_000},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.mark.parametrize("sqlstate", ["40001", "40P01"])
def test_a_keyed_request_is_retried_after_a_serialization_failure(
    cashier, monkeypatch, sqlstate
):
    exchange, calls = failing(2, sqlstate)
    monkeypatch.setattr(PurchaseApi, "exchange", exchange)
    before = fingerprint()
    answer = buy(cashier, "purchase-1")
    assert answer.status_code == 201, answer.content
    assert calls["n"] == 3  # two failures, then the booking
    assert Receipt.objects.count() == before["receipts"] + 1
    assert fingerprint()["transactions"] == before["transactions"] + 1
    record = IdempotencyRecord.objects.get(key="purchase-1")
    assert record.status_code == 201 and record.response_body == answer.json()

    again = buy(cashier, "purchase-1")
    assert again.status_code == 201 and again.json() == answer.json()
    assert again["Idempotent-Replayed"] == "true"
    assert calls["n"] == 3 and Receipt.objects.count() == before["receipts"] + 1


def test_a_failure_that_persists_writes_nothing_and_the_key_stays_free(
    cashier, monkeypatch
):
    """After the last attempt the error goes through (500, nothing stored); the
    same key then books once."""
    exchange, calls = failing(5, "40001")
    monkeypatch.setattr(PurchaseApi, "exchange", exchange)
    before = fingerprint()
    cashier.raise_request_exception = False
    answer = buy(cashier, "purchase-2")
    assert answer.status_code == 500
    assert answer.json()["error"]["code"] == "server_error"
    assert calls["n"] == 5
    assert fingerprint() == before
    assert not IdempotencyRecord.objects.filter(key="purchase-2").exists()
    assert buy(cashier, "purchase-2").status_code == 201
