"""Hands recorded through the terminal API: settled, booked, idempotent (HS, RK8)."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from django.db.models import Sum

from accounting.models import Account, Transaction
from accounting.selectors import trial_balance
from cardroom import services
from cardroom.models import Hand, HandException, HandSeat, SeatSession
from core.db import rows
from tests.api.floor.conftest import post_hand, random_hand, seat

pytestmark = pytest.mark.django_db


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


def heads_up(hand_no: int = 1, **changes):
    """P-1 (aces) and P-2 (kings) all in for 5,000 each: P-1 wins 9,500 after rake."""
    hand = {
        "table": "T01",
        "hand_no": hand_no,
        "game": "NLHE",
        "button": 1,
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": [
            {
                "seat": 1,
                "player": "P-1",
                "stack": 20_000,
                "present": True,
                "put_in": 5_000,
                "folded": False,
                "cards": ["Ah", "Ad"],
            },
            {
                "seat": 2,
                "player": "P-2",
                "stack": 20_000,
                "present": True,
                "put_in": 5_000,
                "folded": False,
                "cards": ["Kh", "Kd"],
            },
        ],
    }
    hand.update(changes)
    return hand


@pytest.fixture
def t01(clock, open_table, players):
    t = open_table("T01")
    assert seat(t, "T01", 1, "P-1", 20_000).status_code == 201
    assert seat(t, "T01", 2, "P-2", 20_000).status_code == 201
    return t


def ledger_agrees_with_sessions() -> None:
    for s in SeatSession.objects.filter(ended_at__isnull=True).select_related("player"):
        code = f"player:{s.player.code}:table:{s.table.code}"
        assert balance(code) == s.stack_cents, code
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def test_hand_is_settled_and_booked(t01):
    """201 with the settlement; stacks, rake revenue and the ledger agree."""
    answer = post_hand(t01, "T01", heads_up())
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["rake"] == 500
    assert [(s["seat"], s["final_stack"]) for s in body["seats"]] == [
        (1, 24_500),
        (2, 15_000),
    ]
    stacks = dict(SeatSession.objects.values_list("seat", "stack_cents"))
    assert stacks == {1: 24_500, 2: 15_000}
    assert balance("revenue:rake") == 500
    assert balance("table:T01:rake_box") == 500
    ledger_agrees_with_sessions()


def test_repeat_returns_the_first_settlement_and_other_content_conflicts(t01):
    """The natural key (table, hand_no): same hand 200, other content 409."""
    first = post_hand(t01, "T01", heads_up())
    again = post_hand(t01, "T01", heads_up())
    assert again.status_code == 200 and again.json() == first.json()
    other = heads_up(board=["2c", "7d", "9h", "Js", "4d"])
    assert post_hand(t01, "T01", other).status_code == 409
    assert Hand.objects.count() == 1 and balance("revenue:rake") == 500


def test_hand_numbers_increase(t01):
    """An older hand number than the last is refused."""
    post_hand(t01, "T01", heads_up(hand_no=5))
    late = heads_up(hand_no=4)
    late["seats"][0]["stack"], late["seats"][1]["stack"] = 24_500, 15_000
    assert post_hand(t01, "T01", late).json()["error"]["code"] == "hand_out_of_order"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"seat": 3}, "seat_not_held"),
        ({"player": "P-404"}, "seat_not_held"),
        ({"cards": ["Ah", "Kh"]}, "duplicate_card"),
    ],
)
def test_bad_hands_are_refused_and_write_nothing(t01, change, code):
    """Unknown seat or player, duplicate cards: refused, nothing booked."""
    hand = heads_up()
    hand["seats"][0].update(change)
    before = Transaction.objects.count()
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code in (400, 422)
    assert answer.json()["error"]["code"] == code
    assert Hand.objects.count() == 0 and Transaction.objects.count() == before


def test_closed_table_refuses_hands(clock, open_table, players, manager):
    """A hand for a closed table is refused."""
    t = open_table("T01")
    manager.post("/api/v1/tables/T01/close")
    assert post_hand(t, "T01", heads_up()).status_code == 422


def test_stack_mismatch_is_booked_on_the_ledger_and_raised(t01):
    """HS6: a reported stack below the session's books on the ledger's, flagged,
    the difference frozen for review (tests/api/floor/test_stack_reviews.py)."""
    hand = heads_up()
    hand["seats"][1]["stack"] = 19_000
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code == 201
    kinds = [e["code"] for e in answer.json()["exceptions"]]
    assert kinds == ["stack_mismatch"]
    assert HandException.objects.get().details["recorded"] == 20_000
    assert SeatSession.objects.get(seat=2).stack_cents == 14_000
    assert balance("player:P-2:table:T01:review") == 1_000
    ledger_agrees_with_sessions()


def test_mispaid_pot_is_booked_as_paid_and_flagged(t01):
    """HS7: the dealer pushed the pot to the loser; booked as paid, flagged."""
    answer = post_hand(t01, "T01", heads_up(awarded=[{"seat": 2, "amount": 9_500}]))
    assert answer.status_code == 201
    assert "mispaid_pot" in [e["code"] for e in answer.json()["exceptions"]]
    assert SeatSession.objects.get(seat=2).stack_cents == 24_500
    ledger_agrees_with_sessions()


@pytest.mark.parametrize("where", ["write", "after_write"])
def test_failure_mid_booking_leaves_nothing_and_the_retry_books_once(t01, where):
    """A crash in the booking's one write, or after it before the commit, undoes
    all: no hand, no seat, no entry, the stacks as they were."""
    if where == "write":
        query = rows.query

        def failing(sql, params=()):
            if "ledger_transactions AS" in sql:
                raise RuntimeError("power cut")
            return query(sql, params)

        crash = mock.patch("core.db.rows.query", side_effect=failing)
    else:
        crash = mock.patch(
            "cardroom.hooks.after_hand_booked", side_effect=RuntimeError("power cut")
        )
    with crash, pytest.raises(RuntimeError):
        services.hand_record(table_code="T01", record=heads_up(), source="test")
    assert Hand.objects.count() == 0 and HandSeat.objects.count() == 0
    assert balance("revenue:rake") == 0
    assert dict(SeatSession.objects.values_list("seat", "stack_cents")) == {
        1: 20_000,
        2: 20_000,
    }
    answer = post_hand(t01, "T01", heads_up())
    assert answer.status_code == 201
    assert post_hand(t01, "T01", heads_up()).status_code == 200
    assert Hand.objects.count() == 1
    ledger_agrees_with_sessions()


def test_many_random_hands_keep_the_books_straight(t01, players):
    """Hundreds of random hands: stacks equal ledger balances, rake adds up."""
    rng = random.Random(7)
    for s, p in [(3, "P-3"), (4, "P-4"), (5, "P-5"), (6, "P-6")]:
        assert seat(t01, "T01", s, p, 30_000).status_code == 201
    for n in range(1, 201):
        stacks = {
            s.seat: (s.player.code, s.stack_cents)
            for s in SeatSession.objects.filter(ended_at__isnull=True).select_related(
                "player"
            )
        }
        if sum(1 for _, st in stacks.values() if st) < 2:
            break
        answer = post_hand(t01, "T01", random_hand(rng, "T01", n, stacks))
        assert answer.status_code == 201, answer.content
    rake = Hand.objects.aggregate(r=Sum("rake_cents"))["r"]
    assert rake > 0 and balance("revenue:rake") == rake
    ledger_agrees_with_sessions()


def test_a_hand_books_in_five_statements(t01, django_assert_num_queries):
    """The hand path is pinned (benchmarks/README.md): in a transaction (here a
    savepoint), the table locked with its game, its policy's version and the
    terminal's key (revoked since it was verified?); the sessions locked with the
    last hand number, the accounts, the room's jackpot pools and the new rows'
    ids; then one statement writes the ledger transaction and its entries, the
    hand, its seats and the sessions' stacks."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    second = heads_up(2)
    second["seats"][0].update(stack=24_500, put_in=1_000)
    second["seats"][1].update(stack=15_000, put_in=1_000)
    with django_assert_num_queries(5) as done:
        assert post_hand(t01, "T01", second).status_code == 201
    assert "ledger_transactions AS" in done.captured_queries[-2]["sql"]
    ledger_agrees_with_sessions()
