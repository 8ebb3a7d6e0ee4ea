"""A room with open tables, registered players and terminals, and a clock."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from rest_framework.test import APIClient

from accounting.models import Player
from cardroom.models import Table, TerminalKey
from core.roles import Role

HELSINKI = ZoneInfo("Europe/Helsinki")
POLICY = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}
GAMES = {
    "NL12": {
        "game": "NLHE",
        "small_blind": 100,
        "big_blind": 200,
        "min_buy_in": 10_000,
        "max_buy_in": 40_000,
    },
    "NL25": {
        "game": "NLHE",
        "small_blind": 200,
        "big_blind": 500,
        "min_buy_in": 20_000,
        "max_buy_in": 100_000,
    },
    "NL051": {
        "game": "NLHE",
        "small_blind": 50,
        "big_blind": 100,
        "min_buy_in": 5_000,
        "max_buy_in": 20_000,
    },
    "PLO12": {
        "game": "PLO",
        "small_blind": 100,
        "big_blind": 200,
        "min_buy_in": 10_000,
        "max_buy_in": 40_000,
    },
}


class Clock:
    """A controllable now() for the services (timers, gaming days)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def set(self, local: str) -> None:
        self.now = datetime.fromisoformat(local).replace(tzinfo=HELSINKI)

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    c = Clock(datetime(2026, 11, 29, 21, 0, tzinfo=HELSINKI))
    monkeypatch.setattr("django.utils.timezone.now", c)
    return c


@pytest.fixture
def manager(staff_client) -> APIClient:
    return staff_client(Role.MANAGER, username="manager")


@pytest.fixture
def floor(staff_client) -> APIClient:
    return staff_client(Role.FLOOR, username="floor")


@pytest.fixture
def stock_tray(db, make_staff) -> Callable[[str, int], None]:
    """Fill a table's tray from the cage the way the room does it (CA3)."""
    from accounting.models import Cage, TableSlip
    from accounting.services.cage import (
        cage_vault_fund,
        shift_open,
        slip_issue,
        slip_request,
    )

    state: dict[str, Any] = {}

    def stock(code: str, amount: int) -> None:
        if not state:
            state["cage"] = Cage.objects.create(code="MAIN", name="Main cage")
            state["cashier"] = make_staff("tray-cashier", Role.CASHIER)
            state["floor"] = make_staff("tray-floor", Role.FLOOR)
            cage_vault_fund(
                cage=state["cage"],
                cash_cents=10**9,
                chips_cents=10**9,
                by=state["cashier"],
            )
            shift_open(
                cage=state["cage"],
                cashier=state["cashier"],
                cash_cents=10**7,
                chips_cents=10**8,
            )
        slip = slip_request(
            kind=TableSlip.Kind.FILL,
            cage=state["cage"],
            table=code,
            amount_cents=amount,
            requested_by=state["floor"],
        )
        slip_issue(slip=slip, cashier=state["cashier"])

    return stock


@pytest.fixture
def open_table(manager, stock_tray) -> Callable[..., APIClient]:
    """Open a table with one of GAMES, fill its tray, return its terminal's client."""

    def make(
        code: str, game: str = "NL12", tray: int = 2_000_000, **extra: Any
    ) -> APIClient:
        body = {"code": code, **GAMES[game], "seats": 9, "policy": POLICY, **extra}
        answer = manager.post("/api/v1/tables", body, format="json")
        assert answer.status_code == 201, answer.content
        stock_tray(code, tray)
        _, key = TerminalKey.objects.create_key(
            name=code, table=Table.objects.get(code=code)
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
        return client

    return make


@pytest.fixture
def players(db) -> list[str]:
    codes = [f"P-{n}" for n in range(1, 13)]
    Player.objects.bulk_create(
        Player(
            code=c, name=f"Player {c}", id_verified=True, birth_date=date(1985, 1, 1)
        )
        for c in codes
    )
    return codes


def seat(
    terminal: APIClient,
    table: str,
    seat_no: int,
    player: str,
    amount: int,
    method: str = "cash",
    **extra: Any,
):
    return terminal.post(
        f"/api/v1/tables/{table}/seats",
        {
            "seat": seat_no,
            "player": player,
            "amount": amount,
            "method": method,
            **extra,
        },
        format="json",
    )


def leave(terminal: APIClient, table: str, seat_no: int, stack: int):
    return terminal.post(
        f"/api/v1/tables/{table}/seats/{seat_no}/leave", {"stack": stack}, format="json"
    )


RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]


def random_hand(
    rng: random.Random,
    table: str,
    hand_no: int,
    stacks: dict[int, tuple[str, int]],
    *,
    game: str = "NLHE",
    hole: int = 2,
    big_blind: int = 200,
    chip: int = 50,
    all_in: float = 0.15,
) -> dict[str, Any]:
    """Deal a plausible hand: real cards, bets within stacks, a showdown or a fold."""
    deck = DECK[:]
    rng.shuffle(deck)
    seats_in = sorted(s for s, (_, st) in stacks.items() if st > 0)
    streets = rng.choice([1, 2, 4, 4, 4])
    board = [deck.pop() for _ in range({1: 0, 2: 3, 3: 4, 4: 5}[streets])]
    seats = []
    for s in seats_in:
        player, stack = stacks[s]
        bet = min(stack, chip * rng.randint(1, max(1, 3 * big_blind // chip)))
        if rng.random() < all_in:
            bet = stack
        seats.append(
            {
                "seat": s,
                "player": player,
                "stack": stack,
                "present": True,
                "put_in": bet,
                "folded": False,
            }
        )
    showdown = streets == 4
    for i, row in enumerate(seats):
        # Without a showdown everyone but the last folds; with one, some fold.
        last = i == len(seats) - 1
        if (not showdown and not last) or (
            showdown and i < len(seats) - 2 and rng.random() < 0.4
        ):
            row["folded"] = True
            row["put_in"] = min(row["put_in"], big_blind)
    for row in seats:
        if not row["folded"]:
            row["cards"] = [deck.pop() for _ in range(hole)]
    return {
        "table": table,
        "hand_no": hand_no,
        "game": game,
        "button": seats_in[0],
        "streets": streets,
        "board": board,
        "seats": seats,
        "ended_at": None,
    }


def post_hand(terminal: APIClient, table: str, hand: dict[str, Any], **extra: Any):
    body = {k: v for k, v in hand.items() if v is not None}
    return terminal.post(f"/api/v1/tables/{table}/hands", body, format="json", **extra)
