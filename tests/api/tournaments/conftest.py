"""An event with its tables' terminals: the tournament fixtures of the integration
tests, and a key for each of the event's tables."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cardroom.models import Table, TerminalKey
from core.roles import Role
from tests.integration.tournaments.conftest import (
    cage,
    cashier,
    event,
    floor_person,
    manager,
    players,
    room,
    shift,
    structure,
)
from tournaments import services

__all__ = [
    "cage",
    "cashier",
    "event",
    "floor_person",
    "manager",
    "players",
    "room",
    "shift",
    "structure",
]


def terminal_for(code: str) -> APIClient:
    table, _ = Table.objects.get_or_create(code=code, defaults={"seats": 9})
    _, key = TerminalKey.objects.create_key(name=f"{code} terminal", table=table)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    return client


@pytest.fixture
def terminals(db) -> dict[str, APIClient]:
    """The keys of the event's tables TT1 and TT2, and of a cash table T09."""
    return {code: terminal_for(code) for code in ("TT1", "TT2", "T09")}


@pytest.fixture
def floor_client(staff_client) -> APIClient:
    return staff_client(Role.FLOOR, username="flo")


@pytest.fixture
def running(event, cage, shift, cashier, players):
    """Eight players registered at the cage, seated by the draw, the event running."""
    for p in players[:8]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier
        )
    services.event_start(event=event)
    event.refresh_from_db()
    return event
