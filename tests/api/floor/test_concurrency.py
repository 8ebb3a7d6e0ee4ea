"""The same hands posted twice at once book once (DESIGN.md reliability targets)."""

from __future__ import annotations

import random
import threading
from datetime import date

import pytest
from django.db import connections

from accounting.models import Account
from accounting.selectors import trial_balance
from cardroom.domain.settlement import settle_record
from cardroom.models import Hand, SeatSession
from tests.api.floor.conftest import POLICY, random_hand, seat

TABLES, HANDS_PER_TABLE, PLAYERS_PER_TABLE = 4, 250, 6


def sequence(table: str, players: list[str], rng: random.Random) -> list[dict]:
    """Deal ``HANDS_PER_TABLE`` hands in a row, each from the last one's stacks."""
    stacks = {s + 1: (p, 40_000) for s, p in enumerate(players)}
    hands = []
    for n in range(1, HANDS_PER_TABLE + 1):
        if sum(1 for _, st in stacks.values() if st) < 2:
            break
        hand = random_hand(rng, table, n, stacks, all_in=0.0)
        hand.pop("ended_at")
        result = settle_record(hand, POLICY)
        for row in result["seats"]:
            stacks[row["seat"]] = (row["player"], row["final_stack"])
        hands.append(hand)
    return hands


@pytest.mark.django_db(transaction=True)
def test_a_thousand_hands_posted_twice_concurrently_book_once(
    clock, open_table, players, make_staff
):
    """Two terminals per table send the same 250 hands at once: 1,000 booked."""
    from accounting.models import Player

    rng = random.Random(11)
    codes = [f"Q-{n}" for n in range(TABLES * PLAYERS_PER_TABLE)]
    Player.objects.bulk_create(
        Player(code=c, name=c, id_verified=True, birth_date=date(1985, 1, 1))
        for c in codes
    )
    work = []
    for t in range(TABLES):
        table = f"C{t}"
        terminal = open_table(table)
        mine = codes[t * PLAYERS_PER_TABLE : (t + 1) * PLAYERS_PER_TABLE]
        for s, p in enumerate(mine):
            assert seat(terminal, table, s + 1, p, 40_000).status_code == 201
        work.append((terminal, table, sequence(table, mine, rng)))
    expected = sum(len(hands) for _, _, hands in work)
    statuses: list[int] = []
    lock = threading.Lock()

    def terminal_thread(client, table, hands):
        try:
            for hand in hands:
                answer = client.post(
                    f"/api/v1/tables/{table}/hands", hand, format="json"
                )
                with lock:
                    statuses.append(answer.status_code)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=terminal_thread, args=w) for w in work for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert sorted(set(statuses)) == [200, 201]
    assert statuses.count(201) == expected == Hand.objects.count() == 1_000
    assert statuses.count(200) == expected
    for s in SeatSession.objects.select_related("player", "table"):
        account = Account.objects.get(
            code=f"player:{s.player.code}:table:{s.table.code}"
        )
        assert account.balance_cents == s.stack_cents >= 0
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
