"""The games of API.md: how each deals, ranks and splits (RULES.md HS9, RK4, HS5).

A :class:`Game` knows how many cards a seat and the board hold on each street, when a
hand has gone past the initial deal (RK4), how hands are ranked (one half, or high
and low for hi-lo, HS4) and who gets an odd chip (HS5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cardroom.domain.ranking import (
    HIGH_ANY,
    HIGH_OMAHA,
    LOW_ANY,
    LOW_OMAHA,
    RAZZ,
    Half,
    Ranking,
    Selection,
)
from cardroom.domain.soko import SOKO

OddChip = Literal["button", "high_card", "low_card"]
"""HS5: clockwise from the button, or the stud rules by the highest (lowest in a low
game) card."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game code of API.md and its dealing, ranking and odd-chip rules.

    ``hole_cards`` is the fixed number of hole cards of a board game (None in stud
    games, where a seat holds ``seat_cards[streets - 1]`` cards). ``board_cards[s - 1]``
    is how many board cards lie after street ``s`` (all zero in stud games).
    """

    code: str
    name: str
    streets: int
    hole_cards: int | None
    seat_cards: tuple[int, ...]
    board_cards: tuple[int, ...]
    selection: Selection
    high: Half
    low: Half | None
    odd_chip: OddChip

    @property
    def is_stud(self) -> bool:
        """Return whether seats hold their own cards with no board (stud, Sökö)."""
        return self.hole_cards is None

    @property
    def low_odd_chip(self) -> OddChip:
        """Return who gets the odd chip of a split low half (HS5).

        Button games: the same order as the high half. Stud hi-lo: the winner with
        the lowest card (RR Ties #5c), not the highest.
        """
        return "low_card" if self.is_stud else self.odd_chip

    def past_initial_deal(self, streets: int) -> bool:
        """Return whether the hand went past the initial deal (RK4, JD2).

        The initial deal is street 1 in every game: Hold'em and Omaha preflop, stud's
        third street, Sökö's first two cards, and Courchevel's five hole cards with
        the first board card.
        """
        return streets >= 2

    def rank(self, cards: Sequence[int], board: Sequence[int] = ()) -> Ranking:
        """Return a seat's hand in the game's first half: high, or razz's low.

        ``cards`` are the seat's card ids (all seven in stud), ``board`` the
        community cards. The :class:`Ranking` names the hand and the five cards that
        make it (BB2).
        """
        key = self.high.best(cards, board)
        assert key is not None  # a first half always has a hand
        return Ranking(self.high, self.selection, key, tuple(cards), tuple(board))

    def rank_low(
        self, cards: Sequence[int], board: Sequence[int] = ()
    ) -> Ranking | None:
        """Return a seat's eight-or-better low in a hi-lo game, None without one."""
        if self.low is None:
            return None
        key = self.low.best(cards, board)
        if key is None:
            return None
        return Ranking(self.low, self.selection, key, tuple(cards), tuple(board))


def _board_game(
    code: str,
    name: str,
    hole: int,
    selection: Selection,
    high: Half,
    low: Half | None = None,
    board: tuple[int, ...] = (0, 3, 4, 5),
) -> Game:
    return Game(code, name, 4, hole, (hole,) * 4, board, selection, high, low, "button")


def _stud_game(
    code: str,
    name: str,
    seat_cards: tuple[int, ...],
    high: Half,
    low: Half | None = None,
    odd_chip: OddChip = "high_card",
) -> Game:
    streets = len(seat_cards)
    return Game(
        code,
        name,
        streets,
        None,
        seat_cards,
        (0,) * streets,
        "any",
        high,
        low,
        odd_chip,
    )


GAMES: dict[str, Game] = {
    g.code: g
    for g in (
        _board_game("NLHE", "No-limit Hold'em", 2, "any", HIGH_ANY),
        _board_game("PLHE", "Pot-limit Hold'em", 2, "any", HIGH_ANY),
        _board_game("LHE", "Limit Hold'em", 2, "any", HIGH_ANY),
        _board_game("PLO", "Pot-limit Omaha", 4, "omaha", HIGH_OMAHA),
        _board_game("PLO5", "Five-card pot-limit Omaha", 5, "omaha", HIGH_OMAHA),
        _board_game(
            "COURCHEVEL", "Courchevel", 5, "omaha", HIGH_OMAHA, board=(1, 3, 4, 5)
        ),
        _board_game("PLO8", "Omaha hi-lo", 4, "omaha", HIGH_OMAHA, LOW_OMAHA),
        _stud_game("STUD", "Seven-card stud", (3, 4, 5, 6, 7), HIGH_ANY),
        _stud_game("PLSTUD", "Pot-limit seven-card stud", (3, 4, 5, 6, 7), HIGH_ANY),
        _stud_game("STUD8", "Stud hi-lo", (3, 4, 5, 6, 7), HIGH_ANY, LOW_ANY),
        _stud_game("RAZZ", "Razz", (3, 4, 5, 6, 7), RAZZ, odd_chip="low_card"),
        _stud_game("SOKO", "Sökö", (2, 3, 4, 5), SOKO),
    )
}
