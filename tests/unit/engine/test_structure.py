"""A game's betting as the terminal deals it (HS9, HS11), from its code and blinds."""

from __future__ import annotations

import pytest

from cardroom.domain.structure import betting_structure


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("NLHE", ("NL", None, None, None, 400)),
        ("PLO", ("PL", None, None, None, 400)),
        ("LHE", ("L", None, 200, 400, 400)),
        ("STUD", ("L", 100, 200, 400, None)),
        ("RAZZ", ("L", 100, 200, 400, None)),
        ("SOKO", ("PL", 100, 200, 400, None)),
    ],
)
def test_each_game_bets_as_its_structure_says(code, expected):
    got = betting_structure(code, 100, 200)
    assert (got["small_blind"], got["big_blind"], got["ante"]) == (100, 200, 0)
    assert (
        got["kind"],
        got["bring_in"],
        got["small_bet"],
        got["big_bet"],
        got["straddle"],
    ) == expected
