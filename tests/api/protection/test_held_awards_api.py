"""Awards held for restricted players, through the API (PP6)."""

from __future__ import annotations

from datetime import date

import pytest

from accounting.models import Payable, Player
from accounting.services import cage
from core.roles import Role
from tests.integration.cage.helpers import book_award

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]


@pytest.fixture
def held(staff_client, make_staff):
    player = Player.objects.create(
        code="P-600", name="Held Player", birth_date=date(1975, 3, 3)
    )
    payable = cage.payable_create(
        player=player,
        amount_cents=90_000,
        reference="bad beat hit 9",
        approved_by=make_staff("approver", Role.MANAGER),
        created_by=make_staff("verifier", Role.FLOOR),
        booking=book_award(player.code, 90_000),
    )
    boss = staff_client(Role.MANAGER, username="boss")
    answer = boss.post(
        "/api/v1/players/P-600/restrictions",
        {"kind": "bar", "scope": "room", "until": None, "reason": "Threats"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    return payable, answer.json()["id"], boss


def test_the_held_awards_are_listed_and_a_manager_forfeits_one(held, staff_client):
    payable, restriction, boss = held
    auditor = staff_client(Role.AUDITOR, username="aud")
    listed = auditor.get("/api/v1/held-awards").json()
    assert [(a["id"], a["player"], a["amount"], a["restriction"]) for a in listed] == [
        (payable.pk, "P-600", 90_000, restriction)
    ]
    refused = auditor.post(
        f"/api/v1/held-awards/{payable.pk}/decide",
        {"decision": "forfeit", "reason": "x"},
        format="json",
    )
    assert refused.status_code == 403
    decided = boss.post(
        f"/api/v1/held-awards/{payable.pk}/decide",
        {"decision": "forfeit", "reason": "Barred players receive no winnings"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="held-1",
    )
    assert decided.status_code == 201, decided.content
    body = decided.json()
    assert (body["decision"], body["held_by"], body["by"]) == (
        "forfeit",
        restriction,
        "boss",
    )
    assert body["booking"] is not None
    assert Payable.objects.get(pk=payable.pk).status == "forfeited"
    again = boss.post(
        f"/api/v1/held-awards/{payable.pk}/decide",
        {"decision": "pay", "reason": "changed my mind"},
        format="json",
    )
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "not_held"
    assert auditor.get("/api/v1/held-awards").json() == []


def test_an_unknown_award_is_404_and_a_bad_decision_400(held):
    _payable, _restriction, boss = held
    missing = boss.post(
        "/api/v1/held-awards/999999/decide",
        {"decision": "pay", "reason": "x"},
        format="json",
    )
    assert missing.status_code == 404
    bad = boss.post(
        f"/api/v1/held-awards/{held[0].pk}/decide",
        {"decision": "keep", "reason": "x"},
        format="json",
    )
    assert bad.status_code == 400
