"""Absence: breaks, the one long break a night, chips into custody (BI9)."""

from __future__ import annotations

import pytest

from accounting.models import Account
from cardroom.models import SeatSession
from tests.api.floor.conftest import seat

pytestmark = pytest.mark.django_db


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


@pytest.fixture
def seated(clock, open_table, players):
    t = open_table("T01")
    assert seat(t, "T01", 3, "P-1", 25_000).status_code == 201
    return t


def test_one_long_break_a_night(seated, clock):
    """BI9: the second long break of a gaming day is refused."""
    away = seated.post(
        "/api/v1/tables/T01/seats/3/away", {"long_break": True}, format="json"
    )
    assert away.status_code == 201
    clock.advance(minutes=25)
    assert seated.post("/api/v1/tables/T01/seats/3/back").status_code == 200
    again = seated.post(
        "/api/v1/tables/T01/seats/3/away", {"long_break": True}, format="json"
    )
    assert again.status_code == 422 and again.json()["error"]["rule"] == "BI9"
    short = seated.post("/api/v1/tables/T01/seats/3/away", {}, format="json")
    assert short.status_code == 201


def test_chips_picked_up_after_thirty_minutes_and_given_back(seated, clock, floor):
    """BI9: after 30 minutes away the chips go to custody, named by the floor."""
    seated.post("/api/v1/tables/T01/seats/3/away", {}, format="json")
    clock.advance(minutes=30)
    early = floor.post("/api/v1/tables/T01/seats/3/pick-up")
    assert early.status_code == 422 and early.json()["error"]["rule"] == "BI9"
    clock.advance(seconds=1)
    assert seated.post("/api/v1/tables/T01/seats/3/pick-up").status_code == 403
    picked = floor.post("/api/v1/tables/T01/seats/3/pick-up")
    assert picked.json() == {"player": "P-1", "in_custody": 25_000}
    assert balance("player:P-1:custody") == 25_000
    assert balance("player:P-1:table:T01") == 0
    assert not SeatSession.objects.filter(ended_at__isnull=True).exists()
    back = floor.post("/api/v1/custody/P-1/return")
    assert back.json() == {"player": "P-1", "returned": 25_000}
    assert balance("player:P-1:chips") == 25_000 and balance("player:P-1:custody") == 0
    # One night, one stack: he sits again with what was held for him (BI5 a).
    assert seat(seated, "T01", 3, "P-1", 10_000, method="chips").status_code == 422
    assert seat(seated, "T01", 3, "P-1", 25_000, method="chips").status_code == 201
