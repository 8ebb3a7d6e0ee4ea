"""The terminal's betting and table rules (terminal/static/terminal/js/rules/betting.js
and table.js), run in Node.

Scripted hands with known outcomes, one rule each (the rule cited in the test), go
through ``js/betting_harness.mjs``; the real hands of the PHH dataset are replayed
action by action and must come out as ``cardroom.domain.phh`` records them; and random
legal play on random tables of every game (``js/betting_random.mjs``, many hands to a
Node process) must keep the rules' invariants and give records that the server's
parser accepts and its settlement balances. No database: the rules are pure.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from cardroom.domain.hand_record import parse_hand, parse_policy
from cardroom.domain.phh import VARIANTS, Seating, load_histories, to_record
from cardroom.domain.settlement import settle_record

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="Node.js is not installed: the terminal's rules run in Node"
)

JS = Path(__file__).resolve().parent / "js"
ROOT = Path(__file__).resolve().parents[3]
PHH = ROOT / "tests" / "data" / "phh"
NO_RAKE = parse_policy(
    {"currency": "EUR", "smallest_chip": 1, "rake": {"scheme": "none"}}
)
RAKED = parse_policy(
    {
        "currency": "EUR",
        "smallest_chip": 5,
        "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
        "jackpot_drop": {"amount": 100, "min_participants": 4},
    }
)
GAMES = [
    "NLHE",
    "PLHE",
    "LHE",
    "PLO",
    "PLO5",
    "COURCHEVEL",
    "PLO8",
    "STUD",
    "PLSTUD",
    "STUD8",
    "RAZZ",
    "SOKO",
]
STUD = {"STUD", "PLSTUD", "STUD8", "RAZZ", "SOKO"}
BLINDS = {"small_blind": 50, "big_blind": 100}


def node(script: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Run a harness on ``payload`` and return its answer."""
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(JS / script)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def run(*ops: dict[str, Any]) -> list[dict[str, Any]]:
    """Run one script of ops; return each op's result (no crash allowed)."""
    results: list[dict[str, Any]] = node("betting_harness.mjs", {"jobs": [list(ops)]})[
        "results"
    ][0]
    for op, result in zip(ops, results, strict=True):
        assert "crash" not in result, (op, result["crash"])
    return results


def ok(result: dict[str, Any]) -> Any:
    assert result["ok"], result
    return result["value"]


def refused(result: dict[str, Any], code: str) -> dict[str, Any]:
    assert not result["ok"], result
    error: dict[str, Any] = result["error"]
    assert error["code"] == code, error
    return error


# -- ops -------------------------------------------------------------------------------


def table(
    stacks: dict[int, int], button: int | None = None, **args: Any
) -> dict[str, Any]:
    seats = [{"seat": s, "player": f"P{s}", "stack": n} for s, n in stacks.items()]
    return {"op": "table", "args": {"seats": seats, "button": button, **args}}


def plan(game: str = "NLHE", structure: dict[str, Any] | None = None, **options: Any):
    return {
        "op": "plan",
        "options": {"game": game, "structure": structure or BLINDS, **options},
    }


def hand(**args: Any) -> dict[str, Any]:
    base = {"table": "T01", "startedAt": "2026-11-29T21:00:00+02:00"}
    return {"op": "hand", "args": {**base, **args}}


def act(seat: int, type_: str, to: int | None = None) -> dict[str, Any]:
    return {"op": "act", "seat": seat, "type": type_, "to": to}


def deal(*cards: str) -> dict[str, Any]:
    return {"op": "deal", "cards": list(cards)}


def up(cards: dict[int, str]) -> dict[str, Any]:
    return {"op": "deal", "cards": {str(k): v for k, v in cards.items()}}


def show(seat: int, *cards: str) -> dict[str, Any]:
    return {"op": "show", "seat": seat, "cards": list(cards)}


def op(name: str, **fields: Any) -> dict[str, Any]:
    return {"op": name, **fields}


def settle(record: dict[str, Any], policy: Any = NO_RAKE) -> dict[str, Any]:
    parse_hand(record)
    settlement: dict[str, Any] = settle_record(record, policy)
    return settlement


def finals(settlement: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["final_stack"] for s in settlement["seats"]}


SIX = {s: 10000 for s in range(1, 7)}
"""Six players of €100, seats 1-6; with ``button=6`` the first hand's button is seat 1,
small blind 2, big blind 3 (the button moves to the next seat, RR)."""


# -- the table: button, blinds, missed blinds, new players, straddle -------------------


def test_table_state_from_the_server_keeps_what_the_tablet_knows() -> None:
    """The server's table state (GET tables/{table}/state: seats with state and
    away_since, last_hand, structure.kind) becomes the table; merged with the tablet's
    own state, a player already seated keeps his missed blinds, one the tablet has not
    seen is a new player, and the blind positions of the last hand stay."""
    server = {
        "seats": [
            {
                "seat": 1,
                "player": "P-1",
                "name": "A",
                "stack": 5000,
                "state": "playing",
            },
            {"seat": 4, "player": "P-4", "name": "B", "stack": 5000, "state": "away"},
            {
                "seat": 6,
                "player": "P-6",
                "name": "C",
                "stack": 5000,
                "state": "playing",
            },
        ],
        "last_hand": {"hand_no": 41, "button": 4},
        "tournament": None,
    }
    structure = {"kind": "PL", "small_blind": 50, "big_blind": 100, "straddle": None}
    later = {**server, "seats": [*server["seats"], {**server["seats"][0], "seat": 8}]}
    later["seats"][-1]["player"] = "P-8"
    res = run(
        {"op": "table", "args": server},
        plan("NLHE", structure),
        {"op": "table", "args": {**server, "last_hand": {"hand_no": 40, "button": 1}}},
        op("after"),
        {"op": "table", "args": later, "keep": True},
    )
    state = ok(res[0])
    assert state["lastHandNo"] == 41 and state["button"] == 4
    assert [(x["seat"], x["away"], x["status"]) for x in state["seats"]] == [
        (1, False, "active"),
        (4, True, "active"),
        (6, False, "active"),
    ]
    p = ok(res[1])
    assert p["handNo"] == 42 and p["structure"]["betting"] == "pot_limit"
    assert p["headsUp"] and (p["button"], p["bigBlind"]) == (6, 1)
    assert {"seat": 4, "reason": "away"} in p["waiting"]
    merged = ok(res[4])
    assert (merged["lastHandNo"], merged["button"], merged["bigBlind"]) == (42, 6, 1)
    assert [(x["seat"], x["status"]) for x in merged["seats"]] == [
        (1, "active"),
        (4, "active"),
        (6, "active"),
        (8, "new"),
    ]


def test_first_hand_moves_the_button_and_posts_the_blinds() -> None:
    """RR Buttons and blinds: the button moves one seat clockwise; the small blind left
    of it, the big blind next; the first seat left of the big blind acts first."""
    res = run(table(SIX, button=6), plan(), hand())
    p = ok(res[1])
    assert (p["button"], p["smallBlind"], p["bigBlind"]) == (1, 2, 3)
    assert [(x["seat"], x["kind"], x["live"], x["dead"]) for x in p["posts"]] == [
        (2, "small_blind", 50, 0),
        (3, "big_blind", 100, 0),
    ]
    assert [x["seat"] for x in p["seats"]] == [1, 2, 3, 4, 5, 6]
    look = ok(res[2])
    assert look["toAct"] == 4
    assert look["options"]["call"] == {"to": 100, "amount": 100}
    assert look["options"]["raise"] == {"min": 200, "max": 10000}
    assert look["options"]["check"] is False


