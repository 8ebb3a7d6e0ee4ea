"""A hand request cut off inside its database transaction leaves nothing behind, and
the terminal's retry books the hand once (DESIGN.md, "Reliability and security
targets"; API.md, idempotent POSTs).

The request is made to stop inside its transaction: another connection holds the
row of the last player's stack account the hand's ledger entries update (they go in
primary-key order; the house's accounts keep no row a hand locks), just before the
commit. When the request waits there it has written the hand, its seats,
the new stacks, the ledger transaction and its idempotency record; then either
gunicorn is killed (master and workers, SIGKILL) or the request's database backend
is terminated.
"""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from accounting import chart
from accounting.models import Transaction
from accounting.selectors import trial_balance
from cardroom.domain.settlement import settle_record
from cardroom.models import (
    Hand,
    HandException,
    HandSeat,
    SeatSession,
    StackMovement,
    Table,
    TerminalKey,
)
from core.idempotency import REPLAY_HEADER
from core.models import IdempotencyRecord
from tests.api.floor.conftest import POLICY, seat
from tests.integration.cage.helpers import snapshot
from tests.processes import database_url
from tests.reliability.conftest import (
    Answer,
    Client,
    backend_gone,
    blocked_by,
    tables_written,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

TABLE, PATH, KEY = "R1", "/api/v1/tables/R1/hands", "hand-R1-1"
HAND = {
    "table": TABLE,
    "hand_no": 1,
    "game": "NLHE",
    "button": 1,
    "streets": 4,
    "board": ["Ah", "Kd", "7c", "4s", "2h"],
    "seats": [
        {
            "seat": 1,
            "player": "P-1",
            "stack": 40_000,
            "present": True,
            "put_in": 2_000,
            "folded": False,
            "cards": ["As", "Ad"],
        },
        {
            "seat": 2,
            "player": "P-2",
            "stack": 40_000,
            "present": True,
            "put_in": 2_000,
            "folded": False,
            "cards": ["Kc", "Qc"],
        },
    ],
}
# What a hand writes inside its transaction before the entries' last account update.
WRITTEN = {
    "cardroom_hand",
    "cardroom_handseat",
    "cardroom_seatsession",
    "accounting_transaction",
    "accounting_entry",
    "core_idempotencyrecord",
}


@pytest.fixture
def terminal_key(open_table, players) -> str:
    """Open table R1, seat P-1 and P-2 with 40,000 each; a new key of its terminal."""
    floor_terminal = open_table(TABLE)
    for n, player in [(1, "P-1"), (2, "P-2")]:
        assert seat(floor_terminal, TABLE, n, player, 40_000).status_code == 201
    _, key = TerminalKey.objects.create_key(
        name="R1 over HTTP", table=Table.objects.get(code=TABLE)
    )
    # The hand rakes, so it moves the house's accounts too.
    assert settle_record(HAND, POLICY)["rake"] > 0
    return f"Api-Key {key}"


def books() -> dict[str, Any]:
    """Everything a hand writes: its rows, the stacks, the stored answers, and the
    ledger and the cage's counts and balances."""
    return {
        **snapshot(),
        "hands": Hand.objects.count(),
        "hand_seats": HandSeat.objects.count(),
        "hand_exceptions": HandException.objects.count(),
        "stack_movements": StackMovement.objects.count(),
        "idempotency_records": IdempotencyRecord.objects.count(),
        "sessions": sorted(
            SeatSession.objects.values_list("pk", "stack_cents", "last_hand_no")
        ),
    }


@contextmanager
def stopped_inside_the_hand(
    locker: psycopg.Connection, client: Client, key: str | None = KEY
) -> Iterator[tuple[Future[Answer], int]]:
    """Post the hand and hold it inside its transaction, at a player's stack row.

    Yield the answer to come and the request's database backend, which has written
    the hand's rows (``WRITTEN``) and not committed them.
    """
    # House accounts keep no row a hand locks (summed, accounting/0011); the
    # players' stacks do, and the hand takes them in primary-key order: hold the
    # last one it takes.
    stacks = [chart.player_stack(player=p, table=TABLE).code for p in ("P-1", "P-2")]
    row = locker.execute(
        "SELECT id FROM accounting_account WHERE code = ANY(%s)"
        " ORDER BY id DESC LIMIT 1 FOR UPDATE",
        [stacks],
    ).fetchone()
    assert row is not None
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(client.post, PATH, HAND, key=key, timeout=120)
        backend = blocked_by(locker, watch=pending)
        kept = WRITTEN if key else WRITTEN - {"core_idempotencyrecord"}
        assert tables_written(backend) >= kept
        assert not pending.done()
        yield pending, backend


def booked_once(before: dict[str, Any], answer_body: dict[str, Any]) -> dict[str, Any]:
    """Check the hand is booked exactly once on top of ``before``; return the books."""
    after = books()
    hand = Hand.objects.get(table__code=TABLE, hand_no=1)
    assert after["hands"] == before["hands"] + 1
    assert after["hand_seats"] == before["hand_seats"] + 2
    assert after["transactions"] == before["transactions"] + 1
    assert after["idempotency_records"] == before["idempotency_records"] + 1
    assert hand.ledger_transaction is not None
    assert Transaction.objects.filter(external_id=f"hand:{TABLE}:1").count() == 1
    assert answer_body == hand.settlement
    finals = {s["seat"]: s["final_stack"] for s in hand.settlement["seats"]}
    assert sum(finals.values()) == 80_000 - hand.rake_cents - hand.jackpot_drop_cents
    for session in SeatSession.objects.filter(table__code=TABLE).select_related(
        "player"
    ):
        account = chart.player_stack(player=session.player.code, table=TABLE)
        assert session.stack_cents == finals[session.seat] == account.balance_cents
        assert session.last_hand_no == 1
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
    return after


def retry_books_once(client: Client, before: dict[str, Any]) -> None:
    """The retry books the hand (201). Another one with the key gets that first answer
    again, marked replayed (API.md); one without a key is a repeat of the natural key
    (200). Neither writes anything."""
    first = client.post(PATH, HAND, key=KEY)
    assert first.status == 201, first.text
    assert REPLAY_HEADER.lower() not in first.headers
    after = booked_once(before, first.json())
    replayed = client.post(PATH, HAND, key=KEY)
    assert replayed.status == 201, replayed.text
    assert replayed.headers.get(REPLAY_HEADER.lower()) == "true"
    assert replayed.json() == first.json()
    repeat = client.post(PATH, HAND)
    assert repeat.status == 200, repeat.text
    assert repeat.json() == first.json()
    assert books() == after


def test_gunicorn_killed_inside_the_hand_leaves_nothing_and_the_retry_books_once(
    terminal_key, web, locker
):
    """SIGKILL to gunicorn while the hand waits inside its transaction: the terminal
    gets no answer and nothing of the hand stays; after a restart the same request
    with the same Idempotency-Key books it once."""
    web.start()
    before = books()
    client = web.client(terminal_key)
    with stopped_inside_the_hand(locker, client) as (pending, backend):
        web.kill()
        with pytest.raises((ConnectionError, http.client.HTTPException)):
            pending.result(timeout=60)
    # The backend goes on once the lock is free, finds its client gone and rolls back.
    locker.rollback()
    backend_gone(backend)
    assert books() == before

    web.start()
    retry_books_once(client, before)


def test_database_connection_cut_inside_a_keyed_hand_is_run_again_and_books_once(
    terminal_key, web, locker
):
    """The request's database backend is terminated while the hand waits inside its
    transaction. The hand carries an Idempotency-Key, so the server runs it once
    more on a new connection (core.db.retry): that run waits for the row the other
    connection holds and, once it is let go, books the hand once and answers 201.
    The terminal's own retry with the key gets that answer again and writes
    nothing."""
    web.start()
    before = books()
    client = web.client(terminal_key)
    with stopped_inside_the_hand(locker, client) as (pending, backend):
        with psycopg.connect(database_url(), autocommit=True) as admin:
            [(ended,)] = admin.execute(
                "SELECT pg_terminate_backend(%s)", [backend]
            ).fetchall()
        assert ended
        backend_gone(backend)
        # The server's second run waits for the held row, as the first did.
        locker.rollback()
        answer = pending.result(timeout=60)
    assert answer.status == 201, answer.text
    after = booked_once(before, answer.json())
    replayed = client.post(PATH, HAND, key=KEY)
    assert replayed.status == 201, replayed.text
    assert replayed.headers.get(REPLAY_HEADER.lower()) == "true"
    assert replayed.json() == answer.json()
    assert books() == after


def test_database_connection_cut_inside_an_unkeyed_hand_answers_503_then_books_once(
    terminal_key, web, locker
):
    """Without an Idempotency-Key the server doesn't run the hand again: the
    terminal gets 503 with Retry-After in the error shape, nothing of the hand
    stays, and its retry books the hand once."""
    web.start()
    before = books()
    client = web.client(terminal_key)
    with stopped_inside_the_hand(locker, client, key=None) as (pending, backend):
        with psycopg.connect(database_url(), autocommit=True) as admin:
            [(ended,)] = admin.execute(
                "SELECT pg_terminate_backend(%s)", [backend]
            ).fetchall()
        assert ended
        answer = pending.result(timeout=60)
    assert answer.status == 503, answer.text
    assert answer.headers["retry-after"]
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["error"]["code"] == "database_unavailable"
    assert set(answer.json()["error"]) >= {"code", "rule", "detail", "allowed"}
    locker.rollback()
    backend_gone(backend)
    assert books() == before

    # The same gunicorn, with a new connection to the database.
    retry_books_once(client, before)
