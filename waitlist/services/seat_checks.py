"""The floor's seat check: no seat in a game a refused must-move bars (WL7)."""

from __future__ import annotations

from datetime import datetime

from accounting.models import Player
from cardroom.models import Game
from waitlist.services._shared import (
    refuse_if_barred,
)


def seat_check(*, player: Player, game: Game, now: datetime) -> None:
    """Refuse any seat in a game the player is barred from (WL7), however asked.

    The floor calls it (``CARDROOM_SEAT_CHECKS``) before seating anyone, so a
    terminal can't seat a barred player directly either.
    """
    refuse_if_barred(player, game, now)
