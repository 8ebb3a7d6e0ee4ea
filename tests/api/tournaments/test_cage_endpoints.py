"""The tournaments' cage endpoints: entries with their receipts, refusals in the
error shape with the rule, idempotent retries, the payout sheet's four eyes and a
prize paid at the cage (TO1, TO7, TO9)."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from accounting.models import Cage, Receipt, Transaction
from accounting.services import cage as cage_services
from core.roles import Role
from tests.api.cage.conftest import FLOAT, post
from tests.integration.tournaments.conftest import make_event
from tournaments import services
from tournaments.models import Entry
from tournaments.services import BustIn

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(room, structure, staff_client):
    cashier = staff_client(Role.CASHIER, username="kalle")
    floor = staff_client(Role.FLOOR, username="fred")
    manager = staff_client(Role.MANAGER, username="mia")
    cage = Cage.objects.create(code="MAIN", name="Main", currency="EUR")
    cage_services.cage_vault_fund(
        cage=cage,
        cash_cents=10_000_000,
        chips_cents=10_000_000,
        by=User.objects.create_user("vault-keeper"),
    )
    shift = {"cage": "MAIN", "cash": FLOAT, "chips": FLOAT}
    assert post(cashier, "cage/shifts", shift).status_code == 201
    for n in range(3):
        cage_services.player_register(
            code=f"P-{n}",
            name=f"Player {n}",
            id_verified=True,
            birth_date=date(1985, 1, 1),
        )
    event = make_event(room, structure, code="sunday")
    return event, cashier, floor, manager


def test_an_entry_at_the_cage_and_its_retry(setup):
    _event, cashier, _floor, _manager = setup
    body = {"cage": "MAIN", "player": "P-0", "level": 0}
    first = post(cashier, "tournaments/sunday/entries", body, key="e-1")
    assert first.status_code == 201, first.content
    answer = first.json()
    assert answer["entry"]["number"] == 1 and answer["entry"]["seat"] is not None
    assert answer["receipt"]["amount"] == 11_500
    before = (Transaction.objects.count(), Receipt.objects.count())
    again = post(cashier, "tournaments/sunday/entries", body, key="e-1")
    assert again.status_code == 201 and again.json() == answer
    assert (Transaction.objects.count(), Receipt.objects.count()) == before


def test_refusals_carry_the_rule_and_write_nothing(setup):
    _event, cashier, floor, _manager = setup
    before = (Transaction.objects.count(), Entry.objects.count())
    late = post(
        cashier,
        "tournaments/sunday/entries",
        {"cage": "MAIN", "player": "P-0", "level": 9},
    )
    # TO12: the level is the server's clock's (0 before the start), not the desk's.
    assert late.status_code == 409
    assert late.json()["error"]["rule"] == "TO12"
    assert late.json()["error"]["allowed"] == {"level": 0, "on_break": False}
    floats = post(
        cashier,
        "tournaments/sunday/entries",
        {"cage": "MAIN", "player": "P-0", "level": 1.5},
    )
    assert floats.status_code == 400
    not_cashier = post(
        floor,
        "tournaments/sunday/entries",
        {"cage": "MAIN", "player": "P-0", "level": 1},
    )
    assert not_cashier.status_code == 403
    assert (Transaction.objects.count(), Entry.objects.count()) == before


def test_the_payout_sheet_needs_two_people_and_the_prize_is_paid_at_the_cage(setup):
    event, cashier, floor, manager = setup
    for code in ("P-0", "P-1", "P-2"):
        assert (
            post(
                cashier,
                "tournaments/sunday/entries",
                {"cage": "MAIN", "player": code},
            ).status_code
            == 201
        )
    services.event_start(event=event)
    fred = User.objects.get(username="fred")
    entries = list(Entry.objects.filter(event=event).order_by("number"))
    services.busts_record(
        event=event, hand="h1", busts=[BustIn(entries[2], 10)], by=fred
    )
    services.busts_record(
        event=event, hand="h2", busts=[BustIn(entries[1], 10)], by=fred
    )
    sheet = post(floor, "tournaments/sunday/payout-sheet", {})
    assert sheet.status_code == 201, sheet.content
    assert sheet.json()["pool"] == 30_000
    # A manager prepared nothing, so he may approve; the floor person may not.
    assert post(floor, "tournaments/sunday/payout-sheet/approve").status_code == 403
    approved = post(manager, "tournaments/sunday/payout-sheet/approve")
    assert approved.status_code == 200, approved.content
    lines = approved.json()["lines"]
    assert sum(line["amount"] for line in lines) == 30_000
    winner = next(line for line in lines if line["place_high"] == 1)
    paid = post(
        cashier,
        f"tournaments/sunday/payouts/{winner['id']}/pay",
        {"cage": "MAIN", "player": winner["player"], "player_signed": True},
    )
    assert paid.status_code == 201, paid.content
    assert paid.json()["amount"] == winner["amount"]
    answer = cashier.get("/api/v1/tournaments/sunday")
    assert answer.status_code == 200
    assert answer.json()["prize_pool"] == 0
