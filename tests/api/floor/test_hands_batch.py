"""``POST /api/v1/tables/{table}/hands/batch``: many hands in order, each booked as
``POST hands`` books it, one answer a hand."""

from __future__ import annotations

import copy

import pytest

from cardroom.api.views import HAND_BATCH_MAX
from cardroom.domain.settlement import settle_record
from cardroom.models import Hand
from core.models import IdempotencyRecord
from tests.api.test_auth import assert_error_shape

from .conftest import POLICY, post_hand
from .test_hands import heads_up, ledger_agrees_with_sessions, t01  # noqa: F401

pytestmark = pytest.mark.django_db

URL = "/api/v1/tables/T01/hands/batch"


def run_of_hands(count: int) -> list[dict]:
    """Heads-up hands 1 … ``count``, each from the stacks the last one left."""
    stacks = {1: 20_000, 2: 20_000}
    hands = []
    for n in range(1, count + 1):
        record = heads_up(n)
        for row in record["seats"]:
            row.update(stack=stacks[row["seat"]], put_in=1_000)
        for row in settle_record(record, POLICY)["seats"]:
            stacks[row["seat"]] = row["final_stack"]
        hands.append(record)
    return hands


RUN = run_of_hands(3)


def hand(n: int) -> dict:
    return copy.deepcopy(RUN[n - 1])


def batch(terminal, hands, **headers):
    return terminal.post(URL, {"hands": hands}, format="json", **headers)


def test_a_batch_books_each_hand_as_the_single_endpoint_would(t01):  # noqa: F811
    answer = batch(t01, [hand(1), hand(2), hand(3)])
    assert answer.status_code == 200, answer.content
    results = answer.json()["results"]
    assert [r["status"] for r in results] == [201, 201, 201]
    assert list(Hand.objects.values_list("hand_no", flat=True)) == [1, 2, 3]
    for n, result in zip((1, 2, 3), results, strict=True):
        stored = Hand.objects.get(hand_no=n).settlement
        assert result["body"] == stored
        # The single endpoint answers a repeat with the same settlement.
        again = post_hand(t01, "T01", hand(n))
        assert (again.status_code, again.json()) == (200, stored)
    ledger_agrees_with_sessions()


def test_a_refused_hand_changes_nothing_and_the_others_book(t01):  # noqa: F811
    post_hand(t01, "T01", hand(1))
    conflict = hand(1) | {"button": 2}
    wrong_game = hand(2) | {"game": "PLO"}
    malformed = {"hand_no": 3, "game": "NLHE"}
    single = post_hand(t01, "T01", wrong_game)
    assert single.status_code == 422
    answer = batch(t01, [hand(1), conflict, wrong_game, hand(2), malformed])
    assert answer.status_code == 200, answer.content
    results = answer.json()["results"]
    assert [r["status"] for r in results] == [200, 409, 422, 201, 400]
    # Each refusal in the error shape, with its rule, as POST hands gives it.
    assert results[2]["body"] == single.json()
    assert results[2]["body"]["error"]["rule"] == "HS9"
    assert results[1]["body"]["error"]["code"] == "hand_conflict"
    assert results[4]["body"]["error"]["code"] == "malformed_hand"
    assert list(Hand.objects.values_list("hand_no", flat=True)) == [1, 2]
    ledger_agrees_with_sessions()


@pytest.mark.parametrize(
    "body",
    [
        {"hands": []},
        {"hands": [{}] * (HAND_BATCH_MAX + 1)},
        {"hands": {"hand_no": 1}},
        {"hands": [], "x": 1},
        [],
    ],
    ids=["empty", "too many", "not a list", "unknown field", "not an object"],
)
def test_a_malformed_batch_is_refused_whole(t01, body):  # noqa: F811
    answer = t01.post(URL, body, format="json")
    assert_error_shape(answer, 400, "invalid")
    assert not Hand.objects.exists()


def test_a_batch_retried_with_its_key_is_answered_again(t01):  # noqa: F811
    first = batch(t01, [hand(1), hand(2)], HTTP_IDEMPOTENCY_KEY="queue-1")
    again = batch(t01, [hand(1), hand(2)], HTTP_IDEMPOTENCY_KEY="queue-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert [r["status"] for r in again.json()["results"]] == [201, 201]
    other = batch(t01, [hand(3)], HTTP_IDEMPOTENCY_KEY="queue-1")
    assert_error_shape(other, 422, "idempotency_key_reused")
    assert Hand.objects.count() == 2 and IdempotencyRecord.objects.count() == 1


def test_with_a_key_a_refused_hand_still_leaves_the_others(t01):  # noqa: F811
    """Under an Idempotency-Key the batch is one transaction, each hand a
    savepoint: the refusal rolls back its own hand only."""
    answer = batch(
        t01, [hand(1), hand(2) | {"game": "PLO"}, hand(2)], HTTP_IDEMPOTENCY_KEY="k"
    )
    assert [r["status"] for r in answer.json()["results"]] == [201, 422, 201]
    assert Hand.objects.count() == 2
    ledger_agrees_with_sessions()


def test_another_tables_terminal_is_refused(t01, open_table):  # noqa: F811
    other = open_table("T02")
    assert_error_shape(batch(other, [hand(1)]), 403, "permission_denied")
    assert not Hand.objects.exists()
