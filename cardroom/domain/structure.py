"""A game's betting as a table's terminal deals it (API.md "Table terminal",
``structure``): the blinds, the ante, the stud bring-in, the limit bets and the
straddle (HS9, HS11), in cents, from the game's code and its two blinds."""

from __future__ import annotations

from typing import Any

from cardroom.domain.buyin import STRUCTURE_OF_GAME, Structure
from cardroom.domain.games import GAMES


def betting_structure(code: str, small_blind: int, big_blind: int) -> dict[str, Any]:
    """The betting structure of game ``code`` at these blinds: no ante at a cash
    table; a stud game brings in the small blind's amount and takes no straddle;
    limit and stud games bet the big blind, then two; a button game's straddle is
    two big blinds (HS11)."""
    kind = STRUCTURE_OF_GAME[code]
    rules = GAMES.get(code)
    stud = rules is not None and rules.is_stud
    fixed = stud or kind is Structure.LIMIT
    return {
        "kind": kind.value,
        "small_blind": small_blind,
        "big_blind": big_blind,
        "ante": 0,
        "bring_in": small_blind if stud else None,
        "small_bet": big_blind if fixed else None,
        "big_bet": 2 * big_blind if fixed else None,
        "straddle": None if stud else 2 * big_blind,
    }
