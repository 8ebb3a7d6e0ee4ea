"""Uncalled bets, pots, rake and jackpot drop (RK1-RK5, RK7, HS2, JD1-JD3)."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.domain.drop import jackpot_drop
from cardroom.domain.errors import HandError
from cardroom.domain.hand_record import DropPolicy, parse_policy
from cardroom.domain.pots import Pot, build_pots, uncalled_bet
from cardroom.domain.rake import rake_by_pot
from cardroom.domain.settlement import settle_record

from .helpers import hand, policy, seat

POT_ORDER = {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500}


def rake_of(pots: list[int], rake: dict[str, Any], chip: int = 50) -> list[int]:
    parsed = parse_policy(policy(rake=rake, smallest_chip=chip))
    return rake_by_pot(pots, parsed.rake, chip)


# -- RK5 ---------------------------------------------------------------------------


def test_the_uncalled_part_of_the_biggest_bet_goes_back() -> None:
    """RK5: only what the second biggest put_in didn't match is returned."""
    assert uncalled_bet([(1, 100), (2, 200), (3, 600)]) == (3, 400)
    assert uncalled_bet([(1, 600), (2, 0)]) == (1, 600)


def test_a_called_bet_stays_in() -> None:
    """RK5: two seats sharing the biggest amount matched each other in full."""
    assert uncalled_bet([(1, 600), (2, 600), (3, 100)]) is None
    assert uncalled_bet([(1, 0), (2, 0)]) is None


def test_an_uncalled_raise_is_never_raked() -> None:
    """RK5: the return comes before the pots, so the rake counts without it."""
    record = hand(seat(1, 2000, "As Ad"), seat(2, 9000, "Kh Ks"))
    s = settle_record(record, policy())
    assert s["returned"] == [{"seat": 2, "amount": 7000}]
    assert s["pots"][0]["amount"] == 4000
    assert s["rake"] == 200


# -- HS2 ---------------------------------------------------------------------------


def test_side_pots_form_by_all_in_levels() -> None:
    """HS2: a pot per all-in level, with the seats still in that reached it."""
    pots = build_pots([(1, 100, False), (2, 300, False), (3, 300, False)])
    assert pots == [Pot(300, (1, 2, 3)), Pot(400, (2, 3))]


def test_folded_money_is_dead_money_in_the_pots_it_reached() -> None:
    """HS2: a folded seat's chips count in each pot it reached, it wins none."""
    pots = build_pots(
        [(1, 100, False), (2, 250, True), (3, 400, False), (4, 400, False)]
    )
    assert pots == [Pot(400, (1, 3, 4)), Pot(750, (3, 4))]


def test_folded_money_above_every_seat_still_in_joins_the_top_pot() -> None:
    """HS2: chips folded seats matched above the last seats still in are dead money
    for those seats, not a pot nobody can win."""
    pots = build_pots([(1, 100, False), (2, 500, True), (3, 500, True)])
    assert pots == [Pot(1100, (1,))]


def test_seats_still_in_that_put_in_nothing_share_in_no_pot() -> None:
    """A seat still in with nothing in the pot is eligible for nothing."""
    pots = build_pots([(1, 100, True), (2, 200, False), (3, 0, False)])
    assert pots == [Pot(300, (2,))]


def test_chips_with_nobody_to_win_them_are_refused() -> None:
    """HS3: chips put in only by folded seats can't be settled."""
    record = hand(
        seat(1, 200, folded=True),
        seat(2, 200, folded=True),
        seat(3, 0),
        board="",
        streets=1,
    )
    with pytest.raises(HandError) as refused:
        settle_record(record, policy())
    assert (refused.value.code, refused.value.rule) == ("no_contender", "HS3")


