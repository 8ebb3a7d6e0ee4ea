"""A voided hand gets no correction, and a hand with a correction waiting is voided
only once that correction is decided (RK8, DC2)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from cardroom.models import Correction, Hand
from tests.api.floor.conftest import post_hand
from tests.api.floor.ledger import fingerprint, ledger_agrees_with_sessions, refused
from tests.api.floor.test_corrections import ask, floors
from tests.api.floor.test_voids import misdeal, stacks, t01, void

pytestmark = pytest.mark.django_db
__all__ = ["floors", "t01"]


def test_a_void_waits_for_the_correction_asked_before_it(t01, floor, floors):
    """RK8: the void is refused, naming the correction, until it is decided;
    then the void is booked."""
    anna, ben = floors
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    asked = ask(
        anna,
        kind="pot_correction",
        hand_no=1,
        from_player="P-2",
        to_player="P-1",
        amount=100,
    )
    assert asked.status_code == 201, asked.content
    cid = asked.json()["id"]
    before = fingerprint()
    error = refused(void(floor, 1, "misdeal"), 422, "RK8", "correction_pending")
    assert error["allowed"] == {"corrections": [cid]}
    assert f"correction {cid} of hand 1 waits for a decision" in error["detail"]
    assert fingerprint() == before
    assert ben.post(f"/api/v1/corrections/{cid}/reject").status_code == 200
    answer = void(floor, 1, "misdeal")
    assert answer.status_code == 200, answer.content
    assert answer.json()["hand_status"] == "voided"
    assert stacks() == {1: 20_000, 2: 20_000}
    ledger_agrees_with_sessions()


def test_a_correction_of_a_voided_hand_is_not_approved_only_rejected(
    t01, floor, floors
):
    """RK8: a correction asked as the hand was being voided (its request crossed
    the void) can't be booked on the voided hand; it can be rejected."""
    anna, ben = floors
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    assert void(floor, 1, "misdeal").status_code == 200
    hand = Hand.objects.get(table__code="T01", hand_no=1)
    assert hand.status == Hand.Status.VOIDED
    # Asking now is refused already (RK8) ...
    late = ask(
        anna,
        kind="pot_correction",
        hand_no=1,
        from_player="P-2",
        to_player="P-1",
        amount=100,
    )
    refused(late, 422, "RK8", "hand_voided")
    # ... and one asked a moment before the void committed isn't booked either.
    crossed = Correction.objects.create(
        kind=Correction.Kind.POT_CORRECTION,
        hand=hand,
        table=hand.table,
        from_player=hand.seats.get(seat=2).player,
        to_player=hand.seats.get(seat=1).player,
        amount_cents=100,
        reason="dealer misread the board",
        requested_by=User.objects.get(username="anna"),
        requested_at=timezone.now(),
    )
    before = fingerprint()
    error = refused(
        ben.post(f"/api/v1/corrections/{crossed.pk}/approve"), 422, "RK8", "hand_voided"
    )
    assert "hand 1 was voided" in error["detail"]
    assert f"Correction {crossed.pk} can only be rejected" in error["detail"]
    assert fingerprint() == before
    assert stacks() == {1: 20_000, 2: 20_000}
    rejected = ben.post(f"/api/v1/corrections/{crossed.pk}/reject")
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    ledger_agrees_with_sessions()
