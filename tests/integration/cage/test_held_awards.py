"""Awards held for a restricted player until a manager decides (PP6)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction

from accounting import chart
from accounting.models import AwardDecision, Payable, Receipt
from accounting.selectors import trial_balance
from accounting.services import cage as services
from accounting.services.cage import restriction_end, restriction_set
from core.errors import Conflict, Refusal
from core.roles import Role

from .helpers import book_award, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def award(player, manager, floor_person):
    booking = book_award(player.code, 150_000)
    return services.payable_create(
        player=player,
        amount_cents=150_000,
        reference="bad beat hit 12",
        approved_by=manager,
        created_by=floor_person,
        booking=booking,
    )


@pytest.fixture
def barred(player, make_staff):
    return restriction_set(
        player=player,
        kind="bar",
        scope="room",
        until=None,
        reason="Cheating at T03",
        by=make_staff("bar-manager", Role.MANAGER),
    )


def pay(payable, cashier):
    return services.payable_pay(
        payable=payable,
        cashier=cashier,
        cage="MAIN",
        player="P-1001",
        player_signed=True,
    )


def test_a_barred_players_award_is_held_and_changes_nothing(
    award, barred, shift, cashier
):
    before = snapshot()
    with pytest.raises(Refusal) as refused:
        pay(award, cashier)
    assert (refused.value.rule, refused.value.code) == ("PP6", "award_held")
    assert snapshot() == before
    assert [(p.pk, r.pk) for p, r in services.held_awards()] == [(award.pk, barred.pk)]
    # Still owed: a liability until a manager decides.
    assert abs(chart.awards_payable().balance_cents) == 150_000


def test_a_manager_decides_to_pay_and_the_cage_pays(
    award, barred, shift, cashier, make_staff
):
    boss = make_staff("held-boss", Role.MANAGER)
    decision = services.held_award_decide(
        payable=award, decision="pay", reason="Won before the bar", by=boss
    )
    assert decision.held_by == barred and decision.booking is None
    assert services.held_awards() == []
    receipt = pay(award, cashier)
    assert receipt.kind == Receipt.Kind.AWARD_PAYOUT
    with pytest.raises(Conflict) as twice:
        services.held_award_decide(
            payable=award, decision="forfeit", reason="again", by=boss
        )
    assert twice.value.code == "not_held"


def test_a_forfeit_is_booked_out_of_awards_payable(
    award, barred, shift, cashier, make_staff
):
    payable_before = chart.awards_payable().balance_cents
    decision = services.held_award_decide(
        payable=award,
        decision="forfeit",
        reason="Excluded players receive no winnings",
        by=make_staff("held-boss", Role.MANAGER),
    )
    award.refresh_from_db()
    assert award.status == Payable.Status.FORFEITED and award.paid_at is not None
    moved = {e.account.code: e.amount_cents for e in decision.booking.entries.all()}
    assert moved == {
        "liability:awards_payable": 150_000,
        "liability:awards_forfeited": -150_000,
    }
    assert abs(chart.awards_payable().balance_cents) == abs(payable_before) - 150_000
    assert trial_balance().balanced
    # A forfeited award is never paid, and the decision is never edited.
    before = snapshot()
    with pytest.raises(Conflict) as refused:
        pay(award, cashier)
    assert (refused.value.rule, refused.value.code) == ("PP6", "award_forfeited")
    assert snapshot() == before
    with pytest.raises(DatabaseError), transaction.atomic():
        AwardDecision.objects.filter(pk=decision.pk).update(reason="edited")


def test_nothing_is_held_once_the_bar_ends(award, barred, shift, cashier, make_staff):
    restriction_end(
        restriction=barred,
        reason="Reviewed: no cheating",
        by=make_staff("second-manager", Role.MANAGER),
    )
    assert services.held_awards() == []
    with pytest.raises(Conflict):
        services.held_award_decide(
            payable=award,
            decision="forfeit",
            reason="late",
            by=make_staff("held-boss", Role.MANAGER),
        )
    assert pay(award, cashier).kind == Receipt.Kind.AWARD_PAYOUT
