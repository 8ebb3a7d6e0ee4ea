"""Players are registered before their first buy-in or cage transaction (BI10)."""

from __future__ import annotations

import pytest

from accounting.models import Player
from core.roles import Role

from .conftest import post

pytestmark = pytest.mark.django_db


def test_a_manager_registers_a_player(manager):
    """POST /players → 201; GET shows him without the document number."""
    answer = post(
        manager,
        "players",
        {
            "id": "P-1001",
            "name": "Aino Virtanen",
            "nickname": "Aikku",
            "id_verified": True,
            "id_document_type": "passport",
            "id_document_number": "FI998877",
        },
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["id"] == "P-1001"
    shown = manager.get("/api/v1/players/P-1001").json()
    assert shown["nickname"] == "Aikku" and shown["id_verified"] is True
    assert "FI998877" not in str(shown)
    player = Player.objects.get(code="P-1001")
    assert player.id_verified_by.username == "mia"


def test_a_cashier_registers_but_the_floor_only_reads(cashier, floor):
    """Cashiers register (403 for the floor); the floor may look players up."""
    assert post(cashier, "players", {"id": "P-7", "name": "Seppo"}).status_code == 201
    assert post(floor, "players", {"id": "P-8", "name": "Sanna"}).status_code == 403
    assert floor.get("/api/v1/players/P-7").json()["id_verified"] is False


def test_a_player_id_is_registered_once_and_well_formed(manager):
    """The same id again: 409; an id with spaces or colons: 400; unknown: 404."""
    assert post(manager, "players", {"id": "P-1", "name": "A"}).status_code == 201
    again = post(manager, "players", {"id": "P-1", "name": "B"})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "player_exists"
    for bad in ["P 1", "P:1", "", "-P1"]:
        assert post(manager, "players", {"id": bad, "name": "C"}).status_code == 400
    assert manager.get("/api/v1/players/P-404").status_code == 404
    assert Player.objects.count() == 1


def test_an_identity_check_needs_the_document(staff_client, manager):
    """Recording a verified ID takes the document's type and number."""
    post(manager, "players", {"id": "P-1", "name": "A"})
    cashier = staff_client(Role.CASHIER, username="kassa")
    answer = post(cashier, "players/P-1/identity", {"id_document_type": "passport"})
    assert answer.status_code == 400
    assert Player.objects.get(code="P-1").id_verified is False
