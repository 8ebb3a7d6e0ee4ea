"""A bad beat from the table to the cage, through the API (BB1–BB6, JD4–JD6, CA6).

Hands are posted at a table until a bad beat; the hit is found after the booking
commits, verified by a floor person, approved by a manager — another person —,
booked, and paid at the cage. The pool drops by exactly what was paid and keeps
the rest as the next jackpot's seed; the trial balance stays zero.
"""

from __future__ import annotations

import pytest

from accounting.domain.money import ratio_split
from accounting.models import Payable, Transaction
from accounting.selectors import trial_balance
from cardroom.models import HandException
from core.money import money_format
from core.roles import Role
from jackpots.models import Hit

from .conftest import SEED, balance

pytestmark = pytest.mark.django_db

POOL = "jackpot:main.bad-beat:pool"
MONTH_POOL = "jackpot:main.hand-of-the-month:pool"


def test_a_bad_beat_is_found_verified_approved_booked_and_paid(
    pools,
    dealer,
    staff_client,
    sweep,
):
    floor = staff_client(Role.FLOOR, username="fiona")
    boss = staff_client(Role.MANAGER, username="maria")
    cashier = staff_client(Role.CASHIER, username="carl")

    # Four ordinary hands, then the bad beat: each drops €1, 75 c to the bad beat.
    for _ in range(4):
        dealer.ordinary()
        sweep()
    assert floor.get("/api/v1/jackpots/hits").json() == []
    assert balance(POOL) == SEED + 4 * 75 and balance(MONTH_POOL) == 4 * 25

    hand = dealer.bad_beat()
    # Nothing is qualified until the sweep runs; it finds the bad beat.
    assert not Hit.objects.exists()
    assert sweep() == 1
    at_the_hand = balance(POOL)
    assert at_the_hand == SEED + 5 * 75

    hits = floor.get("/api/v1/jackpots/hits?status=pending").json()
    assert len(hits) == 1
    hit = hits[0]
    assert (hit["category"], hit["table"], hit["hand_no"]) == ("1", "T01", 5)
    assert hit["details"]["losers"][0]["hand"] == "full house, aces full of tens"
    assert hit["details"]["winners"][0]["hand"] == "four of a kind, tens"
    assert hit["pool_amount"] == at_the_hand
    payout = at_the_hand * 90 // 100
    loser, winner, table = ratio_split(payout, [50, 25, 25])
    expected = [
        ("loser", "P-1", loser),
        ("winner", "P-2", winner),
        *zip(
            ["table"] * 4,
            ["P-3", "P-4", "P-5", "P-6"],
            ratio_split(table, [1] * 4),
            strict=True,
        ),
    ]
    assert [(a["role"], a["player"], a["amount"]) for a in hit["awards"]] == [*expected]
    exception = HandException.objects.get(hand=hand)
    assert exception.kind == "bad_beat_candidate"
    assert exception.details["hit"] == hit["id"]

    # BB5: a floor person can't approve; verification first, then a manager.
    url = f"/api/v1/jackpots/hits/{hit['id']}"
    assert floor.post(f"{url}/approve").status_code == 403
    early = boss.post(f"{url}/approve")
    assert early.status_code == 422 and early.json()["error"]["rule"] == "BB5"
    verified = floor.post(f"{url}/verify", {"note": "camera 4"}, format="json")
    assert verified.status_code == 200 and verified.json()["status"] == "verified"

    approved = boss.post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="approve-1")
    assert approved.status_code == 200, approved.content
    body = approved.json()
    assert (body["status"], body["verified_by"], body["approved_by"]) == (
        "approved",
        "fiona",
        "maria",
    )
    assert body["payout"] == payout
    # Approving twice pays once: a retry replays, a second approval is refused.
    replay = boss.post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="approve-1")
    assert replay.status_code == 200 and replay.json() == body
    again = boss.post(f"{url}/approve", HTTP_IDEMPOTENCY_KEY="approve-2")
    assert again.status_code == 409
    # BB1: the decided hit's candidate exception is closed, by the approver.
    exception.refresh_from_db()
    assert (exception.status, exception.resolved_by.username) == ("resolved", "maria")
    assert exception.resolution.startswith("BB5")
    assert again.json()["error"]["code"] == "already_approved"
    booking = Transaction.objects.get(kind="jackpot_award")
    assert (booking.posted_by.username, booking.approved_by.username) == (
        "fiona",
        "maria",
    )
    assert Payable.objects.count() == 6
    assert balance(POOL) == at_the_hand - payout
    assert balance("liability:awards_payable") == payout

    # CA6: the cashier pays each award against the player's identity and signature.
    shift = cashier.post(
        "/api/v1/cage/shifts",
        {"cage": "MAIN", "cash": 200_000, "chips": 0},
        format="json",
    )
    assert shift.status_code == 201, shift.content
    for award in body["awards"]:
        paid = cashier.post(
            f"/api/v1/cage/payables/{award['payable']}/pay",
            {"cage": "MAIN", "player": award["player"], "player_signed": True},
            format="json",
        )
        assert paid.status_code == 201, paid.content
        assert paid.json()["amount"] == award["amount"]

    # The pool dropped by exactly what was paid and keeps the rest as the seed of
    # the next jackpot (BB2: 10 % stays); nothing is owed any more.
    assert (
        balance(POOL) == at_the_hand - payout == at_the_hand - at_the_hand * 90 // 100
    )
    assert balance("liability:awards_payable") == 0
    assert set(Payable.objects.values_list("status", flat=True)) == {"paid"}
    awards = floor.get("/api/v1/jackpots/awards").json()
    assert len(awards) == 6 and all(a["paid"] for a in awards)
    ledger = trial_balance()
    assert ledger.balanced and ledger.cached_balances_agree

    # The public board shows the ledger's amounts, and only names and amounts:
    # the jackpots' summary, and the room's board (WL11) reading the same ledger.
    board = floor.__class__().get("/api/v1/jackpots/summary")
    assert board.status_code == 200
    room_board = floor.__class__().get("/api/v1/board").json()
    shown = [
        {k: v for k, v in pool.items() if not k.endswith("_text")}
        for pool in room_board["jackpots"]
    ]
    assert shown == board.json()["pools"]
    # Beside the cents, the amounts as the one money formatter writes them.
    assert [pool["amount_text"] for pool in room_board["jackpots"]] == [
        money_format(pool["amount"], "EUR", "en", whole=True) for pool in shown
    ]
    assert board.json() == {
        "pools": [
            {
                "name": "Bad beat",
                "amount": balance(POOL),
                "reserve": 0,
                "currency": "EUR",
            },
            {
                "name": "Hand of the month",
                "amount": balance(MONTH_POOL),
                "reserve": 0,
                "currency": "EUR",
            },
        ]
    }


