"""PP1: every identity check leaves a document on file, whichever door took it."""

from __future__ import annotations

from datetime import date

import pytest

from accounting import cage as services
from accounting.models import IdentityDocument
from core.roles import Role

pytestmark = pytest.mark.django_db


def test_a_check_at_registration_and_at_the_cage_are_both_on_file(make_staff):
    cashier = make_staff("id-cashier", Role.CASHIER)
    player = services.player_register(
        code="P-501",
        name="Aino",
        birth_date=date(1990, 5, 17),
        id_verified=True,
        id_document_type="passport",
        id_document_number="XP1",
        registered_by=cashier,
    )
    services.player_identity_verify(
        player=player,
        document_type="id_card",
        document_number=" FI-22 ",
        verified_by=cashier,
    )
    on_file = list(
        IdentityDocument.objects.filter(player=player)
        .order_by("id")
        .values_list("kind", "number", "checked_by__username")
    )
    assert on_file == [
        ("passport", "XP1", "id-cashier"),
        ("id_card", "FI-22", "id-cashier"),
    ]
    player.refresh_from_db()
    assert player.id_verified and player.id_document_type == "id_card"
