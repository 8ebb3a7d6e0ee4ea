"""A room built through the floor's services, no HTTP: tables opened with
``table_open``, trays filled from the cage, players seated with ``seat_take``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from cardroom import services as floor
from cardroom.models import Table
from tests.api.floor.conftest import (  # noqa: F401 (fixtures)
    GAMES,
    POLICY,
    players,
    stock_tray,
)
from tests.conftest import ROOM_EVENING


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
