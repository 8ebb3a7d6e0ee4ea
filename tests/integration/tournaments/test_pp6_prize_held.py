"""PP6 in tournaments: a restricted winner's prize is held on the payout sheet
until a manager decides; releasing it is the decision to pay him (TO9)."""

from __future__ import annotations

import pytest

from accounting.models import AwardDecision
from accounting.services.cage import restriction_set
from core.errors import Refusal
from core.roles import Role
from tournaments import services
from tournaments.models import Entry, Payout
from tournaments.services import BustIn
from tournaments.services.payouts import payout_forfeit

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(event, cage, shift, cashier, players, floor_person):
    for p in players[:3]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier
        )
    services.event_start(event=event)
    entries = list(Entry.objects.filter(event=event).order_by("number"))
    services.busts_record(
        event=event,
        hand="h1",
        busts=[BustIn(e, 1_000) for e in entries[1:]],
        by=floor_person,
    )
    event.refresh_from_db()
    return event, entries[0]


def bar(entry, manager, scope="tournaments"):
    return restriction_set(
        player=entry.player,
        kind="bar",
        scope=scope,
        until=None,
        reason="Collusion at the final table",
        by=manager,
    )


def test_the_winners_prize_is_held_and_paid_only_once_released(
    finished, floor_person, manager, make_staff, cashier
):
    event, winner = finished
    restriction = bar(winner, manager)
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    line = Payout.objects.get(sheet=sheet, entry=winner)
    assert "PP6" in line.hold_reason
    services.payout_sheet_approve(sheet=sheet, by=manager)
    line.refresh_from_db()
    assert line.status == Payout.Status.HELD and line.payable is None
    other = make_staff("second-boss", Role.MANAGER)
    released = services.payout_release(
        payout=line, by=other, reason="Cleared by the review board"
    )
    decision = AwardDecision.objects.get(payable=released.payable)
    assert (decision.decision, decision.held_by, decision.by) == (
        "pay",
        restriction,
        other,
    )
    services.payout_pay(
        payout=released,
        cage="MAIN",
        cashier=cashier,
        player=winner.player.code,
        player_signed=True,
    )
    released.refresh_from_db()
    assert released.status == Payout.Status.PAID


def test_a_held_prize_may_be_forfeited_instead(finished, floor_person, manager):
    event, winner = finished
    bar(winner, manager, scope="room")
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    services.payout_sheet_approve(sheet=sheet, by=manager)
    line = Payout.objects.get(sheet=sheet, entry=winner)
    forfeited = payout_forfeit(
        payout=line, by=manager, reason="Barred: no winnings", destination="house"
    )
    assert forfeited.status == "forfeited"


def test_a_cash_only_bar_holds_no_prize(finished, floor_person, manager):
    event, winner = finished
    bar(winner, manager, scope="cash")
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    assert Payout.objects.get(sheet=sheet, entry=winner).hold_reason == ""


def test_a_prize_released_before_a_bar_is_held_at_the_cage(
    finished, floor_person, manager, cashier
):
    event, winner = finished
    sheet = services.payout_sheet_prepare(event=event, by=floor_person)
    services.payout_sheet_approve(sheet=sheet, by=manager)
    line = Payout.objects.get(sheet=sheet, entry=winner)
    bar(winner, manager)
    with pytest.raises(Refusal) as held:
        services.payout_pay(
            payout=line,
            cage="MAIN",
            cashier=cashier,
            player=winner.player.code,
            player_signed=True,
        )
    assert (held.value.rule, held.value.code) == ("PP6", "award_held")
