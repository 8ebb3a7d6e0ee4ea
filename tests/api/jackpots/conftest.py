"""A six-handed room with jackpot pools, hands dealt to order, Celery in eager mode."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounting.models import Account
from cardroom.models import Hand
from cardroom.services import room_default
from core.roles import Role
from jackpots import services, tasks
from jackpots.models import Pool
from tests.api.floor.conftest import *  # noqa: F403
from tests.api.floor.conftest import post_hand, seat

SEED = 100_000  # €1,000 from the house into the bad-beat pool
BUY_IN = 20_000


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


class Dealer:
    """Deals showdown hands at a six-handed table whose stacks it follows.

    Seats 1–6 hold P-1 … P-6. In each hand the seats in ``shown`` put in ``put_in``
    and table their cards; the others fold without putting anything in. With the
    floor's policy (pot-order rake, €1 drop from six participants) a pot of €20
    pays €1 rake and €1 drop.
    """

    def __init__(self, terminal: APIClient, table: str = "T01", game: str = "NLHE"):
        self.terminal, self.table, self.game = terminal, table, game
        self.stacks = {n: BUY_IN for n in range(1, 7)}
        self.hand_no = 0

    def sit_down(self) -> Dealer:
        for n in self.stacks:
            answer = seat(self.terminal, self.table, n, f"P-{n}", BUY_IN)
            assert answer.status_code == 201, answer.content
        return self

    def record(
        self,
        board: str,
        shown: dict[int, str],
        *,
        put_in: int = 1_000,
        folds: dict[int, int] | None = None,
        absent: tuple[int, ...] = (),
        ended_at: datetime | None = None,
    ) -> dict[str, Any]:
        """The hand record; ``folds`` gives what folding seats put in (default 0)."""
        self.hand_no += 1
        seats = []
        for n, stack in sorted(self.stacks.items()):
            row: dict[str, Any] = {
                "seat": n,
                "player": f"P-{n}",
                "stack": stack,
                "present": n not in absent,
                "put_in": put_in if n in shown else (folds or {}).get(n, 0),
                "folded": n not in shown,
            }
            if n in shown:
                row["cards"] = shown[n].split()
            seats.append(row)
        record = {
            "table": self.table,
            "hand_no": self.hand_no,
            "game": self.game,
            "button": 1,
            "streets": 4,
            "board": board.split(),
            "seats": seats,
        }
        if ended_at is not None:
            record["ended_at"] = ended_at.isoformat()
        return record

    def deal(self, board: str, shown: dict[int, str], **kwargs: Any) -> Hand:
        """Post the hand and return it, booked."""
        answer = post_hand(
            self.terminal, self.table, self.record(board, shown, **kwargs)
        )
        assert answer.status_code == 201, answer.content
        for row in answer.json()["seats"]:
            self.stacks[row["seat"]] = row["final_stack"]
        return Hand.objects.get(table__code=self.table, hand_no=self.hand_no)

    def ordinary(self, **kwargs: Any) -> Hand:
        """Aces hold against kings: no jackpot."""
        return self.deal("2c 7d 9h Js 3d", {1: "Ah Ad", 2: "Kh Kd"}, **kwargs)

    def no_showdown(self, **kwargs: Any) -> Hand:
        """Seat 2 folds to seat 1's bet on the river: a drop, no showdown."""
        return self.deal("2c 7d 9h Js 3d", {1: "Ah Ad"}, folds={2: 1_000}, **kwargs)

    def bad_beat(self, **kwargs: Any) -> Hand:
        """Aces full of tens lose to four tens (Category 1's minimum, BB2)."""
        return self.deal("Ac Th Td 5s 2c", {1: "As Ad", 2: "Ts Tc"}, **kwargs)


@pytest.fixture
def sweep() -> Callable[[], int]:
    """The qualification sweep beat runs every two seconds (BB1, HM1), run now:
    it qualifies the hands booked since the last one and returns how many."""
    return tasks.qualify_new_task


@pytest.fixture
def staff(make_staff):
    """The people of a bad beat: two floor persons, two managers, a cashier."""
    return {
        "floor": make_staff("fiona", Role.FLOOR),
        "floor2": make_staff("felix", Role.FLOOR),
        "manager": make_staff("maria", Role.MANAGER),
        "manager2": make_staff("mats", Role.MANAGER),
        "cashier": make_staff("carl", Role.CASHIER),
    }


@pytest.fixture
def pools(clock, make_staff) -> dict[str, Pool]:
    """The room's bad-beat pool (3 parts of each drop, seeded by the house) and its
    hand-of-the-month pool (1 part)."""
    room = room_default()
    boss = make_staff("owner", Role.MANAGER)
    return {
        "bad-beat": services.pool_create(
            room=room,
            code="bad-beat",
            name="Bad beat",
            kind=Pool.Kind.BAD_BEAT,
            drop_ratio=3,
            seed_cents=SEED,
            by=boss,
        ),
        "month": services.pool_create(
            room=room,
            code="hand-of-the-month",
            name="Hand of the month",
            kind=Pool.Kind.HAND_OF_THE_MONTH,
            drop_ratio=1,
            by=boss,
        ),
    }


@pytest.fixture
def dealer(clock, open_table, players) -> Dealer:
    return Dealer(open_table("T01")).sit_down()