def test_dead_button_when_the_small_blind_leaves() -> None:
    """RR Buttons and blinds 2b (dead button): the last small blind's seat is empty, so
    the button stays there, dead; the last big blind posts the small blind and the big
    blind moves on. After the flop the first seat left of the dead button acts."""
    res = run(
        table(SIX, button=6),
        plan(),
        op("after"),
        op("leave", seat=2),
        plan(),
        hand(),
        act(5, "call"),
        act(6, "call"),
        act(1, "call"),
        act(3, "call"),
        act(4, "check"),
        deal("Ah", "Kd", "7c"),
    )
    p = ok(res[4])
    assert (p["button"], p["smallBlind"], p["bigBlind"]) == (2, 3, 4)
    assert [x["seat"] for x in p["seats"]] == [1, 3, 4, 5, 6]
    assert ok(res[5])["toAct"] == 5  # left of the big blind
    assert ok(res[11])["toAct"] == 3  # first seat left of the dead button


def test_no_small_blind_when_the_big_blind_leaves() -> None:
    """RR Buttons and blinds 2b: the last big blind's seat is empty, so no small blind
    is posted this hand; the big blind moves to the next player, the button to the last
    small blind."""
    res = run(table(SIX, button=6), plan(), op("after"), op("leave", seat=3), plan())
    p = ok(res[4])
    assert (p["button"], p["smallBlind"], p["bigBlind"]) == (2, 3, 4)
    assert [x["kind"] for x in p["posts"]] == ["big_blind"]


def test_heads_up_button_posts_the_small_blind() -> None:
    """RR Buttons and blinds 3, TDA: heads-up the button posts the small blind and acts
    first before the flop, last after it."""
    res = run(
        table({2: 5000, 7: 5000}, button=2),
        plan(),
        hand(),
        act(7, "call"),
        act(2, "check"),
        deal("2c", "3d", "9h"),
    )
    p = ok(res[1])
    assert p["headsUp"] and p["button"] == 7 and p["smallBlind"] == 7
    assert p["bigBlind"] == 2
    assert ok(res[2])["toAct"] == 7
    assert ok(res[3])["toAct"] == 2 and ok(res[3])["options"]["check"] is True  # option
    assert ok(res[5])["toAct"] == 2  # after the flop the big blind acts first


def test_going_heads_up_nobody_takes_the_big_blind_twice() -> None:
    """TDA Heads-up: going heads-up, the button is set so that no player posts the big
    blind twice running: the big blind goes to the player who didn't have it."""
    res = run(table({1: 5000, 2: 5000, 3: 5000}, button=3), plan(), op("after"))
    state = ok(res[2])
    assert (state["button"], state["smallBlind"], state["bigBlind"]) == (1, 2, 3)
    res = run(
        table({1: 5000, 2: 5000, 3: 5000}, button=3),
        plan(),
        op("after"),
        op("leave", seat=1),
        plan(),
    )
    p = ok(res[4])
    assert p["headsUp"] and p["bigBlind"] == 2 and p["button"] == 3


def test_missed_big_blind_then_small_posted_live_and_dead() -> None:
    """FI "Maksamatta jääneet blindit", RR Buttons and blinds: seat 3 posts the big
    blind and steps away (BI9): he misses the small blind next hand, then the big blind
    when it passes him. Back at the table he posts the big blind live and the small
    blind dead (HS2): the dead part is never returned, the live part is his bet."""
    ops: list[dict[str, Any]] = [table(SIX, button=6), plan(), op("after")]
    ops += [op("away", seat=3, away=True)]
    for _ in range(6):  # around the table: the big blind passes seat 3 again
        ops += [plan(), op("after")]
    ops += [op("state")]
    res = run(*ops)
    misses = [
        ok(r)["misses"] for r in res if r["ok"] and "misses" in (r["value"] or {})
    ]
    assert misses[1] == [{"seat": 3, "blind": "small"}]
    assert {"seat": 3, "blind": "big"} in [m for ms in misses for m in ms]
    state = ok(res[-1])
    row = next(x for x in state["seats"] if x["seat"] == 3)
    assert row["missed"] == {"small": True, "big": True}
    assert state["bigBlind"] == 4  # the big blind went on past him
    # Back, seat 3 is first between the button (2) and the small blind (4): he waits.
    ops += [op("away", seat=3, away=False), plan(post=[3])]
    res = run(*ops)
    between = ok(res[-1])
    assert (between["bigBlind"], between["smallBlind"], between["button"]) == (5, 4, 2)
    assert {"seat": 3, "reason": "between_blinds_and_button"} in between["waiting"]
    # Next hand he is left of the big blind (6): he may post or wait.
    ops += [op("after"), plan(), plan(post=[3])]
    res = run(*ops)
    waiting = ok(res[-2])
    assert waiting["canPost"] == [3]
    assert {"seat": 3, "reason": "missed_blinds"} in waiting["waiting"]
    posting = ok(res[-1])
    assert (posting["bigBlind"], posting["button"]) == (6, 4)
    mine = [
        (x["kind"], x["live"], x["dead"]) for x in posting["posts"] if x["seat"] == 3
    ]
    assert mine == [("missed_big_blind", 100, 0), ("missed_small_blind", 0, 50)]
    # Everyone folds to seat 3's raise: his dead small blind stays in the pot.
    res = run(
        *ops,
        hand(),
        act(1, "fold"),
        act(2, "fold"),
        act(3, "raise", 300),
        act(4, "fold"),
        act(5, "fold"),
        act(6, "fold"),
        op("record"),
        op("after"),
    )
    record = ok(res[-2])
    row = next(s for s in record["seats"] if s["seat"] == 3)
    assert (row["put_in"], row["dead"]) == (350, 50)
    settlement = settle(record)
    assert settlement["returned"] == [{"seat": 3, "amount": 200}]
    # He wins his own 150 and the blinds, 50 and 100.
    assert finals(settlement)[3] == 10000 + 150
    after = ok(res[-1])
    assert next(x for x in after["seats"] if x["seat"] == 3)["missed"] == {
        "small": False,
        "big": False,
    }


def test_returning_player_on_the_button_waits() -> None:
    """RR Buttons and blinds: a player owing blinds is not dealt in between the blinds
    and the button; he waits for the big blind or a seat where he may post."""
    ops: list[dict[str, Any]] = [table(SIX, button=6), plan(), op("after")]
    ops += [
        op("away", seat=4, away=True),
        plan(),
        op("after"),
    ]  # 4 misses the big blind
    ops += [op("away", seat=4, away=False), plan(post=[4])]
    res = run(*ops)
    missed = ok(res[4])["misses"]
    assert missed == [{"seat": 4, "blind": "big"}]
    p = ok(res[-1])
    assert (p["button"], p["smallBlind"], p["bigBlind"]) == (3, 5, 6)
    assert {"seat": 4, "reason": "between_blinds_and_button"} in p["waiting"]
    assert 4 not in [x["seat"] for x in p["seats"]]


