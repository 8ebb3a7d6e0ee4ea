"""Every way the engine settles a hand gives the same settlement, byte for byte.

A hand reaches a settlement by several routes, and the fast ones settle only the
hands they can:

* ``settle`` of the decoded JSON, or of its checked record (``parse_hand``): a
  record with one pot goes the one-pass way (``_settle_one_pot``), any other the
  general one (``_settle_any``, whose hands without dead money or a muck go
  ``_form_live_pots``);
* ``settle_decoded`` of the batch command's typed decode (``decode_hands``): the
  common hand in one pass over the decoded seats (``_settle_decoded_one_pot``,
  side pots included), any other by ``settle(typed_record(...))``;
* ``read_hands``, the typed decode checked into records, then ``settle``;
* ``settle_many``, a batch hand by hand (the command's way when a record can't
  be settled from its typed decode);
* ``settle_files``, the command itself, on a batch;
* with ``settlement.ONE_PASS`` off, every hand the general way: dead money's
  pots (``_form_pots_with_dead``), pots level by level (``pots_by_levels``),
  rake pot by pot, each game's own ranking instead of phevaluator's native calls.

Hands are generated as a table deals them: nine-handed showdowns with blinds,
folds, short all-ins and side pots, uncalled raises, ties split to the chip with
odd chips (and amounts that aren't whole chips), hands won without a showdown,
every game, dead money, straddles, mucks, pots run two and three times, and
pushes that differ from the rules (HS7). A hand the engine refuses must be
refused by every route with the same error. No database.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardroom.domain import settlement
from cardroom.domain.cards import CARD_NAMES
from cardroom.domain.errors import HandError
from cardroom.domain.games import GAMES
from cardroom.domain.hand_record import (
    decode_hands,
    parse_hand,
    parse_policy,
    read_hands,
    typed_record,
)
from cardroom.domain.settle_cli import settle_files
from cardroom.domain.settlement import (
    encode,
    settle,
    settle_decoded,
    settle_many,
    settle_record,
)

from .test_properties import SHOWN, hands, policies
from .test_properties_real_tables import real_hands

ROUTE_SETTINGS = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def one_in(n: int, but: bool = False) -> st.SearchStrategy[bool]:
    """True once in ``n`` draws (``but``: False once in ``n``), at about that rate:
    hypothesis draws small integers more often than large ones."""
    return st.sampled_from([but] * (n - 1) + [not but])


@st.composite
def table_hands(draw: st.DrawFn, chip: int) -> dict[str, Any]:
    """Draw a hand as a table deals it: up to ten seats, blinds from the button,
    folds, a level the seats still in call (short stacks all in below it, so side
    pots), now and then a raise nobody called, a tie, a hand won without a
    showdown, pushes (``awarded``) and amounts that aren't whole chips."""
    code = draw(st.sampled_from(["NLHE"] * 6 + sorted(GAMES)))
    game = GAMES[code]
    count = draw(st.integers(2, 10))
    seat_numbers = st.lists(
        st.integers(1, 12), min_size=count, max_size=count, unique=True
    )
    numbers = sorted(draw(seat_numbers))
    button = draw(st.sampled_from(numbers))
    order = sorted(numbers, key=lambda n: (n - button - 1) % 12)  # small blind first
    # A unit below the chip now and then: pots that aren't whole chips (HS5).
    unit = draw(st.sampled_from([chip, chip, chip, max(1, chip // 2)]))
    showdown = draw(one_in(5, True))
    room = (52 - game.board_cards[-1]) // SHOWN[code]
    most = min(4, count, room)
    contenders = (
        draw(st.lists(st.sampled_from(order), min_size=2, max_size=most, unique=True))
        if showdown
        else [draw(st.sampled_from(order))]
    )
    streets = game.streets if showdown else draw(st.integers(1, game.streets))
    level = draw(st.integers(1, 80)) * unit
    rng = random.Random(draw(st.integers(0, 2**32)))
    seats = []
    for i, number in enumerate(order):
        stack = draw(st.integers(1, 120)) * unit
        blind = unit if i == 0 else 2 * unit if i == 1 else 0
        if number in contenders:
            put_in = min(stack, max(level, blind))
        else:
            called = draw(st.sampled_from([0, 0, 0, blind, 2 * unit, level // 2]))
            put_in = min(stack, max(blind, min(called, level)))
        seats.append(
            {
                "seat": number,
                "player": f"P-{number}",
                "stack": stack,
                "present": draw(one_in(10, True)),
                "put_in": put_in,
                "folded": number not in contenders,
            }
        )
    if draw(one_in(5)):  # a last raise nobody called
        raiser = next(s for s in seats if s["seat"] == contenders[0])
        raised = raiser["put_in"] + draw(st.integers(1, 40)) * unit
        raiser["put_in"] = min(raiser["stack"], raised)
    if not any(s["put_in"] for s in seats if not s["folded"]):
        first = next(s for s in seats if not s["folded"])
        first["put_in"] = first["stack"]
    deck = list(CARD_NAMES)
    rng.shuffle(deck)
    board = [deck.pop() for _ in range(game.board_cards[streets - 1])]
    tie = showdown and draw(one_in(3))
    shown: list[list[str]] = []
    for row in seats:
        if showdown and not row["folded"]:
            cards = _mirror(shown[0], deck) if tie and shown else None
            row["cards"] = cards or [deck.pop() for _ in range(SHOWN[code])]
            shown.append(row["cards"])
    seats.sort(key=lambda row: row["seat"])
    if draw(one_in(4)):
        rng.shuffle(seats)  # the record's seat order is the terminal's
    record: dict[str, Any] = {
        "table": "T01",
        "hand_no": draw(st.integers(1, 10**6)),
        "game": code,
        "streets": streets,
        "board": board,
        "seats": seats,
    }
    if not game.is_stud or draw(st.booleans()):
        record["button"] = button
    if draw(one_in(10)):  # the dealer's pushes, right or wrong (HS7)
        paid = sum(s["put_in"] for s in seats)
        winner = draw(st.sampled_from(contenders))
        record["awarded"] = [{"seat": winner, "amount": paid}]
    return record


def _mirror(cards: list[str], deck: list[str]) -> list[str] | None:
    """Return cards of the same ranks as ``cards`` in other suits, taken from the
    deck (a tie in most games), or None when the deck hasn't them."""
    mirrored = []
    for card in cards:
        same_rank = [c for c in deck if c[0] == card[0] and c not in mirrored]
        if not same_rank:
            return None
        mirrored.append(same_rank[0])
    for card in mirrored:
        deck.remove(card)
    return mirrored


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Draw a policy and a batch of one to four hands of all three kinds."""
    policy = draw(policies())
    chip = policy["smallest_chip"]
    if policy["rake"]["scheme"] in ("pot_order", "percent") and draw(st.booleans()):
        policy["rake"]["min_pot"] = draw(st.integers(0, 20)) * chip
        policy["rake"]["caps_by_players"] = [
            {"min_players": 2, "cap": draw(st.integers(0, 10)) * chip},
            {"min_players": 6, "cap": draw(st.integers(0, 20)) * chip},
        ]
    kinds = st.one_of(
        table_hands(chip), table_hands(chip), hands(chip), real_hands(chip)
    )
    batch = draw(st.lists(kinds, min_size=1, max_size=4))
    for record in batch:
        if draw(one_in(12)):
            _break(record, draw(st.sampled_from(sorted(BREAKS))))
    return batch, policy


BREAKS = {
    "a contender shows no cards": "showdown_without_cards",
    "a card twice": "duplicate_card",
    "more put in than the stack": "put_in_above_stack",
    "everyone folded": "no_contender",
}


def _break(record: dict[str, Any], how: str) -> None:
    """Break a hand so that the engine must refuse it (unless it can't be broken
    so: a hand without a showdown shows no cards to take away)."""
    seats = record["seats"]
    shown = [s for s in seats if s.get("cards") and not s.get("mucked")]
    if how == "a contender shows no cards" and len(shown) > 1:
        del shown[-1]["cards"]
    elif how == "a card twice" and shown:
        first = (record["board"] or shown[-1]["cards"])[0]
        shown[0]["cards"] = [first, *shown[0]["cards"][1:]]
    elif how == "more put in than the stack":
        seats[-1]["put_in"] = seats[-1]["stack"] + 1
    elif how == "everyone folded":
        for row in seats:
            row["folded"] = True
            row.pop("mucked", None)


Outcome = tuple[str, Any]
"""A route's answer: ``("settled", JSON bytes)`` or ``("refused", the error)``."""


def outcome(route: Any) -> Outcome:
    """Run a route; return its settlement's JSON or its error object."""
    try:
        return "settled", encode(route())
    except HandError as error:
        body = error.as_dict()["error"]
        body.pop("index", None)
        return "refused", body


def in_batch(answer: Outcome) -> Outcome:
    """A batch's answer as its one hand's: without the refusal's ``Hand 0:``."""
    kind, body = answer
    if kind == "refused":
        assert body["detail"].startswith("Hand 0: ")
        body = dict(body, detail=body["detail"].removeprefix("Hand 0: "))
    return kind, body


TYPED = {"settle_decoded", "settle(typed_record)", "general settle_decoded"}
"""The routes from the typed decode: a record they can't settle they refuse
without saying why (the command then asks ``parse_hand``), unless it is refused
as it settles (a showdown without cards), which they say as the others do."""
NOT_PLAIN = ("refused", {"code": "malformed_hand", "rule": None, "allowed": None})


def agree(answers: dict[str, Outcome]) -> None:
    """Require every route's answer to be the first's (the typed routes may
    refuse a broken record without saying why)."""
    first = answers["settle(JSON)"]
    for route, answer in answers.items():
        if route in TYPED and first[0] == "refused" and answer != first:
            kind, body = answer
            assert (kind, dict(body, detail=None)) == (
                NOT_PLAIN[0],
                dict(NOT_PLAIN[1], detail=None),
            ), route
            assert body["detail"].startswith("Not a plainly valid"), route
            continue
        assert answer == first, route


def routes(record: dict[str, Any], policy: dict[str, Any]) -> dict[str, Outcome]:
    """Settle ``record`` every way the engine can, with the one-pass ways on."""
    text = orjson.dumps(record)
    parsed = parse_policy(policy)
    answers = {
        "settle(JSON)": outcome(lambda: settle(record, policy)),
        "settle(parse_hand)": outcome(lambda: settle(parse_hand(record), parsed)),
        "settle_decoded": outcome(lambda: settle_decoded(decode_hands(text), parsed)),
        "settle(typed_record)": outcome(
            lambda: settle(typed_record(decode_hands(text)), parsed)
        ),
        "settle_many": in_batch(outcome(lambda: settle_many([record], parsed)[0])),
    }
    records = read_hands(text)
    if records is not None:  # None: a record it leaves to parse_hand
        answers["read_hands"] = outcome(lambda: settle(records, parsed))
    one_pass = settlement._settle_decoded_one_pot(decode_hands(text), parsed)
    if one_pass is not None:
        event(f"the command's one pass, {min(len(one_pass.pots), 3)} pots")
    return answers


def general_routes(
    record: dict[str, Any], policy: dict[str, Any]
) -> dict[str, Outcome]:
    """Settle ``record`` the general way only (``ONE_PASS`` off)."""
    text = orjson.dumps(record)
    parsed = parse_policy(policy)
    return {
        "general settle(JSON)": outcome(lambda: settle(record, policy)),
        "general settle_decoded": outcome(
            lambda: settle_decoded(decode_hands(text), parsed)
        ),
    }


@pytest.fixture
def one_pass_off(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Turn the one-pass ways off for a block: ``with one_pass_off(): ...``."""

    class Off:
        def __enter__(self) -> None:
            monkeypatch.setattr(settlement, "ONE_PASS", False)

        def __exit__(self, *exc: object) -> None:
            monkeypatch.setattr(settlement, "ONE_PASS", True)

    return Off


@ROUTE_SETTINGS
@given(case=cases())
def test_every_route_settles_alike(
    case: tuple[list[dict[str, Any]], dict[str, Any]],
    one_pass_off: Any,
    tmp_path: Path,
) -> None:
    """Each hand: the same settlement (or the same refusal) from every route, fast
    and general; the batch: the command prints the settlements of the hands in
    order, or the first hand's refusal with its position."""
    records, policy = case
    expected = []
    for record in records:
        answers = routes(record, policy)
        with one_pass_off():
            answers |= general_routes(record, policy)
        agree(answers)
        first = answers["settle(JSON)"]
        expected.append(first)
        _events(record, first)
        if first[0] == "settled":
            assert orjson.loads(first[1]) == settle_record(record, policy)
    policy_file = tmp_path / "policy.json"
    policy_file.write_text(json.dumps(policy))
    status, output = settle_files(
        str(policy_file), "-", io.StringIO(json.dumps(records))
    )
    refused = [i for i, (kind, _) in enumerate(expected) if kind == "refused"]
    if refused:
        error = json.loads(output)["error"]
        assert (status, error.pop("index")) == (2, refused[0])
        own = expected[refused[0]][1]
        assert error == dict(own, detail=f"Hand {refused[0]}: {own['detail']}")
    else:
        assert status == 0
        assert output == b"[" + b",".join(s for _, s in expected) + b"]\n"


def _events(record: dict[str, Any], answer: Outcome) -> None:
    """Say what kind of hand it was, for hypothesis's statistics."""
    if answer[0] == "refused":
        event(f"refused: {answer[1]['code']}")
        return
    settled = orjson.loads(answer[1])
    pots = settled["pots"]
    event(f"{min(len(pots), 3)} pots" if pots else "no pot")
    if any(len(p["winners"]) > 1 for p in pots):
        event("a split pot")
    if any(p.get("runs") for p in pots):
        event("run more than once")
    if settled["returned"]:
        event("an uncalled bet")
    if settled["exceptions"]:
        event("mispaid")
    for half in [p["winners"] for p in pots] + [p.get("low") or [] for p in pots]:
        if len({w["amount"] for w in half}) > 1:
            event("a split with an odd chip")
    if record["game"] == "NLHE" and len(pots) == 1 and len(pots[0]["eligible"]) > 1:
        event("NLHE, one pot at a showdown")


def test_the_switch_turns_every_one_pass_way_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ONE_PASS off, neither one-pass way nor the live pots are asked."""
    record = {
        "table": "T01",
        "hand_no": 1,
        "game": "NLHE",
        "button": 1,
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": [
            {"seat": 1, "player": "P-1", "stack": 500, "present": True,
             "put_in": 400, "folded": False, "cards": ["As", "Ad"]},
            {"seat": 2, "player": "P-2", "stack": 500, "present": True,
             "put_in": 400, "folded": False, "cards": ["Kh", "Ks"]},
        ],
    }  # fmt: skip
    policy = parse_policy(
        {"currency": "EUR", "smallest_chip": 50, "rake": {"scheme": "none"}}
    )
    asked: list[str] = []
    for name in ("_settle_one_pot", "_settle_decoded_one_pot", "_form_live_pots"):
        real = getattr(settlement, name)

        def spy(*args: Any, _real: Any = real, _name: str = name) -> Any:
            asked.append(_name)
            return _real(*args)

        monkeypatch.setattr(settlement, name, spy)
    text = orjson.dumps(record)
    on = [settle(record, policy), settle_decoded(decode_hands(text), policy)]
    assert asked == ["_settle_one_pot", "_settle_decoded_one_pot"]
    asked.clear()
    monkeypatch.setattr(settlement, "ONE_PASS", False)
    off = [settle(record, policy), settle_decoded(decode_hands(text), policy)]
    assert asked == []
    assert on == off
