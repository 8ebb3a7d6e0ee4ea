"""HS6: hands book on the ledger's stacks; a difference is frozen and reviewed.

A seat reporting more than the ledger holds is refused with what it holds; one
reporting less is booked on the ledger's stack, the difference frozen in the
player's review hold (no leave, no redemption pays it) and opened as a stack
review that a floor person proposes and another person, a manager, approves.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from rest_framework.test import APIClient

from accounting.models import Transaction
from cardroom.models import HandException, SeatSession, StackReview
from core.roles import Role
from tests.api.floor.conftest import leave, post_hand, seat
from tests.api.floor.ledger import (
    balance,
    fingerprint,
    ledger_agrees_with_sessions,
    refused,
)
from tests.api.floor.test_hands import heads_up
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

HOLD = "player:P-2:table:T01:review"


@pytest.fixture
def t01(clock, open_table, players) -> APIClient:
    """T01's terminal; P-1 and P-2 sit in seats 1 and 2 with 20,000 each."""
    t = open_table("T01")
    assert seat(t, "T01", 1, "P-1", 20_000).status_code == 201
    assert seat(t, "T01", 2, "P-2", 20_000).status_code == 201
    return t


@pytest.fixture
def manager2(staff_client) -> APIClient:
    return staff_client(Role.MANAGER, username="manager2")


@pytest.fixture
def cashier(t01) -> APIClient:
    """The cashier whose shift the tray fixture opened at cage MAIN."""
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/login",
        {"username": "tray-cashier", "password": PASSWORD},
        format="json",
    )
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
    return client


@pytest.fixture
def frozen(t01) -> StackReview:
    """Seat 2 reports 19,000 where the ledger holds 20,000: 1,000 frozen."""
    hand = heads_up()
    hand["seats"][1]["stack"] = 19_000
    answer = post_hand(t01, "T01", hand)
    assert answer.status_code == 201, answer.content
    return StackReview.objects.get()


def stacks() -> dict[int, int]:
    return dict(
        SeatSession.objects.filter(ended_at__isnull=True).values_list(
            "seat", "stack_cents"
        )
    )


def test_a_stack_above_the_ledger_is_refused_with_what_it_holds(t01):
    """HS6: 10,000,000 more than the ledger holds: 422, nothing booked."""
    hand = heads_up()
    hand["seats"][1]["stack"] = 20_000 + 10_000_000
    before = fingerprint()
    error = refused(post_hand(t01, "T01", hand), 422, "HS6", "stack_above_ledger")
    assert error["allowed"] == {"seat": 2, "max": 20_000}
    assert fingerprint() == before


def test_putting_in_more_than_the_ledger_holds_is_refused(t01):
    """HS6: a seat all in for more than its ledger stack: 422, nothing booked."""
    hand = heads_up()
    for row in hand["seats"]:
        row["stack"] = row["put_in"] = 25_000
    before = fingerprint()
    error = refused(post_hand(t01, "T01", hand), 422, "HS6", "stack_above_ledger")
    assert error["allowed"] == {"seat": 1, "max": 20_000}
    assert fingerprint() == before


def test_a_stack_below_the_ledger_books_on_the_ledger_and_freezes(t01, frozen):
    """HS6: booked on the ledger's 20,000; the 1,000 difference frozen for review."""
    assert (frozen.recorded_cents, frozen.reported_cents) == (20_000, 19_000)
    assert (frozen.amount_cents, frozen.status, frozen.seat) == (1_000, "open", 2)
    # P-2 lost 5,000 of the 19,000 he played with; the 1,000 sits in his hold.
    assert stacks() == {1: 24_500, 2: 14_000}
    assert balance(HOLD) == 1_000
    hold = frozen.hold_transaction
    assert hold.kind == "stack_review_hold" and hold.source == "terminal:T01"
    exception = HandException.objects.get(kind="stack_mismatch")
    assert exception.details["frozen"] == 1_000
    ledger_agrees_with_sessions()
    seats = t01.get("/api/v1/tables/T01/seats").json()["seats"]
    assert [(s["seat"], s["stack"], s["frozen"]) for s in seats] == [
        (1, 24_500, 0),
        (2, 14_000, 1_000),
    ]


