"""The typed settlement and the batch command's typed decode (``read_hands``).

``read_hands`` decodes hand records straight into typed values: it must return the
records ``parse_hand`` returns, and None (so that ``parse_hand`` says what is wrong)
for every record ``parse_hand`` refuses.
"""

from __future__ import annotations

import copy
import io
import json
import random
from typing import Any

import msgspec
import orjson
import pytest

from cardroom.domain.errors import HandError
from cardroom.domain.games import GAMES
from cardroom.domain.hand_record import (
    HandJSON,
    decode_hands,
    parse_hand,
    parse_policy,
    read_hands,
    typed_record,
)
from cardroom.domain.settle_cli import settle_files
from cardroom.domain.settlement import (
    SettledPot,
    Settlement,
    settle,
    settle_decoded,
    settle_record,
)
from simulation.dealer import Extras, deal_hand

from .helpers import POLICY, hand, seat


def dealt(count: int) -> list[dict[str, Any]]:
    """Return ``count`` hands of every game, with antes, straddles and runs."""
    rng = random.Random(17)
    extras = Extras(ante=0.3, straddle=0.3, run_twice=0.7)
    hands = []
    for game in GAMES:
        players = 7 if GAMES[game].is_stud else 9
        seats = {n: (f"P-{n}", rng.randrange(10, 400) * 50) for n in range(1, 8)}
        seats |= {n: (f"P-{n}", 5000) for n in range(8, players + 1)}
        for n in range(count):
            hands.append(
                deal_hand(
                    rng,
                    table="T1",
                    hand_no=n,
                    game=game,
                    seats=seats,
                    button=rng.randint(1, players),
                    small_blind=50,
                    big_blind=100,
                    extras=extras,
                )
            )
    return hands


def test_typed_decode_gives_the_records_parse_hand_gives() -> None:
    """One record or a batch: the same checked records, seat for seat."""
    hands = dealt(15)
    for data in hands:
        assert read_hands(orjson.dumps(data)) == parse_hand(data)
    assert read_hands(orjson.dumps(hands)) == [parse_hand(h) for h in hands]


SHOWDOWN = hand(seat(1, 400, "As Ad"), seat(2, 400, "Kh Ks"), seat(3, 200, folded=True))


def broken(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    record = copy.deepcopy(SHOWDOWN)
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


BROKEN: list[tuple[Any, Any]] = [
    (("seats", 0, "put_in"), 20_000),  # BI3
    (("seats", 0, "stack"), 2**64),  # a float once decoded by orjson
    (("seats", 0, "stack"), True),
    (("seats", 0, "seat"), 13),
    (("seats", 1, "seat"), 1),
    (("seats", 0, "player"), ""),
    (("seats", 0, "cards"), ["As", "Zz"]),
    (("seats", 0, "cards"), ["As"]),
    (("seats", 0, "cards"), ["As", "2c"]),  # on the board
    (("seats", 0, "dead"), -50),
    (("seats", 0, "dead"), 500),
    (("seats", 2, "mucked"), True),
    (("hand_no"), -1),
    (("streets"), 5),
    (("button"), 0),
    (("bring_in"), 50),
    (("awarded"), [{"seat": 9, "amount": 100}]),
    (("awarded"), [{"seat": 1, "amount": 2**64}]),
    (("started_at"), 1),
]


@pytest.mark.parametrize(("path", "value"), BROKEN)
def test_typed_decode_refuses_what_parse_hand_refuses(path: Any, value: Any) -> None:
    """None, never a record, for a hand parse_hand refuses (it says why)."""
    record = broken(path if isinstance(path, tuple) else (path,), value)
    text = json.dumps(record).encode()
    with pytest.raises(ValueError):
        parse_hand(orjson.loads(text))
    assert read_hands(text) is None


def test_a_batch_names_the_hand_the_typed_path_could_not_settle(tmp_path: Any) -> None:
    """A hand that reads well but can't be settled: the error names it, as before."""
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(POLICY))
    blind = hand(seat(1, 400, "As Ad"), seat(2, 400), seat(3, 200, folded=True))
    batch = json.dumps([SHOWDOWN, blind])
    assert read_hands(batch) is not None
    status, output = settle_files(str(policy), "-", io.StringIO(batch))
    error = json.loads(output)["error"]
    assert (status, error["code"]) == (2, "showdown_without_cards")
    assert error["detail"].startswith("Hand 1: ")


def test_the_one_pass_settles_what_the_checked_record_settles() -> None:
    """settle_decoded (the batch command's one pass) answers every decoded record
    as settling its checked record does: the same settlement, the same error."""
    policy = parse_policy(POLICY)
    records = [*dealt(20), SHOWDOWN]
    broken_records = [
        broken(path if isinstance(path, tuple) else (path,), value)
        for path, value in BROKEN
    ]
    for data in records + broken_records:
        try:
            decoded = decode_hands(orjson.dumps(data))
        except (msgspec.DecodeError, TypeError):
            continue
        assert isinstance(decoded, HandJSON)
        outcomes = []
        for how in (settle_decoded, lambda h, p: settle(typed_record(h), p)):
            try:
                outcomes.append(how(decoded, policy).as_json())
            except (HandError, KeyError) as error:
                outcomes.append(repr(error).encode())
        assert outcomes[0] == outcomes[1]


def test_the_settlement_renders_api_md_json_from_its_fields() -> None:
    """Its fields are API.md's keys; the JSON is settle_record's dictionary."""
    settlement = settle(SHOWDOWN, POLICY)
    assert isinstance(settlement, Settlement)
    assert isinstance(settlement.pots[0], SettledPot)
    api = settle_record(SHOWDOWN, POLICY)
    assert orjson.loads(settlement.as_json()) == api == settlement.as_api()
    assert list(api) == [f for f in Settlement.__struct_fields__ if f != "runs"]
    assert settlement.seats[0].won == api["seats"][0]["won"]
    assert settlement.pots[0].winners[0].seat == 1
