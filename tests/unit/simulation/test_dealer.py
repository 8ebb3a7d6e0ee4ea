"""The simulation's dealer deals legal hands the engine settles, in every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.domain.games import GAMES
from cardroom.domain.hand_record import parse_hand
from cardroom.domain.settlement import settle_record
from jackpots.domain.rules import DEFAULT_CATEGORIES
from simulation.bad_beat import bad_beat_preset, is_bad_beat
from simulation.dealer import DECK, Preset, Style, deal_hand, structure_of

POLICY = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}


def deal(
    rng: random.Random,
    seats: dict[int, tuple[str, int]],
    *,
    game: str = "NLHE",
    button: int = 1,
    **kwargs: Any,
) -> dict[str, Any]:
    """Deal at €1/€2 with 50-cent chips."""
    return deal_hand(
        rng,
        table="T01",
        hand_no=7,
        game=game,
        seats=seats,
        button=button,
        small_blind=100,
        big_blind=200,
        **kwargs,
    )


STACKS = st.sampled_from([0, 50, 100, 150, 200, 450, 5_000, 20_000, 40_000])


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, dict[int, tuple[str, int]], int, int]:
    game = draw(st.sampled_from(sorted(GAMES)))
    most = 7 if GAMES[game].seat_cards[-1] == 7 else 9
    numbers = draw(st.sets(st.integers(1, 12), min_size=2, max_size=most))
    stacks = {n: (f"P-{n}", draw(STACKS)) for n in sorted(numbers)}
    if sum(1 for _p, s in stacks.values() if s) < 2:
        first, second = sorted(numbers)[:2]
        stacks[first] = (f"P-{first}", 20_000)
        stacks[second] = (f"P-{second}", 300)
    return game, stacks, draw(st.sampled_from(sorted(numbers))), draw(st.integers())


@settings(max_examples=1500, deadline=None)
@given(tables(), st.floats(0, 0.5))
def test_every_hand_dealt_is_legal_and_settles(table, shove) -> None:
    """Bets stay within the stacks and in whole chips, players still in at the end
    who aren't all in put in the same, and the engine settles every hand."""
    game, stacks, button, seed = table
    hand = deal(
        random.Random(seed), stacks, game=game, button=button, style=Style(all_in=shove)
    )
    parsed = parse_hand(hand)  # cards, counts, no duplicates, put_in <= stack
    assert {s.seat for s in parsed.seats} == {n for n, (_p, s) in stacks.items() if s}
    for row in hand["seats"]:
        assert row["put_in"] % 50 == 0 or row["put_in"] == row["stack"]
    still_in = [s for s in hand["seats"] if not s["folded"]]
    with_chips = {s["put_in"] for s in still_in if s["put_in"] < s["stack"]}
    assert len(with_chips) <= 1
    if len(still_in) > 1:
        assert all("cards" in s for s in still_in)  # a showdown tables the cards
    else:
        assert not any("cards" in s for s in hand["seats"])
    result = settle_record(hand, POLICY)
    paid = sum(r["returned"] + r["won"] for r in result["seats"])
    assert paid + result["rake"] + result["jackpot_drop"] == sum(
        s["put_in"] for s in hand["seats"]
    )


def test_the_blinds_are_posted_left_of_the_button_and_heads_up_by_it() -> None:
    """Three-handed the two seats after the button post; heads-up the button posts
    the small blind."""
    folds = Style(fold=1.0, bet=0.0, raise_=0.0, all_in=0.0)
    for seats, blinds in [
        ({1: ("A", 20_000), 4: ("B", 20_000), 6: ("C", 20_000)}, {6: 100, 1: 200}),
        ({1: ("A", 20_000), 4: ("B", 20_000)}, {4: 100, 1: 200}),
    ]:
        hand = deal(random.Random(1), seats, button=4, style=folds)
        put_in = {s["seat"]: s["put_in"] for s in hand["seats"] if s["put_in"]}
        assert put_in == blinds and hand["streets"] == 1


