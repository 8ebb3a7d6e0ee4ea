"""Who may do what at the cage, and retries that book once."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import Receipt, Transaction
from core.models import IdempotencyRecord
from core.roles import Role

from .conftest import FLOAT, post

pytestmark = pytest.mark.django_db


def test_a_floor_person_cant_redeem_or_purchase(cage, floor, player, open_shift):
    """Chip purchases and redemptions need the cashier role (403)."""
    body = {"cage": "MAIN", "player": "P-1001", "amount": 1_000}
    for path in ["cage/redemptions", "cage/purchases", "cage/shifts"]:
        answer = post(floor, path, body)
        assert answer.status_code == 403, path
        assert answer.json()["error"]["code"] == "permission_denied"
    assert not Receipt.objects.exists()


def test_a_cashier_cant_sign_off_or_request_fills(cage, cashier, open_shift):
    """Sign-off needs a manager; fills and credits are requested by the floor."""
    post(cashier, f"cage/shifts/{open_shift}/close", {"cash": 0, "chips": 0})
    assert post(cashier, f"cage/shifts/{open_shift}/sign-off").status_code == 403
    fill = {"cage": "MAIN", "table": "T01", "amount": 1_000}
    assert post(cashier, "cage/fills", fill).status_code == 403
    assert (
        post(cashier, "cage/vault", {"cage": "MAIN", "cash": 1, "chips": 0}).status_code
        == 403
    )


def test_auditors_read_but_dont_write(cage, staff_client, cashier, open_shift):
    """An auditor reads any shift's report; another cashier can't read it."""
    auditor = staff_client(Role.AUDITOR, username="aud")
    assert auditor.get(f"/api/v1/cage/shifts/{open_shift}").status_code == 200
    other = staff_client(Role.CASHIER, username="olli")
    assert other.get(f"/api/v1/cage/shifts/{open_shift}").status_code == 403
    body = {"cage": "MAIN", "player": "P-1001", "amount": 1_000}
    assert post(auditor, "cage/purchases", body).status_code == 403


def test_no_login_no_cage(api, cage):
    """Without a token every cage endpoint is 401."""
    assert api.get("/api/v1/cage/receipts/MAIN-000001").status_code == 401
    assert api.post("/api/v1/cage/purchases", {}, format="json").status_code == 401


def test_a_repeated_purchase_with_the_same_key_books_once(
    cage, cashier, player, open_shift
):
    """The same Idempotency-Key and body: one receipt, one posting, same answer."""
    body = {"cage": "MAIN", "player": "P-1001", "amount": 20_000}
    postings = Transaction.objects.count()
    first = post(cashier, "cage/purchases", body, key="desk-1-0001")
    again = post(cashier, "cage/purchases", body, key="desk-1-0001")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Receipt.objects.count() == 1
    assert Transaction.objects.count() == postings + 1
    assert chart.player_chips(player="P-1001").balance_cents == 20_000
    other = post(
        cashier, "cage/purchases", {**body, "amount": 30_000}, key="desk-1-0001"
    )
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert Receipt.objects.count() == 1
    # A new key is a new purchase.
    assert post(cashier, "cage/purchases", body, key="desk-1-0002").json()["no"] == (
        "MAIN-000002"
    )


def test_a_refused_request_can_be_retried_with_its_key(
    cage, cashier, player, open_shift
):
    """A refusal stores nothing: once the cause is fixed, the same key works."""
    body = {"cage": "MAIN", "player": "P-1001", "amount": 5_000}
    refused = post(cashier, "cage/redemptions", body, key="r-1")
    assert refused.status_code == 422
    assert not IdempotencyRecord.objects.exists()
    post(cashier, "cage/purchases", {**body, "amount": 5_000}, key="p-1")
    assert post(cashier, "cage/redemptions", body, key="r-1").status_code == 201
    report = cashier.get(f"/api/v1/cage/shifts/{open_shift}").json()
    assert report["cash"]["expected"] == FLOAT
