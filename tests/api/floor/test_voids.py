"""RK8 voids: a floor person, a reason from the list, only before two players acted
with a call, bet or raise among them, and a manager's approval (another person)
once rake or drop was taken. The reversal is a new transaction; refusals change
nothing."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from accounting.models import Transaction
from cardroom.models import Hand, HandVoid, SeatSession, StackReview
from core.roles import Role
from tests.api.floor.conftest import leave, post_hand, seat
from tests.api.floor.ledger import (
    balance,
    fingerprint,
    ledger_agrees_with_sessions,
    refused,
)
from tests.api.floor.test_hands import heads_up

pytestmark = pytest.mark.django_db


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


def misdeal(hand_no: int = 1, stacks: tuple[int, int] = (20_000, 20_000)) -> dict:
    """Heads-up: the button posts the small blind and folds; no call, no flop."""
    return {
        "table": "T01",
        "hand_no": hand_no,
        "game": "NLHE",
        "button": 1,
        "streets": 1,
        "board": [],
        "seats": [
            {
                "seat": 1,
                "player": "P-1",
                "stack": stacks[0],
                "present": True,
                "put_in": 100,
                "folded": True,
            },
            {
                "seat": 2,
                "player": "P-2",
                "stack": stacks[1],
                "present": True,
                "put_in": 200,
                "folded": False,
            },
        ],
    }


def void(client: APIClient, hand_no: int, reason: str = "misdeal", table="T01"):
    return client.post(
        f"/api/v1/tables/{table}/hands/{hand_no}/void",
        {"reason": reason},
        format="json",
    )


def stacks(table: str = "T01") -> dict[int, int]:
    return dict(
        SeatSession.objects.filter(
            table__code=table, ended_at__isnull=True
        ).values_list("seat", "stack_cents")
    )


@pytest.fixture
def raked(clock, open_table, players) -> APIClient:
    """Table BIG (blinds 100/200 euros), six players; the blinds are all in on
    their posts, the others fold, the board is run out: no call, no bet, no raise,
    yet the pot paid rake (500) and the jackpot drop (100)."""
    t = open_table(
        "BIG",
        small_blind=10_000,
        big_blind=20_000,
        min_buy_in=10_000,
        max_buy_in=40_000,
    )
    buy_ins = {1: 20_000, 2: 10_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000}
    for n, amount in buy_ins.items():
        answer = seat(t, "BIG", n, f"P-{n}", amount)
        assert answer.status_code == 201, answer.content
    hand = {
        "table": "BIG",
        "hand_no": 1,
        "game": "NLHE",
        "button": 1,
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": [
            {
                "seat": n,
                "player": f"P-{n}",
                "stack": amount,
                "present": True,
                "put_in": {2: 10_000, 3: 20_000}.get(n, 0),
                "folded": n not in (2, 3),
                **(
                    {"cards": {2: ["Ah", "Ad"], 3: ["Kh", "Kd"]}[n]}
                    if n in (2, 3)
                    else {}
                ),
            }
            for n, amount in buy_ins.items()
        ],
    }
    answer = post_hand(t, "BIG", hand)
    assert answer.status_code == 201, answer.content
    booked = Hand.objects.get(table__code="BIG")
    assert (booked.rake_cents, booked.jackpot_drop_cents) == (500, 100)
    return t


def test_a_floor_person_voids_a_misdeal(t01, floor):
    """No rake, no drop: voided at once; the reversal is a new transaction."""
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    assert stacks() == {1: 19_900, 2: 20_100}
    original = Hand.objects.get().ledger_transaction
    answer = void(floor, 1, "misdeal")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["status"], body["hand_status"], body["reason"]) == (
        "booked",
        "voided",
        "misdeal",
    )
    assert (body["requested_by"], body["decided_by"]) == ("floor", None)
    assert stacks() == {1: 20_000, 2: 20_000}
    reversal = Transaction.objects.get(kind="hand_void")
    assert reversal.reverses_id == original.pk and reversal.memo == "misdeal"
    assert reversal.posted_by.username == "floor" and reversal.approved_by is None
    assert HandVoid.objects.get().ledger_transaction == reversal
    ledger_agrees_with_sessions()
    before = fingerprint()
    refused(void(floor, 1, "foul_deck"), 409, None, "already_void")
    assert fingerprint() == before


def test_the_terminal_key_alone_can_not_void(t01):
    """RK8: a floor person decides a void; a table's key gets 403."""
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    before = fingerprint()
    answer = void(t01, 1, "misdeal")
    assert answer.status_code == 403
    assert fingerprint() == before


