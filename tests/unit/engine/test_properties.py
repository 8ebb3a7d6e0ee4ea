"""Properties of every settlement, over thousands of generated hands.

Chips are conserved, nothing goes negative, rake stays within the cap and the
pots, split shares differ by at most a chip and the seat order of the record
doesn't matter (RK1-RK5, JD3, HS2-HS5).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from accounting.domain.money import rate_of
from cardroom.domain.cards import CARD_NAMES
from cardroom.domain.games import GAMES
from cardroom.domain.settlement import settle_record

PROPERTY_SETTINGS = settings(
    max_examples=2500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Cards a seat shows at showdown, and how many seats can show before the deck ends.
SHOWN = {code: (g.hole_cards or g.seat_cards[-1]) for code, g in GAMES.items()}


@st.composite
def policies(draw: st.DrawFn) -> dict[str, Any]:
    """Draw a policy of API.md whose amounts are whole chips."""
    chip = draw(st.sampled_from([1, 5, 25, 50, 100]))
    cap = draw(st.none() | st.integers(0, 20).map(lambda n: n * chip))
    scheme = draw(
        st.sampled_from(["pot_order", "pot_order", "percent", "time", "none"])
    )
    rake: dict[str, Any] = {"scheme": scheme}
    if scheme == "pot_order":
        unit = draw(st.integers(1, 10)) * chip
        rake |= {"unit": unit, "step": unit * draw(st.integers(1, 30)), "cap": cap}
    elif scheme == "percent":
        rake |= {"percent": draw(st.sampled_from(["2.5", "5", "10", "33"])), "cap": cap}
    drop = draw(
        st.none()
        | st.fixed_dictionaries(
            {
                "amount": st.integers(0, 4).map(lambda n: n * chip),
                "min_participants": st.integers(0, 8),
            }
        )
    )
    return {
        "currency": "EUR",
        "smallest_chip": chip,
        "rake": rake,
        "jackpot_drop": drop,
    }


@st.composite
def hands(draw: st.DrawFn, chip: int) -> dict[str, Any]:
    """Draw a hand record of any game that the engine must be able to settle."""
    code = draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[code]
    room = (52 - game.board_cards[-1]) // SHOWN[code]
    numbers = draw(st.lists(st.integers(1, 12), min_size=2, max_size=12, unique=True))
    showdown = draw(st.booleans())
    streets = game.streets if showdown else draw(st.integers(1, game.streets))
    deck = list(range(52))
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    board = [CARD_NAMES[deck.pop()] for _ in range(game.board_cards[streets - 1])]
    seats = []
    in_play = 0
    for i, number in enumerate(numbers):
        stack = draw(st.integers(0, 200)) * chip
        put_in = min(stack, draw(st.integers(0, 200)) * chip)
        # Without a showdown only the first seat may stay in; at a showdown as
        # many as the deck can deal to.
        still_in = i == 0 or (showdown and in_play < room and draw(st.booleans()))
        row: dict[str, Any] = {
            "seat": number,
            "player": f"P-{number}",
            "stack": stack,
            "present": draw(st.booleans()),
            "put_in": put_in,
            "folded": not still_in,
        }
        if still_in:
            in_play += 1
            if showdown:
                row["cards"] = [CARD_NAMES[deck.pop()] for _ in range(SHOWN[code])]
        seats.append(row)
    if not any(s["put_in"] for s in seats if not s["folded"]):
        # Someone still in must have put chips in for folded chips to be won.
        seats[0]["stack"] = seats[0]["put_in"] = max(chip, seats[0]["stack"])
    record: dict[str, Any] = {
        "table": "T01",
        "hand_no": 1,
        "game": code,
        "streets": streets,
        "board": board,
        "seats": seats,
        "button": draw(st.integers(1, 12)),
    }
    return record


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    policy = draw(policies())
    return draw(hands(policy["smallest_chip"])), policy


def expected_rake(record: dict[str, Any], policy: dict[str, Any], total: int) -> int:
    """RK1/RK7 straight from the rules: the house's share of ``total``."""
    rake, chip = policy["rake"], policy["smallest_chip"]
    if record["streets"] < 2 or rake["scheme"] in ("time", "none"):
        return 0
    cap = rake.get("cap")
    if rake["scheme"] == "pot_order":
        units = total // rake["step"]
        if cap is not None:
            units = min(units, cap // rake["unit"])
        return units * rake["unit"]
    taken = rate_of(total, Decimal(rake["percent"]), chip)
    return taken if cap is None else min(taken, cap // chip * chip)


@PROPERTY_SETTINGS
@given(cases())
def test_every_settlement_keeps_the_books(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """Chips are conserved, nothing is negative, rake and drop stay in bounds."""
    record, policy = case
    s = settle_record(record, policy)
    chip = policy["smallest_chip"]
    rows = {r["seat"]: r for r in s["seats"]}
    folded = {x["seat"] for x in record["seats"] if x["folded"]}

    # Conservation: put_in = returned + won + rake + drop.
    put_in = sum(r["put_in"] for r in rows.values())
    paid = sum(r["returned"] + r["won"] for r in rows.values())
    assert put_in == paid + s["rake"] + s["jackpot_drop"]
    for r in rows.values():
        assert r["final_stack"] == r["stack"] - r["put_in"] + r["returned"] + r["won"]
        assert r["final_stack"] >= 0 and r["won"] >= 0 and r["returned"] >= 0

    # RK5: one uncalled bet at most, never more than its bettor put in.
    assert len(s["returned"]) <= 1
    for back in s["returned"]:
        assert 0 < back["amount"] <= rows[back["seat"]]["put_in"]

    # Pots: positive, won by seats still in, raked and dropped within what they hold.
    assert sum(p["amount"] for p in s["pots"]) == put_in - sum(
        r["returned"] for r in rows.values()
    )
    for i, pot in enumerate(s["pots"]):
        assert pot["amount"] > 0
        assert not set(pot["eligible"]) & folded
        assert 0 <= pot["rake"] <= pot["amount"]
        assert 0 <= pot["jackpot_drop"] <= pot["amount"] - pot["rake"]
        assert i == 0 or pot["jackpot_drop"] == 0
        amounts = [w["amount"] for w in pot["winners"]]
        assert {w["seat"] for w in pot["winners"]} <= set(pot["eligible"])
        assert sum(amounts) == pot["amount"] - pot["rake"] - pot["jackpot_drop"]
        assert min(amounts) >= 0
        # HS4/HS5: tied shares differ by at most a chip; the high half gets the odd.
        halves = [pot["high"], pot["low"]] if "high" in pot else [pot["winners"]]
        for half in halves:
            shares = [w["amount"] for w in half]
            if shares:
                assert max(shares) - min(shares) <= chip
        if "high" in pot and pot["low"]:
            high, low = (sum(w["amount"] for w in h) for h in halves)
            assert 0 <= high - low <= chip

    event(f"{len(s['pots'])} pots")
    if any(len(p["winners"]) > 1 for p in s["pots"]):
        event("a split pot")
    if any(p.get("low") for p in s["pots"]):
        event("a hi-lo split")

    # RK1-RK4, RK7: the hand pays exactly the rule's rake, never above the cap.
    total = sum(p["amount"] for p in s["pots"])
    assert s["rake"] == sum(p["rake"] for p in s["pots"])
    assert s["rake"] == expected_rake(record, policy, total)
    cap = policy["rake"].get("cap")
    if cap is not None:
        assert s["rake"] <= cap
    # JD1/JD2: the drop only from hands with enough participants past the deal.
    drop = policy["jackpot_drop"]
    if s["jackpot_drop"]:
        assert drop is not None and record["streets"] >= 2
        assert s["participants"] >= drop["min_participants"]
        assert s["jackpot_drop"] <= drop["amount"]
    assert s["participants"] == sum(1 for x in record["seats"] if x["present"])


@settings(max_examples=800, deadline=None)
@given(cases(), st.randoms(use_true_random=False))
def test_seat_order_in_the_record_does_not_matter(
    case: tuple[dict[str, Any], dict[str, Any]], rng: random.Random
) -> None:
    """The same hand with its seats listed in another order settles the same."""
    record, policy = case
    shuffled = dict(record, seats=rng.sample(record["seats"], len(record["seats"])))
    assert settle_record(shuffled, policy) == settle_record(record, policy)
