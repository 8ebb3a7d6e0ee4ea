"""A hand the engine can't settle is refused with a clear error and its rule."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.domain.errors import HandError
from cardroom.domain.settlement import settle_record

from .helpers import hand, policy, seat

TWO = [seat(1, 1000, "As Ad"), seat(2, 1000, "Kh Ks")]


def refused(record: Any) -> HandError:
    with pytest.raises(HandError) as error:
        settle_record(record, policy())
    return error.value


def test_the_error_has_api_md_shape() -> None:
    """Errors carry code, rule, detail and allowed, as API.md's error object."""
    error = refused(hand(*TWO, game="BADUGI"))
    assert error.as_dict() == {
        "error": {
            "code": "unknown_game",
            "rule": "HS9",
            "detail": "Unknown game 'BADUGI'.",
            "allowed": {
                "games": [
                    "NLHE", "PLHE", "LHE", "PLO", "PLO5", "COURCHEVEL", "PLO8",
                    "STUD", "PLSTUD", "STUD8", "RAZZ", "SOKO",
                ]
            },
        }
    }  # fmt: skip


@pytest.mark.parametrize(
    "record",
    [
        [],
        "hand",
        {k: v for k, v in hand(*TWO).items() if k != "seats"},
        hand(*TWO) | {"table": ""},
        hand(*TWO) | {"hand_no": "12"},
        hand(*TWO) | {"hand_no": -1},
        hand(*TWO) | {"seats": {"1": TWO[0]}},
        hand(seat(1, 1000, "As Ad") | {"folded": "no"}, TWO[1]),
        hand(seat(1, 1000, "As Ad") | {"present": 1}, TWO[1]),
        hand({k: v for k, v in TWO[0].items() if k != "player"}, TWO[1]),
        hand(seat(1, 1000, "As Ad") | {"stack": 10000.0}, TWO[1]),
        hand(seat(1, 1000) | {"cards": "AsAd"}, TWO[1]),
        hand(*TWO) | {"board": "2c7d9hJs3d"},
        hand(*TWO) | {"ended_at": 1700000000},
        hand(TWO[0], "seat 2"),
    ],
)
def test_malformed_records(record: Any) -> None:
    """Wrong types and missing fields are malformed_hand, no rule."""
    error = refused(record)
    assert (error.code, error.rule) == ("malformed_hand", None), error.detail


def test_unknown_game() -> None:
    """Only the game codes of API.md are settled."""
    assert refused(hand(*TWO, game="nlhe")).code == "unknown_game"


@pytest.mark.parametrize(("game", "streets"), [("NLHE", 0), ("NLHE", 5), ("STUD", 6)])
def test_streets_outside_the_game(game: str, streets: int) -> None:
    """streets counts the game's dealing rounds, 1 … its last."""
    record = hand(*TWO, game=game, streets=streets)
    assert refused(record).code == "invalid_streets"


def test_more_than_twelve_seats() -> None:
    """HS1: at most 12 players at a table."""
    seats = [seat(n, 100, folded=n > 1) for n in range(1, 14)]
    error = refused(hand(*seats[:13], board=""))
    assert (error.code, error.rule, error.allowed) == (
        "too_many_seats",
        "HS1",
        {"max": 12},
    )
    error = refused(hand(seat(13, 100), seat(2, 100, folded=True), board=""))
    assert (error.code, error.rule) == ("too_many_seats", "HS1")


def test_fewer_than_two_seats() -> None:
    """A hand is played by two seats or more."""
    assert refused(hand(TWO[0])).code == "too_few_seats"


def test_duplicate_seat() -> None:
    """A seat number appears once."""
    assert refused(hand(TWO[0], seat(1, 1000, "Kh Ks"))).code == "duplicate_seat"


@pytest.mark.parametrize("button", [None, 0, 13, "3", True])
def test_a_board_game_needs_a_button(button: Any) -> None:
    """HS5: the odd chip of a board game needs a button seat 1-12."""
    record = hand(*TWO, button=None)
    if button is not None:
        record["button"] = button
    error = refused(record)
    assert (error.code, error.rule) == ("invalid_button", "HS5")


def test_a_dead_button_and_a_stud_game_without_one_are_fine() -> None:
    """A button seat not dealt in is allowed; stud games need no button."""
    assert settle_record(hand(*TWO, button=7), policy())["pots"]
    stud = [seat(1, 100, "As Ad Ac 2d 3h 4s 5c"), seat(2, 100, "Kh Ks Kc 7d 8h 9s Tc")]
    assert settle_record(
        hand(*stud, game="STUD", board="", streets=5, button=None), policy()
    )


@pytest.mark.parametrize("field", ["stack", "put_in"])
def test_negative_amounts(field: str) -> None:
    """Chips are never negative."""
    error = refused(hand(seat(1, 1000, "As Ad") | {field: -50}, TWO[1]))
    assert error.code == "negative_amount"


