"""Hands booked together (``hands_record``) book exactly what the same records
posted one by one (``hand_record``) book: each answer, and every row and balance
they leave (cardroom.services.hands)."""

from __future__ import annotations

import copy
import random
import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError, connections, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting.models import Account, Entry, Transaction
from accounting.selectors import trial_balance
from accounting.services import account_for
from cardroom import services as floor
from cardroom.domain.settlement import settle_record
from cardroom.models import Hand, HandException, HandSeat, SeatSession, StackReview
from cardroom.services.hands.sql import PLACES
from core.api.errors import status_of
from core.db import rows
from core.errors import ApplicationError
from tests.api.floor.conftest import POLICY, random_hand
from tests.integration.cardroom.conftest import sit

pytestmark = pytest.mark.django_db

SEATED = 6


@pytest.fixture
def t01(clock, open_table, players):
    open_table("T01")
    for n in range(1, SEATED + 1):
        sit(clock, "T01", n, f"P-{n}", 20_000)
    return clock


def scenario(rng: random.Random) -> list[dict[str, Any]]:
    """Records as a terminal might send them: hands from the stacks the last one
    left, repeats, conflicting repeats, another game, malformed ones, numbers
    skipped or gone back, stacks reported below the ledger's (HS6)."""
    stacks = {n: (f"P-{n}", 20_000) for n in range(1, SEATED + 1)}
    records: list[dict[str, Any]] = []
    booked: list[dict[str, Any]] = []
    last = 0
    for _ in range(rng.randint(1, 10)):
        kind = rng.choice(
            ["hand"] * 5 + ["repeat", "conflict", "game", "malformed", "gap", "hs6"]
        )
        if kind in ("repeat", "conflict") and booked:
            record = copy.deepcopy(rng.choice(booked))
            if kind == "conflict":
                record["button"] = (record.get("button") or 1) % SEATED + 1
            records.append(record)
            continue
        if kind == "malformed":
            records.append({"hand_no": last + 1, "game": "NLHE", "streets": 4})
            continue
        if sum(1 for _p, chips in stacks.values() if chips) < 2:
            break
        hand_no = last + (rng.randint(2, 4) if kind == "gap" else 1)
        record = random_hand(rng, "T01", hand_no, stacks)
        if kind == "game":
            records.append({**record, "game": "PLO"})
            continue
        if kind == "hs6":
            seat = rng.choice(record["seats"])
            spare = (seat["stack"] - seat["put_in"]) // 50
            if spare:
                seat["stack"] -= 50 * rng.randint(1, spare)
        for row in settle_record(record, POLICY)["seats"]:
            stacks[row["seat"]] = (stacks[row["seat"]][0], row["final_stack"])
        records.append(record)
        booked.append(record)
        last = hand_no
    return records


