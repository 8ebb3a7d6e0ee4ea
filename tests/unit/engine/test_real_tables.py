"""What real tables deal: dead money, straddles, mucks, runs, caps by players
(HS2, HS3, HS5, HS10, HS11, RK7, JD3)."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.domain.errors import HandError
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.settlement import settle_record

from .helpers import NO_RAKE, hand, policy, seat, winners, won


def dead(row: dict[str, Any], amount: int) -> dict[str, Any]:
    return {**row, "dead": amount}


def total_out(s: dict[str, Any]) -> int:
    returned = sum(r["amount"] for r in s["returned"])
    return returned + sum(x["won"] for x in s["seats"]) + s["rake"] + s["jackpot_drop"]


# -- HS2: dead money ---------------------------------------------------------------


def test_big_blind_ante_is_not_returned_as_uncalled() -> None:
    """HS2/RK5: WSOP 2023 hand 1: the 120,000 big-blind ante stays in the pot."""
    record = hand(
        seat(1, 40_000, folded=True, stack=7_380_000),
        dead(seat(2, 1_355_000, "Js 8h", stack=2_500_000), 120_000),
        seat(3, 0, folded=True, stack=5_110_000),
        seat(4, 1_235_000, "6d 5h", stack=10_170_000),
        seat(5, 0, folded=True, stack=4_545_000),
        board="Jc Ts 2d As Qs",
        button=5,
    )
    s = settle_record(record, {**NO_RAKE, "smallest_chip": 1})
    assert s["returned"] == []
    assert [p["amount"] for p in s["pots"]] == [2_630_000]
    assert [x["final_stack"] for x in s["seats"]] == [
        7_340_000,
        3_775_000,
        5_110_000,
        8_935_000,
        4_545_000,
    ]
    assert total_out(s) == sum(x["put_in"] for x in s["seats"])


def test_without_dead_the_same_ante_would_come_back() -> None:
    """The record without ``dead`` returns what nobody matched (the old answer)."""
    record = hand(seat(1, 100, folded=True), seat(2, 400), button=2)
    assert settle_record(record, NO_RAKE)["returned"] == [{"seat": 2, "amount": 300}]
    record["seats"][1]["dead"] = 200
    s = settle_record(record, NO_RAKE)
    assert s["returned"] == [{"seat": 2, "amount": 100}]
    assert s["pots"][0]["amount"] == 400


def test_dead_money_goes_to_the_main_pot_an_all_in_contests() -> None:
    """HS2: the all-in seat 3 (300) can win the big blind's whole ante and blind.

    Seat 1 antes 200 and blinds 200, all in; seat 3 all in for 300; seat 5 covers.
    Main pot: 200 ante + 3 x 200 = 800 for 1, 3, 5; side pot 2 x 100 for 3 and 5.
    """
    record = hand(
        dead(seat(1, 400, "Qh Qd", stack=400), 200),
        seat(3, 300, "Ah Ad", stack=300),
        seat(5, 2_000, "Kh Kd", stack=5_000),
        button=5,
    )
    s = settle_record(record, NO_RAKE)
    assert s["returned"] == [{"seat": 5, "amount": 1_700}]
    assert [(p["amount"], p["eligible"]) for p in s["pots"]] == [
        (800, [1, 3, 5]),
        (200, [3, 5]),
    ]
    assert won(s) == {3: 1_000}


def test_an_all_in_on_the_ante_wins_the_antes_it_reached() -> None:
    """HS2: seat 1 antes his last 50; he contests 50 from each, the rest is a side
    pot (the pots "their amount reaches")."""
    record = hand(
        dead(seat(1, 50, "Ah Ad", stack=50), 50),
        dead(seat(2, 1_100, "Kh Kd"), 100),
        dead(seat(3, 1_100, "Qh Qd"), 100),
    )
    s = settle_record(record, NO_RAKE)
    assert [(p["amount"], p["eligible"]) for p in s["pots"]] == [
        (150, [1, 2, 3]),
        (2_100, [2, 3]),
    ]
    assert won(s) == {1: 150, 2: 2_100}


def test_an_all_in_for_the_whole_ante_contests_every_ante() -> None:
    """HS2: three antes of 100, seat 1 all in on his: the 300 is his to win."""
    record = hand(
        dead(seat(1, 100, "Ah Ad", stack=100), 100),
        dead(seat(2, 1_100, "Kh Kd"), 100),
        dead(seat(3, 1_100, "Qh Qd"), 100),
    )
    s = settle_record(record, NO_RAKE)
    assert [(p["amount"], p["eligible"]) for p in s["pots"]] == [
        (300, [1, 2, 3]),
        (2_000, [2, 3]),
    ]


def test_a_dead_small_blind_plays_no_part_in_matching() -> None:
    """HS2: a post of 100 live + 50 dead; the others fold: 50 back of nothing."""
    record = hand(
        seat(1, 50, folded=True),
        seat(2, 100, folded=True),
        dead(seat(3, 150), 50),
        button=6,
    )
    s = settle_record(record, NO_RAKE)
    assert s["returned"] == []
    assert won(s) == {3: 300}


def test_dead_money_above_put_in_is_refused() -> None:
    """HS2: ``dead`` is a part of ``put_in``."""
    with pytest.raises(HandError) as error:
        settle_record(
            hand(dead(seat(1, 100, "Ah Ad"), 150), seat(2, 100, "Kh Kd")), NO_RAKE
        )
    assert (error.value.code, error.value.rule) == ("dead_above_put_in", "HS2")
    assert error.value.allowed == {"max": 100}


@pytest.mark.parametrize("value", [-1, "50", 1.5, True])
def test_dead_must_be_whole_cents(value: Any) -> None:
    with pytest.raises(HandError) as error:
        settle_record(
            hand(dead(seat(1, 100, "Ah Ad"), value), seat(2, 100, "Kh Kd")), NO_RAKE
        )
    assert error.value.code in ("malformed_hand", "negative_amount")


# -- HS11: straddles ----------------------------------------------------------------


def test_a_straddle_is_live_and_can_be_uncalled() -> None:
    """HS11: the straddle counts as the seat's bet; folded to, its excess comes
    back like any live bet."""
    record = hand(
        seat(1, 50, folded=True),
        seat(2, 100, folded=True),
        {**seat(3, 200), "straddle": 200},
        button=6,
    )
    s = settle_record(record, NO_RAKE)
    assert s["returned"] == [{"seat": 3, "amount": 100}]
    assert won(s) == {3: 250}


# -- HS3: a showdown muck -----------------------------------------------------------


def test_a_mucked_hand_wins_nothing_even_with_the_best_cards() -> None:
    """HS3: seat 1 mucks aces at the showdown; kings take the pot."""
    record = hand(
        {**seat(1, 1_000, "Ah Ad"), "mucked": True},
        seat(2, 1_000, "Kh Kd"),
        seat(3, 1_000, "Qh Qd"),
    )
    s = settle_record(record, NO_RAKE)
    assert winners(s) == {2: 3_000}
    assert s["pots"][0]["eligible"] == [2, 3]
    assert "hand" not in s["seats"][0] and s["seats"][0]["mucked"] is True


def test_a_muck_needs_no_cards_and_its_all_in_money_is_dead() -> None:
    """HS2/HS3: a mucked all-in's chips stay in the pots it reached."""
    record = hand(
        {**seat(1, 500, stack=500), "mucked": True},
        seat(2, 1_000, "Kh Kd"),
        seat(3, 1_000, "Qh Qd"),
    )
    s = settle_record(record, NO_RAKE)
    assert s["pots"][0]["amount"] == 2_500 and won(s) == {2: 2_500}


