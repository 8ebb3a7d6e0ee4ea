"""A gaming day built through the API, for the reports' tests.

Two NL 1/2 tables, a cashier's shift with purchases, a fill and a credit, ~60 hands
with jackpot drops shared by the room's bad-beat pool (seeded, with a reserve) and
its hand-of-the-month pool, a top-up, a mispaid pot and its correction, a stack
mismatch, a held pot, a void, a bad beat found, verified, approved and paid at the
cage, players leaving and cashing out, box counts with variances and a shift closed
€3 short. Everything between 19:00 on ``day`` and 05:30 the next morning.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounting.models import Account, Payable
from cardroom.models import SeatSession
from cardroom.services import room_default
from core.roles import Role
from jackpots.models import Hit, Pool
from jackpots.services import hands_qualify_missed, pool_create
from tests.api.floor.conftest import leave, post_hand, random_hand, seat

HELSINKI = ZoneInfo("Europe/Helsinki")
DROP_BOX_SHORT = 1_000  # A1's drop box is counted €10 short
A2_DROP_OVER = 500  # A2's drop box €5 over
SHIFT_SHORT = 300  # the cashier's drawer €3 short
HOLD = 1_000


SEED = 100_000  # the house's seed of the bad-beat pool


def local(day: date, hour: int, minute: int = 0) -> datetime:
    """``hour:minute`` of gaming day ``day``: hours before 06:00 are the next date."""
    on = day + timedelta(days=1) if hour < 6 else day
    return datetime.combine(on, time(hour, minute), tzinfo=HELSINKI)


def post(client: APIClient, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = client.post(f"/api/v1/{path}", body or {}, format="json")
    assert answer.status_code in (200, 201), (path, answer.content)
    return answer.json()


def seated(table: str) -> dict[int, tuple[str, int]]:
    return {
        s.seat: (s.player.code, s.stack_cents)
        for s in SeatSession.objects.filter(
            table__code=table, ended_at__isnull=True
        ).select_related("player")
    }


@dataclass
class Day:
    """What the test needs to know about the day it built."""

    day: date
    terminals: dict[str, APIClient]
    cashier: APIClient
    shift: int
    facts: dict[str, Any] = field(default_factory=dict)


def build_day(
    *,
    day: date,
    clock: Any,
    open_table: Any,
    staff_client: Any,
    manager: APIClient,
    floor: APIClient,
) -> Day:
    """Play ``day`` through the API (see the module's docstring)."""
    clock.now = local(day, 19)
    terminals = {"A1": open_table("A1", "NL12"), "A2": open_table("A2", "NL12")}
    owner = User.objects.get(username="manager")
    pool_create(
        room=room_default(),
        code="bad-beat",
        name="Bad beat",
        kind=Pool.Kind.BAD_BEAT,
        drop_ratio=3,
        reserve_percent=10,
        seed_cents=SEED,
        by=owner,
        now=clock.now,
    )
    pool_create(
        room=room_default(),
        code="hand-of-the-month",
        name="Hand of the month",
        kind=Pool.Kind.HAND_OF_THE_MONTH,
        by=owner,
        now=clock.now,
    )
    cashier = staff_client(Role.CASHIER, username="kalle")
    shift = post(
        cashier, "cage/shifts", {"cage": "MAIN", "cash": 500_000, "chips": 500_000}
    )["id"]
    post(
        manager,
        "players",
        {
            "id": "P-20",
            "name": "Unverified",
            "id_verified": False,
            "birth_date": "1985-01-01",
        },
    )
    for player, amount in [("P-12", 170_000), ("P-20", 100_000), ("P-9", 60_000)]:
        post(
            cashier,
            "cage/purchases",
            {"cage": "MAIN", "player": player, "amount": amount},
        )
    for n in range(1, 8):
        assert seat(terminals["A1"], "A1", n, f"P-{n}", 20_000).status_code == 201
    for n, player, amount, method in [
        (1, "P-8", 40_000, "cash"),
        (2, "P-9", 40_000, "chips"),
        (3, "P-10", 30_000, "cash"),
        (4, "P-11", 30_000, "cash"),
        (5, "P-12", 40_000, "cash"),
    ]:
        answer = seat(terminals["A2"], "A2", n, player, amount, method=method)
        assert answer.status_code == 201, answer.content
    clock.advance(minutes=5)
    fill = post(floor, "cage/fills", {"cage": "MAIN", "table": "A1", "amount": 100_000})
    post(cashier, f"cage/fills/{fill['id']}/issue")
    credit = post(
        floor, "cage/credits", {"cage": "MAIN", "table": "A2", "amount": 20_000}
    )
    post(cashier, f"cage/credits/{credit['id']}/issue")

    rng = random.Random(8)
    hand_no = {"A1": 0, "A2": 0}

    def play(table: str, **change: Any) -> dict[str, Any]:
        hand_no[table] += 1
        hand = random_hand(rng, table, hand_no[table], seated(table), all_in=0.05)
        for seat_no, stack_delta in change.get("stack_delta", {}).items():
            row = next(s for s in hand["seats"] if s["seat"] == seat_no)
            row["stack"] += stack_delta
        answer = post_hand(terminals[table], table, hand)
        assert answer.status_code == 201, answer.content
        return answer.json()

    for _ in range(30):
        clock.advance(minutes=3)
        play("A1")
        play("A2")

    # A top-up at A2 (BI2), in cash.
    clock.advance(minutes=1)
    seat_no, (_player, stack) = min(seated("A2").items(), key=lambda kv: kv[1][1])
    top_up = 40_000 - stack
    assert top_up > 0 and stack >= 200
    answer = terminals["A2"].post(
        f"/api/v1/tables/A2/seats/{seat_no}/top-ups",
        {"amount": top_up, "method": "cash"},
        format="json",
    )
    assert answer.status_code == 201, answer.content

    # A mispaid pot at A1 (HS7) and the floor's correction (DC2).
    clock.advance(minutes=3)
    (s1, (p1, _st1)), (s2, (p2, _st2)) = [
        kv for kv in sorted(seated("A1").items()) if kv[1][1] >= 200
    ][:2]
    hand_no["A1"] += 1
    mispaid = {
        "table": "A1",
        "hand_no": hand_no["A1"],
        "game": "NLHE",
        "button": s1,
        "streets": 1,
        "board": [],
        "seats": [
            {
                "seat": s1,
                "player": p1,
                "stack": seated("A1")[s1][1],
                "present": True,
                "put_in": 200,
                "folded": False,
            },
            {
                "seat": s2,
                "player": p2,
                "stack": seated("A1")[s2][1],
                "present": True,
                "put_in": 200,
                "folded": True,
            },
        ],
        "awarded": [{"seat": s2, "amount": 400}],
    }
    answer = post_hand(terminals["A1"], "A1", mispaid)
    assert answer.status_code == 201, answer.content
    mispaid_no = hand_no["A1"]
    fix = post(
        floor,
        "corrections",
        {
            "kind": "pot_correction",
            "table": "A1",
            "hand_no": hand_no["A1"],
            "from_player": p2,
            "to_player": p1,
            "amount": 400,
            "reason": "pushed to the folder",
        },
    )
    post(manager, f"corrections/{fix['id']}/approve")

    # A stack mismatch at A1 (HS6): the terminal reports €5 less than the ledger
    # holds; the hand books on the ledger's stack and the €5 wait frozen for review.
    clock.advance(minutes=3)
    first_seat = min(s for s, (_p, st) in seated("A1").items() if st > 1_000)
    play("A1", stack_delta={first_seat: -500})

    # A held pot at A2 (HS8), approved and still open.
    clock.advance(minutes=3)
    play("A2")
    _seat, (holder, _s) = max(seated("A2").items(), key=lambda kv: kv[1][1])
    hold = post(
        floor,
        "corrections",
        {
            "kind": "hold",
            "table": "A2",
            "hand_no": hand_no["A2"],
            "from_player": holder,
            "amount": HOLD,
            "reason": "ruling pending: camera",
        },
    )
    post(manager, f"corrections/{hold['id']}/approve")

    # A void at A2 (RK8): a misdeal found before anyone acted, voided by the floor.
    clock.advance(minutes=3)
    hand_no["A2"] += 1
    at_a2 = seated("A2")
    dealt = sorted(s for s, (_p, st) in at_a2.items() if st >= 200)
    blinds = {dealt[1]: 100, dealt[2]: 200}
    misdeal = {
        "table": "A2",
        "hand_no": hand_no["A2"],
        "game": "NLHE",
        "button": dealt[0],
        "streets": 1,
        "board": [],
        "seats": [
            {
                "seat": s,
                "player": at_a2[s][0],
                "stack": at_a2[s][1],
                "present": True,
                "put_in": blinds.get(s, 0),
                "folded": s != dealt[2],
            }
            for s in dealt
        ],
    }
    assert post_hand(terminals["A2"], "A2", misdeal).status_code == 201
    post(floor, f"tables/A2/hands/{hand_no['A2']}/void", {"reason": "misdeal"})

    # A bad beat at A1 (BB1): aces full of tens lose to four tens. The night's
    # hands are qualified (the sweep the schedule runs), the hit verified by a floor
    # person, approved by a manager, and its awards paid at the cage (BB5, CA6).
    clock.advance(minutes=3)
    (loser, _l), (winner, _w) = [
        kv for kv in sorted(seated("A1").items()) if kv[1][1] >= 1_000
    ][:2]
    hand_no["A1"] += 1
    bad_beat = {
        "table": "A1",
        "hand_no": hand_no["A1"],
        "game": "NLHE",
        "button": loser,
        "streets": 4,
        "board": ["Ac", "Th", "Td", "5s", "2c"],
        "seats": [
            {
                "seat": n,
                "player": p,
                "stack": st,
                "present": True,
                "put_in": 1_000 if n in (loser, winner) else 0,
                "folded": n not in (loser, winner),
                **({"cards": ["As", "Ad"]} if n == loser else {}),
                **({"cards": ["Ts", "Tc"]} if n == winner else {}),
            }
            for n, (p, st) in sorted(seated("A1").items())
        ],
    }
    answer = post_hand(terminals["A1"], "A1", bad_beat)
    assert answer.status_code == 201, answer.content
    hands_qualify_missed(since=local(day, 18))
    [hit] = Hit.objects.filter(hand__hand_no=hand_no["A1"], hand__table__code="A1")
    clock.advance(minutes=10)
    post(floor, f"jackpots/hits/{hit.pk}/verify", {"note": "camera 2"})
    post(manager, f"jackpots/hits/{hit.pk}/approve")
    paid = 0
    for payable in Payable.objects.filter(status=Payable.Status.OPEN).select_related(
        "player"
    ):
        post(
            cashier,
            f"cage/payables/{payable.pk}/pay",
            {"cage": "MAIN", "player": payable.player.code, "player_signed": True},
        )
        paid += payable.amount_cents
    assert paid == Hit.objects.get(pk=hit.pk).payout_cents > 0

    # Everybody leaves; P-1 cashes his chips out.
    clock.now = local(day, 3)
    for table in ("A1", "A2"):
        for seat_no, (_p, stack) in seated(table).items():
            answer = leave(terminals[table], table, seat_no, stack)
            assert answer.status_code == 200, answer.content
    p1_chips = Account.objects.get(code="player:P-1:chips").balance_cents
    post(
        cashier,
        "cage/redemptions",
        {"cage": "MAIN", "player": "P-1", "amount": p1_chips},
    )

    # The count team counts the boxes (CA4), then the cashier closes €3 short (CA1).
    clock.now = local(day, 5)
    for table, box, delta in [
        ("A1", "drop", -DROP_BOX_SHORT),
        ("A1", "rake", 0),
        ("A1", "jackpot", 0),
        ("A2", "drop", A2_DROP_OVER),
        ("A2", "rake", 0),
    ]:
        recorded = Account.objects.get(code=f"table:{table}:{box}_box").balance_cents
        post(
            cashier,
            "cage/counts",
            {
                "cage": "MAIN",
                "table": table,
                "box": box,
                "gaming_day": day.isoformat(),
                "counted": recorded + delta,
            },
        )
    clock.now = local(day, 5, 30)
    report = cashier.get(f"/api/v1/cage/shifts/{shift}").json()
    post(
        cashier,
        f"cage/shifts/{shift}/close",
        {
            "cash": report["cash"]["expected"] - SHIFT_SHORT,
            "chips": report["chips"]["expected"],
        },
    )
    return Day(
        day=day,
        terminals=terminals,
        cashier=cashier,
        shift=shift,
        facts={
            "award": paid,
            "hit": hit.pk,
            "hands": dict(hand_no),
            "mispaid": mispaid_no,
            "hold": hold["id"],
            "correction": fix["id"],
            "voided": hand_no["A2"],
        },
    )
