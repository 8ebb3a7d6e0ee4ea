"""PHH hand histories → hand records and back (cardroom.domain.phh), no database."""

from __future__ import annotations

import io
import json
import warnings
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pokerkit import HandHistory

from cardroom.domain.errors import HandError
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.phh import (
    Seating,
    cents,
    load_histories,
    number_hands,
    replay,
    to_phh,
    to_record,
)
from cardroom.domain.settlement import settle_record

NO_RAKE = parse_policy(
    {"currency": "EUR", "smallest_chip": 1, "rake": {"scheme": "none"}}
)
RAKE = parse_policy(
    {
        "currency": "EUR",
        "smallest_chip": 1,
        "rake": {"scheme": "pot_order", "step": 1000, "unit": 50, "cap": 300},
        "jackpot_drop": {"amount": 100, "min_participants": 2},
    }
)


def _load(text: str) -> list[dict[str, Any]]:
    return load_histories(io.BytesIO(text.encode()))


DOLLARS = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.25, 0.5, 0]
min_bet = 0.5
starting_stacks = [100.75, 3.30, 52.05]
players = ['P-1', 'P-2', 'P-3']
actions = ['d dh p1 AhAd', 'd dh p2 KhKd', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 1.5',
  'p2 cbr 3.30', 'p1 cc', 'd db 2c7d9h', 'd db Js', 'd db 3d',
  'p2 sm KhKd', 'p1 sm AhAd']
finishing_stacks = [104.05, 0, 52.05]
"""


def test_a_dollar_file_books_exact_cents_at_unit_100() -> None:
    """Decimal amounts become integer cents, exactly: 3.30 is 330, not 3 or 300."""
    hh = _load(DOLLARS)[0]
    record = to_record(hh, table="T01", hand_no=1, unit=100)
    seats = {s["player"]: s for s in record["seats"]}
    assert [seats[p]["stack"] for p in ("P-1", "P-2", "P-3")] == [10075, 330, 5205]
    assert [seats[p]["put_in"] for p in ("P-1", "P-2", "P-3")] == [330, 330, 0]
    # Nothing but ints and strings: the booking's fingerprint is JSON.
    assert json.loads(json.dumps(record)) == record
    finals = {
        s["player"]: s["final_stack"] for s in settle_record(record, NO_RAKE)["seats"]
    }
    assert finals == {"P-1": 10405, "P-2": 0, "P-3": 5205}


def test_a_fraction_of_a_cent_is_refused_not_truncated() -> None:
    hh = _load(DOLLARS.replace("100.75", "100.755"))[0]
    with pytest.raises(HandError) as refused:
        to_record(hh, table="T01", hand_no=1, unit=100)
    assert refused.value.code == "inexact_amount"
    assert "10075.5 cents" in refused.value.detail
    assert refused.value.allowed == {"unit": 100}
    # Counted in tenths of a cent it fits.
    record = to_record(hh, table="T01", hand_no=1, unit=1000)
    assert record["seats"][0]["stack"] == 100755
    # A file in dollars read as cents is refused too, not rounded.
    with pytest.raises(HandError):
        to_record(_load(DOLLARS)[0], table="T01", hand_no=1, unit=1)


@given(st.integers(0, 10**12), st.sampled_from([1, 2, 5, 10, 100, 1000]))
def test_cents_are_exact_at_any_unit(amount: int, unit: int) -> None:
    """An amount in chips of ``unit`` cents comes back as its cents; a part of a
    cent more is refused."""
    chips = Decimal(amount) / unit
    assert cents(chips, unit, "x") == amount
    assert type(cents(chips, unit, "x")) is int
    with pytest.raises(HandError):
        cents(chips + Decimal(1) / (unit * 2), unit, "x")


SHOWDOWN = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
players = ['P-1', 'P-2', 'P-3']
actions = ['d dh p1 AhAd', 'd dh p2 KhKd', 'd dh p3 7c2d', 'p3 cc', 'p1 cc', 'p2 cc',
  'd db 2c7d9h', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Js', 'p1 cc', 'p2 cc', 'p3 cc',
  'd db 3d', 'p1 cc', 'p2 cc', 'p3 cc', 'p3 sm 7c2d', 'p1 sm']
"""


BOTH_SHOW = SHOWDOWN.replace("'p1 sm'", "'p1 sm AhAd'")


def test_a_showdown_muck_is_mucked_and_a_silent_seat_folded() -> None:
    """``p1 sm`` without cards mucks; p2, left without an action at the showdown,
    folded; p3 shows and takes the pot."""
    record = to_record(_load(SHOWDOWN)[0], table="T01", hand_no=1)
    p1, p2, p3 = record["seats"]
    assert p1["mucked"] is True and p1["folded"] is False and "cards" not in p1
    assert p2["folded"] is True and "cards" not in p2 and "mucked" not in p2
    assert p3["cards"] == ["7c", "2d"] and not p3["folded"]
    assert [s["put_in"] for s in record["seats"]] == [100, 100, 100]
    winners = settle_record(record, NO_RAKE)["pots"][0]["winners"]
    assert winners == [{"seat": 3, "amount": 300}]


