"""10,000 hands posted twice each, concurrently, over HTTP to gunicorn, book exactly
10,000 hands; the trial balance is zero and no stack goes negative (DESIGN.md,
"Reliability and security targets").

40 tables of six players play 250 hands each, dealt in advance by the engine, each
hand from the stacks the last one left (``sequence``). Two terminals post every
table's hands in order, at the same time: one books each hand (201), the other finds
it booked by its natural key ``(table, hand_no)`` (200).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from datetime import date
from typing import Any

import pytest
from django.db.models import Min

from accounting import chart
from accounting.models import Player, Transaction
from accounting.selectors import trial_balance
from cardroom.domain.settlement import settle_record
from cardroom.models import Hand, HandSeat, SeatSession, Table, TerminalKey
from tests.api.floor.conftest import POLICY, seat
from tests.api.floor.test_concurrency import HANDS_PER_TABLE, sequence

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.timeout(900),
]

HANDS, TABLES, PLAYERS_PER_TABLE, LANES = 10_000, 40, 6, 8


def test_ten_thousand_hands_posted_twice_concurrently_book_once(open_table, web):
    """Two terminals per table post the same 250 hands at once, eight tables at a
    time: 10,000 hands booked, each once, every stack as the engine dealt it."""
    assert TABLES * HANDS_PER_TABLE == HANDS
    rng = random.Random(20261129)
    codes = [f"R-{n}" for n in range(TABLES * PLAYERS_PER_TABLE)]
    Player.objects.bulk_create(
        Player(code=c, name=c, id_verified=True, birth_date=date(1985, 1, 1))
        for c in codes
    )
    work: list[tuple[str, str, list[dict[str, Any]]]] = []
    for t in range(TABLES):
        table = f"H{t:02d}"
        floor_terminal = open_table(table)
        mine = codes[t * PLAYERS_PER_TABLE : (t + 1) * PLAYERS_PER_TABLE]
        for s, player in enumerate(mine):
            assert seat(floor_terminal, table, s + 1, player, 40_000).status_code == 201
        _, key = TerminalKey.objects.create_key(
            name=f"{table} over HTTP", table=Table.objects.get(code=table)
        )
        work.append((table, f"Api-Key {key}", sequence(table, mine, rng)))
    assert sum(len(hands) for _, _, hands in work) == HANDS

    web.start()
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    lock = threading.Lock()

    def terminal(lane: int) -> None:
        """Post, in order, the hands of every LANES-th table from ``lane`` on."""
        for table, key, hands in work[lane::LANES]:
            client = web.client(key)
            try:
                for hand in hands:
                    answer = client.post(f"/api/v1/tables/{table}/hands", hand)
                    with lock:
                        statuses[answer.status] += 1
                        if answer.status not in (200, 201):
                            failures.append(f"{table} {hand['hand_no']}: {answer.text}")
            finally:
                client.close()

    threads = [
        threading.Thread(target=terminal, args=(lane,))
        for lane in range(LANES)
        for _twin in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(800)
    assert not any(t.is_alive() for t in threads)
    assert not failures, failures[:5]
    assert statuses == {201: HANDS, 200: HANDS}, statuses

    assert Hand.objects.count() == HANDS
    assert Hand.objects.filter(ledger_transaction__isnull=False).count() == (
        Transaction.objects.filter(kind="hand").count()
    )
    assert HandSeat.objects.aggregate(low=Min("final_stack_cents"))["low"] >= 0
    for table, _, hands in work:
        # Each player's stack and last hand as the engine dealt them.
        finals: dict[str, tuple[int, int]] = {}
        for hand in hands:
            for row in settle_record(hand, POLICY)["seats"]:
                finals[row["player"]] = (row["final_stack"], hand["hand_no"])
        sessions = SeatSession.objects.filter(table__code=table).select_related(
            "player"
        )
        assert len(sessions) == PLAYERS_PER_TABLE
        for s in sessions:
            account = chart.player_stack(player=s.player.code, table=table)
            assert (s.stack_cents, s.last_hand_no) == finals[s.player.code]
            assert s.stack_cents == account.balance_cents >= 0
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
