"""A simulated evening: moves under BI5, hundreds of hands, books that add up."""

from __future__ import annotations

import random

import pytest
from django.db.models import Sum

from accounting.models import Account
from accounting.selectors import trial_balance
from cardroom.models import Hand, SeatSession, StackMovement
from tests.api.floor.conftest import leave, post_hand, random_hand, seat

pytestmark = pytest.mark.django_db

TABLES = {"E1": "NL12", "E2": "NL12", "E3": "NL25"}
BIG_BLIND = {"E1": 200, "E2": 200, "E3": 500}


def seated(table: str) -> dict[int, tuple[str, int]]:
    return {
        s.seat: (s.player.code, s.stack_cents)
        for s in SeatSession.objects.filter(
            table__code=table, ended_at__isnull=True
        ).select_related("player")
    }


def test_an_evening_of_play_keeps_every_book_straight(clock, open_table, players):
    """Three tables, moves between them, 300 hands: stacks equal the ledger."""
    rng = random.Random(2026)
    terminals = {code: open_table(code, game) for code, game in TABLES.items()}
    start = {"E1": players[0:4], "E2": players[4:8], "E3": players[8:12]}
    for code, codes in start.items():
        for n, player in enumerate(codes, start=1):
            amount = 40_000 if code != "E3" else 60_000
            assert seat(terminals[code], code, n, player, amount).status_code == 201
    hand_no = {code: 0 for code in TABLES}
    moves = 0
    for round_no in range(100):
        clock.advance(minutes=2)
        for code, terminal in terminals.items():
            stacks = seated(code)
            if sum(1 for _, st in stacks.values() if st) < 2:
                continue
            hand_no[code] += 1
            hand = random_hand(
                rng, code, hand_no[code], stacks, big_blind=BIG_BLIND[code], all_in=0.05
            )
            answer = post_hand(terminal, code, hand)
            assert answer.status_code == 201, answer.content
        if round_no % 10 == 9:
            # A player moves from E1 to E2 (same stakes, BI5 b) or up to E3 (BI5 e).
            source, target = rng.choice([("E1", "E2"), ("E2", "E1"), ("E1", "E3")])
            stacks = seated(source)
            mover = max(stacks.items(), key=lambda kv: kv[1][1])
            seat_no, (player, stack) = mover
            free = set(range(1, 10)) - set(seated(target))
            if stack < 20_000 or not free:
                continue
            assert leave(terminals[source], source, seat_no, stack).status_code == 200
            too_little = seat(
                terminals[target], target, min(free), player, stack - 50, method="chips"
            )
            assert too_little.status_code == 422
            assert too_little.json()["error"]["rule"] == "BI5"
            moved = seat(
                terminals[target], target, min(free), player, stack, method="chips"
            )
            assert moved.status_code == 201 and moved.json()["kind"] == "transfer"
            moves += 1
    assert moves >= 5
    assert Hand.objects.count() >= 250
    for s in SeatSession.objects.filter(ended_at__isnull=True).select_related(
        "player", "table"
    ):
        account = Account.objects.get(
            code=f"player:{s.player.code}:table:{s.table.code}"
        )
        assert account.balance_cents == s.stack_cents
    assert not SeatSession.objects.filter(ended_at__isnull=False, stack_cents__gt=0)
    rake = Hand.objects.aggregate(r=Sum("rake_cents"))["r"]
    assert Account.objects.get(code="revenue:rake").balance_cents == rake > 0
    drops = Hand.objects.aggregate(d=Sum("jackpot_drop_cents"))["d"] or 0
    jackpot = Account.objects.filter(code="jackpot:drops").first()
    assert (jackpot.balance_cents if jackpot else 0) == drops
    cash_in = StackMovement.objects.filter(method="cash").aggregate(
        s=Sum("amount_cents")
    )
    assert (
        sum(
            Account.objects.get(code=f"table:{t}:drop_box").balance_cents
            for t in TABLES
        )
        == cash_in["s"]
    )
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree
