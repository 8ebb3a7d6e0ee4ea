"""PP1: every identity check leaves a document on file, whichever door took it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from accounting.models import IdentityDocument
from accounting.services import cage as services
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


@pytest.mark.room_evening
def test_pp1_an_award_is_paid_only_with_a_valid_document_on_file(
    unverified, manager, floor_person, shift, cashier, room_clock
):
    from accounting.services.cage import document_record
    from core.errors import Refusal
    from tests.integration.cage.helpers import book_award, snapshot

    award = services.payable_create(
        player=unverified,
        amount_cents=5_000,
        reference="bad beat hit 40",
        approved_by=manager,
        created_by=floor_person,
        booking=book_award(unverified.code, 5_000),
    )

    def pay():
        return services.payable_pay(
            payable=award,
            cashier=cashier,
            cage="MAIN",
            player=unverified.code,
            player_signed=True,
        )

    before = snapshot()
    with pytest.raises(Refusal) as none:
        pay()
    assert (none.value.rule, none.value.code) == ("PP1", "document_on_file")
    assert snapshot() == before
    # A document that has expired since it was checked is no document.
    document_record(
        player=unverified,
        kind="passport",
        number="OLD-1",
        expires=services.gaming_day_of(),
        by=cashier,
    )
    room_clock.shift(timedelta(days=2))
    with pytest.raises(Refusal) as expired:
        pay()
    assert expired.value.code == "document_on_file"
    document_record(
        player=unverified, kind="id_card", number="NEW-2", expires=None, by=cashier
    )
    assert pay().amount_cents == 5_000