def test_antes_are_dead_and_straddles_live() -> None:
    """Antes and the big blind's ante go in ``dead``; a straddle in ``straddle``."""
    hh = _load(
        """
variant = 'NT'
antes = [0, 300, 0, 0]
blinds_or_straddles = [100, 200, 400, 0]
min_bet = 200
starting_stacks = [5000, 5000, 5000, 250]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????',
  'p4 cc', 'p1 f', 'p2 f', 'p3 cc']
"""
    )[0]
    r = replay(hh)
    assert r.dead == [0, 300, 0, 0]
    assert r.straddle == [0, 0, 400, 0]
    assert r.put_in == [100, 500, 400, 250]  # p4 all in for less
    record = to_record(hh, table="T01", hand_no=1)
    assert [s.get("dead", 0) for s in record["seats"]] == [0, 300, 0, 0]
    assert [s.get("straddle", 0) for s in record["seats"]] == [0, 0, 400, 0]


def test_heads_up_the_first_player_posts_the_big_blind() -> None:
    hh = _load(
        """
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [1000, 1000]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']
"""
    )[0]
    assert replay(hh).put_in == [100, 50]


def test_stud_bring_in_antes_and_streets() -> None:
    hh = _load(
        """
variant = 'F7S'
antes = [10, 10]
bring_in = 15
small_bet = 50
big_bet = 100
starting_stacks = [1000, 1000]
actions = ['d dh p1 ????7s', 'd dh p2 ????2c', 'p2 pb', 'p1 cbr 50', 'p2 f']
"""
    )[0]
    record = to_record(hh, table="T01", hand_no=1)
    assert record["game"] == "STUD" and record["button"] is None
    assert record["streets"] == 1
    assert [s["put_in"] for s in record["seats"]] == [60, 25]
    assert [s["dead"] for s in record["seats"]] == [10, 10]


def test_a_game_the_room_doesnt_deal_is_refused() -> None:
    hh = _load(SHOWDOWN.replace("'NT'", "'F2L3D'"))[0]
    with pytest.raises(HandError) as refused:
        to_record(hh, table="T01", hand_no=1)
    assert refused.value.code == "unknown_game"
    assert "NT" in refused.value.allowed["variants"]


def test_an_action_that_cant_be_replayed_is_refused() -> None:
    hh = _load(SHOWDOWN.replace("'p3 cc', 'p1 cc'", "'p3 cbr 99999', 'p1 cc'"))[0]
    with pytest.raises(HandError) as refused:
        to_record(hh, table="T01", hand_no=1)
    assert refused.value.code == "malformed_hand"
    assert "p3 cbr 99999" in refused.value.detail


def _hand(players: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "variant": "NT",
        "antes": [0] * len(players),
        "blinds_or_straddles": [50, 100] + [0] * (len(players) - 2),
        "min_bet": 100,
        "starting_stacks": [10000] * len(players),
        "players": players,
        "actions": [f"p{i + 1} f" for i in range(len(players) - 1)],
        **extra,
    }


def test_seats_are_stable_across_the_hands_of_a_file() -> None:
    """Positions rotate from hand to hand, each player keeps his seat; a newcomer
    takes a free seat, and the button is the last player's seat."""
    seating = Seating()
    first = to_record(_hand(["A", "B", "C"]), table="T", hand_no=1, seating=seating)
    second = to_record(_hand(["B", "C", "A"]), table="T", hand_no=2, seating=seating)
    seat_of = {s["player"]: s["seat"] for s in first["seats"]}
    assert seat_of == {"A": 1, "B": 2, "C": 3}
    assert {s["player"]: s["seat"] for s in second["seats"]} == seat_of
    assert (first["button"], second["button"]) == (3, 1)
    third = to_record(
        _hand(["C", "D", "B"], seat_count=6), table="T", hand_no=3, seating=seating
    )
    assert {s["player"]: s["seat"] for s in third["seats"]} == {"C": 3, "D": 4, "B": 2}


def test_the_seats_field_gives_the_seats() -> None:
    record = to_record(_hand(["A", "B", "C"], seats=[7, 2, 4]), table="T", hand_no=1)
    assert [s["seat"] for s in record["seats"]] == [7, 2, 4]
    with pytest.raises(HandError) as refused:
        to_record(_hand(["A", "B", "C"], seats=[7, 7, 4]), table="T", hand_no=1)
    assert refused.value.rule == "HS1"


