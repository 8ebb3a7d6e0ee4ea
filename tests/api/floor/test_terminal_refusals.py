"""Refused hands kept for the floor: a hand a table's terminal posts and the
server refuses is kept once the refused request rolled back, counted when the
same body comes again, listed for the floor and marked handled with a note
(API.md "Refused hands")."""

from __future__ import annotations

import pytest
from django.db import transaction

from cardroom.models import Hand, HandRefusal, TerminalKey
from core.roles import Role
from tests.api.floor.conftest import post_hand
from tests.api.floor.test_hands import heads_up, t01  # noqa: F401
from tests.api.test_auth import assert_error_shape

pytestmark = pytest.mark.django_db

REFUSALS = "/api/v1/hand-refusals"


def wrong_game(hand_no: int = 1):
    return heads_up(hand_no, game="PLO")


def test_a_refused_hand_is_kept_with_its_body_and_error(t01, clock):  # noqa: F811
    answer = post_hand(t01, "T01", wrong_game())
    assert answer.status_code == 422
    refusal = HandRefusal.objects.get()
    assert refusal.table.code == "T01" and refusal.hand_no == 1
    assert refusal.body == wrong_game()
    assert refusal.error == answer.json()
    assert (refusal.status, refusal.code, refusal.rule) == (422, "wrong_game", "HS9")
    assert refusal.count == 1 and refusal.at == refusal.last_at == clock.now
    assert refusal.key == TerminalKey.objects.get(table__code="T01")
    assert not Hand.objects.exists()


def test_the_same_body_refused_again_is_counted_once(t01, clock):  # noqa: F811
    """The tablet retries its queue: one record, its count and latest time."""
    post_hand(t01, "T01", wrong_game())
    clock.advance(minutes=3)
    post_hand(t01, "T01", wrong_game())
    refusal = HandRefusal.objects.get()
    assert refusal.count == 2 and refusal.last_at == clock.now
    post_hand(t01, "T01", wrong_game(hand_no=2))
    assert HandRefusal.objects.count() == 2


def test_kept_with_an_idempotency_key_after_the_rollback(t01):  # noqa: F811
    """With a key the hand's unit of work rolls back; the refusal is kept
    outside it, and the key stays free for the corrected hand."""
    answer = post_hand(t01, "T01", wrong_game(), HTTP_IDEMPOTENCY_KEY="h-1")
    assert answer.status_code == 422
    assert HandRefusal.objects.get().code == "wrong_game"
    fixed = post_hand(t01, "T01", heads_up(), HTTP_IDEMPOTENCY_KEY="h-1")
    assert fixed.status_code == 201


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"hand_no": 1, "game": "NLHE", "bogus": 1}, 400, "invalid"),
        ([1, 2], 400, "malformed_hand"),
    ],
    ids=["missing fields", "not an object"],
)
def test_a_malformed_hand_is_kept_too(t01, body, status, code):  # noqa: F811
    answer = t01.post("/api/v1/tables/T01/hands", body, format="json")
    assert_error_shape(answer, status, code)
    refusal = HandRefusal.objects.get()
    assert refusal.body == body and refusal.status == status


def test_a_body_that_is_no_json_is_kept_as_text(t01):  # noqa: F811
    answer = t01.post(
        "/api/v1/tables/T01/hands", b"{nope", content_type="application/json"
    )
    assert answer.status_code == 400
    refusal = HandRefusal.objects.get()
    assert refusal.body == "{nope" and refusal.hand_no is None


def test_each_refused_hand_of_a_batch_is_kept(t01):  # noqa: F811
    """The batch books the good hands; the refused one is kept alone."""
    hands = [heads_up(1), wrong_game(2)]
    answer = t01.post("/api/v1/tables/T01/hands/batch", {"hands": hands}, format="json")
    assert answer.status_code == 200, answer.content
    statuses = [r["status"] for r in answer.json()["results"]]
    assert statuses == [201, 422]
    refusal = HandRefusal.objects.get()
    assert refusal.hand_no == 2 and refusal.body == wrong_game(2)
    assert refusal.error == answer.json()["results"][1]["body"]
    whole = t01.post("/api/v1/tables/T01/hands/batch", {"hands": []}, format="json")
    assert whole.status_code == 400
    assert HandRefusal.objects.filter(body={"hands": []}).count() == 1