def test_frozen_chips_leave_neither_with_the_player_nor_at_the_cage(
    t01, frozen, cashier
):
    """Leaving with the frozen chips, or redeeming them, is refused; nothing moves."""
    before = fingerprint()
    refused(leave(t01, "T01", 2, 15_000), 422, "HS6", "stack_mismatch")
    assert fingerprint() == before
    answer = leave(t01, "T01", 2, 14_000)
    assert answer.status_code == 200 and answer.json()["left_with"] == 14_000
    before = fingerprint()
    answer = cashier.post(
        "/api/v1/cage/redemptions",
        {"cage": "MAIN", "player": "P-2", "amount": 15_000},
        format="json",
    )
    error = refused(answer, 422, None, "insufficient_funds")
    assert error["allowed"] == {"max": 14_000}
    assert fingerprint() == before
    assert balance(HOLD) == 1_000


def test_a_review_is_proposed_by_one_person_and_approved_by_another(
    t01, frozen, floor, manager, manager2
):
    """Four-eyes: the floor proposes, the floor can't approve, the proposer can't
    approve; another manager approves and the release is booked, balanced."""
    url = f"/api/v1/stack-reviews/{frozen.pk}"
    before = fingerprint()
    refused(manager.post(f"{url}/approve"), 422, "HS6", "nothing_proposed")
    assert fingerprint() == before
    body = {"resolution": "release", "reason": "counted again: his chips"}
    proposed = manager.post(f"{url}/propose", body, format="json")
    assert proposed.status_code == 200, proposed.content
    assert proposed.json()["status"] == "proposed"
    before = fingerprint()
    refused(manager.post(f"{url}/approve"), 422, "HS6", "four_eyes")
    assert floor.post(f"{url}/approve").status_code == 403
    assert t01.post(f"{url}/approve").status_code == 403
    assert fingerprint() == before
    # The floor proposes anew; a manager approves.
    assert floor.post(f"{url}/propose", body, format="json").status_code == 200
    approved = manager.post(f"{url}/approve")
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "resolved"
    assert (approved.json()["proposed_by"], approved.json()["approved_by"]) == (
        "floor",
        "manager",
    )
    assert stacks() == {1: 24_500, 2: 15_000} and balance(HOLD) == 0
    txn = Transaction.objects.get(kind="stack_review_release")
    assert (txn.posted_by.username, txn.approved_by.username) == ("floor", "manager")
    exception = HandException.objects.get(kind="stack_mismatch")
    assert (exception.status, exception.resolved_by.username) == ("resolved", "manager")
    ledger_agrees_with_sessions()
    before = fingerprint()
    refused(manager2.post(f"{url}/approve"), 409, None, "resolved")
    refused(floor.post(f"{url}/propose", body, format="json"), 409, None, "resolved")
    assert fingerprint() == before


def test_a_correction_goes_to_another_player(t01, frozen, floor, manager):
    """The frozen chips were P-1's: the correction books them to his stack."""
    url = f"/api/v1/stack-reviews/{frozen.pk}"
    body = {"resolution": "correction", "to_player": "P-1", "reason": "pushed wrong"}
    assert floor.post(f"{url}/propose", body, format="json").status_code == 200
    assert manager.post(f"{url}/approve").status_code == 200
    assert stacks() == {1: 25_500, 2: 14_000} and balance(HOLD) == 0
    ledger_agrees_with_sessions()


def test_a_correction_to_nobody_goes_to_the_house(t01, frozen, floor, manager):
    """Chips nobody can claim: the house no longer owes them (over/short)."""
    url = f"/api/v1/stack-reviews/{frozen.pk}"
    over = balance("expense:over_short")
    body = {"resolution": "correction", "reason": "chips missing from the table"}
    assert floor.post(f"{url}/propose", body, format="json").status_code == 200
    assert manager.post(f"{url}/approve").status_code == 200
    assert stacks() == {1: 24_500, 2: 14_000} and balance(HOLD) == 0
    assert balance("expense:over_short") == over - 1_000
    ledger_agrees_with_sessions()