def test_mucked_and_folded_together_is_refused() -> None:
    row = {**seat(1, 100, folded=True), "mucked": True}
    with pytest.raises(HandError) as error:
        settle_record(hand(row, seat(2, 100, "Kh Kd")), NO_RAKE)
    assert (error.value.code, error.value.rule) == ("mucked_and_folded", "HS3")


def test_everyone_mucking_is_refused() -> None:
    rows = [
        {**seat(n, 100, "Ah Ad" if n == 1 else "Kh Kd"), "mucked": True} for n in (1, 2)
    ]
    with pytest.raises(HandError) as error:
        settle_record(hand(*rows), NO_RAKE)
    assert error.value.code == "no_contender"


# -- HS10: run it twice -------------------------------------------------------------

RUNS = {
    "board": "2c 7d 9h Ks 3d",
    "boards": [["2c", "7d", "9h", "Ks", "3d"], ["2c", "7d", "9h", "Js", "Ac"]],
}


def test_each_run_pays_its_own_winner() -> None:
    """HS10: kings win run 1, aces run 2; the pot splits in two equal parts."""
    record = hand(seat(1, 5_000, "Ah Ad"), seat(2, 5_000, "Kh Kd"), **RUNS)
    s = settle_record(record, policy())
    (pot,) = s["pots"]
    assert pot["rake"] == 500
    assert [(r["amount"], r["winners"]) for r in pot["runs"]] == [
        (4_750, [{"seat": 2, "amount": 4_750}]),
        (4_750, [{"seat": 1, "amount": 4_750}]),
    ]
    assert won(s) == {1: 4_750, 2: 4_750}
    assert [r["board"] for r in s["runs"]] == RUNS["boards"]
    assert s["runs"][1]["hands"] == {
        "1": "three of a kind, aces",
        "2": "one pair, kings",
    }


