"""A funded cage, a registered player, and API clients for each role."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from accounting.models import Cage
from accounting.services import cage as services
from core.roles import Role

VAULT = 10_000_000
FLOAT = 500_000


@pytest.fixture
def cage(db) -> Cage:
    manager = User.objects.create_user("vault-keeper")
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    services.cage_vault_fund(cage=cage, cash_cents=VAULT, chips_cents=VAULT, by=manager)
    return cage


@pytest.fixture
def player(db):
    return services.player_register(
        code="P-1001",
        name="Aino Virtanen",
        id_verified=True,
        birth_date=date(1985, 1, 1),
    )


@pytest.fixture
def cashier(staff_client):
    return staff_client(Role.CASHIER, username="kalle")


@pytest.fixture
def floor(staff_client):
    return staff_client(Role.FLOOR, username="fred")


@pytest.fixture
def manager(staff_client):
    return staff_client(Role.MANAGER, username="mia")


@pytest.fixture
def open_shift(cage, cashier) -> int:
    answer = cashier.post(
        "/api/v1/cage/shifts",
        {"cage": "MAIN", "cash": FLOAT, "chips": FLOAT},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def post(client, path: str, body: dict | None = None, key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1/{path}", body or {}, format="json", **headers)
