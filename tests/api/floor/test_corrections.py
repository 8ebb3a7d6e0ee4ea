"""Pot corrections, held pots and receivables, each by two people (HS7, HS8, DC1–3)."""

from __future__ import annotations

import pytest

from accounting.models import Account, Transaction
from cardroom.models import Correction, SeatSession
from core.roles import Role
from tests.api.floor.conftest import post_hand
from tests.api.floor.test_hands import heads_up, ledger_agrees_with_sessions, t01

pytestmark = pytest.mark.django_db
__all__ = ["t01"]


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


@pytest.fixture
def floors(staff_client):
    return staff_client(Role.FLOOR, username="anna"), staff_client(
        Role.FLOOR, username="ben"
    )


def ask(client, **body):
    body = {"table": "T01", "reason": "dealer misread the board", **body}
    return client.post("/api/v1/corrections", body, format="json")


def stacks() -> dict[int, int]:
    return dict(
        SeatSession.objects.filter(ended_at__isnull=True).values_list(
            "seat", "stack_cents"
        )
    )


def test_pot_correction_needs_a_second_person(t01, floors):
    """HS7/DC2: asked by one floor person, approved by another, then booked."""
    anna, ben = floors
    post_hand(t01, "T01", heads_up(awarded=[{"seat": 2, "amount": 9_500}]))
    asked = ask(
        anna,
        kind="pot_correction",
        hand_no=1,
        from_player="P-2",
        to_player="P-1",
        amount=9_500,
    )
    assert asked.status_code == 201, asked.content
    cid = asked.json()["id"]
    before = Transaction.objects.count()
    own = anna.post(f"/api/v1/corrections/{cid}/approve")
    assert own.status_code == 422 and own.json()["error"]["rule"] == "DC2"
    assert Transaction.objects.count() == before
    approved = ben.post(f"/api/v1/corrections/{cid}/approve")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert stacks() == {1: 24_500, 2: 15_000}
    ledger_agrees_with_sessions()
    assert ben.post(f"/api/v1/corrections/{cid}/approve").status_code == 409


def test_pot_correction_after_the_next_hand_is_refused(t01, floors):
    """DC1: once the next hand is dealt, the ruling can't be asked for."""
    anna, _ = floors
    post_hand(t01, "T01", heads_up())
    second = heads_up(hand_no=2)
    second["seats"][0]["stack"], second["seats"][1]["stack"] = 24_500, 15_000
    post_hand(t01, "T01", second)
    late = ask(
        anna,
        kind="pot_correction",
        hand_no=1,
        from_player="P-1",
        to_player="P-2",
        amount=100,
    )
    assert late.status_code == 422 and late.json()["error"]["rule"] == "DC1"


def test_rejected_correction_moves_nothing(t01, floors):
    """A rejected correction leaves the stacks and the ledger as they were."""
    anna, ben = floors
    post_hand(t01, "T01", heads_up())
    cid = ask(
        anna,
        kind="pot_correction",
        hand_no=1,
        from_player="P-1",
        to_player="P-2",
        amount=100,
    ).json()["id"]
    before = Transaction.objects.count()
    assert ben.post(f"/api/v1/corrections/{cid}/reject").json()["status"] == "rejected"
    assert Transaction.objects.count() == before and stacks() == {1: 24_500, 2: 15_000}


def test_held_pot_goes_to_escrow_and_is_released_by_the_ruling(t01, floors):
    """HS8: part of a pot held in escrow, then released to whom the ruling says."""
    anna, ben = floors
    post_hand(t01, "T01", heads_up())
    hold = ask(anna, kind="hold", hand_no=1, from_player="P-1", amount=4_000).json()
    ben.post(f"/api/v1/corrections/{hold['id']}/approve")
    assert balance("liability:escrow") == 4_000 and stacks()[1] == 20_500
    too_much = ask(anna, kind="release", held=hold["id"], to_player="P-2", amount=4_001)
    assert too_much.json()["error"]["rule"] == "HS8"
    release = ask(
        anna, kind="release", held=hold["id"], to_player="P-2", amount=4_000
    ).json()
    ben.post(f"/api/v1/corrections/{release['id']}/approve")
    assert balance("liability:escrow") == 0
    assert stacks() == {1: 20_500, 2: 19_000}
    ledger_agrees_with_sessions()


def test_receivable_for_money_paid_by_mistake_found_later(t01, floors):
    """DC3: a player who got what he wasn't due owes it, even found later."""
    anna, ben = floors
    post_hand(t01, "T01", heads_up())
    cid = ask(
        anna,
        kind="receivable",
        from_player="P-1",
        to_player="P-2",
        amount=1_000,
        reason="camera: pushed the wrong stack",
    ).json()["id"]
    ben.post(f"/api/v1/corrections/{cid}/approve")
    assert balance("receivable:P-1") == 1_000
    assert stacks()[2] == 16_000
    assert Correction.objects.get(pk=cid).ledger_transaction is not None
    ledger_agrees_with_sessions()


def test_cashier_cannot_correct_pots(t01, staff_client):
    """Corrections are floor work."""
    cashier = staff_client(Role.CASHIER, username="carl")
    assert (
        ask(cashier, kind="receivable", from_player="P-1", amount=1).status_code == 403
    )
