"""A funded cage, a registered player and staff signed in to the screens."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounting.models import Payable, TableSlip
from accounting.services import cage as services
from core.roles import Role
from tests.api.cage.conftest import cage, player
from tests.integration.cage.helpers import book_award

__all__ = ["cage", "player"]


@pytest.fixture
def cashier_user(make_staff) -> User:
    return make_staff("kalle", Role.CASHIER)


@pytest.fixture
def desk(cashier_user, cage) -> Client:
    """The cashier's browser, signed in, in English."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(cashier_user)
    return client


@pytest.fixture
def opened(desk, cage, cashier_user):
    """The cashier's shift, opened with €5,000 in notes and €5,000 in chips."""
    return services.shift_open(
        cage=cage, cashier=cashier_user, cash_cents=500_000, chips_cents=500_000
    )


@pytest.fixture
def fill(cage, make_staff) -> TableSlip:
    floor = make_staff("fred", Role.FLOOR)
    return services.slip_request(
        kind=TableSlip.Kind.FILL,
        cage=cage,
        table="T01",
        amount_cents=100_000,
        requested_by=floor,
    )


@pytest.fixture
def award(player, make_staff) -> Payable:
    manager = make_staff("mia", Role.MANAGER)
    booking = book_award(player.code, 150_000)
    return services.payable_create(
        player=player,
        amount_cents=150_000,
        reference="bad beat hit 12",
        approved_by=manager,
        booking=booking,
    )
