"""The dealer deals antes, straddles and runs now and then, and the engine settles
them (HS2, HS10, HS11)."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st

from cardroom.domain.games import GAMES
from cardroom.domain.hand_record import parse_hand
from cardroom.domain.settlement import settle_record
from simulation.dealer import Extras, Style

from .test_dealer import POLICY, deal, tables

ALWAYS = Extras(ante=1.0, straddle=1.0, run_twice=1.0)
NINE = {n: (f"P-{n}", 20_000) for n in range(1, 10)}


@settings(max_examples=1000, deadline=None)
@given(tables(), st.floats(0, 0.5), st.floats(0, 1))
def test_every_hand_with_extras_is_legal_and_settles(table, shove, bb_ante) -> None:
    """Antes are dead money within put_in, straddles live, runs share the cards
    dealt before the all-in; chips are conserved."""
    game, stacks, button, seed = table
    extras = Extras(ante=0.7, big_blind_ante=bb_ante, straddle=0.7, run_twice=0.9)
    hand = deal(
        random.Random(seed),
        stacks,
        game=game,
        button=button,
        style=Style(all_in=shove),
        extras=extras,
    )
    parsed = parse_hand(hand)
    for s in parsed.seats:
        assert 0 <= s.dead + s.straddle <= s.put_in
    if "boards" in hand:
        first, second = hand["boards"]
        assert first == hand["board"] and first != second
        assert len(second) == GAMES[game].board_cards[-1]
        event("run twice")
    if any(s.dead for s in parsed.seats):
        event("antes")
    if any(s.straddle for s in parsed.seats):
        event("straddle")
    result = settle_record(hand, POLICY)
    paid = sum(r["returned"] + r["won"] for r in result["seats"])
    assert paid + result["rake"] + result["jackpot_drop"] == sum(
        s["put_in"] for s in hand["seats"]
    )
    for back in result["returned"]:
        row = next(s for s in hand["seats"] if s["seat"] == back["seat"])
        assert back["amount"] <= row["put_in"] - row.get("dead", 0)


def test_a_big_blind_ante_is_the_big_blinds_dead_money() -> None:
    """HS2: with a big-blind ante only the big blind antes, one big blind."""
    hand = deal(random.Random(3), NINE, extras=Extras(ante=1.0, big_blind_ante=1.0))
    dead = {s["seat"]: s.get("dead", 0) for s in hand["seats"]}
    assert dead == {n: (200 if n == 3 else 0) for n in NINE}


def test_every_seat_antes_a_quarter_of_the_big_blind() -> None:
    hand = deal(random.Random(3), NINE, extras=Extras(ante=1.0, big_blind_ante=0.0))
    assert {s.get("dead") for s in hand["seats"]} == {50}


def test_the_seat_left_of_the_big_blind_straddles_two_big_blinds() -> None:
    """HS11: the straddle is recorded, a live part of put_in."""
    hand = deal(random.Random(5), NINE, extras=Extras(straddle=1.0))
    straddles = {s["seat"]: s["straddle"] for s in hand["seats"] if "straddle" in s}
    assert straddles == {4: 400}
    assert next(s for s in hand["seats"] if s["seat"] == 4)["put_in"] >= 400


def test_an_all_in_before_the_river_is_run_twice() -> None:
    """HS10: two boards, the second sharing the cards dealt before the all-in."""
    for seed in range(200):
        hand = deal(random.Random(seed), NINE, style=Style(all_in=0.3), extras=ALWAYS)
        if "boards" in hand:
            break
    else:  # pragma: no cover - the style shoves often enough
        raise AssertionError("no hand was run twice")
    first, second = hand["boards"]
    assert first == hand["board"] and len(second) == 5
    shared = next(
        i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b
    )
    assert shared in (0, 3, 4)
    assert not set(second[shared:]) & set(first)
    assert "runs" in settle_record(hand, POLICY)


def test_without_extras_the_same_seed_deals_the_same_hand() -> None:
    """Extras draw nothing when there are none: old deals stay as they were."""
    plain = deal(random.Random(11), NINE)
    again = deal(random.Random(11), NINE, extras=Extras())
    assert plain == again
    assert not any("dead" in s or "straddle" in s for s in plain["seats"])