def test_new_player_posts_a_live_big_blind_or_waits() -> None:
    """RR Buttons and blinds: a new player posts a big blind to play at once (a live
    blind: he has the option when the pot is only called) or waits for the big blind."""
    base = [
        table(SIX, button=6),
        plan(),
        op("after"),
        op("seat", seat=8, player="P8", stack=5000),
    ]
    res = run(*base, plan())
    p = ok(res[-1])
    assert (p["button"], p["smallBlind"], p["bigBlind"]) == (2, 3, 4)
    assert p["canPost"] == [8]
    assert {"seat": 8, "reason": "new_player"} in p["waiting"]
    res = run(
        *base, plan(post=[8]), hand(), act(5, "call"), act(6, "call"), act(8, "check")
    )
    p = ok(res[4])
    assert {
        "seat": 8,
        "kind": "new_player_blind",
        "amount": 100,
        "live": 100,
        "dead": 0,
    } in p["posts"]
    assert ok(res[5])["toAct"] == 5
    look = ok(res[7])
    assert look["toAct"] == 8 and look["options"]["check"] is True
    assert look["options"]["raise"] == {"min": 200, "max": 5000}
    assert ok(res[8])["toAct"] == 1


def test_new_player_on_the_small_blind_waits_then_plays_his_big_blind() -> None:
    """RR Buttons and blinds: a new player in the small-blind seat is not dealt in; when
    the big blind reaches him he posts it and plays on as any player."""
    res = run(
        table({1: 5000, 3: 5000, 5: 5000, 7: 5000}, button=7),
        plan(),
        op("after"),
        op("seat", seat=4, player="P4", stack=3000),
        *[plan(), op("after")] * 4,
        op("state"),
    )
    first = ok(res[1])
    assert (first["button"], first["smallBlind"], first["bigBlind"]) == (1, 3, 5)
    second = ok(res[4])
    assert (second["button"], second["smallBlind"], second["bigBlind"]) == (3, 5, 7)
    assert {"seat": 4, "reason": "between_blinds_and_button"} in second["waiting"]
    third = ok(res[6])
    assert third["bigBlind"] == 1 and third["canPost"] == [4]
    assert {"seat": 4, "reason": "new_player"} in third["waiting"]
    fifth = ok(res[10])
    assert fifth["bigBlind"] == 4
    assert [x["kind"] for x in fifth["posts"] if x["seat"] == 4] == ["big_blind"]
    state = ok(res[-1])
    assert next(x for x in state["seats"] if x["seat"] == 4)["status"] == "active"


def test_new_game_when_fewer_than_two_are_ready() -> None:
    """RR Buttons and blinds 5: with only new players besides one, the game starts
    again: everyone present is dealt in and nobody owes a blind."""
    res = run(
        table({1: 5000}, button=1),
        op("seat", seat=3, player="P3", stack=5000),
        op("seat", seat=5, player="P5", stack=5000),
        plan(),
    )
    p = ok(res[-1])
    assert p["newGame"] is True
    assert [x["seat"] for x in p["seats"]] == [1, 3, 5]
    assert sorted(x["kind"] for x in p["posts"]) == ["big_blind", "small_blind"]


def test_straddle_is_a_live_blind_and_acts_last() -> None:
    """HS11: the straddle (two big blinds, left of the big blind) is a live blind: play
    starts left of it, the minimum raise is two straddles, and when everyone calls the
    straddler acts last with the option to raise."""
    res = run(
        table(SIX, button=6),
        plan(straddle=4),
        hand(),
        act(5, "raise", 300),
        act(5, "call"),
        act(6, "call"),
        act(1, "call"),
        act(2, "call"),
        act(3, "call"),
        act(4, "check"),
    )
    p = ok(res[1])
    assert p["straddle"] == 4
    assert {"seat": 4, "kind": "straddle", "amount": 200, "live": 200, "dead": 0} in p[
        "posts"
    ]
    look = ok(res[2])
    assert look["toAct"] == 5
    assert look["options"]["call"]["to"] == 200
    assert look["options"]["raise"]["min"] == 400
    error = refused(res[3], "below_minimum")
    assert error["allowed"] == {"min": 400, "max": 10000}
    assert ok(res[8])["toAct"] == 4 and ok(res[8])["options"]["check"] is True
    assert ok(res[9])["street"] == 2 and ok(res[9])["needs"]["count"] == 3
    res = run(
        table(SIX, button=6),
        plan(straddle=4),
        hand(),
        *[act(s, "fold") for s in (5, 6, 1, 2, 3)],
        op("record"),
    )
    record = ok(res[-1])
    assert next(s for s in record["seats"] if s["seat"] == 4)["straddle"] == 200
    assert settle(record)["returned"] == [{"seat": 4, "amount": 100}]


def test_straddle_only_left_of_the_big_blind_and_not_in_limit() -> None:
    """HS11, RR Limit: only the seat left of the big blind straddles; limit games have
    no straddle."""
    res = run(
        table(SIX, button=6), plan(straddle=5), plan("LHE"), plan("LHE", straddle=4)
    )
    error = refused(res[1], "straddle_not_allowed")
    assert error["allowed"] == {"seats": [4]}
    assert ok(res[2])["canStraddle"] is None
    refused(res[3], "straddle_not_allowed")


def test_antes_are_dead_money_and_big_blind_ante() -> None:
    """HS2: antes are dead money; a big-blind ante is posted once, by the big blind,
    after his blind (TDA Big blind ante)."""
    res = run(
        table({1: 1000, 2: 1000, 3: 1000}, button=3),
        plan(structure={**BLINDS, "ante": 25}),
        plan(structure={**BLINDS, "ante": 100, "big_blind_ante": True}),
    )
    antes = ok(res[1])["posts"]
    assert [(x["seat"], x["kind"], x["dead"]) for x in antes[:3]] == [
        (1, "ante", 25),
        (2, "ante", 25),
        (3, "ante", 25),
    ]
    bba = ok(res[2])["posts"]
    assert [(x["seat"], x["kind"], x["live"], x["dead"]) for x in bba] == [
        (2, "small_blind", 50, 0),
        (3, "big_blind", 100, 0),
        (3, "big_blind_ante", 0, 100),
    ]


def test_short_blind_is_all_in_and_the_others_call_the_full_blind() -> None:
    """RR Buttons and blinds 1, BI3: a big blind short of chips posts what he has and
    is all in; the others still call the full big blind."""
    res = run(table({1: 5000, 2: 5000, 3: 60}, button=3), plan(), hand())
    p = ok(res[1])
    assert [(x["seat"], x["amount"]) for x in p["posts"]] == [(2, 50), (3, 60)]
    look = ok(res[2])
    assert look["toAct"] == 1 and look["options"]["call"]["to"] == 100