def test_nothing_is_kept_for_booked_or_others_posts(t01, floor, open_table):  # noqa: F811
    """A booked or repeated hand keeps nothing; nor does a floor person's post
    (he is told at once), nor a key posting for another table (403)."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    assert post_hand(t01, "T01", heads_up()).status_code == 200
    assert post_hand(floor, "T01", wrong_game(2)).status_code == 422
    t02 = open_table("T02")
    assert post_hand(t02, "T01", wrong_game(2)).status_code == 403
    assert not HandRefusal.objects.exists()


def test_the_floor_lists_and_handles_them(t01, floor, clock, staff_client):  # noqa: F811
    """Open ones first for the floor; handled with a note, by whom and when; a
    second handling is a conflict; the same body refused after that is new."""
    post_hand(t01, "T01", wrong_game())
    listed = floor.get(REFUSALS, {"status": "open"})
    assert listed.status_code == 200
    (row,) = listed.json()
    assert (row["table"], row["hand_no"], row["code"], row["rule"]) == (
        "T01",
        1,
        "wrong_game",
        "HS9",
    )
    assert row["detail"] == "The table deals NLHE, not PLO."
    assert row["handled"] is False and row["count"] == 1
    assert_error_shape(
        floor.post(f"{REFUSALS}/{row['id']}/handle", {"note": " "}, format="json"),
        400,
        "invalid",
    )
    clock.advance(minutes=2)
    done = floor.post(
        f"{REFUSALS}/{row['id']}/handle",
        {"note": "The dealer chose the wrong game; posted again."},
        format="json",
    )
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["handled"] is True and body["handled_by"] == "floor"
    assert body["note"] == "The dealer chose the wrong game; posted again."
    refusal = HandRefusal.objects.get()
    assert refusal.handled_at == clock.now
    again = floor.post(f"{REFUSALS}/{row['id']}/handle", {"note": "x"}, format="json")
    assert_error_shape(again, 409, "already_handled")
    assert floor.get(REFUSALS, {"status": "open"}).json() == []
    assert len(floor.get(REFUSALS, {"status": "handled"}).json()) == 1
    post_hand(t01, "T01", wrong_game())
    assert HandRefusal.objects.count() == 2
    auditor = staff_client(Role.AUDITOR)
    assert len(auditor.get(REFUSALS).json()) == 2
    assert (
        auditor.post(f"{REFUSALS}/{row['id']}/handle", {"note": "x"}).status_code == 403
    )
    assert_error_shape(
        floor.post(f"{REFUSALS}/999999/handle", {"note": "x"}, format="json"),
        404,
        "not_found",
    )


def test_a_handled_refusal_is_final_in_the_database(t01, floor):  # noqa: F811
    post_hand(t01, "T01", wrong_game())
    refusal = HandRefusal.objects.get()
    floor.post(f"{REFUSALS}/{refusal.pk}/handle", {"note": "done"}, format="json")
    with pytest.raises(Exception, match="Cannot update"), transaction.atomic():
        HandRefusal.objects.filter(pk=refusal.pk).update(note="changed")
    refused = pytest.raises(Exception, match=r"Cannot delete|permission denied")
    with refused, transaction.atomic():
        HandRefusal.objects.filter(pk=refusal.pk).delete()


def test_the_floor_reads_the_reason_in_its_own_language(t01, floor):  # noqa: F811
    """The terminal was answered in its language; the floor lists the reason in
    its own (the refusal's template and parameters are kept)."""
    from django.utils import translation

    answer = post_hand(t01, "T01", wrong_game(), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.json()["error"]["detail"] == "The table deals NLHE, not PLO."
    with translation.override("fi"):
        finnish = translation.gettext("The table deals %(g)s, not %(r)s.") % {
            "g": "NLHE",
            "r": "PLO",
        }
    assert finnish != "The table deals NLHE, not PLO."
    (row,) = floor.get(REFUSALS, HTTP_ACCEPT_LANGUAGE="fi").json()
    assert row["detail"] == finnish
    assert row["error"] == answer.json()
    batch = t01.post(
        "/api/v1/tables/T01/hands/batch",
        {"hands": [wrong_game(3)]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    assert batch.json()["results"][0]["status"] == 422
    newest = floor.get(REFUSALS, HTTP_ACCEPT_LANGUAGE="fi").json()[0]
    assert newest["hand_no"] == 3 and newest["detail"] == finnish