def test_put_in_above_stack() -> None:
    """BI3: only the chips on the table when the hand starts play in it."""
    error = refused(hand(seat(1, 1050, "As Ad", stack=1000), TWO[1]))
    assert (error.code, error.rule, error.allowed) == (
        "put_in_above_stack",
        "BI3",
        {"max": 1000},
    )


@pytest.mark.parametrize("card", ["10h", "As ", "ah", "Ax", "1c"])
def test_malformed_cards(card: str) -> None:
    """A card is a rank of 23456789TJQKA and a suit of cdhs."""
    record = hand(seat(1, 1000) | {"cards": ["Kd", card]}, TWO[1])
    assert refused(record).code == "malformed_card"
    assert refused(hand(*TWO) | {"board": ["2c", "7d", "9h", "Js", card]}).code == (
        "malformed_card"
    )


def test_duplicate_cards_void_the_hand() -> None:
    """RK8: a card dealt twice, in two hands or hand and board, voids the hand."""
    error = refused(hand(seat(1, 1000, "As Ad"), seat(2, 1000, "As Ks")))
    assert (error.code, error.rule) == ("duplicate_card", "RK8")
    assert "As" in error.detail
    assert refused(hand(seat(1, 1000, "2c Ad"), TWO[1])).code == "duplicate_card"
    folded = seat(3, 100, "Ks Qd", folded=True)
    assert refused(hand(*TWO, folded)).code == "duplicate_card"


@pytest.mark.parametrize(
    ("game", "cards", "board", "streets"),
    [
        ("NLHE", "As Ad Ac", "2c 7d 9h Js 3d", 4),  # three hole cards
        ("NLHE", "As", "2c 7d 9h Js 3d", 4),
        ("PLO", "As Ad Kc Kd Qh", "2c 7d 9h Js 3d", 4),
        ("PLO5", "As Ad Kc Kd", "2c 7d 9h Js 3d", 4),
        ("NLHE", "As Ad", "2c 7d 9h Js", 4),  # the river is missing
        ("NLHE", "As Ad", "2c 7d 9h", 3),
        ("NLHE", "As Ad", "2c 7d", 2),
        ("COURCHEVEL", "As Ad Kc Kd Qh", "", 1),  # Courchevel shows a card at once
        ("STUD", "As Ad Kc Kd Qh Qs", "", 5),  # six of seven stud cards
        ("STUD", "As Ad Kc Kd Qh Qs 2c", "2d", 5),  # stud has no board
        ("SOKO", "As Ad Kc Kd", "", 4),
    ],
)
def test_wrong_card_counts(game: str, cards: str, board: str, streets: int) -> None:
    """HS9: a seat and the board hold what the game deals by that street."""
    record = hand(
        seat(1, 1000, cards),
        seat(2, 1000, folded=True),
        game=game,
        board=board,
        streets=streets,
    )
    error = refused(record)
    assert (error.code, error.rule) == ("wrong_card_count", "HS9"), error.detail


def test_stud_seats_show_what_they_were_dealt() -> None:
    """A folded stud seat shows the cards it had; a seat still in, the street's."""
    record = hand(
        seat(1, 1000, "As Ad Kc Kd Qh"),  # fifth street: five cards
        seat(2, 1000, "2c 3c 4c", folded=True),  # folded on third street
        game="STUD",
        board="",
        streets=3,
    )
    assert settle_record(record, policy())["pots"][0]["eligible"] == [1]
    record["seats"][1]["cards"] = ["2c", "3c", "4c", "5c", "6c", "7c"]
    assert refused(record).code == "wrong_card_count"


def test_every_seat_folded() -> None:
    """HS3: someone is left in every hand."""
    error = refused(hand(seat(1, 100, folded=True), seat(2, 200, folded=True)))
    assert (error.code, error.rule) == ("no_contender", "HS3")


def test_a_showdown_needs_every_contenders_cards() -> None:
    """HS3: cards speak, so seats contesting a pot must show them."""
    error = refused(hand(seat(1, 1000, "As Ad"), seat(2, 1000), seat(3, 1000)))
    assert (error.code, error.rule) == ("showdown_without_cards", "HS3")
    assert error.allowed == {"seats": [2, 3]}


def test_a_showdown_needs_the_last_street() -> None:
    """HS3: two seats still contesting a pot after the flop is a broken record."""
    record = hand(*TWO, board="2c 7d 9h")
    error = refused(record)
    assert (error.code, error.rule) == ("incomplete_showdown", "HS3")


def test_awarded_names_seats_dealt_in_once() -> None:
    """awarded pushes go to seats of the hand, each named once."""
    for awarded in (
        [{"seat": 9, "amount": 100}],
        [{"seat": 1, "amount": 100}, {"seat": 1, "amount": 100}],
    ):
        assert refused(hand(*TWO, awarded=awarded)).code == "invalid_awarded"
    assert refused(hand(*TWO, awarded=[{"seat": 1}])).code == "malformed_hand"
    assert (
        refused(hand(*TWO, awarded=[{"seat": 1, "amount": -5}])).code
        == "negative_amount"
    )
