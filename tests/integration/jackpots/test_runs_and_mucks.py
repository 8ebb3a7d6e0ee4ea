"""Jackpots and the hands real tables deal: a pot run twice counts on its first run
unless the policy says every run counts; a mucked hand was not tabled (HS10, BB1)."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.models import Hand
from jackpots import services
from jackpots.models import Hit, MonthHand
from tests.api.floor.conftest import POLICY, post_hand
from tests.api.jackpots.conftest import Dealer

pytestmark = pytest.mark.django_db

# Aces against tens, all in before the flop and run twice: the aces hold on the
# first board; on the second, aces full of tens lose to four tens (a bad beat).
FIRST = "2c 7d 9h Js 3d"
SECOND = "Ac Th Td 5s 2h"


@pytest.fixture
def deal_at(clock, open_table, players, pools):
    def make(policy: dict[str, Any]) -> Dealer:
        return Dealer(open_table("T01", policy=policy)).sit_down()

    return make


def run_twice(dealer: Dealer, **seat_changes: Any) -> Hand:
    record = dealer.record(FIRST, {1: "As Ad", 2: "Ts Tc"})
    record["boards"] = [FIRST.split(), SECOND.split()]
    for row in record["seats"]:
        row.update(seat_changes.get(str(row["seat"]), {}))
    answer = post_hand(dealer.terminal, dealer.table, record)
    assert answer.status_code == 201, answer.content
    hand = Hand.objects.get(hand_no=dealer.hand_no)
    services.hand_qualify(hand_id=hand.pk)
    return hand


def test_a_bad_beat_on_the_second_run_counts_only_if_every_run_does(deal_at):
    """HS10's house default: the first run only; with the option off, every run."""
    run_twice(deal_at(POLICY))
    assert not Hit.objects.exists()
    assert not MonthHand.objects.filter(description__startswith="four").exists()


def test_every_run_counts_when_the_policy_says_so(deal_at):
    hand = run_twice(deal_at({**POLICY, "jackpots_first_run_only": False}))
    hit = Hit.objects.get()
    assert hit.hand == hand
    assert hit.details["losers"][0]["seat"] == 1
    # The hand of the month takes each seat's best hand over the runs.
    entry = MonthHand.objects.get(hand=hand, seat=2)
    assert entry.description.startswith("four of a kind")


def test_a_mucked_hand_is_no_bad_beat(deal_at):
    """BB1: both hands tabled; the loser mucked his aces full: no hit. The same
    hand with both tabled is one."""
    dealer = deal_at(POLICY)
    for mucked, hits in ((True, 0), (False, 1)):
        record = dealer.record("Ac Th Td 5s 2c", {1: "As Ad", 2: "Ts Tc"})
        record["seats"][0]["mucked"] = mucked
        answer = post_hand(dealer.terminal, dealer.table, record)
        assert answer.status_code == 201, answer.content
        for row in answer.json()["seats"]:
            dealer.stacks[row["seat"]] = row["final_stack"]
        hand = Hand.objects.get(hand_no=dealer.hand_no)
        services.hand_qualify(hand_id=hand.pk)
        assert Hit.objects.filter(hand=hand).count() == hits
