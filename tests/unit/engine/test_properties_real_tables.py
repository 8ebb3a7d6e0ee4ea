"""Properties of settlements with dead money, straddles, mucks and runs, over
thousands of generated hands (HS2, HS3, HS10, HS11, RK5, RK7, JD3).

Chips are conserved for any input the engine accepts, dead money never comes back
as an uncalled bet, mucked seats win nothing and every run's part adds up.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardroom.domain.cards import CARD_NAMES
from cardroom.domain.games import GAMES
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.settlement import settle_record

from .test_properties import SHOWN, policies

PROPERTY_SETTINGS = settings(
    max_examples=2500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def real_hands(draw: st.DrawFn, chip: int) -> dict[str, Any]:
    """Draw a hand of any game with antes, dead blinds, straddles, mucks and runs."""
    code = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[code]
    showdown = draw(st.booleans())
    streets = game.streets if showdown else draw(st.integers(1, game.streets))
    full = game.board_cards[-1]
    runs = draw(st.integers(1, 3)) if showdown and full else 1
    shared = draw(st.integers(0, full - 1)) if runs > 1 else full
    room = (52 - full - (runs - 1) * (full - shared)) // SHOWN[code]
    numbers = draw(st.lists(st.integers(1, 12), min_size=2, max_size=12, unique=True))
    deck = list(range(52))
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    board = [CARD_NAMES[deck.pop()] for _ in range(game.board_cards[streets - 1])]
    boards = [board]
    for _ in range(runs - 1):
        boards.append(board[:shared] + [CARD_NAMES[deck.pop()] for _ in board[shared:]])
    seats = []
    in_play = 0
    for i, number in enumerate(numbers):
        stack = draw(st.integers(0, 200)) * chip
        put_in = min(stack, draw(st.integers(0, 200)) * chip)
        dead = draw(st.sampled_from([0, 0, put_in, put_in // 2, min(put_in, chip)]))
        straddle = draw(st.sampled_from([0, 0, put_in - dead]))
        still_in = i == 0 or (showdown and in_play < room and draw(st.booleans()))
        row: dict[str, Any] = {
            "seat": number,
            "player": f"P-{number}",
            "stack": stack,
            "present": draw(st.booleans()),
            "put_in": put_in,
            "folded": not still_in,
            "dead": dead,
            "straddle": straddle,
        }
        if still_in:
            in_play += 1
            # A seat after the first may muck at the showdown, cards shown or not.
            mucked = showdown and i > 0 and draw(st.booleans())
            if showdown and not (mucked and draw(st.booleans())):
                row["cards"] = [CARD_NAMES[deck.pop()] for _ in range(SHOWN[code])]
            if mucked:
                row["mucked"] = True
        seats.append(row)
    first = seats[0]
    if not first["put_in"]:
        first["stack"] = max(chip, first["stack"])
        first["put_in"] = first["stack"]
    record: dict[str, Any] = {
        "table": "T01",
        "hand_no": 1,
        "game": code,
        "streets": streets,
        "board": board,
        "seats": seats,
        "button": draw(st.integers(1, 12)),
    }
    if runs > 1:
        record["boards"] = boards
    return record


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    policy = draw(policies())
    chip = policy["smallest_chip"]
    rake = policy["rake"]
    if rake["scheme"] in ("pot_order", "percent"):
        rake["min_pot"] = draw(st.integers(0, 50)) * chip
        if draw(st.booleans()):
            rake["caps_by_players"] = [
                {"min_players": 2, "cap": draw(st.integers(0, 10)) * chip},
                {"min_players": 5, "cap": draw(st.integers(0, 20)) * chip},
            ]
    if policy["jackpot_drop"] is not None:
        policy["jackpot_drop"]["min_pot"] = draw(st.integers(0, 50)) * chip
    return draw(real_hands(chip)), policy


@PROPERTY_SETTINGS
@given(cases())
def test_every_real_table_settlement_keeps_the_books(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """Chips are conserved with dead money and runs; dead money is never returned."""
    record, policy = case
    s = settle_record(record, policy)
    chip = policy["smallest_chip"]
    rows = {r["seat"]: r for r in s["seats"]}
    given_seats = {x["seat"]: x for x in record["seats"]}
    out = {n for n, x in given_seats.items() if x["folded"] or x.get("mucked")}

    put_in = sum(r["put_in"] for r in rows.values())
    paid = sum(r["returned"] + r["won"] for r in rows.values())
    assert put_in == paid + s["rake"] + s["jackpot_drop"]
    for r in rows.values():
        assert r["final_stack"] == r["stack"] - r["put_in"] + r["returned"] + r["won"]
        assert r["final_stack"] >= 0 and r["won"] >= 0 and r["returned"] >= 0

    # HS2/RK5: only live money comes back, at most one seat's.
    assert len(s["returned"]) <= 1
    for back in s["returned"]:
        x = given_seats[back["seat"]]
        assert 0 < back["amount"] <= x["put_in"] - x["dead"]

    assert sum(p["amount"] for p in s["pots"]) == put_in - sum(
        r["returned"] for r in rows.values()
    )
    # HS3: folded and mucked seats win nothing.
    assert not {n for n, r in rows.items() if r["won"]} & out
    for pot in s["pots"]:
        assert pot["amount"] > 0
        assert not set(pot["eligible"]) & out
        assert 0 <= pot["rake"] <= pot["amount"]
        assert 0 <= pot["jackpot_drop"] <= pot["amount"] - pot["rake"]
        net = pot["amount"] - pot["rake"] - pot["jackpot_drop"]
        assert sum(w["amount"] for w in pot["winners"]) == net
        assert {w["seat"] for w in pot["winners"]} <= set(pot["eligible"])
        if "runs" in pot:
            # HS10: equal parts to the chip, the odd chips to the first runs.
            parts = [r["amount"] for r in pot["runs"]]
            assert sum(parts) == net and len(parts) == len(record["boards"])
            assert parts == sorted(parts, reverse=True)
            assert parts[0] - parts[-1] <= chip + net % chip
            for run in pot["runs"]:
                assert sum(w["amount"] for w in run["winners"]) == run["amount"]
            event("a pot run more than once")
    if any(x["dead"] for x in record["seats"]):
        event("dead money")
    if out - {n for n, x in given_seats.items() if x["folded"]}:
        event("a showdown muck")

    # RK7: never above the cap for the number dealt in; nothing below the minimum.
    rules = parse_policy(policy)
    cap = rules.rake.cap_for(len(record["seats"]))
    if cap is not None:
        assert s["rake"] <= cap
    total = sum(p["amount"] for p in s["pots"])
    if total < rules.rake.min_pot:
        assert s["rake"] == 0
    drop = rules.jackpot_drop
    if s["jackpot_drop"]:
        assert drop is not None and total >= drop.min_pot
        assert s["participants"] >= drop.min_participants