def test_hand_numbers() -> None:
    """The hands' own numbers when they increase, else their place in the file."""
    assert number_hands([{"hand": 4}, {"hand": 9}], 1) == [4, 9]
    assert number_hands([{"hand": 0}, {"hand": 41}, {"hand": 2}], 10) == [10, 11, 12]
    assert number_hands([{}, {"hand": 3}], 1) == [1, 2]


def _pokerkit_stacks(text: str) -> list[int]:
    hh = HandHistory.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit: "no reason for this player to fold"
        states = list(hh)
    return list(states[-1].stacks)


@pytest.mark.parametrize("policy", [NO_RAKE, RAKE], ids=["no rake", "rake and drop"])
@pytest.mark.parametrize(
    "text", [DOLLARS, BOTH_SHOW, SHOWDOWN], ids=["all in", "showdown", "muck"]
)
def test_export_then_import_gives_the_same_settlement(text: str, policy: Any) -> None:
    """A booked hand exported as PHH and imported again settles the same, and
    pokerkit replays the export to the same final stacks (before rake)."""
    unit = 100 if text is DOLLARS else 1
    record = to_record(_load(text)[0], table="T01", hand_no=7, unit=unit)
    settlement = settle_record(record, policy)
    exported = to_phh(record, settlement, unit=unit, seat_count=9)
    again = to_record(_load(exported)[0], table="T01", hand_no=7, unit=unit)
    assert again == record
    assert settle_record(again, policy) == settlement
    # Standard PHH only (without what ``_cardroom`` keeps): the same final stacks.
    plain = _load(exported)[0]
    plain.pop("_cardroom")
    bare = settle_record(to_record(plain, table="T01", hand_no=7, unit=unit), policy)
    assert [s["final_stack"] for s in bare["seats"]] == [
        s["final_stack"] for s in settlement["seats"]
    ]
    unraked = settle_record(record, NO_RAKE)
    finals = {s["seat"]: s["final_stack"] for s in unraked["seats"]}
    seats = _load(exported)[0]["seats"]
    assert [cents(v, unit, "stack") for v in _pokerkit_stacks(exported)] == [
        finals[s] for s in seats
    ]


def test_export_keeps_the_boards_of_a_hand_run_twice() -> None:
    record = to_record(_load(BOTH_SHOW)[0], table="T01", hand_no=7)
    boards = [record["board"], ["2h", "7h", "9c", "Jc", "3c"]]
    record["boards"] = boards
    exported = to_phh(record, settle_record(record, NO_RAKE))
    assert to_record(_load(exported)[0], table="T01", hand_no=7)["boards"] == boards


def test_a_game_phh_cant_say_is_not_exported() -> None:
    record = to_record(_load(BOTH_SHOW)[0], table="T01", hand_no=7)
    settlement = settle_record(record, NO_RAKE)
    with pytest.raises(HandError) as refused:
        to_phh({**record, "game": "COURCHEVEL"}, settlement)
    assert refused.value.code == "unknown_game"
    assert "NLHE" in refused.value.allowed["games"]


def test_pot_limit_holdem_exports_as_holdem_and_comes_back_as_itself() -> None:
    record = {**to_record(_load(BOTH_SHOW)[0], table="T01", hand_no=7), "game": "PLHE"}
    settlement = settle_record(record, NO_RAKE)
    exported = to_phh(record, settlement)
    assert exported.startswith('variant = "NT"')
    assert to_record(_load(exported)[0], table="T01", hand_no=7) == record
    plain = _load(exported)[0]
    plain.pop("_cardroom")
    assert to_record(plain, table="T01", hand_no=7)["game"] == "NLHE"


WSOP = Path(__file__).resolve().parents[2] / "data" / "phh" / "wsop-2023-43-5"


@pytest.mark.parametrize("name", ["3", "27", "31", "63", "85", "49", "35", "13"])
def test_real_hands_with_dead_money_replay_from_their_export(name: str) -> None:
    """Big-blind antes with all-ins (NLHE, PLO), razz all in from the antes, stud
    hi-lo, and mucks in limit Hold'em and Omaha hi-lo: pokerkit replays the export
    to the engine's final stacks, which are the hand's recorded ones."""
    hh = load_histories((WSOP / f"{name}.phh").open("rb"))[0]
    record = to_record(hh, table="T01", hand_no=1)
    settlement = settle_record(record, NO_RAKE)
    exported = to_phh(record, settlement)
    seats = _load(exported)[0]["seats"]
    finals = {s["seat"]: s["final_stack"] for s in settlement["seats"]}
    assert _pokerkit_stacks(exported) == [finals[s] for s in seats]
    assert sorted(finals.values()) == sorted(hh["finishing_stacks"])
    assert settle_record(
        to_record(_load(exported)[0], table="T01", hand_no=1), NO_RAKE
    ) == (settlement)
