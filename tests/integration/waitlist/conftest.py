"""A room of open tables built through the floor's services, no HTTP: tables opened
with ``table_open``, trays filled from the cage, players seated with ``seat_take``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from cardroom import services as floor
from cardroom.models import Game, Table
from tests.api.floor.conftest import (  # noqa: F401 (fixtures)
    GAMES,
    POLICY,
    players,
    stock_tray,
)
from tests.api.waitlist.test_moves import books_balance, sitting  # noqa: F401
from tests.conftest import ROOM_EVENING
from waitlist.models import Event, WaitingList
from waitlist.services import list_for_game

STAFF = "floor-desk"
"""Who acts in these tests: the floor's desk, named as a terminal or task is."""


class Clock:
    """The moment the services are told it is; tests move it by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(ROOM_EVENING)


@pytest.fixture
def open_table(stock_tray, clock) -> Callable[..., Table]:  # noqa: F811
    """Open a table dealing one of GAMES with its tray stocked, a minute later."""

    def make(code: str, game: str = "NL12", seats: int = 9) -> Table:
        g = GAMES[game]
        table = floor.table_open(
            code=code,
            game_code=g["game"],
            small_blind=g["small_blind"],
            big_blind=g["big_blind"],
            min_buy_in=g["min_buy_in"],
            max_buy_in=g["max_buy_in"],
            seats=seats,
            policy=POLICY,
            by=None,
            now=clock.now,
        )
        stock_tray(code, 2_000_000)
        clock.advance(minutes=1)
        return table

    return make


def sit(clock: Clock, table: str, seat: int, player: str, amount: int = 20_000):
    """Seat ``player`` at ``table`` with a cash buy-in through the floor."""
    return floor.seat_take(
        source="floor-desk",
        table_code=table,
        seat=seat,
        player_code=player,
        amount=amount,
        method="cash",
        now=clock.now,
    )


def fill(clock: Clock, table: str, codes: list[str], amount: int = 20_000) -> None:
    for n, player in enumerate(codes, 1):
        sit(clock, table, n, player, amount)


def nl12() -> WaitingList:
    g = GAMES["NL12"]
    return list_for_game(
        Game.objects.get(
            code=g["game"],
            small_blind_cents=g["small_blind"],
            big_blind_cents=g["big_blind"],
        )
    )


def kinds(**filters: Any) -> list[str]:
    return list(
        Event.objects.filter(**filters).order_by("pk").values_list("kind", flat=True)
    )