def test_tournament_absent_player_is_dealt_in_and_his_hand_is_dead() -> None:
    """TDA: at a tournament table an absent player is dealt in and posts, and his hand
    is dead; the record says he was not present (JD1)."""
    res = run(
        table({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, tournament=True),
        plan(present=[1, 2, 4]),
        hand(),
        act(4, "call"),
        act(1, "fold"),
        act(2, "fold"),
        op("record"),
    )
    p = ok(res[1])
    assert next(x for x in p["seats"] if x["seat"] == 3)["present"] is False
    assert ok(res[2])["toAct"] == 4  # left of the big blind
    assert ok(res[5])["over"]  # the absent big blind's hand is dead at his turn
    record = ok(res[-1])
    row = next(s for s in record["seats"] if s["seat"] == 3)
    assert (row["present"], row["folded"], row["put_in"]) == (False, True, 100)
    assert finals(settle(record))[4] == 5000 + 150


# -- betting: no limit, full-bet rule, pot limit, limit --------------------------------


def flop(*seats_acts: dict[str, Any]) -> list[dict[str, Any]]:
    """Six players limp in (seat 3 checks his option) and see a flop."""
    return [
        table(SIX, button=6),
        plan(),
        hand(),
        act(4, "call"),
        act(5, "call"),
        act(6, "call"),
        act(1, "call"),
        act(2, "call"),
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        *seats_acts,
    ]


def test_no_limit_minimum_raise_is_the_last_full_raise() -> None:
    """RR No limit 4: a raise is at least the last bet or raise of the round."""
    res = run(*flop(act(2, "bet", 100), act(3, "raise", 250), act(4, "raise", 399)))
    look = ok(res[-2])
    assert look["options"]["raise"]["min"] == 400
    error = refused(res[-1], "below_minimum")
    assert error["allowed"] == {"min": 400, "max": 10000 - 100}
    assert error["rule"] == "RR No limit 4"


def test_no_limit_bet_below_the_big_blind_refused() -> None:
    """RR No limit 2: a bet is at least the big blind, unless all in."""
    res = run(*flop(act(2, "bet", 50)))
    assert refused(res[-1], "below_minimum")["allowed"] == {"min": 100, "max": 9900}


def test_short_all_in_does_not_reopen_the_betting() -> None:
    """FI "Full bet": seat 2 bets 100, seat 3 is all in for 150 (short of a full raise),
    seat 4 calls; back at seat 2 he may call or fold, not raise."""
    stacks = {**SIX, 3: 250}
    res = run(
        table(stacks, button=6),
        plan(),
        hand(),
        *[act(s, "call") for s in (4, 5, 6, 1, 2)],
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        act(2, "bet", 100),
        act(3, "allin"),
        act(4, "call"),
        act(5, "fold"),
        act(6, "fold"),
        act(1, "fold"),
        op("look"),
        act(2, "raise", 400),
        act(2, "call"),
    )
    look = ok(res[-3])
    assert look["toAct"] == 2
    opts = look["options"]
    assert opts["raise"] is None and opts["allIn"] is None
    assert opts["call"] == {"to": 150, "amount": 50}
    error = refused(res[-2], "not_reopened")
    assert error["rule"] == "FI Full bet"
    assert error["allowed"] == {"call": 150}
    assert ok(res[-1])["street"] == 3


def test_short_all_in_leaves_the_minimum_raise() -> None:
    """RR No limit 4: after seat 2 bets 100 and seat 3 is all in for 140, a raise is to
    at least 240: the short all-in does not change the last full raise."""
    stacks = {**SIX, 3: 240}
    res = run(
        table(stacks, button=6),
        plan(),
        hand(),
        *[act(s, "call") for s in (4, 5, 6, 1, 2)],
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        act(2, "bet", 100),
        act(3, "allin"),
        op("look"),
    )
    assert ok(res[-1])["options"]["raise"]["min"] == 240


def test_short_all_in_bet_below_the_big_blind() -> None:
    """RR No limit 2: all in for 20 on the flop (big blind 100): a raise is to at least
    120."""
    stacks = {**SIX, 2: 120}
    res = run(
        table(stacks, button=6),
        plan(),
        hand(),
        *[act(s, "call") for s in (4, 5, 6, 1, 2)],
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        act(2, "allin"),
        op("look"),
    )
    assert ok(res[-1])["options"]["raise"]["min"] == 120


def test_short_all_ins_that_add_up_to_a_full_raise_reopen() -> None:
    """TDA Re-opening the bet: A bets 100, B all in 125, C calls, D all in 200, E calls:
    A faces 100 more, a full raise: he may raise again, to at least 300."""
    stacks = {1: 10000, 2: 10000, 3: 225, 4: 10000, 5: 300, 6: 10000}
    res = run(
        table(stacks, button=6),
        plan(),
        hand(),
        *[act(s, "call") for s in (4, 5, 6, 1, 2)],
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        act(2, "bet", 100),
        act(3, "allin"),
        act(4, "call"),
        act(5, "allin"),
        act(6, "call"),
        act(1, "fold"),
        op("look"),
    )
    look = ok(res[-1])
    assert look["toAct"] == 2
    assert look["options"]["raise"]["min"] == 300


def test_pot_limit_maximum_is_the_pot_after_calling() -> None:
    """RR Pot limit: the maximum raise is the pot after calling: with blinds 50/100 the
    first player may raise to 350; after a call and a pot raise the next may go to
    1350. Above it is refused with the maximum."""
    res = run(
        table(SIX, button=6),
        plan("PLO"),
        hand(),
        act(4, "raise", 351),
        act(4, "raise", 350),
        act(5, "call"),
        act(6, "raise", 1551),
    )
    assert ok(res[2])["options"]["raise"] == {"min": 200, "max": 350}
    assert ok(res[2])["options"]["potLimitMax"] == 350
    error = refused(res[3], "above_maximum")
    assert (
        error["allowed"] == {"min": 200, "max": 350} and error["rule"] == "RR Pot limit"
    )
    # pot 150 + 350 + 350 = 850; seat 6 calls 350: 1200, raises 1200: to 1550
    assert refused(res[6], "above_maximum")["allowed"] == {"min": 600, "max": 1550}
    res = run(
        table(SIX, button=6),
        plan("PLO"),
        hand(),
        act(4, "raise", 350),
        act(5, "call"),
        act(6, "raise", 1550),
        op("look"),
    )
    look = ok(res[-1])
    assert look["toAct"] == 1
    # pot 150 + 350 + 350 + 1550 = 2400; call 1550 → 3950; to 1550 + 3950 = 5500
    assert look["options"]["raise"] == {"min": 2750, "max": 5500}


def test_pot_limit_allows_the_minimum_bet_in_an_empty_pot() -> None:
    """RR Pot limit: with no antes the first stud bet may still be the small bet."""
    res = run(
        table({1: 5000, 2: 5000, 3: 5000}),
        plan("PLSTUD", {"small_blind": 50, "big_blind": 100, "bring_in": 0}),
        hand(),
        up({1: "9c", 2: "3d", 3: "Kh"}),
    )
    look = ok(res[-1])
    assert look["toAct"] == 2
    assert look["options"]["bet"] == {"min": 100, "max": 100}


def test_limit_bets_are_fixed_and_capped_at_three_raises() -> None:
    """RR Limit: a raise is exactly one small bet before the turn; a bet and three
    raises cap the round when more than two players are in."""
    res = run(
        table(SIX, button=6),
        plan("LHE"),
        hand(),
        act(4, "raise", 250),
        act(4, "raise", 200),
        act(5, "raise", 300),
        act(6, "raise", 400),
        op("look"),
        act(1, "raise", 500),
    )
    assert refused(res[3], "not_limit_size")["allowed"] == {
        "min": 200,
        "max": 200,
        "sizes": [200],
    }
    look = ok(res[7])
    assert look["toAct"] == 1
    assert look["options"]["raise"] is None
    assert look["options"]["call"]["to"] == 400
    assert refused(res[8], "cap_reached")["rule"] == "RR Limit"


def test_limit_heads_up_is_uncapped() -> None:
    """RR Limit: with two players the raising is unlimited (house default,
    structure.heads_up_uncapped)."""
    ops: list[dict[str, Any]] = [
        table({1: 5000, 2: 5000}, button=1),
        plan("LHE"),
        hand(),
    ]
    to = 100
    seat = 2  # the button (small blind) acts first heads-up
    for _ in range(6):
        to += 100
        ops.append(act(seat, "raise", to))
        seat = 1 if seat == 2 else 2
    res = run(*ops)
    assert all(r["ok"] for r in res)
    assert ok(res[-1])["options"]["raise"]["min"] == 800


def test_limit_turn_bets_are_big_bets() -> None:
    """RR Limit: from the turn on, bets and raises are the big bet."""
    res = run(
        table({1: 5000, 2: 5000, 3: 5000}, button=3),
        plan("LHE"),
        hand(),
        act(1, "call"),
        act(2, "call"),
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        act(2, "bet", 100),
        act(3, "call"),
        act(1, "call"),
        deal("9s"),
        act(2, "bet", 100),
        act(2, "bet", 200),
    )
    assert refused(res[-2], "not_limit_size")["allowed"]["sizes"] == [200]
    assert ok(res[-1])["options"]["raise"]["sizes"] == [400]


def test_limit_short_all_in_bet_may_be_completed() -> None:
    """FI "Full bet", RR Limit: an all-in bet short of the full bet is completed to the
    full bet by the next player; it does not count as a bet for the player before."""
    res = run(
        table({1: 5000, 2: 5000, 3: 180}, button=3),
        plan("LHE"),
        hand(),
        act(1, "call"),
        act(2, "call"),
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        act(2, "check"),
        act(3, "allin"),
        op("look"),
    )
    opts = ok(res[-1])["options"]
    assert opts["call"] == {"to": 80, "amount": 80}
    assert opts["raise"] == {"min": 100, "max": 100, "sizes": [100]}


def test_check_facing_a_bet_out_of_turn_and_above_the_stack_refused() -> None:
    """RR: a check facing a bet, an action out of turn and a bet above the stack (BI3,
    table stakes) are refused, with what is allowed; nothing changes."""
    res = run(
        *flop(
            act(2, "bet", 100), act(3, "check"), act(4, "call"), act(3, "raise", 20000)
        )
    )
    error = refused(res[-3], "cannot_check")
    assert error["allowed"] == {"call": 100}
    error = refused(res[-2], "not_your_turn")
    assert error["allowed"] == {"seats": [3]}
    error = refused(res[-1], "above_stack")
    assert error["rule"] == "BI3" and error["allowed"] == {"max": 9900}


# -- stud games ------------------------------------------------------------------------

STUD_STAKES = {"small_blind": 50, "big_blind": 100, "ante": 10}


def test_stud_lowest_card_brings_in_by_suit() -> None:
    """RR Stud: the lowest up-card brings in, ties by suit (clubs lowest); the bring-in
    seat brings in or completes; the next may call the bring-in or complete to the small
    bet."""
    res = run(
        table({1: 2000, 2: 2000, 3: 2000, 4: 2000}),
        plan("STUD", STUD_STAKES),
        hand(),
        up({1: "2d", 2: "Ks", 3: "2c", 4: "As"}),
        act(3, "fold"),
        act(3, "bring_in"),
        act(4, "raise", 150),
        act(4, "raise", 100),
    )
    p = ok(res[1])
    assert p["button"] is None
    assert [x["kind"] for x in p["posts"]] == ["ante"] * 4
    assert ok(res[2])["needs"] == {"kind": "up", "street": 1, "seats": [1, 2, 3, 4]}
    look = ok(res[3])
    assert look["toAct"] == 3
    assert look["options"]["bringIn"] == {"to": 50}
    assert look["options"]["bet"] == {"min": 100, "max": 100, "sizes": [100]}
    assert look["options"]["fold"] is False
    assert refused(res[4], "bring_in_required")["rule"] == "RR Stud"
    opts = ok(res[5])["options"]
    assert opts["call"] == {"to": 50, "amount": 50}
    assert opts["raise"]["sizes"] == [100]  # complete to the small bet
    refused(res[6], "not_limit_size")
    assert ok(res[7])["options"]["raise"]["sizes"] == [200]


def test_stud_bring_in_has_no_option_and_the_completion_reopens() -> None:
    """RR Stud: the bring-in is a live bet (HS11) but not a blind: when the others only
    call it the round ends; after a completion the bring-in may raise."""
    res = run(
        table({1: 2000, 2: 2000, 3: 2000}),
        plan("STUD", STUD_STAKES),
        hand(),
        up({1: "9d", 2: "3s", 3: "Jc"}),
        act(2, "bring_in"),
        act(3, "call"),
        act(1, "call"),
    )
    look = ok(res[-1])
    assert look["street"] == 2 and look["needs"]["kind"] == "up"
    res = run(
        table({1: 2000, 2: 2000, 3: 2000}),
        plan("STUD", STUD_STAKES),
        hand(),
        up({1: "9d", 2: "3s", 3: "Jc"}),
        act(2, "bring_in"),
        act(3, "raise", 100),
        act(1, "call"),
    )
    look = ok(res[-1])
    assert look["toAct"] == 2 and look["options"]["raise"]["sizes"] == [200]


def test_stud_highest_hand_showing_acts_first_on_fourth_street() -> None:
    """RR Stud: from fourth street the highest hand showing acts first; equal hands, the
    seat nearest the dealer's left. An open pair on fourth street allows the big bet."""
    res = run(
        table({1: 2000, 2: 2000, 3: 2000}),
        plan("STUD", STUD_STAKES),
        hand(),
        up({1: "Kd", 2: "3s", 3: "Kc"}),
        act(2, "bring_in"),
        act(3, "call"),
        act(1, "call"),
        up({1: "7h", 2: "3d", 3: "7c"}),
    )
    look = ok(res[-1])
    assert look["toAct"] == 2  # a pair of threes beats king-seven
    assert look["options"]["bet"]["sizes"] == [100, 200]
    res = run(
        table({1: 2000, 2: 2000, 3: 2000}),
        plan("STUD", STUD_STAKES),
        hand(),
        up({1: "Kd", 2: "3s", 3: "Kc"}),
        act(2, "bring_in"),
        act(3, "call"),
        act(1, "call"),
        up({1: "7h", 2: "4d", 3: "7c"}),
    )
    look = ok(res[-1])
    assert look["toAct"] == 1  # two king-sevens: the seat nearer the dealer's left
    assert look["options"]["bet"]["sizes"] == [100]


def test_razz_highest_card_brings_in_and_lowest_showing_acts_first() -> None:
    """RR Razz: the highest up-card brings in (king high, ace low; ties: spades
    highest); later the lowest hand showing acts first, a pair being bad."""
    res = run(
        table({1: 2000, 2: 2000, 3: 2000}),
        plan("RAZZ", STUD_STAKES),
        hand(),
        up({1: "Kc", 2: "Ah", 3: "Ks"}),
        act(3, "bring_in"),
        act(1, "call"),
        act(2, "call"),
        up({1: "2c", 2: "Ad", 3: "5s"}),
    )
    assert ok(res[3])["toAct"] == 3  # the king of spades over the king of clubs
    # Showing: seat 1 K-2 is lowest, seat 3 K-5 next, seat 2's pair of aces worst.
    assert ok(res[-1])["toAct"] == 1


def test_soko_highest_card_brings_in_and_four_flush_beats_a_pair() -> None:
    """Sökö (HS9, FI): the highest up-card brings in (ties: spades highest); showing, a
    four-card flush ranks above one pair."""
    res = run(
        table({1: 3000, 2: 3000, 3: 3000}),
        plan("SOKO", STUD_STAKES),
        hand(),
        up({1: "Ah", 2: "As", 3: "2c"}),
    )
    look = ok(res[-1])
    assert look["toAct"] == 2
    assert look["options"]["bringIn"] == {"to": 50}
    # pot limit, but the pot (three antes) is below the minimum bet: the small bet
    assert look["options"]["bet"] == {"min": 100, "max": 100}
    ops = [
        table({1: 3000, 2: 3000}),
        plan("SOKO", STUD_STAKES),
        hand(),
        up({1: "2h", 2: "9s"}),
        act(2, "bring_in"),
        act(1, "call"),
    ]
    for one, two in (("7h", "9c"), ("Th", "4d"), ("Jh", "5c")):
        ops += [up({1: one, 2: two}), op("look")]
        ops += [act(2, "check"), act(1, "check")] if two != "5c" else []
    res = run(*ops)
    # third card: seat 2's pair of nines first; fifth: seat 1's four hearts beat it
    assert ok(res[-5])["toAct"] == 2
    assert ok(res[-1])["toAct"] == 1


# -- cards, all in, run twice, showdown, record ----------------------------------------


def test_courchevel_deals_a_board_card_before_the_first_round() -> None:
    """HS9: Courchevel deals its first board card with the hole cards."""
    res = run(
        table({1: 5000, 2: 5000, 3: 5000}, button=3),
        plan("COURCHEVEL"),
        hand(),
        deal("Qs"),
    )
    assert ok(res[2])["needs"] == {"kind": "board", "street": 1, "run": 1, "count": 1}
    assert ok(res[2])["toAct"] is None
    look = ok(res[3])
    assert look["toAct"] == 1 and look["board"] == ["Qs"]


def test_no_run_twice_while_a_bet_is_to_answer() -> None:
    """HS10: the big blind is all in on his blind in Courchevel, but the button still
    has a bet to answer: no running twice, no showing, until he calls."""
    res = run(
        table({3: 58, 5: 300}, button=3),
        plan("COURCHEVEL"),
        hand(),
        op("run2"),
        show(3, "Ah", "Ad", "Kc", "Kd", "2s"),
        deal("Qs"),
        act(5, "call"),
        op("run2"),
    )
    assert ok(res[2])["canRunTwice"] is False
    refused(res[3], "cannot_run_twice")
    refused(res[4], "not_at_showdown")
    assert ok(res[5])["toAct"] == 5
    look = ok(res[6])
    assert look["canRunTwice"] is True and look["needs"]["street"] == 2
    assert ok(res[7])["needs"] == {"kind": "board", "street": 2, "run": 1, "count": 2}


def test_cards_checked_for_form_count_and_duplicates() -> None:
    """HS9, RK8: cards are two characters, as many as the street deals, never twice."""
    checks = [act(s, "check") for s in (2, 3, 4, 5, 6, 1)]
    res = run(*flop(*checks, deal("Ah", "Ad"), deal("Kh"), deal("Kx")))
    refused(res[-3], "wrong_card_count")
    refused(res[-2], "duplicate_card")
    refused(res[-1], "bad_card")


def test_everyone_folds_the_big_blind_wins() -> None:
    """HS3, RK5: everyone folds to the big blind; the small blind's money is his, and
    the record settles with nothing to show down."""
    res = run(
        table(SIX, button=6),
        plan(),
        hand(),
        *[act(s, "fold") for s in (4, 5, 6, 1, 2)],
        op("record"),
    )
    look = ok(res[-2])
    assert look["over"] and look["toAct"] is None and look["needs"] is None
    record = ok(res[-1])
    assert record["streets"] == 1 and record["board"] == [] and record["button"] == 1
    settlement = settle(record, RAKED)
    assert settlement["returned"] == [{"seat": 3, "amount": 50}]
    assert finals(settlement)[3] == 10050


def test_all_in_side_pots_run_out_and_show() -> None:
    """HS2: three stacks all in preflop; the board runs out with no betting, everyone
    shows (TDA: all hands tabled), and the settlement has a main and a side pot."""
    res = run(
        table({1: 1000, 2: 3000, 3: 6000}, button=3),
        plan(),
        hand(),
        act(1, "allin"),
        act(2, "allin"),
        act(3, "call"),
        op("look"),
        deal("2c", "7d", "8h"),
        deal("9s"),
        deal("4h"),
        op("look"),
        show(1, "Ah", "Ad"),
        show(2, "Kc", "Ks"),
        show(3, "Qc", "Qs"),
        op("record"),
    )
    look = ok(res[6])
    assert (
        look["toAct"] is None
        and look["needs"]["kind"] == "board"
        and look["canRunTwice"]
    )
    look = ok(res[10])
    assert look["needs"]["kind"] == "showdown"
    assert look["needs"]["seats"] == [2, 3, 1]  # no bet on the river: from the button
    record = ok(res[-1])
    assert record["streets"] == 4
    assert [s["put_in"] for s in record["seats"]] == [1000, 3000, 3000]
    settlement = settle(record)
    assert [p["amount"] for p in settlement["pots"]] == [3000, 4000]
    assert finals(settlement) == {1: 3000, 2: 4000, 3: 3000}


def test_run_it_twice() -> None:
    """HS10: the players all in agree to run the rest twice: run one to the river, then
    run two from the same flop; the record has both boards, each run wins half."""
    res = run(
        table({1: 2000, 2: 2000, 3: 2000}, button=3),
        plan(),
        hand(),
        act(1, "fold"),
        act(2, "call"),
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        op("run2"),
        act(2, "allin"),
        act(3, "call"),
        op("run2"),
        deal("9s"),
        deal("4h"),
        op("look"),
        deal("Ks"),
        deal("2d"),
        show(2, "Ah", "Ad"),
        show(3, "Kc", "Qs"),
        op("record"),
    )
    refused(res[7], "cannot_run_twice")
    look = ok(res[10])
    assert look["needs"] == {"kind": "board", "street": 3, "run": 1, "count": 1}
    look = ok(res[13])
    assert look["needs"] == {"kind": "board", "street": 3, "run": 2, "count": 1}
    record = ok(res[-1])
    assert record["boards"] == [
        ["2c", "7d", "Kh", "9s", "4h"],
        ["2c", "7d", "Kh", "Ks", "2d"],
    ]
    # Aces win the first run, three kings the second: the pot is split.
    assert finals(settle(record)) == {1: 2000, 2: 2000, 3: 2000}


def test_showdown_order_and_muck() -> None:
    """TDA: the last to bet or raise on the river shows first, with no bet the first to
    act; a hand may be mucked (HS3) and wins nothing; the last hand in wins unshown,
    and may show."""
    checks = [act(2, "check"), act(3, "check"), act(1, "check")]
    ops = [
        table({1: 5000, 2: 5000, 3: 5000}, button=3),
        plan(),
        hand(),
        act(1, "call"),
        act(2, "call"),
        act(3, "check"),
        deal("2c", "7d", "Kh"),
        *checks,
        deal("9s"),
        *checks,
        deal("4h"),
    ]
    river = [act(2, "check"), act(3, "bet", 200), act(1, "call"), act(2, "call")]
    res = run(
        *ops,
        *river,
        op("muck", seat=3),
        op("muck", seat=2),
        op("muck", seat=1),
        show(1, "Ah", "Ad"),
        op("record"),
    )
    look = ok(res[len(ops) + len(river) - 1])
    assert look["needs"] == {"kind": "showdown", "seats": [3, 1, 2]}
    assert ok(res[-4])["over"]
    refused(res[-3], "not_at_showdown")
    record = ok(res[-1])
    assert [s.get("mucked", False) for s in record["seats"]] == [False, True, True]
    assert record["seats"][0]["cards"] == ["Ah", "Ad"]
    assert finals(settle(record))[1] == 5000 + 600
    res = run(*ops, *checks, op("look"))
    assert ok(res[-1])["needs"]["seats"] == [2, 3, 1]  # no bet: the first to act


def test_stud_show_needs_all_seven_cards_with_the_up_cards() -> None:
    """HS9: a stud hand shows all seven cards, its up-cards among them."""
    ops = [
        table({1: 2000, 2: 2000}),
        plan("STUD", STUD_STAKES),
        hand(),
        up({1: "9d", 2: "3s"}),
        act(2, "bring_in"),
        act(1, "call"),
    ]
    for one, two in (("Td", "4c"), ("Jd", "5c"), ("Qd", "6c")):
        ops += [up({1: one, 2: two}), act(1, "check"), act(2, "check")]
    ops += [act(1, "check"), act(2, "check"), op("look")]
    ops += [show(1, "2h", "2d", "9d", "Td", "Jd", "Qd", "Kd")]
    ops += [show(2, "2c", "3c", "7s", "4c", "5c", "6c", "7h")]
    ops += [show(2, "2c", "3c", "3s", "4c", "5c", "6c", "7h"), op("record")]
    res = run(*ops)
    assert ok(res[-5])["street"] == 5 and ok(res[-5])["needs"]["kind"] == "showdown"
    refused(res[-3], "up_cards_missing")
    record = ok(res[-1])
    assert (
        record["button"] is None and record["bring_in"] == 50 and record["streets"] == 5
    )
    assert finals(settle(record)) == {1: 2000 + 60, 2: 2000 - 60}


def test_undo_and_json_give_the_same_hand() -> None:
    """The hand is JSON (IndexedDB): restoring it, or taking back a step and doing it
    again, gives the same hand."""
    res = run(
        *flop(
            act(2, "bet", 100),
            op("json"),
            act(3, "call"),
            op("undo"),
            op("look"),
            act(3, "call"),
            op("json"),
            op("look"),
        )
    )
    assert ok(res[-4])["toAct"] == 3
    assert ok(res[-1])["toAct"] == 4
    assert ok(res[-1])["pot"] == 600 + 200


# -- real hands ------------------------------------------------------------------------

PHH_GAMES = {
    "NT": ("NLHE", "no_limit"),
    "FT": ("LHE", "limit"),
    "PO": ("PLO", "pot_limit"),
    "FO/8": ("PLO8", "limit"),
    "F7S": ("STUD", "limit"),
    "F7S/8": ("STUD8", "limit"),
    "FR": ("RAZZ", "limit"),
}


def _chunks(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def _phh_setup(hh: dict[str, Any]) -> tuple[str, dict[str, Any], int | None] | None:
    """Return the game, the structure and the straddle seat of a history, or None."""
    game, betting = PHH_GAMES[hh["variant"]]
    n = len(hh["starting_stacks"])
    antes = [int(a) for a in hh.get("antes") or [0] * n]
    if game in STUD:
        if len(set(antes)) != 1:
            return None
        return (
            game,
            {
                "betting": betting,
                "ante": antes[0],
                "bring_in": int(hh["bring_in"]),
                "small_blind": int(hh["bring_in"]),
                "big_blind": int(hh["small_bet"]),
                "small_bet": int(hh["small_bet"]),
                "big_bet": int(hh["big_bet"]),
            },
            None,
        )
    blinds = [int(b) for b in hh["blinds_or_straddles"]]
    structure: dict[str, Any] = {
        "betting": betting,
        "small_blind": blinds[0],
        "big_blind": blinds[1],
    }
    if betting == "limit":
        structure.update(small_bet=int(hh["small_bet"]), big_bet=int(hh["big_bet"]))
    straddle = None
    if any(blinds[2:]):
        if n < 3 or any(blinds[3:]):
            return None
        straddle, structure["straddle"] = 3, blinds[2]
    if n == 2:
        antes.reverse()
    big_seat = 1 if n == 2 else 2
    if len(set(antes)) == 1:
        structure["ante"] = antes[0]
    elif sum(1 for a in antes if a) == 1 and antes[big_seat - 1]:
        structure.update(ante=antes[big_seat - 1], big_blind_ante=True)
    else:
        return None
    return game, structure, straddle


def phh_script(hh: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The harness ops that deal a PHH history; None for one the terminal can't
    replay (cards nobody saw where the dealer must enter them)."""
    setup = _phh_setup(hh)
    if setup is None:
        return None
    game, structure, straddle = setup
    stacks = [int(s) for s in hh["starting_stacks"]]
    n = len(stacks)
    seats = [
        {"seat": i + 1, "player": f"p{i + 1}", "stack": s} for i, s in enumerate(stacks)
    ]
    ops: list[dict[str, Any]] = [
        {"op": "table", "args": {"seats": seats, "button": 1 if n == 2 else n - 1}},
        plan(game, structure, straddle=straddle),
        hand(handNo=1),
    ]
    dealt = [0] * n
    hole: dict[int, list[str]] = {}
    pending: dict[int, str] = {}
    actions = list(hh["actions"])
    # An up-card nobody recorded, of a seat that folds on third street: a card that
    # doesn't bring in (an ace, a king …; in razz a deuce, a trey …).
    seen = {
        w for a in actions for w in _chunks("".join(a.split()[2:]).replace(" ", ""))
    }
    ranks = "23456789TJQKA" if game == "RAZZ" else "AKQJT98765432"
    spare = [r + u for r in reversed(ranks) for u in "cdhs" if r + u not in seen]
    if game in STUD:  # all in, stud hands are turned up again when all seven are out
        last = {a.split()[0]: i for i, a in enumerate(actions) if " sm " in f"{a} "}
        actions = [
            a
            for i, a in enumerate(actions)
            if " sm " not in f"{a} " or last[a.split()[0]] == i
        ]
    for text in actions:
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        if words[:2] != ["d", "dh"] and pending:
            ops.append(up(pending))
            pending = {}
        if words[:2] == ["d", "dh"]:
            i = int(words[2][1:]) - 1
            cards = _chunks(words[3])
            hole.setdefault(i + 1, []).extend(cards)
            dealt[i] += len(cards)
            if game in STUD and dealt[i] <= 6:
                if cards[-1] == "??":
                    if dealt[i] > 3:
                        return None
                    cards[-1] = spare.pop()
                pending[i + 1] = cards[-1]
        elif words[:2] == ["d", "db"]:
            ops.append(deal(*_chunks(words[2])))
        else:
            seat = int(words[0][1:])
            verb = words[1]
            if verb == "f":
                ops.append(act(seat, "fold"))
            elif verb == "cc":
                ops.append(act(seat, "cc"))
            elif verb == "cbr":
                ops.append(act(seat, "raise", int(words[2])))
            elif verb == "pb":
                ops.append(act(seat, "bring_in"))
            elif verb == "sm" and len(words) == 2:
                ops.append(op("muck", seat=seat))
            elif verb == "sm":
                cards = hole[seat] if words[2] == "-" else _chunks(words[2])
                if "??" in cards:
                    return None
                ops.append(show(seat, *cards))
            else:
                raise AssertionError(text)
    if pending:
        ops.append(up(pending))
    return ops


def _phh_hands() -> list[dict[str, Any]]:
    hands = []
    for path in sorted(PHH.rglob("*")):
        if path.suffix in (".phh", ".phhs"):
            with path.open("rb") as fp:
                hands += [h for h in load_histories(fp) if h.get("variant") in VARIANTS]
    return hands


def test_real_hands_replay_as_dealt() -> None:
    """Every hand of the PHH dataset (Pluribus; WSOP 2023: no limit, limit, pot-limit
    Omaha, Omaha hi-lo, stud, stud hi-lo, razz) is dealt action by action: each action
    is the seat's turn and legal, the bring-in and the blinds are the terminal's, and
    the record puts in, shows and settles as cardroom.domain.phh records the history."""
    histories = _phh_hands()
    scripts = []
    for hh in histories:
        script = phh_script(hh)
        if script is not None:
            scripts.append((hh, [*script, op("look"), op("record")]))
    assert len(scripts) >= 570, len(scripts)
    answers = node("betting_harness.mjs", {"jobs": [s for _, s in scripts]})["results"]
    games = set()
    for (hh, script), results in zip(scripts, answers, strict=True):
        for o, r in zip(script, results, strict=True):
            assert r["ok"], (hh.get("hand"), hh["variant"], o, r)
        mine = results[-1]["value"]
        theirs = to_record(
            hh, table="T01", hand_no=1, seating=Seating(len(hh["starting_stacks"]))
        )
        games.add(mine["game"])
        assert mine["button"] == theirs["button"]
        assert mine["streets"] == theirs["streets"]
        assert mine["board"] == theirs["board"]
        for a, b in zip(mine["seats"], theirs["seats"], strict=True):
            assert a["seat"] == b["seat"]
            assert (a["put_in"], a.get("dead", 0), a.get("straddle", 0)) == (
                b["put_in"],
                b.get("dead", 0),
                b.get("straddle", 0),
            ), (hh.get("hand"), a, b)
            out_a = a["folded"] or a.get("mucked", False)
            out_b = b["folded"] or b.get("mucked", False)
            assert out_a == out_b, (hh.get("hand"), a, b)
        assert finals(settle(mine)) == finals(settle(theirs))
    assert games == {"NLHE", "LHE", "PLO", "PLO8", "STUD", "STUD8", "RAZZ"}


# -- random play -----------------------------------------------------------------------


def _stack(draw: Any) -> int:
    return int(draw(st.one_of(st.integers(1, 400), st.integers(100, 20000))))


@st.composite
def hand_cases(draw: Any) -> dict[str, Any]:
    game = draw(st.sampled_from(GAMES))
    most = 7 if game in {"STUD", "PLSTUD", "STUD8", "RAZZ"} else 9
    seats = draw(st.lists(st.integers(1, 9), min_size=2, max_size=most, unique=True))
    structure = {
        "small_blind": 50,
        "big_blind": 100,
        "ante": draw(st.sampled_from([0, 0, 10, 25])),
    }
    if game not in STUD and draw(st.booleans()):
        structure["big_blind_ante"] = True
        structure["ante"] = 100
    tournament = draw(st.booleans()) and draw(st.booleans())
    absent = [s for s in seats if tournament and draw(st.integers(0, 4)) == 0]
    if len(absent) == len(seats):
        absent = absent[1:]
    return {
        "seed": draw(st.integers(0, 2**31 - 1)),
        "game": game,
        "structure": structure,
        "seats": [{"seat": s, "stack": _stack(draw)} for s in seats],
        "button": draw(st.sampled_from(seats)),
        "tournament": tournament,
        "absent": absent,
    }


def check_records(records: list[dict[str, Any]]) -> None:
    """Each record passes the server's parser, and its settlement keeps every chip."""
    for record in records:
        parse_hand(record)
        for policy in (NO_RAKE, RAKED):
            settlement = settle_record(record, policy)
            put_in = sum(s["put_in"] for s in record["seats"])
            out = sum(s["returned"] + s["won"] for s in settlement["seats"])
            assert put_in == out + settlement["rake"] + settlement["jackpot_drop"], (
                record
            )
            for s in settlement["seats"]:
                assert s["final_stack"] >= 0


NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]
"""A failing batch names its case (seed and table) in the message; shrinking a batch
that a Node process runs would take minutes."""


def failures(cases: list[dict[str, Any]], answers: list[dict[str, Any]]) -> list[Any]:
    return [
        (c, a["violations"][:5])
        for c, a in zip(cases, answers, strict=True)
        if a["violations"]
    ]


@settings(max_examples=10, phases=NO_SHRINK)
@given(st.lists(hand_cases(), min_size=60, max_size=60))
def test_random_hands_keep_the_rules(cases: list[dict[str, Any]]) -> None:
    """Random legal play of whole hands of every game (no limit, pot limit, limit;
    blinds, straddles, antes, big-blind antes, bring-ins; all in, side pots, run twice,
    muck) on random tables: every offered action is accepted, illegal probes are
    refused with their code and change nothing, nobody puts in more than his stack, a
    round closes only when every seat with chips has acted and matched, and the record
    parses and settles to the chip."""
    answer = node("betting_random.mjs", {"hands": cases})
    assert not failures(cases, answer["hands"])
    check_records([h["record"] for h in answer["hands"]])


@st.composite
def session_cases(draw: Any) -> dict[str, Any]:
    game = draw(st.sampled_from(GAMES))
    most = 7 if game in {"STUD", "PLSTUD", "STUD8", "RAZZ"} else 9
    seats = draw(st.lists(st.integers(1, most), min_size=2, max_size=most, unique=True))
    return {
        "seed": draw(st.integers(0, 2**31 - 1)),
        "game": game,
        "structure": {
            "small_blind": 50,
            "big_blind": 100,
            "ante": draw(st.sampled_from([0, 10])),
        },
        "seats": [{"seat": s, "stack": draw(st.integers(300, 8000))} for s in seats],
        "hands": 25,
        "tournament": draw(st.integers(0, 5)) == 0,
        "maxSeat": most,
    }


@settings(max_examples=5, phases=NO_SHRINK)
@given(st.lists(session_cases(), min_size=8, max_size=8))
def test_random_table_sessions_keep_the_blind_rules(
    cases: list[dict[str, Any]],
) -> None:
    """Whole sessions at a table: players step away and back (BI9), leave, join and top
    up between hands; every hand has one big blind, never the same player's twice
    running; the small blind follows the big blind's seat (dead button) except heads-up
    (the button posts it) and a new game; only players who owe post missed or new
    blinds, never on the button or small blind; missed blinds are remembered (FI); and
    every hand's record parses and settles."""
    answer = node("betting_random.mjs", {"sessions": cases})
    assert not failures(cases, answer["sessions"])
    records = [r for s in answer["sessions"] for r in s["records"]]
    assert len(records) >= 8 * 20
    check_records(records)