def test_the_manager_who_verified_can_not_approve(pools, dealer, staff_client, sweep):
    """BB5: two different people; the database refuses it too (hit_four_eyes)."""
    boss = staff_client(Role.MANAGER, username="maria")
    dealer.bad_beat()
    sweep()
    hit = Hit.objects.get()
    assert boss.post(f"/api/v1/jackpots/hits/{hit.pk}/verify").status_code == 200
    refused = boss.post(f"/api/v1/jackpots/hits/{hit.pk}/approve")
    assert refused.status_code == 422
    assert refused.json()["error"] | {"detail": ""} == {
        "code": "four_eyes",
        "rule": "BB5",
        "detail": "",
        "allowed": None,
    }
    assert balance(POOL) == SEED + 75
    other = staff_client(Role.MANAGER, username="mats")
    assert other.post(f"/api/v1/jackpots/hits/{hit.pk}/approve").status_code == 200


def test_a_rejected_hit_leaves_the_pool_untouched(pools, dealer, staff_client, sweep):
    """BB5: rejection needs a reason; the fund stays as it was."""
    floor = staff_client(Role.FLOOR, username="fiona")
    dealer.bad_beat()
    sweep()
    hit = Hit.objects.get()
    before = balance(POOL)
    url = f"/api/v1/jackpots/hits/{hit.pk}/reject"
    assert floor.post(url, {"reason": " "}, format="json").status_code in (400, 422)
    answer = floor.post(url, {"reason": "cards were exposed early"}, format="json")
    assert answer.status_code == 200
    assert answer.json()["status"] == "rejected"
    assert {a["status"] for a in answer.json()["awards"]} == {"rejected"}
    assert answer.json()["rejection_reason"] == "cards were exposed early"
    exception = HandException.objects.get(hand=hit.hand, kind="bad_beat_candidate")
    assert exception.status == "resolved"
    assert exception.resolution == "BB5: rejected: cards were exposed early"
    assert balance(POOL) == before
    assert not Payable.objects.exists()
    assert not Transaction.objects.filter(kind="jackpot_award").exists()
