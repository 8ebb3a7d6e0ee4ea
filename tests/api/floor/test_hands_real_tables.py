"""Hands as real tables deal them, through the terminal API: dead money, runs, mispaid
pushes that don't add up (HS2, HS7, HS10)."""

from __future__ import annotations

import pytest

from cardroom.models import Hand, HandException, SeatSession
from tests.api.floor.conftest import post_hand, seat
from tests.api.floor.test_hands import balance, heads_up, ledger_agrees_with_sessions

pytestmark = pytest.mark.django_db


@pytest.fixture
def t01(clock, open_table, players):
    t = open_table("T01")
    assert seat(t, "T01", 1, "P-1", 20_000).status_code == 201
    assert seat(t, "T01", 2, "P-2", 20_000).status_code == 201
    return t


def test_pushes_that_dont_add_up_are_booked_as_paid_and_flagged(t01):
    """HS7: the dealer pushed 10,000 of a 9,500 pot; booked as paid, the 500 in
    suspense, flagged with both totals."""
    answer = post_hand(t01, "T01", heads_up(awarded=[{"seat": 1, "amount": 10_000}]))
    assert answer.status_code == 201, answer.content
    (mispaid,) = [e for e in answer.json()["exceptions"] if e["code"] == "mispaid_pot"]
    assert mispaid["rule"] == "HS7"
    assert (mispaid["pushed_total"], mispaid["due_total"]) == (10_000, 9_500)
    assert mispaid["suspense"] == 500
    assert SeatSession.objects.get(seat=1).stack_cents == 25_000
    assert SeatSession.objects.get(seat=2).stack_cents == 15_000
    assert balance("table:T01:suspense") == 500
    assert balance("revenue:rake") == 500
    assert HandException.objects.get().kind == "mispaid_pot"
    ledger_agrees_with_sessions()


def test_pushes_short_of_the_pot_leave_the_rest_in_suspense(t01):
    """HS7: 9,000 pushed of 9,500 due: the player gets 9,000, suspense -500."""
    answer = post_hand(t01, "T01", heads_up(awarded=[{"seat": 1, "amount": 9_000}]))
    assert answer.status_code == 201, answer.content
    assert SeatSession.objects.get(seat=1).stack_cents == 24_000
    assert balance("table:T01:suspense") == -500
    ledger_agrees_with_sessions()


def test_a_big_blind_ante_is_never_returned(t01):
    """HS2: seat 2's 200 big-blind ante stays in the pot when everyone folds to it."""
    hand = heads_up()
    hand["seats"][0].update(put_in=100, folded=True, cards=None)
    hand["seats"][1].update(put_in=400, dead=200, cards=None)
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["returned"] == [{"seat": 2, "amount": 100}]
    assert [p["amount"] for p in body["pots"]] == [400]
    assert SeatSession.objects.get(seat=2).stack_cents == 20_100
    ledger_agrees_with_sessions()


def test_a_pot_run_twice_is_booked_per_run(t01):
    """HS10: kings win the first run, aces the second: 4,750 each after rake."""
    hand = heads_up(
        board=["2c", "7d", "9h", "Ks", "3d"],
        boards=[["2c", "7d", "9h", "Ks", "3d"], ["2c", "7d", "9h", "Js", "Ac"]],
    )
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code == 201, answer.content
    (pot,) = answer.json()["pots"]
    assert [r["winners"] for r in pot["runs"]] == [
        [{"seat": 2, "amount": 4_750}],
        [{"seat": 1, "amount": 4_750}],
    ]
    assert SeatSession.objects.get(seat=1).stack_cents == 19_750
    assert Hand.objects.get().record["boards"][1][4] == "Ac"
    ledger_agrees_with_sessions()
