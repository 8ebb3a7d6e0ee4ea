"""Every refusal names its rule, answers 4xx in the error shape, changes nothing."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User

from accounting.services import cage as services
from core.roles import Role
from tests.integration.cage.helpers import book_award, snapshot

from .conftest import post

pytestmark = pytest.mark.django_db


def refused(answer, status: int, rule: str | None, code: str) -> dict:
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == (rule, code)
    return error


def test_ca1_no_open_shift(cage, cashier, player):
    """A purchase without an open shift: 422 CA1."""
    before = snapshot()
    answer = post(
        cashier, "cage/purchases", {"cage": "MAIN", "player": "P-1001", "amount": 100}
    )
    refused(answer, 422, "CA1", "no_open_shift")
    assert snapshot() == before


def test_ca1_one_open_shift(cage, cashier, open_shift):
    """A second shift at the same cage: 422 CA1 naming the open one."""
    before = snapshot()
    answer = post(cashier, "cage/shifts", {"cage": "MAIN", "cash": 0, "chips": 0})
    error = refused(answer, 422, "CA1", "shift_already_open")
    assert error["allowed"] == {"open_shift": open_shift}
    assert snapshot() == before


def test_ca2_unregistered_player(cage, cashier, open_shift):
    """Chips for someone not registered: 422 CA2."""
    before = snapshot()
    answer = post(
        cashier, "cage/purchases", {"cage": "MAIN", "player": "P-9999", "amount": 100}
    )
    refused(answer, 422, "CA2", "player_not_registered")
    assert snapshot() == before


def test_redeeming_more_than_held(cage, cashier, player, open_shift):
    """More chips than the player holds: 422 insufficient_funds with the max."""
    post(
        cashier, "cage/purchases", {"cage": "MAIN", "player": "P-1001", "amount": 7_000}
    )
    before = snapshot()
    answer = post(
        cashier,
        "cage/redemptions",
        {"cage": "MAIN", "player": "P-1001", "amount": 7_001},
    )
    error = refused(answer, 422, None, "insufficient_funds")
    assert error["allowed"] == {"max": 7_000}
    assert snapshot() == before


def test_ca3_same_person_signs_and_issues(cage, staff_client):
    """Requesting and issuing the same fill: 422 CA3."""
    both = staff_client(Role.CASHIER, Role.FLOOR, username="bea")
    post(both, "cage/shifts", {"cage": "MAIN", "cash": 0, "chips": 10_000})
    slip = post(both, "cage/fills", {"cage": "MAIN", "table": "T01", "amount": 1_000})
    before = snapshot()
    refused(
        post(both, f"cage/fills/{slip.json()['id']}/issue"), 422, "CA3", "same_person"
    )
    assert snapshot() == before


def test_ca3_a_fill_is_not_a_credit(cage, cashier, floor, open_shift):
    """A fill's id under credits is not found."""
    slip = post(floor, "cage/fills", {"cage": "MAIN", "table": "T01", "amount": 1_000})
    assert post(cashier, f"cage/credits/{slip.json()['id']}/issue").status_code == 404


def test_ca5_threshold_without_verified_id(cage, cashier, open_shift):
    """€2,000 in a night without a verified ID: 422 CA5 with what is left."""
    services.player_register(code="P-2002", name="Pekka", birth_date=date(1985, 1, 1))
    body = {"cage": "MAIN", "player": "P-2002"}
    assert (
        post(cashier, "cage/purchases", {**body, "amount": 120_000}).status_code == 201
    )
    before = snapshot()
    error = refused(
        post(cashier, "cage/purchases", {**body, "amount": 80_000}),
        422,
        "CA5",
        "identity_required",
    )
    assert error["allowed"] == {"max": 79_999}
    assert snapshot() == before
    verified = post(
        cashier,
        "players/P-2002/identity",
        {"id_document_type": "id_card", "id_document_number": "123456789"},
    )
    assert verified.status_code == 200 and verified.json()["id_verified"] is True
    assert (
        post(cashier, "cage/purchases", {**body, "amount": 80_000}).status_code == 201
    )


def test_ca6_paying_twice_and_without_signature(
    cage, cashier, player, open_shift, make_staff
):
    """No signature: 422 CA6; a second payment: 409 CA6."""
    approver = make_staff("approver", Role.MANAGER)
    book_award("P-1001", 10_000)
    award = services.payable_create(
        player=player, amount_cents=10_000, reference="bad beat", approved_by=approver
    )
    body = {"cage": "MAIN", "player": "P-1001", "player_signed": False}
    before = snapshot()
    refused(
        post(cashier, f"cage/payables/{award.pk}/pay", body),
        422,
        "CA6",
        "signature_required",
    )
    assert snapshot() == before
    body["player_signed"] = True
    assert post(cashier, f"cage/payables/{award.pk}/pay", body).status_code == 201
    before = snapshot()
    refused(
        post(cashier, f"cage/payables/{award.pk}/pay", body), 409, "CA6", "already_paid"
    )
    assert snapshot() == before


def test_ca6_the_approver_doesnt_pay(cage, staff_client, player):
    """A cashier paying an award he approved himself: 422 CA6."""
    boss = staff_client(Role.CASHIER, Role.MANAGER, username="boss")
    post(boss, "cage/shifts", {"cage": "MAIN", "cash": 50_000, "chips": 0})
    book_award("P-1001", 10_000)
    award = services.payable_create(
        player=player,
        amount_cents=10_000,
        reference="promo",
        approved_by=User.objects.get(username="boss"),
    )
    before = snapshot()
    body = {"cage": "MAIN", "player": "P-1001", "player_signed": True}
    refused(post(boss, f"cage/payables/{award.pk}/pay", body), 422, "CA6", "four_eyes")
    assert snapshot() == before


@pytest.mark.parametrize("amount", [12.5, 100.0, "100", True, 0, -5])
def test_amounts_are_positive_integer_cents(cage, cashier, player, open_shift, amount):
    """Floats, strings, booleans, zero and negatives: 400, nothing written."""
    before = snapshot()
    answer = post(
        cashier,
        "cage/purchases",
        {"cage": "MAIN", "player": "P-1001", "amount": amount},
    )
    assert answer.status_code == 400, answer.content
    assert "amount" in answer.json()["error"]["fields"]
    assert snapshot() == before


def test_unknown_cage_and_receipt_are_404(cage, cashier):
    """Unknown cage or receipt number: 404 in the error shape."""
    answer = post(cashier, "cage/shifts", {"cage": "NOPE", "cash": 0, "chips": 0})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "cage_not_found"
    for no in ["MAIN-000001", "not-a-receipt", "MAIN-0"]:
        assert cashier.get(f"/api/v1/cage/receipts/{no}").status_code == 404
