"""The terminal that created chips the cage paid out (HS6), performed and refused.

Table S01's key posts a valid hand reporting seat 3's stack as the recorded stack
plus 10,000,000; then the player leaves with the inflated stack; then the cage is
asked to redeem 900,000 for him. Each step is refused and the ledger's fingerprint
(entries, transactions, balances) and the floor's rows stay as they were.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.floor.conftest import leave, post_hand, seat
from tests.api.floor.ledger import fingerprint, ledger_agrees_with_sessions, refused
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

INFLATION = 10_000_000


def test_a_terminal_can_not_create_chips_that_the_cage_pays_out(
    clock, open_table, players
):
    terminal = open_table("S01")
    for n in (1, 2, 3):
        assert seat(terminal, "S01", n, f"P-{n}", 20_000).status_code == 201
    cashier = APIClient()
    token = cashier.post(
        "/api/v1/auth/login",
        {"username": "tray-cashier", "password": PASSWORD},
        format="json",
    ).json()["token"]
    cashier.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    hand = {
        "table": "S01",
        "hand_no": 1,
        "game": "NLHE",
        "button": 1,
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": [
            {
                "seat": n,
                "player": f"P-{n}",
                "stack": 20_000 + (INFLATION if n == 3 else 0),
                "present": True,
                "put_in": 2_000,
                "folded": False,
                "cards": cards,
            }
            for n, cards in [(1, ["Ah", "Ad"]), (2, ["Kh", "Kd"]), (3, ["Qh", "Qd"])]
        ],
    }
    before = fingerprint()

    error = refused(post_hand(terminal, "S01", hand), 422, "HS6", "stack_above_ledger")
    assert error["allowed"] == {"seat": 3, "max": 20_000}
    assert fingerprint() == before

    answer = leave(terminal, "S01", 3, 10_020_000)
    error = refused(answer, 422, "HS6", "stack_mismatch")
    assert error["allowed"] == {"min": 20_000, "max": 20_000}
    assert fingerprint() == before

    # The issue's body, then the one the cage takes: refused either way.
    issue_body = {"player": "P-3", "amount": 900_000}
    assert (
        cashier.post("/api/v1/cage/redemptions", issue_body, format="json").status_code
        == 400
    )
    answer = cashier.post(
        "/api/v1/cage/redemptions", {**issue_body, "cage": "MAIN"}, format="json"
    )
    refused(answer, 422, None, "insufficient_funds")
    assert fingerprint() == before
    ledger_agrees_with_sessions()