# -- RK1-RK3 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pots", "rake"),
    [
        ([2400, 1600], [200, 0]),  # FI: main 24 + side 16 -> 2, both from the main
        ([1800, 600], [100, 0]),  # FI: main 18 + side 6 -> 1 from the main pot
        ([1800, 1800, 1800], [100, 100, 0]),  # FI: 1 main + 1 first side pot
        ([1999], [0]),  # no full step, no rake
        ([2000], [100]),
        ([6000, 6000], [300, 200]),  # cap 500: five units
    ],
)
def test_pot_order_takes_each_unit_from_the_pot_that_starts_its_step(
    pots: list[int], rake: list[int]
) -> None:
    """RK1/RK2: unit k comes from the pot holding the offset k x step."""
    assert rake_of(pots, POT_ORDER) == rake


def test_a_pot_never_pays_more_than_it_holds() -> None:
    """RK3: the unit a 75-cent side pot can't cover comes from the next pot."""
    assert rake_of([4000, 75, 2950], POT_ORDER, chip=25) == [200, 75, 25]
    assert rake_of([4000, 25, 25, 2000], POT_ORDER, chip=25) == [200, 25, 25, 50]


def test_the_cap_limits_the_hand_not_each_pot() -> None:
    """RK1: at most cap / unit units per hand, whatever the pots."""
    capped = {**POT_ORDER, "cap": 300}
    assert rake_of([10000, 10000], capped) == [300, 0]
    assert sum(rake_of([4000] * 6, {**POT_ORDER, "cap": None})) == 1200


def test_a_ten_percent_scheme_is_a_unit_per_ten_euros() -> None:
    """RK1: the 10 % scheme is step EUR 10, unit EUR 1."""
    ten = {"scheme": "pot_order", "step": 1000, "unit": 100, "cap": 500}
    assert rake_of([2500, 1500], ten) == [300, 100]


def test_percent_is_rounded_down_to_the_chip_and_capped() -> None:
    """RK7: a percentage of the pots, rounded down to the smallest chip, capped."""
    five = {"scheme": "percent", "percent": "5", "cap": 300}
    assert rake_of([2550], five) == [100]  # 127.5 -> 100 with 50-cent chips
    assert rake_of([2550], five, chip=25) == [125]
    assert rake_of([999], five) == [0]
    assert rake_of([20000], five) == [300]  # the cap
    assert rake_of([20000], {**five, "cap": 320}) == [300]  # cap rounded to the chip
    assert rake_of([10000], {"scheme": "percent", "percent": "2.5", "cap": None}) == [
        250
    ]


def test_percent_rake_comes_from_the_pots_in_order() -> None:
    """RK2 for a percentage: each chip from the pot where it was earned."""
    five = {"scheme": "percent", "percent": "5", "cap": 300}
    # A chip per EUR 10: offsets 0 and 1000 -> the main pot, then the side pot.
    assert rake_of([1500, 1500], five) == [100, 50]
    assert rake_of([1000, 1000], five) == [50, 50]


@pytest.mark.parametrize("scheme", ["time", "none"])
def test_time_and_none_take_no_pot_rake(scheme: str) -> None:
    """RK6: time collection is charged per seat, not from pots."""
    assert rake_of([10000, 5000], {"scheme": scheme}) == [0, 0]


def test_no_flop_no_drop() -> None:
    """RK4: a hand that ends in the initial deal pays neither rake nor drop."""
    seats = [seat(n, 600, folded=n != 1) for n in range(1, 8)]
    for scheme in (POT_ORDER, {"scheme": "percent", "percent": "10", "cap": 500}):
        s = settle_record(hand(*seats, board="", streets=1), policy(rake=scheme))
        assert (s["rake"], s["jackpot_drop"]) == (0, 0)
        s = settle_record(
            hand(*seats, board="2c 7d 9h", streets=2), policy(rake=scheme)
        )
        assert s["rake"] > 0
        assert s["jackpot_drop"] == 100


