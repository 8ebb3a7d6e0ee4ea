"""Winners, splits, odd chips and exceptions (HS3-HS5, HS7)."""

from __future__ import annotations

from cardroom.domain.settlement import settle_record

from .helpers import NO_RAKE, hand, policy, seat, winners, won

# -- HS3 ---------------------------------------------------------------------------


def test_a_lone_player_wins_without_showdown() -> None:
    """HS3: the last seat in takes the pot; nobody has to show cards."""
    s = settle_record(
        hand(seat(1, 400), seat(2, 400, folded=True), seat(3, 200, folded=True)),
        NO_RAKE,
    )
    assert winners(s) == {1: 1000}
    assert all("hand" not in row for row in s["seats"])


def test_cards_speak() -> None:
    """HS3: the best hand wins whatever was said; the board can play."""
    s = settle_record(
        hand(
            seat(1, 1000, "2c 3d"),
            seat(2, 1000, "Kh Qd"),
            board="Ah Kc Qs Js Ts",
        ),
        NO_RAKE,
    )
    assert winners(s) == {1: 1000, 2: 1000}  # both play the board's straight
    assert [row["hand"] for row in s["seats"]] == ["straight, ace high"] * 2


def test_each_side_pot_is_settled_on_its_own() -> None:
    """HS2/HS3: the short stack's best hand takes only the main pot."""
    s = settle_record(
        hand(
            seat(1, 1000, "As Ad"),
            seat(2, 3000, "Kh Ks"),
            seat(3, 5000, "Qh Qs"),
            seat(4, 5000, "Th Td"),
        ),
        NO_RAKE,
    )
    assert [p["amount"] for p in s["pots"]] == [4000, 6000, 4000]
    assert [winners(s, i) for i in range(3)] == [{1: 4000}, {2: 6000}, {3: 4000}]


def test_folded_hands_are_not_named() -> None:
    """Only seats still in that tabled their cards get a hand in the settlement."""
    s = settle_record(
        hand(seat(1, 1000, "As Ad"), seat(2, 1000, "Kh Ks"), seat(3, 200, folded=True)),
        NO_RAKE,
    )
    assert [row.get("hand") for row in s["seats"]] == [
        "one pair, aces",
        "one pair, kings",
        None,
    ]


# -- HS5 ---------------------------------------------------------------------------


def test_odd_chips_go_clockwise_from_the_button() -> None:
    """HS5: the first winner left of the button gets the odd chip; the button last."""
    seats = [seat(n, 1050, c) for n, c in ((2, "As Qd"), (5, "Ah Qc"), (8, "Kh Jc"))]
    for button, first in ((1, 2), (2, 5), (4, 5), (5, 2), (8, 2), (12, 2)):
        s = settle_record(hand(*seats, board="Ac Kd 7c 2s 9h", button=button), NO_RAKE)
        # 3150 in the pot: 31 chips of 50 split 2 ways -> 16 and 15.
        assert winners(s) == {first: 1600, 7 - first: 1550}, button


def test_no_player_gets_more_than_one_odd_chip() -> None:
    """HS5: 3 odd chips among 4 winners go one each to the first three."""
    seats = [
        seat(1, 1250, "2c 3d"),
        seat(2, 1250, "2d 3h"),
        seat(3, 1250, "2h 3s"),
        seat(4, 1250, "2s 3c"),
    ]
    s = settle_record(
        hand(*seats, board="Ac Kd Qh Js 9c", button=2),
        NO_RAKE | {"smallest_chip": 100},
    )
    # 5000 in 100-chips: 50 chips, 12 each and 2 odd ones: seats 3 and 4.
    assert winners(s) == {1: 1200, 2: 1200, 3: 1300, 4: 1300}
    s = settle_record(
        hand(*seats, board="Ac Kd Qh Js 9c", button=4),
        NO_RAKE | {"smallest_chip": 300},
    )
    # 16 chips of 300 (4800) split 4 each, and 200 below a chip to seat 1.
    assert winners(s) == {1: 1400, 2: 1200, 3: 1200, 4: 1200}


def test_a_dead_button_still_orders_the_odd_chip() -> None:
    """HS5: a button seat that isn't dealt in still starts the clockwise order."""
    seats = [seat(2, 1050, "As Qd"), seat(5, 1050, "Ah Qc"), seat(8, 1050, "Kh Jc")]
    s = settle_record(hand(*seats, board="Ac Kd 7c 2s 9h", button=3), NO_RAKE)
    assert winners(s) == {5: 1600, 2: 1550}


def test_stud_odd_chip_goes_to_the_highest_card_by_suit() -> None:
    """HS5: in stud the winner holding the highest card (rank, then ♠♥♦♣) gets it."""
    seats = [
        seat(3, 1050, "2c 3d 4h 5s Ah 9c 9d", player="hearts"),
        seat(5, 1050, "2d 3h 4s 5c As Tc Td", player="spades"),
        seat(7, 1050, "Kc Kd Qh Qs 8h 7c 6d"),
    ]
    s = settle_record(
        hand(*seats, game="STUD", board="", streets=5, button=None), NO_RAKE
    )
    assert winners(s) == {5: 1600, 3: 1550}  # A♠ beats A♥
    s = settle_record(
        hand(*seats, game="STUD", board="", streets=5, button=5),
        NO_RAKE,
    )
    assert winners(s) == {5: 1600, 3: 1550}  # the button plays no part in stud