@pytest.mark.parametrize("reason", ["changed my mind", "", "MISDEAL"])
def test_a_reason_off_the_list_is_refused(t01, floor, reason):
    """RK8: the reason is one of the closed list."""
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    before = fingerprint()
    answer = void(floor, 1, reason)
    assert answer.status_code == 400, answer.content
    assert fingerprint() == before


def test_no_misdeal_once_two_players_acted_with_a_call(t01, floor, manager):
    """RK8 (FI "Mitätön jako"): a showdown hand, raked, can't be called a misdeal
    by anyone."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    before = fingerprint()
    for who in (floor, manager):
        error = refused(void(who, 1, "misdeal"), 422, "RK8", "void_after_action")
        assert error["allowed"]["called_bet_or_raised"] == [1, 2]
    assert fingerprint() == before
    assert balance("revenue:rake") == 500


@pytest.mark.parametrize("reason", ["foul_deck", "duplicate_card"])
def test_a_foul_deck_voids_the_hand_however_far_it_went(t01, floor, manager, reason):
    """RK8 (FI "Pakassa oleva ylimääräinen kortti": "oli se edennyt kuinka
    pitkälle hyvänsä"; TDA R37-E): a raked showdown hand is voided for a foul deck
    or a duplicate card, by a manager's approval; every contribution back."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    asked = void(floor, 1, reason)
    assert asked.status_code == 202, asked.content
    decided = manager.post(f"/api/v1/voids/{asked.json()['id']}/approve")
    assert decided.status_code == 200, decided.content
    assert stacks() == {1: 20_000, 2: 20_000}
    assert balance("revenue:rake") == 0
    ledger_agrees_with_sessions()


def test_a_raise_and_a_fold_before_the_flop_stop_a_void(t01, floor):
    """RK8: the button raises, the big blind folds: two acted, one raised."""
    hand = misdeal()
    hand["seats"][0].update(put_in=600, folded=False)
    hand["seats"][1].update(folded=True)
    assert post_hand(t01, "T01", hand).status_code == 201
    before = fingerprint()
    refused(void(floor, 1), 422, "RK8", "void_after_action")
    assert fingerprint() == before


def test_a_raked_hand_waits_for_a_manager_who_is_another_person(
    raked, floor, manager, manager2
):
    """Rake and drop taken: 202 and nothing booked until a manager, not the one who
    asked, approves; then the reversal gives every contribution back."""
    after_hand = stacks("BIG")
    assert balance("revenue:rake") == 500
    ledger_before = fingerprint()
    answer = void(manager, 1, "duplicate_card", table="BIG")
    assert answer.status_code == 202, answer.content
    pending = answer.json()
    assert (pending["status"], pending["needs_approval"]) == ("pending", True)
    assert pending["hand_status"] == "booked"
    now = fingerprint()
    assert {k: v for k, v in now.items() if k != "voids"} == {
        k: v for k, v in ledger_before.items() if k != "voids"
    }
    before = fingerprint()
    refused(void(floor, 1, "misdeal", table="BIG"), 409, None, "void_pending")
    approve = f"/api/v1/voids/{pending['id']}/approve"
    refused(manager.post(approve), 422, "RK8", "four_eyes")
    assert floor.post(approve).status_code == 403
    assert raked.post(approve).status_code == 403
    assert fingerprint() == before
    assert stacks("BIG") == after_hand
    answer = manager2.post(approve)
    assert answer.status_code == 200, answer.content
    assert (answer.json()["status"], answer.json()["hand_status"]) == (
        "booked",
        "voided",
    )
    assert answer.json()["decided_by"] == "manager2"
    assert stacks("BIG") == {
        1: 20_000,
        2: 10_000,
        3: 20_000,
        4: 20_000,
        5: 20_000,
        6: 20_000,
    }
    assert balance("revenue:rake") == 0
    reversal = Transaction.objects.get(kind="hand_void")
    assert (reversal.posted_by.username, reversal.approved_by.username) == (
        "manager",
        "manager2",
    )
    ledger_agrees_with_sessions()
    before = fingerprint()
    refused(manager2.post(approve), 409, None, "decided")
    assert fingerprint() == before


def test_a_rejected_void_leaves_the_hand_booked(raked, floor, manager):
    """A manager rejects: the hand stays booked; the floor may ask again."""
    pending = void(floor, 1, "foul_deck", table="BIG").json()
    before = {k: v for k, v in fingerprint().items() if k != "voids"}
    answer = manager.post(f"/api/v1/voids/{pending['id']}/reject")
    assert answer.status_code == 200 and answer.json()["status"] == "rejected"
    assert {k: v for k, v in fingerprint().items() if k != "voids"} == before
    assert Hand.objects.get(table__code="BIG").status == "booked"
    assert void(floor, 1, "foul_deck", table="BIG").status_code == 202


def test_an_approval_after_the_next_hand_is_refused(raked, floor, manager):
    """RK8: only the table's last hand; a void waiting while the next hand was
    booked is refused at approval, nothing booked."""
    pending = void(floor, 1, "misdeal", table="BIG").json()
    seats = stacks("BIG")
    next_hand = {
        "table": "BIG",
        "hand_no": 2,
        "game": "NLHE",
        "button": 3,
        "streets": 1,
        "board": [],
        "seats": [
            {
                "seat": n,
                "player": f"P-{n}",
                "stack": seats[n],
                "present": True,
                "put_in": {4: 10_000, 5: 20_000}.get(n, 0),
                "folded": n != 5,
            }
            for n in (1, 3, 4, 5)
        ],
    }
    assert post_hand(raked, "BIG", next_hand).status_code == 201
    before = fingerprint()
    answer = manager.post(f"/api/v1/voids/{pending['id']}/approve")
    refused(answer, 422, "RK8", "void_too_late")
    assert fingerprint() == before


def test_only_the_last_hand_while_its_players_sit(t01, floor):
    """RK8: a hand with a later one, or whose player left, can't be voided."""
    assert post_hand(t01, "T01", misdeal()).status_code == 201
    assert post_hand(t01, "T01", misdeal(2, (19_900, 20_100))).status_code == 201
    before = fingerprint()
    refused(void(floor, 1), 422, "RK8", "void_too_late")
    assert fingerprint() == before
    assert leave(t01, "T01", 1, 19_800).status_code == 200
    before = fingerprint()
    refused(void(floor, 2), 422, "RK8", "void_too_late")
    refused(void(floor, 9), 404, None, "not_found")
    assert fingerprint() == before


@pytest.mark.parametrize(
    ("language", "label", "detail"),
    [
        ("en", "misdeal before action", "RK8: a misdeal can't be declared"),
        ("fi", "jakovirhe ennen toimintaa", "RK8: jakovirhettä ei voi julistaa"),
        ("ko", "액션 전 미스딜", "RK8: 두 플레이어가 액션했고"),
    ],
)
def test_reasons_and_refusals_speak_the_callers_language(
    t01, floor, language, label, detail
):
    """The closed list's labels and the refusal are in English, Finnish, Korean."""
    with translation.override(language):
        assert str(HandVoid.Reason.MISDEAL.label) == label
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    answer = floor.post(
        "/api/v1/tables/T01/hands/1/void",
        {"reason": "misdeal"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["detail"].startswith(detail)


def test_a_void_leaves_a_stack_review_and_its_frozen_chips(t01, floor):
    """The void reverses the hand, not the freeze: the difference the table
    reported stays frozen and its review open (HS6, RK8)."""
    assert post_hand(t01, "T01", misdeal(stacks=(20_000, 19_000))).status_code == 201
    assert stacks() == {1: 19_900, 2: 19_100}
    assert void(floor, 1).status_code == 200
    assert stacks() == {1: 20_000, 2: 19_000}
    assert balance("player:P-2:table:T01:review") == 1_000
    review = StackReview.objects.get()
    assert review.status == "open" and review.amount_cents == 1_000
    ledger_agrees_with_sessions()