@pytest.mark.parametrize(
    ("code", "streets", "board", "raked"),
    [
        ("PLO", 1, "", False),
        ("PLO", 2, "2c 7d 9h", True),
        ("COURCHEVEL", 1, "2c", False),  # the first board card is the initial deal
        ("COURCHEVEL", 2, "2c 7d 9h", True),
        ("STUD", 1, "", False),  # third street
        ("STUD", 2, "", True),  # fourth street
        ("SOKO", 1, "", False),
        ("SOKO", 2, "", True),
    ],
)
def test_past_the_initial_deal_per_game(
    code: str, streets: int, board: str, raked: bool
) -> None:
    """RK4: what "past the initial deal" means in each kind of game."""
    seats = [seat(1, 3000), *(seat(n, 3000, folded=True) for n in range(2, 8))]
    s = settle_record(hand(*seats, game=code, board=board, streets=streets), policy())
    assert (s["rake"] > 0, s["jackpot_drop"] > 0) == (raked, raked)


def test_policies_are_checked() -> None:
    """A policy with a bad field is refused with invalid_policy."""
    bad: list[dict[str, Any]] = [
        policy(rake={"scheme": "share"}),
        policy(rake={"scheme": "pot_order", "step": 2000}),
        policy(rake={"scheme": "pot_order", "step": 100, "unit": 200}),
        policy(rake={"scheme": "percent", "percent": 5.0}),
        policy(rake={"scheme": "percent", "percent": "105"}),
        policy(rake={"scheme": "percent", "percent": "five"}),
        policy(smallest_chip=0),
        policy(jackpot_drop={"amount": -100, "min_participants": 6}),
        {"currency": "EUR", "rake": {"scheme": "none"}},
    ]
    for data in bad:
        with pytest.raises(HandError) as refused:
            parse_policy(data)
        assert refused.value.code == "invalid_policy", data


# -- JD1-JD3 -----------------------------------------------------------------------


def test_drop_needs_enough_participants_present() -> None:
    """JD1: six present participants drop; an absent one doesn't count."""
    six = [seat(1, 600), *(seat(n, 600, folded=True) for n in range(2, 7))]
    assert settle_record(hand(*six, board="2c 7d 9h"), policy())["jackpot_drop"] == 100
    six[3]["present"] = False
    s = settle_record(hand(*six, board="2c 7d 9h"), policy())
    assert (s["participants"], s["jackpot_drop"]) == (5, 0)


def test_drop_comes_from_the_main_pot_after_rake() -> None:
    """JD3: the drop comes out of the main pot only, after the rake."""
    seats = [
        seat(1, 1000, "As Ad"),
        seat(2, 3000, "Kh Ks"),
        seat(3, 3000, "Qh Qs"),
        *(seat(n, 200, folded=True) for n in range(4, 8)),
    ]
    s = settle_record(hand(*seats), policy())
    main, side = s["pots"]
    assert main["jackpot_drop"] == 100 and side["jackpot_drop"] == 0
    assert main["winners"] == [
        {"seat": 1, "amount": main["amount"] - main["rake"] - 100}
    ]


def test_drop_is_never_more_than_the_main_pot_holds() -> None:
    """JD3: a drop takes at most what the rake left in the main pot."""
    rule = DropPolicy(amount=100, min_participants=6)
    assert jackpot_drop(rule, 6, True, 60) == 60
    assert jackpot_drop(rule, 6, True, 0) == 0
    assert jackpot_drop(rule, 6, False, 500) == 0  # JD2
    assert jackpot_drop(rule, 5, True, 500) == 0
    assert jackpot_drop(None, 9, True, 500) == 0
    small = policy(rake={"scheme": "pot_order", "step": 100, "unit": 100, "cap": 500})
    seats = [seat(1, 50), *(seat(n, 25, folded=True) for n in range(2, 8))]
    s = settle_record(hand(*seats, board="2c 7d 9h"), small | {"smallest_chip": 25})
    # Seat 1's last 25 went back uncalled: 175 in the pot, 100 raked, 75 left.
    assert s["pots"][0]["amount"] == 175
    assert (s["rake"], s["jackpot_drop"]) == (100, 75)
    assert s["seats"][0]["won"] == 0