@pytest.mark.parametrize(
    ("game", "first_raise"), [("PLO", 700), ("NLHE", 20_000), ("LHE", 400)]
)
def test_a_raise_is_sized_by_the_betting_structure(game: str, first_raise: int) -> None:
    """First to act raises as much as he may: the pot in pot limit (€2 to call and
    €5 more), everything in no limit, one small bet in limit; the blinds fold."""
    stacks = {n: (f"P-{n}", 20_000) for n in range(1, 4)}
    hand = deal(
        random.Random(1),
        stacks,
        game=game,
        button=3,
        style=Style(fold=1.0, all_in=1.0),
        preset=Preset(stay_in=frozenset({3})),
    )
    put_in = {s["seat"]: s["put_in"] for s in hand["seats"]}
    assert put_in == {1: 100, 2: 200, 3: first_raise}
    assert structure_of(game) in ("pot_limit", "no_limit", "limit")
    result = settle_record(hand, POLICY)
    assert result["returned"] == [{"seat": 3, "amount": first_raise - 200}]


def test_a_preset_deals_its_cards_and_its_players_stay_in() -> None:
    """Stacked cards go where the preset says; its seats never fold."""
    stacks = {n: (f"P-{n}", 20_000) for n in range(1, 6)}
    preset = Preset(
        cards={2: ["As", "Ad"], 5: ["Ts", "Tc"]},
        board=["Ac", "Th", "Td", "5s", "2c"],
        stay_in=frozenset({2, 5}),
    )
    hand = deal(
        random.Random(3),
        stacks,
        game="NLHE",
        button=1,
        style=Style(fold=0.9),
        preset=preset,
    )
    seats = {s["seat"]: s for s in hand["seats"]}
    assert seats[2]["cards"] == ["As", "Ad"] and seats[5]["cards"] == ["Ts", "Tc"]
    assert hand["board"] == ["Ac", "Th", "Td", "5s", "2c"] and hand["streets"] == 4
    assert not seats[2]["folded"] and not seats[5]["folded"]
    with pytest.raises(ValueError, match="once"):
        deal(
            random.Random(3),
            stacks,
            game="NLHE",
            button=1,
            preset=Preset(cards={1: ["As", "Kd"]}, board=["As"]),
        )


def test_seven_card_stud_is_dealt_to_seven_seats_at_most() -> None:
    """Eight stud players could need a community card, which a record can't say."""
    stacks = {n: (f"P-{n}", 20_000) for n in range(1, 9)}
    with pytest.raises(ValueError, match="STUD"):
        deal(
            random.Random(1),
            stacks,
            game="STUD",
            button=1,
        )
    assert len(DECK) == len(set(DECK)) == 52


@pytest.mark.parametrize(("game", "category"), [("NLHE", "1"), ("PLO", "2")])
def test_a_stacked_bad_beat_qualifies_under_the_house_categories(
    game: str, category: str
) -> None:
    """Every stacked deck gives a hand that BB2's default category calls a bad beat,
    whatever the others hold and however the betting goes."""
    rng = random.Random(game)
    stacks = {n: (f"P-{n}", rng.choice([300, 5_000, 20_000])) for n in range(1, 8)}
    for _ in range(300):
        loser, winner = rng.sample(sorted(stacks), 2)
        preset = bad_beat_preset(rng, game=game, loser=loser, winner=winner)
        hand = deal(rng, stacks, game=game, button=rng.randint(1, 7), preset=preset)
        pots = sum(p["amount"] for p in settle_record(hand, POLICY)["pots"])
        assert is_bad_beat(hand, DEFAULT_CATEGORIES[category], pots), hand


def test_an_ordinary_hand_is_no_bad_beat() -> None:
    """A fold-out or a small showdown doesn't qualify."""
    rng = random.Random(5)
    stacks = {n: (f"P-{n}", 20_000) for n in range(1, 7)}
    hits = 0
    for _n in range(200):
        hand = deal(rng, stacks)
        pots = sum(p["amount"] for p in settle_record(hand, POLICY)["pots"])
        hits += is_bad_beat(hand, DEFAULT_CATEGORIES["1"], pots)
    assert hits == 0