def test_a_release_after_he_left_goes_to_the_chips_he_carries(
    t01, frozen, floor, manager, cashier
):
    """Released after he left: the chips he carries, and the cage pays them."""
    assert leave(t01, "T01", 2, 14_000).status_code == 200
    url = f"/api/v1/stack-reviews/{frozen.pk}"
    body = {"resolution": "release", "reason": "his chips"}
    assert floor.post(f"{url}/propose", body, format="json").status_code == 200
    assert manager.post(f"{url}/approve").status_code == 200
    assert balance("player:P-2:chips") == 15_000
    answer = cashier.post(
        "/api/v1/cage/redemptions",
        {"cage": "MAIN", "player": "P-2", "amount": 15_000},
        format="json",
    )
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"resolution": "keep", "reason": "x"}, "invalid"),
        ({"resolution": "release", "reason": " "}, "invalid"),
        ({"resolution": "release", "to_player": "P-1", "reason": "x"}, "invalid"),
    ],
)
def test_bad_proposals_are_refused(t01, frozen, floor, body, code):
    """A resolution off the list, no reason, a release to someone else: 400."""
    before = fingerprint()
    answer = floor.post(
        f"/api/v1/stack-reviews/{frozen.pk}/propose", body, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == code
    assert fingerprint() == before


def test_reviews_are_listed_and_filtered(t01, frozen, floor):
    """The floor lists reviews; a status off the list is a 400."""
    listed = floor.get("/api/v1/stack-reviews?status=open")
    assert [r["id"] for r in listed.json()] == [frozen.pk]
    assert floor.get("/api/v1/stack-reviews?status=resolved").json() == []
    assert floor.get("/api/v1/stack-reviews?status=AAA").status_code == 400


def test_the_seats_endpoint(t01, open_table, staff_client, floor):
    """The table's terminal and the floor read the seats; another terminal can't."""
    t02 = open_table("T02")
    answer = t01.get("/api/v1/tables/T01/seats")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["table"], body["status"], body["last_hand_no"]) == (
        "T01",
        "open",
        None,
    )
    assert body["seats"][0] == {
        **body["seats"][0],
        "seat": 1,
        "player": "P-1",
        "stack": 20_000,
        "frozen": 0,
        "state": "playing",
        "away_since": None,
        "last_hand_no": None,
    }
    assert floor.get("/api/v1/tables/T01/seats").json() == body
    assert t02.get("/api/v1/tables/T01/seats").status_code == 403
    assert staff_client(Role.AUDITOR).get("/api/v1/tables/T01/seats").status_code == 200
    assert staff_client(Role.CASHIER).get("/api/v1/tables/T01/seats").status_code == 403
    assert floor.get("/api/v1/tables/T99/seats").status_code == 404
    t01.post("/api/v1/tables/T01/seats/2/away", {}, format="json")
    seat2 = t01.get("/api/v1/tables/T01/seats").json()["seats"][1]
    assert seat2["state"] == "away" and seat2["away_since"] is not None