def test_the_odd_chip_between_runs_goes_to_the_first_run() -> None:
    """HS10: 9,550 after rake in 50-cent chips: run 1 gets 4,800, run 2 4,750."""
    record = hand(seat(1, 5_025, "Ah Ad"), seat(2, 5_025, "Kh Kd"), **RUNS)
    s = settle_record(
        record,
        policy(rake={"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500}),
    )
    pot = s["pots"][0]
    assert [r["amount"] for r in pot["runs"]] == [4_800, 4_750]
    assert won(s) == {2: 4_800, 1: 4_750}


def test_side_pots_are_run_separately_and_split_ties_per_run() -> None:
    """HS10/HS5: three runs; a tie in a run splits that run's part, odd chip
    clockwise from the button."""
    boards = [
        ["2c", "7d", "9h", "Ks", "3d"],
        ["2c", "7d", "9h", "4s", "5s"],
        ["2c", "7d", "9h", "Js", "Jc"],
    ]
    record = hand(
        seat(1, 300, "Ah Ad", stack=300),
        seat(2, 1_000, "Kh Kd"),
        seat(3, 1_000, "Kc Qd"),
        board=" ".join(boards[0]),
        boards=boards,
        button=3,
    )
    s = settle_record(record, NO_RAKE)
    main, side = s["pots"]
    assert main["amount"] == 900 and side["amount"] == 1_400
    assert [r["amount"] for r in main["runs"]] == [300, 300, 300]
    assert [r["amount"] for r in side["runs"]] == [500, 450, 450]
    assert sum(x["won"] for x in s["seats"]) == 2_300


def test_hi_lo_is_halved_in_every_run() -> None:
    """HS10/HS4: PLO8 run twice: a low only on the second run."""
    boards = [["2c", "7d", "9h", "Ks", "Kd"], ["2c", "7d", "9h", "3s", "4c"]]
    record = hand(
        seat(1, 1_000, "Ah 2h Qc Qs"),
        seat(2, 1_000, "Kh Kc 8s 8c"),
        game="PLO8",
        board=" ".join(boards[0]),
        boards=boards,
    )
    s = settle_record(record, NO_RAKE)
    run1, run2 = s["pots"][0]["runs"]
    assert run1["winners"] == [{"seat": 2, "amount": 1_000}]
    assert sum(w["amount"] for w in run2["winners"]) == 1_000
    assert sum(x["won"] for x in s["seats"]) == 2_000


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"boards": [["2c", "7d", "9h", "Ks", "3d"]] * 2}, "invalid_boards"),
        (
            {
                "boards": [
                    ["2c", "7d", "9h", "Js", "Ac"],
                    ["2c", "7d", "9h", "Ks", "3d"],
                ]
            },
            "invalid_boards",
        ),
        (
            {
                "boards": [
                    ["2c", "7d", "9h", "Ks", "3d"],
                    ["2c", "7d", "9h", "Ah", "5c"],
                ]
            },
            "duplicate_card",
        ),
        (
            {"boards": [["2c", "7d", "9h", "Ks", "3d"], ["2c", "7d", "9h", "Jd"]]},
            "wrong_card_count",
        ),
        ({"boards": []}, "malformed_hand"),
    ],
)
def test_boards_that_cant_be_runs_are_refused(
    change: dict[str, Any], code: str
) -> None:
    record = hand(
        seat(1, 1_000, "Ah Ad"), seat(2, 1_000, "Kh Kd"), **{**RUNS, **change}
    )
    with pytest.raises(HandError) as error:
        settle_record(record, NO_RAKE)
    assert error.value.code == code


def test_a_stud_hand_has_no_boards() -> None:
    record = hand(
        seat(1, 100, "Ah Ad 2c 3c 4c 5d 9s"),
        seat(2, 100, "Kh Kd 2d 3d 4d 5h 9h"),
        game="STUD",
        board="",
        streets=5,
        button=None,
        boards=[[], []],
    )
    with pytest.raises(HandError) as error:
        settle_record(record, NO_RAKE)
    assert (error.value.code, error.value.rule) == ("invalid_boards", "HS10")


# -- HS5: the low half's odd chip in stud hi-lo ----------------------------------------