def test_razz_odd_chip_goes_to_the_lowest_card() -> None:
    """HS5: in razz, a low game, the winner with the lowest card gets it."""
    seats = [
        seat(2, 1050, "Ac 2d 3h 4s 6c Kd Kh"),
        seat(4, 1050, "Ad 2c 3s 4h 6d Qc Qd"),
        seat(6, 1050, "8c 8d 9h 9s Tc Jd Js"),
    ]
    s = settle_record(hand(*seats, game="RAZZ", board="", streets=5), NO_RAKE)
    assert s["seats"][0]["hand"] == "low, 6-4-3-2-A"
    assert winners(s) == {2: 1600, 4: 1550}  # A♣ is the lowest card


# -- HS4 ---------------------------------------------------------------------------


def test_hi_lo_halves_the_pot() -> None:
    """HS4: the best high and the best qualifying low share the pot."""
    s = settle_record(
        hand(
            seat(1, 2000, "Ah 2h Jc Td"),
            seat(2, 2000, "Qs Qd 9c 9h"),
            game="PLO8",
            board="3s 5d Qh Kh 8c",
        ),
        NO_RAKE,
    )
    pot = s["pots"][0]
    assert pot["high"] == [{"seat": 2, "amount": 2000}]
    assert pot["low"] == [{"seat": 1, "amount": 2000}]
    assert s["seats"][0]["hand"] == "high card, ace; low, 8-5-3-2-A"
    assert s["seats"][1]["hand"] == "three of a kind, queens; no low"


def test_no_qualifying_low_high_scoops() -> None:
    """HS4: without an eight-or-better low the high hand takes all of it."""
    s = settle_record(
        hand(
            seat(1, 2000, "Ah 2h 6c 7d"),
            seat(2, 2000, "Qs Qd 9c 9h"),
            game="PLO8",
            board="3s Tc Qh Kh Jc",
        ),
        NO_RAKE,
    )
    assert winners(s) == {2: 4000}
    assert s["pots"][0]["low"] == []


def test_the_odd_chip_of_a_hi_lo_pot_goes_high() -> None:
    """HS4: an odd chip between the halves goes to the high half."""
    s = settle_record(
        hand(
            seat(1, 1250, "Ah 2h Jc Td"),
            seat(2, 1250, "Qs Qd 9c 9h"),
            seat(3, 1250, "7c 7d 6c 6d"),
            game="PLO8",
            board="3s 5d Qh Kh 8c",
        ),
        NO_RAKE,
    )
    # 3750 is 75 chips: 38 high, 37 low (seat 3's 8-7-6-5-3 low loses).
    assert won(s) == {2: 1900, 1: 1850}


def test_a_scoop_and_a_quartered_pot() -> None:
    """HS4: one hand can win both halves; tied lows split the low half (HS5)."""
    s = settle_record(
        hand(
            seat(1, 2000, "Ah 2h 9c 9d"),
            seat(2, 2000, "Qs Jd Tc 9h"),
            game="PLO8",
            board="5s 4s 3h Kh Qc",
        ),
        NO_RAKE,
    )
    assert winners(s) == {1: 4000}  # a five-high straight and the best low
    quartered = settle_record(
        hand(
            seat(1, 2000, "Ah 2h Jc Td"),
            seat(2, 2000, "Ad 2c Js Ts"),
            seat(3, 2000, "Qs Qd 9c 9h"),
            game="PLO8",
            board="3s 5d Qh Kh 8c",
            button=2,
        ),
        NO_RAKE,
    )
    assert quartered["pots"][0]["high"] == [{"seat": 3, "amount": 3000}]
    assert quartered["pots"][0]["low"] == [
        {"seat": 1, "amount": 1500},
        {"seat": 2, "amount": 1500},
    ]


def test_stud_hi_lo_splits_too() -> None:
    """HS4 in stud hi-lo: the low half needs five cards eight or lower."""
    s = settle_record(
        hand(
            seat(1, 2000, "Ah 2c 3d 4s 7h Kd Kc"),
            seat(2, 2000, "Qc Qd Qh 9s 9c Td Tc"),
            game="STUD8",
            board="",
            streets=5,
        ),
        NO_RAKE,
    )
    assert s["pots"][0]["high"] == [{"seat": 2, "amount": 2000}]
    assert s["pots"][0]["low"] == [{"seat": 1, "amount": 2000}]


# -- HS7 ---------------------------------------------------------------------------


def test_pushes_that_differ_are_flagged_as_a_mispaid_pot() -> None:
    """HS7: awarded amounts that aren't what the rules give are an exception."""
    seats = [seat(1, 2000, "As Ad"), seat(2, 2000, "Kh Ks")]
    paid_right = settle_record(
        hand(*seats, awarded=[{"seat": 1, "amount": 3800}]), policy()
    )
    assert paid_right["exceptions"] == []
    paid_wrong = settle_record(
        hand(
            *seats,
            awarded=[{"seat": 1, "amount": 1900}, {"seat": 2, "amount": 1900}],
        ),
        policy(),
    )
    (exception,) = paid_wrong["exceptions"]
    assert exception["code"] == "mispaid_pot"
    assert exception["rule"] == "HS7"
    assert exception["seats"] == [
        {"seat": 1, "awarded": 1900, "due": 3800},
        {"seat": 2, "awarded": 1900, "due": 0},
    ]
    assert won(paid_wrong) == {1: 3800}  # the settlement stays what the rules give


def test_final_stacks_add_up() -> None:
    """final_stack = stack - put_in + returned + won, for every seat."""
    s = settle_record(
        hand(seat(1, 2000, "As Ad", stack=2000), seat(2, 5000, "Kh Ks", stack=8000)),
        policy(),
    )
    assert [(r["returned"], r["won"], r["final_stack"]) for r in s["seats"]] == [
        (0, 3800, 3800),
        (3000, 0, 6000),
    ]