def test_a_managers_correction_is_not_undone_by_the_next_hand(t01, floor, manager):
    """A pot correction approved by a manager; the terminal posts its old stacks:
    refused with the ledger's; it reads the seats and books on them."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    asked = floor.post(
        "/api/v1/corrections",
        {
            "kind": "pot_correction",
            "table": "T01",
            "hand_no": 1,
            "from_player": "P-1",
            "to_player": "P-2",
            "amount": 2_000,
            "reason": "pot pushed short",
        },
        format="json",
    )
    assert asked.status_code == 201, asked.content
    approved = manager.post(f"/api/v1/corrections/{asked.json()['id']}/approve")
    assert approved.status_code == 200, approved.content
    assert stacks() == {1: 22_500, 2: 17_000}
    stale = heads_up(hand_no=2)
    stale["seats"][0]["stack"], stale["seats"][1]["stack"] = 24_500, 15_000
    before = fingerprint()
    error = refused(post_hand(t01, "T01", stale), 422, "HS6", "stack_above_ledger")
    assert error["allowed"] == {"seat": 1, "max": 22_500}
    assert fingerprint() == before
    seats = {
        s["seat"]: s["stack"]
        for s in t01.get("/api/v1/tables/T01/seats").json()["seats"]
    }
    fresh = heads_up(hand_no=2)
    for row in fresh["seats"]:
        row["stack"] = seats[row["seat"]]
    answer = post_hand(t01, "T01", fresh)
    assert answer.status_code == 201, answer.content
    assert answer.json()["exceptions"] == []
    # P-1 wins again: 22,500 + 9,500; P-2 loses 5,000 of his corrected 17,000.
    assert stacks() == {1: 27_000, 2: 12_000}
    assert not StackReview.objects.exists()
    ledger_agrees_with_sessions()


def test_the_database_keeps_a_resolved_review(t01, frozen, floor, manager):
    """Triggers, whoever connects: a resolved review can't be reopened, changed or
    deleted; an open one's facts never change, nor does it skip to resolved."""
    url = f"/api/v1/stack-reviews/{frozen.pk}"
    body = {"resolution": "release", "reason": "his chips"}
    assert floor.post(f"{url}/propose", body, format="json").status_code == 200
    assert manager.post(f"{url}/approve").status_code == 200
    frozen.refresh_from_db()
    open_review = StackReview.objects.create(
        hand=frozen.hand,
        table=frozen.table,
        session=frozen.session,
        player=frozen.player,
        seat=1,
        reported_cents=1,
        recorded_cents=2,
        amount_cents=1,
        created_at=frozen.created_at,
        hold_transaction=frozen.ledger_transaction,
    )
    before = fingerprint()
    for statement, params in [
        ("UPDATE cardroom_stackreview SET status = 'open' WHERE id = %s", [frozen.pk]),
        (
            "UPDATE cardroom_stackreview SET reason = 'edited' WHERE id = %s",
            [frozen.pk],
        ),
        ("DELETE FROM cardroom_stackreview WHERE id = %s", [frozen.pk]),
        (
            "UPDATE cardroom_stackreview SET amount_cents = 2, recorded_cents = 3"
            " WHERE id = %s",
            [open_review.pk],
        ),
        (
            "UPDATE cardroom_stackreview SET status = 'resolved' WHERE id = %s",
            [open_review.pk],
        ),
    ]:
        with (
            pytest.raises(DatabaseError),
            transaction.atomic(),
            connection.cursor() as c,
        ):
            c.execute(statement, params)
    assert fingerprint() == before


def test_the_database_keeps_a_decided_void(t01, floor):
    """A booked void can't be turned back to pending, re-reasoned or deleted."""
    hand = heads_up()
    hand.update(streets=1, board=[])
    hand["seats"][0].update(put_in=100, folded=True, cards=None)
    hand["seats"][1].update(put_in=200, cards=None)
    for row in hand["seats"]:
        row.pop("cards")
    assert post_hand(t01, "T01", hand).status_code == 201
    answer = floor.post(
        "/api/v1/tables/T01/hands/1/void", {"reason": "misdeal"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    pk = answer.json()["id"]
    before = fingerprint()
    for statement in [
        "UPDATE cardroom_handvoid SET status = 'pending' WHERE id = %s",
        "UPDATE cardroom_handvoid SET reason = 'foul_deck' WHERE id = %s",
        "DELETE FROM cardroom_handvoid WHERE id = %s",
    ]:
        with (
            pytest.raises(DatabaseError),
            transaction.atomic(),
            connection.cursor() as c,
        ):
            c.execute(statement, [pk])
    assert fingerprint() == before
