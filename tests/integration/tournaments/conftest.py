"""A funded cage with two cashiers, a floor person, players and a tournament."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pytest
import time_machine
from django.utils import timezone

from accounting.models import Cage
from accounting.services import cage as cage_services
from cardroom.models import Room
from core.roles import Role
from tests.conftest import ROOM_EVENING
from tournaments.models import Event, EventTable, Level, Structure

VAULT = 10_000_000
FLOAT = 1_000_000


@pytest.fixture(autouse=True)
def event_evening() -> Iterator[None]:
    """Every tournament test plays on the room's evening, ticking on, whatever the
    machine's clock (also under ``make test-clocks``): an event that started half an
    hour ago must not start in another gaming day."""
    with time_machine.travel(ROOM_EVENING, tick=True):
        yield


@pytest.fixture
def manager(make_staff):
    return make_staff("mia", Role.MANAGER)


@pytest.fixture
def cashier(make_staff):
    return make_staff("kalle", Role.CASHIER)


@pytest.fixture
def second_cashier(make_staff):
    return make_staff("kaisa", Role.CASHIER)


@pytest.fixture
def floor_person(make_staff):
    return make_staff("fred", Role.FLOOR)


@pytest.fixture
def cage(db, manager) -> Cage:
    cage = Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage, cash_cents=VAULT, chips_cents=VAULT, by=manager
    )
    return cage


@pytest.fixture
def shift(cage, cashier):
    return cage_services.shift_open(
        cage=cage, cashier=cashier, cash_cents=FLOAT, chips_cents=FLOAT
    )


@pytest.fixture
def second_shift(cage, second_cashier):
    return cage_services.shift_open(
        cage=cage, cashier=second_cashier, cash_cents=FLOAT, chips_cents=FLOAT
    )


@pytest.fixture
def players(db):
    return [
        cage_services.player_register(
            code=f"P-{100 + n}",
            name=f"Player {n}",
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
        for n in range(12)
    ]


@pytest.fixture
def room(db) -> Room:
    return Room.objects.create(
        code="hki", name="Helsinki", time_zone="Europe/Helsinki", currency="EUR"
    )


@pytest.fixture
def structure(db) -> Structure:
    structure = Structure.objects.create(code="turbo", name="Turbo")
    blinds = [(100, 200), (200, 400), (300, 600), None, (500, 1000), (1000, 2000)]
    for number, level in enumerate(blinds, start=1):
        if level is None:
            Level.objects.create(
                structure=structure,
                number=number,
                minutes=10,
                is_break=True,
                retire_denomination=100,
            )
        else:
            Level.objects.create(
                structure=structure,
                number=number,
                small_blind=level[0],
                big_blind=level[1],
                ante=level[1],
                big_blind_ante=True,
                minutes=20,
            )
    return structure


def make_event(room, structure, **settings) -> Event:
    values = {
        "room": room,
        "code": "sunday-100",
        "name": "Sunday €100",
        "currency": "EUR",
        "structure": structure,
        "starts_at": timezone.now() + timedelta(minutes=5),
        "buy_in_cents": 10_000,
        "fee_cents": 1_000,
        "staff_fee_cents": 500,
        "starting_stack": 20_000,
        "late_registration_level": 3,
        "reentry_max": 1,
        "rebuy_max": 2,
        "rebuy_until_level": 3,
        "rebuy_stack_limit": 20_000,
        "rebuy_cents": 10_000,
        "rebuy_fee_cents": 500,
        "rebuy_chips": 20_000,
        "addon_level": 4,
        "addon_cents": 10_000,
        "addon_fee_cents": 500,
        "addon_chips": 30_000,
        "payout_unit_cents": 500,
        "tax_document_threshold_cents": 50_000,
    }
    values.update(settings)
    event = Event.objects.create(**values)
    for n, code in enumerate(["TT1", "TT2"], start=1):
        EventTable.objects.create(event=event, table=code, seats=9, break_order=n)
    return event


@pytest.fixture
def event(room, structure) -> Event:
    return make_event(room, structure)