def hands(seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` hands, each from the stacks the last one left; nobody all in."""
    rng = random.Random(seed)
    stacks = {n: (f"P-{n}", 20_000) for n in range(1, SEATED + 1)}
    records = []
    for n in range(1, count + 1):
        record = random_hand(rng, "T01", n, stacks, all_in=0.0)
        for row in settle_record(record, POLICY)["seats"]:
            stacks[row["seat"]] = (stacks[row["seat"]][0], row["final_stack"])
        records.append(record)
    return records


def answer(outcome: tuple[Hand | None, bool, ApplicationError | None]) -> tuple:
    hand, created, error = outcome
    if error is not None:
        return (status_of(error), error.code, error.rule, str(error.detail))
    assert hand is not None
    return (201 if created else 200, hand.settlement)


def one_by_one(records: list[dict[str, Any]], now: Any) -> list[tuple]:
    answers = []
    for record in records:
        try:
            hand, created = floor.hand_record(
                table_code="T01", record=record, source="terminal:T01", now=now
            )
        except ApplicationError as error:
            answers.append(answer((None, False, error)))
        else:
            answers.append(answer((hand, created, None)))
    return answers


def together(records: list[dict[str, Any]], now: Any) -> list[tuple]:
    booked = floor.hands_record(
        table_code="T01", records=records, source="terminal:T01", now=now
    )
    return [answer((b.hand, b.created, b.error)) for b in booked]


def state() -> dict[str, Any]:
    """Every row and balance a booking leaves, without the ids it drew."""
    return {
        "hands": list(
            Hand.objects.order_by("hand_no").values_list(
                "hand_no",
                "record",
                "record_hash",
                "settlement",
                "pot_cents",
                "rake_cents",
                "jackpot_drop_cents",
                "participants",
                "gaming_day",
                "started_at",
                "ended_at",
                "source",
                "status",
                "ledger_transaction__external_id",
            )
        ),
        "seats": list(
            HandSeat.objects.order_by("hand__hand_no", "seat").values_list(
                "hand__hand_no",
                "seat",
                "player__code",
                "session__seat",
                "stack_cents",
                "put_in_cents",
                "returned_cents",
                "won_cents",
                "final_stack_cents",
                "present",
                "folded",
                "cards",
                "description",
            )
        ),
        "exceptions": sorted(
            HandException.objects.values_list("hand__hand_no", "kind", "status"),
        ),
        "details": [
            e.details for e in HandException.objects.order_by("hand__hand_no", "kind")
        ],
        "reviews": sorted(
            StackReview.objects.values_list(
                "hand__hand_no",
                "seat",
                "reported_cents",
                "recorded_cents",
                "amount_cents",
                "hold_transaction__reference",
            )
        ),
        "sessions": sorted(
            SeatSession.objects.values_list("seat", "stack_cents", "last_hand_no")
        ),
        "balances": sorted(Account.objects.values_list("code", "balance_cents")),
        "postings": sorted(
            (
                t.kind,
                t.reference,
                t.external_id or "",
                t.memo,
                t.source,
                t.posted_at,
                tuple(
                    sorted(
                        Entry.objects.filter(transaction=t).values_list(
                            "account__code", "amount_cents"
                        )
                    )
                ),
            )
            for t in Transaction.objects.filter(kind__in=["hand", "stack_review_hold"])
        ),
    }


def booked_by(book, records: list[dict[str, Any]], now: Any) -> tuple:
    """What ``book`` answers and leaves; rolled back after."""
    with transaction.atomic():
        answers = book(copy.deepcopy(records), now)
        left = state()
        balanced = trial_balance()
        transaction.set_rollback(True)
    assert balanced.balanced and balanced.cached_balances_agree
    return answers, left


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32))
def test_hands_booked_together_book_what_they_book_one_by_one(t01, seed):
    records = scenario(random.Random(seed))
    alone = booked_by(one_by_one, records, t01.now)
    batch = booked_by(together, records, t01.now)
    assert batch[0] == alone[0]
    assert batch[1] == alone[1]


def test_a_hand_repeated_in_its_own_batch_answers_as_a_repeat(t01):
    (first,) = hands(3, 1)
    other = {**first, "button": (first.get("button") or 1) % SEATED + 1}
    booked = floor.hands_record(
        table_code="T01", records=[first, first, other], source="terminal:T01"
    )
    assert [(b.created, b.error is None) for b in booked] == [
        (True, True),
        (False, True),
        (False, False),
    ]
    assert booked[1].hand.settlement == booked[0].hand.settlement
    assert booked[2].error.code == "hand_conflict"
    assert Hand.objects.count() == 1


def test_a_batch_books_in_a_fixed_number_of_statements(t01, django_assert_num_queries):
    """Fifty hands after the table's first: the table, what its hands need, one
    write (and the savepoints of the service and of the batch)."""
    first, *records = hands(11, 51)
    floor.hand_record(table_code="T01", record=first, source="terminal:T01")
    for code in ("table:T01:rake_box", "table:T01:jackpot_box", "revenue:rake"):
        account_for(code)  # as the first rake and drop open them
    with django_assert_num_queries(7) as done:
        booked = floor.hands_record(
            table_code="T01", records=records, source="terminal:T01"
        )
    assert all(b.created for b in booked)
    writes = [q for q in done.captured_queries if "ledger_transactions AS" in q["sql"]]
    assert len(writes) == 1
    assert Hand.objects.count() == 51


def test_when_the_database_refuses_a_batch_each_hand_is_booked_alone(t01):
    """A refusal by the database that the checks let through fails its hand
    alone: the batch is rolled back and every hand booked on its own."""
    records = hands(5, 3)
    query, failed = rows.query, []

    def refuse_many(sql, params=()):
        many = isinstance(params, dict) and params.get("hands", "").count('"id"') > 1
        if "ledger_transactions AS" in sql and many:
            failed.append(1)
            raise IntegrityError("refused")
        return query(sql, params)

    with mock.patch("core.db.rows.query", side_effect=refuse_many):
        booked = floor.hands_record(
            table_code="T01", records=records, source="terminal:T01"
        )
    assert failed == [1]
    assert [b.created for b in booked] == [True, True, True]
    assert list(Hand.objects.values_list("hand_no", flat=True)) == [1, 2, 3]
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def final_stacks(records: list[dict[str, Any]]) -> dict[str, int]:
    """Each player's stack after ``records``, by the engine."""
    stacks: dict[str, int] = {}
    for record in records:
        for row in settle_record(record, POLICY)["seats"]:
            stacks[row["player"]] = row["final_stack"]
    return stacks


@pytest.mark.django_db(transaction=True)
def test_a_booking_that_waited_for_the_table_reads_what_the_one_before_wrote(t01):
    """Once the process knows a table, its booking sends the read with the lock
    in one round trip; PostgreSQL still runs the read once the lock is held, so a
    booking that waited for another sees that one's hand and stacks."""
    first, second, third = hands(12, 3)
    floor.hand_record(table_code="T01", record=first, source="terminal:T01")
    holding, go = threading.Event(), threading.Event()

    def the_other_terminal() -> None:
        try:
            with transaction.atomic():
                floor.hand_record(table_code="T01", record=second, source="t:T01")
                holding.set()
                go.wait(10)
                time.sleep(0.5)  # while the booking below waits for the table
        finally:
            connections.close_all()

    other = threading.Thread(target=the_other_terminal)
    other.start()
    assert holding.wait(10)
    go.set()
    with mock.patch(
        "core.db.rows.query_pipelined", wraps=rows.query_pipelined
    ) as pipelined:
        started = time.monotonic()
        hand, created = floor.hand_record(
            table_code="T01", record=third, source="terminal:T01"
        )
        waited = time.monotonic() - started
    other.join(10)
    sent = [call.args[0][0][0] for call in pipelined.call_args_list]
    assert [sql for sql in sent if "FOR UPDATE OF t" in sql] == sent[:1]
    assert waited > 0.3
    assert created and hand.settlement["exceptions"] == []
    assert not StackReview.objects.exists()
    stacks = final_stacks([first, second, third])
    for session in SeatSession.objects.select_related("player"):
        assert session.stack_cents == stacks[session.player.code]
        assert session.last_hand_no == 3
        code = f"player:{session.player.code}:table:T01"
        assert (
            Account.objects.get(code=code).balance_cents == stacks[session.player.code]
        )
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def test_a_table_the_process_knew_by_another_id_is_read_again(t01, monkeypatch):
    """The read sent along with the lock names the table and room the process
    knew under the code; when the lock finds others, the read is done again for
    them."""
    first, second = hands(13, 2)
    floor.hand_record(table_code="T01", record=first, source="terminal:T01")
    monkeypatch.setitem(PLACES, "T01", (0, 0))  # no such table, no such room
    with mock.patch("core.db.rows.query", wraps=rows.query) as alone:
        hand, created = floor.hand_record(
            table_code="T01", record=second, source="terminal:T01"
        )
    reads = [c for c in alone.call_args_list if "generate_series" in c.args[0]]
    assert len(reads) == 1 and reads[0].args[1]["table"] == hand.table_id
    assert created and hand.settlement["exceptions"] == []
    assert PLACES["T01"] == (hand.table_id, hand.table.room_id)
    stacks = final_stacks([first, second])
    for session in SeatSession.objects.select_related("player"):
        assert session.stack_cents == stacks[session.player.code]


HEARD: list[int] = []


def heard(hand_id: int) -> None:
    """A ``CARDROOM_HAND_BOOKED`` receiver for the tests below."""
    HEARD.append(hand_id)


@pytest.mark.django_db(transaction=True)
def test_a_hand_booked_alone_commits_with_its_write(t01, settings):
    """A hand posted alone is its transaction's last statement: its COMMIT goes
    with the write in one round trip, and the apps hear of the hand once, after."""
    settings.CARDROOM_HAND_BOOKED = [f"{__name__}.heard"]
    HEARD.clear()
    first, second = hands(14, 2)
    floor.hand_record(table_code="T01", record=first, source="terminal:T01")
    with mock.patch("core.db.rows._pipelined", wraps=rows._pipelined) as pipelined:
        _hand, created = floor.hand_record(
            table_code="T01", record=second, source="terminal:T01"
        )
    sent = [[sql for sql, _ in call.args[1]] for call in pipelined.call_args_list]
    assert len(sent) == 2 and "FOR UPDATE OF t" in sent[0][0]
    assert "ledger_transactions AS" in sent[1][0] and sent[1][1:] == ["COMMIT"]
    assert (
        created
        and list(Hand.objects.order_by("hand_no").values_list("pk", flat=True)) == HEARD
    )
    stacks = final_stacks([first, second])
    for session in SeatSession.objects.select_related("player"):
        assert session.stack_cents == stacks[session.player.code]
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


@pytest.mark.django_db(transaction=True)
def test_a_hand_booked_in_the_callers_transaction_goes_with_it(t01):
    """Booked inside a caller's transaction (an idempotency key's unit of work),
    the hand commits or rolls back with it: its write doesn't commit."""
    (record,) = hands(15, 1)
    before = {s.pk: s.stack_cents for s in SeatSession.objects.all()}
    with pytest.raises(RuntimeError), transaction.atomic():
        floor.hand_record(table_code="T01", record=record, source="terminal:T01")
        raise RuntimeError("the answer couldn't be stored")
    assert (
        not Hand.objects.exists()
        and not Transaction.objects.filter(kind="hand").exists()
    )
    assert {s.pk: s.stack_cents for s in SeatSession.objects.all()} == before
    floor.hand_record(table_code="T01", record=record, source="terminal:T01")
    assert Hand.objects.count() == 1
