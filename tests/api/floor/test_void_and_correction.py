"""A voided hand gets no correction, and a hand with a correction waiting is voided
only once that correction is decided (RK8, DC2)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounting import chart
from accounting.models import Account, Transaction
from cardroom.models import Correction, Hand, HandException
from tests.api.floor.conftest import post_hand
from tests.api.floor.ledger import fingerprint, ledger_agrees_with_sessions, refused
from tests.api.floor.test_corrections import ask, floors
from tests.api.floor.test_hands import heads_up
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


def _approved(asker, decider, **body) -> int:
    asked = ask(asker, **body)
    assert asked.status_code == 201, asked.content
    cid = asked.json()["id"]
    approved = decider.post(f"/api/v1/corrections/{cid}/approve")
    assert approved.status_code == 200, approved.content
    return cid


def test_a_void_after_a_booked_correction_takes_the_correction_back_too(
    t01, floor, floors, manager
):
    """RK8, DC2: every contribution goes back, the corrected part too. The void
    of a corrected hand waits for a manager who sees the corrections it reverses;
    once approved, each correction and the hand are reversed by new transactions,
    newest first, and the stacks are what the players brought to the hand."""
    anna, ben = floors
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    assert stacks() == {1: 19_900, 2: 20_100}
    pot = _approved(
        anna,
        ben,
        kind="pot_correction",
        hand_no=1,
        from_player="P-2",
        to_player="P-1",
        amount=100,
    )
    hold = _approved(anna, ben, kind="hold", hand_no=1, from_player="P-1", amount=60)
    release = _approved(
        anna, ben, kind="release", held=hold, to_player="P-2", amount=40
    )
    assert stacks() == {1: 19_940, 2: 20_040}
    asked = void(floor, 1, "misdeal")
    assert asked.status_code == 202, asked.content
    body = asked.json()
    assert body["needs_approval"] is True and body["status"] == "pending"
    assert body["corrections"] == [release, hold, pot]
    assert stacks() == {1: 19_940, 2: 20_040}
    decided = manager.post(f"/api/v1/voids/{body['id']}/approve")
    assert decided.status_code == 200, decided.content
    assert decided.json()["hand_status"] == "voided"
    assert stacks() == {1: 20_000, 2: 20_000}
    ledger_agrees_with_sessions()
    for cid in (pot, hold, release):
        original = Correction.objects.get(pk=cid).ledger_transaction
        assert Transaction.objects.get(reverses=original).kind == "correction_void"
    # The held pot is empty again: nothing left in escrow.
    assert Account.objects.get(pk=chart.escrow().pk).balance_cents == 0


def test_a_hand_with_a_receivable_booked_is_not_voided(t01, floor, floors):
    """RK8, DC3: money owed at the cage doesn't go back with the chips; the void
    is refused, naming the receivable, and nothing changes."""
    anna, ben = floors
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    owed = _approved(
        anna, ben, kind="receivable", hand_no=1, from_player="P-2", amount=100
    )
    before = fingerprint()
    error = refused(void(floor, 1, "misdeal"), 422, "RK8", "receivable_booked")
    assert error["allowed"] == {"corrections": [owed]}
    assert fingerprint() == before


def test_the_correction_of_a_mispaid_pot_resolves_its_exception(t01, floors):
    """HS7: the pot pushed to the loser is flagged; once its correction is approved
    and booked the flag is resolved, naming the correction, so the morning's audit
    doesn't count it as still open."""
    anna, ben = floors
    answer = post_hand(t01, "T01", heads_up(awarded=[{"seat": 2, "amount": 9_500}]))
    assert answer.status_code == 201
    flag = HandException.objects.get(kind=HandException.Kind.MISPAID_POT)
    assert flag.status == HandException.Status.OPEN
    cid = _approved(
        anna,
        ben,
        kind="pot_correction",
        hand_no=1,
        from_player="P-2",
        to_player="P-1",
        amount=9_500,
    )
    flag.refresh_from_db()
    assert flag.status == HandException.Status.RESOLVED
    assert flag.resolved_by.username == "ben"
    assert f"pot correction {cid}" in flag.resolution
    ledger_agrees_with_sessions()