def test_stud_hi_lo_low_odd_chip_goes_to_the_lowest_card() -> None:
    """HS5: two tied lows split 150 (50-cent chips); the odd chip goes to the seat
    with the lowest card (the A of clubs), the high half's by the highest card."""
    record = hand(
        seat(1, 250, "Ac 2d 3h 4s 5c Kd Kh"),
        seat(2, 250, "Ad 2c 3d 4d 5d Ks Qs"),
        game="STUD8",
        board="",
        streets=5,
        button=None,
    )
    s = settle_record(record, {**NO_RAKE, "smallest_chip": 50})
    (pot,) = s["pots"]
    assert pot["low"] == [{"seat": 1, "amount": 150}, {"seat": 2, "amount": 100}]


# -- RK7 / JD3: caps by players and minimum pots ------------------------------------


def caps_policy(**rake: Any) -> dict[str, Any]:
    base = {"scheme": "pot_order", "step": 1000, "unit": 100, "cap": 500}
    return policy(rake={**base, **rake})


def test_rake_cap_by_number_of_players_dealt_in() -> None:
    """RK7: 2-4 players capped at 200, 5 or more at 400."""
    caps = [{"min_players": 2, "cap": 200}, {"min_players": 5, "cap": 400}]
    rule = caps_policy(caps_by_players=caps)
    three = hand(
        *(seat(n, 3_000, c) for n, c in ((1, "Ah Ad"), (2, "Kh Kd"), (3, "Qh Qd")))
    )
    assert settle_record(three, rule)["rake"] == 200
    five = hand(
        *(seat(n, 3_000, c) for n, c in ((1, "Ah Ad"), (2, "Kh Kd"), (3, "Qh Qd"))),
        seat(4, 0, folded=True),
        seat(5, 0, folded=True),
    )
    assert settle_record(five, rule)["rake"] == 400


def test_minimum_pot_for_rake_and_drop() -> None:
    """RK7/JD3: a 200 pot pays no rake and no drop with minimums of 1,000."""
    rule = policy(
        rake={"scheme": "percent", "percent": "10", "cap": 500, "min_pot": 1_000},
        jackpot_drop={"amount": 100, "min_participants": 2, "min_pot": 1_000},
    )
    small = hand(seat(1, 100, "Ah Ad"), seat(2, 100, "Kh Kd"))
    s = settle_record(small, rule)
    assert (s["rake"], s["jackpot_drop"]) == (0, 0) and won(s) == {1: 200}
    big = hand(seat(1, 1_000, "Ah Ad"), seat(2, 1_000, "Kh Kd"))
    s = settle_record(big, rule)
    assert (s["rake"], s["jackpot_drop"]) == (200, 100)


@pytest.mark.parametrize(
    "rake",
    [
        {"caps_by_players": {"2": 100}},
        {"caps_by_players": [{"min_players": 1, "cap": 100}]},
        {
            "caps_by_players": [
                {"min_players": 3, "cap": 100},
                {"min_players": 3, "cap": 50},
            ]
        },
        {"caps_by_players": [{"min_players": 3}]},
        {"min_pot": -1},
    ],
)
def test_bad_rake_options_are_refused(rake: dict[str, Any]) -> None:
    with pytest.raises(HandError) as error:
        parse_policy(caps_policy(**rake))
    assert error.value.code == "invalid_policy"


def test_jackpots_first_run_only_is_a_policy_option() -> None:
    assert parse_policy(policy()).jackpots_first_run_only is True
    assert (
        parse_policy(policy(jackpots_first_run_only=False)).jackpots_first_run_only
        is False
    )
    with pytest.raises(HandError):
        parse_policy(policy(jackpots_first_run_only="no"))


# -- HS9: pot-limit seven-card stud -------------------------------------------------


def test_pot_limit_stud_settles_like_stud() -> None:
    """HS9: PLSTUD ranks and splits as seven-card stud."""
    record = hand(
        seat(1, 500, "Ah Ad 2c 3c 4c 5d 9s"),
        seat(2, 500, "Kh Kd 2d 3d 4d 5h 9h"),
        game="PLSTUD",
        board="",
        streets=5,
        button=None,
    )
    assert won(settle_record(record, NO_RAKE)) == {1: 1_000}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("dead", 0.0),
        ("dead", False),
        ("straddle", 0.0),
        ("mucked", 0),
        ("mucked", None),
    ],
)
def test_added_fields_of_the_wrong_type_are_refused(field: str, value: Any) -> None:
    """Falsy values of the wrong type are malformed, not taken for the default."""
    row = {**seat(1, 100, "Ah Ad"), field: value}
    with pytest.raises(HandError) as error:
        settle_record(hand(row, seat(2, 100, "Kh Kd")), NO_RAKE)
    assert error.value.code == "malformed_hand"
