"""A funded cage, its staff and registered players."""

from __future__ import annotations

from datetime import date

import pytest

from accounting.models import Cage
from accounting.services import cage as services
from core.roles import Role

VAULT = 10_000_000  # €100,000 cash and as much in chips
FLOAT = 500_000  # €5,000 cash and chips in a drawer


@pytest.fixture
def manager(make_staff):
    return make_staff("mia", Role.MANAGER)


@pytest.fixture
def cashier(make_staff):
    return make_staff("kalle", Role.CASHIER)


@pytest.fixture
def floor_person(make_staff):
    return make_staff("fred", Role.FLOOR)


@pytest.fixture
def cage(db, manager) -> Cage:
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    services.cage_vault_fund(cage=cage, cash_cents=VAULT, chips_cents=VAULT, by=manager)
    return cage


@pytest.fixture
def shift(cage, cashier):
    return services.shift_open(
        cage=cage, cashier=cashier, cash_cents=FLOAT, chips_cents=FLOAT
    )


@pytest.fixture
def player(db):
    return services.player_register(
        code="P-1001",
        name="Aino Virtanen",
        id_verified=True,
        birth_date=date(1985, 1, 1),
    )


@pytest.fixture
def unverified(db):
    return services.player_register(
        code="P-2002", name="Pekka Niemi", birth_date=date(1985, 1, 1)
    )
