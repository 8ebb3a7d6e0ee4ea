"""A request the schema allows is never answered 400 (API.md "Conventions").

400 says the request breaks its door's schema; so the schema states what makes a
request malformed, and what it can't state is refused for what it is (404, 409,
422), never 400. schemathesis's positive-data check holds every door to it
(tests/security/test_schemathesis.py); these tests hold the schema to what the
doors refuse as malformed, each where a request the schema allowed was answered
400: text with a NUL or blank, and fields that go together. The doors' own
refusals of what the schema can't state (422) are tested beside each door.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema
import pytest
from rest_framework import serializers

from core.api.fields import (
    FILLED_TEXT_PATTERN,
    TEXT_PATTERN,
    WHITESPACE,
    text_pattern,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def spec(django_db_setup, django_db_blocker) -> dict[str, Any]:
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema (draft 4 has no such keyword)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


def body_schema(spec: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The request body's schema of ``METHOD path``, its components beside it."""
    operation = spec["paths"][path][method.lower()]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return {
        **_json_schema(copy.deepcopy(schema)),
        "components": _json_schema(copy.deepcopy(spec["components"])),
    }


def allows(spec: dict[str, Any], operation: str, body: Any) -> bool:
    """Whether the schema of ``operation`` (``"POST /api/v1/…"``) allows ``body``,
    as schemathesis reads it (draft 4, Python's regular expressions)."""
    method, path = operation.split(" ", 1)
    return jsonschema.Draft4Validator(body_schema(spec, method, path)).is_valid(body)


# -- text -----------------------------------------------------------------------------


def _texts(spec: dict[str, Any], node: Any, where: str, seen: set[int]) -> list:
    """(where, schema) of every string a request body holds under ``node``."""
    while isinstance(node, dict) and "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if not isinstance(node, dict) or id(node) in seen:
        return []
    seen.add(id(node))
    found = []
    if node.get("type") == "string" and not {"format", "enum"} & set(node):
        found.append((where, node))
    for name, child in node.get("properties", {}).items():
        found += _texts(spec, child, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            found += _texts(spec, node[key], f"{where}[]", seen)
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(key, []):
            found += _texts(spec, branch, where, seen)
    return found


def test_no_text_a_request_may_send_holds_a_nul(spec):
    """Every string of every request body has a pattern, and none lets a NUL
    through (the parser refuses NUL anywhere in a body, 400): corrections' and
    a cancelled event's reasons, busts' players, lockups' tables were answered
    400 for text the schema allowed."""
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                where = f"{method.upper()} {path}"
                found += _texts(spec, media["schema"], where, set())
    assert len(found) > 80
    loose = [
        where
        for where, text in found
        if text.get("maxLength") != 0  # the blank a field takes: nothing else
        and ("pattern" not in text or re.search(text["pattern"], "a\x00b"))
    ]
    assert loose == []


def test_no_text_a_url_or_a_header_may_send_holds_a_nul(spec):
    """Every string parameter, in a path, a query string or a header, says no
    NUL (the middleware refuses one, 400): ``GET /api/v1/jackpots/summary?room=``
    with a NUL was answered 400 to a request the schema allowed."""
    loose = [
        f"{method.upper()} {path} {parameter['name']}"
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
        for parameter in operation.get("parameters", [])
        if parameter["schema"].get("type") == "string"
        and not {"format", "enum"} & set(parameter["schema"])
        and (
            "pattern" not in parameter["schema"]
            or re.search(parameter["schema"]["pattern"], "a\x00b")
        )
    ]
    assert loose == []
    room = spec["paths"]["/api/v1/jackpots/summary"]["get"]["parameters"][0]
    assert re.search(room["schema"]["pattern"], "") and room["name"] == "room"


@pytest.mark.parametrize(
    ("operation", "body"),
    [
        ("POST /api/v1/waitlist/must-moves", {"table": "T01", "main": " \t"}),
        ("POST /api/v1/auth/login", {"username": "\u3000", "password": "x"}),
        (
            "POST /api/v1/tournaments/{event}/tables/{table}/busts",
            {"hand": "7", "busts": [{"player": "P-1", "stack": 0, "busted_by": [" "]}]},
        ),
    ],
)
def test_a_text_that_may_not_be_blank_says_so(spec, operation, body):
    """A field that trims its text and refuses it blank (DRF's CharField) says
    so: whitespace alone was schema-valid and answered 400."""
    assert not allows(spec, operation, body)
    filled = {
        key: ("x" if value in (" \t", "\u3000") else value)
        for key, value in body.items()
    }
    if "busts" in body:
        filled["busts"] = [{**body["busts"][0], "busted_by": ["P-2"]}]
    assert allows(spec, operation, filled)


@pytest.mark.parametrize(
    ("reason", "allowed"), [("", True), (" ", True), ("torn", True), ("a\x00", False)]
)
def test_a_text_that_may_be_blank_is_taken_blank(spec, reason, allowed):
    """A field that takes a blank says so once: the empty text matches one
    branch of its ``oneOf``, not both (or the schema would refuse it)."""
    cancel = "POST /api/v1/cage/credits/{slip_id}/cancel"
    assert allows(spec, cancel, {"reason": reason}) is allowed


def test_the_whitespace_is_what_a_trimmed_field_strips():
    """WHITESPACE is exactly what ``str.strip()`` takes off (``str.isspace()``):
    a pattern that misses one lets a blank through, one too many refuses text."""
    pattern = re.compile(f"[{WHITESPACE}]")
    for code in range(0x110000):
        char = chr(code)
        assert bool(pattern.fullmatch(char)) == char.isspace(), hex(code)


def test_which_pattern_a_field_gets():
    assert text_pattern(serializers.CharField()) == FILLED_TEXT_PATTERN
    assert text_pattern(serializers.CharField(allow_blank=True)) == TEXT_PATTERN
    assert text_pattern(serializers.CharField(trim_whitespace=False)) == TEXT_PATTERN
    for own in (
        serializers.RegexField(r"^[A-Z]+$"),
        serializers.SlugField(),
        serializers.EmailField(),
        serializers.URLField(),
        serializers.IntegerField(),
        serializers.ChoiceField(choices=["a"]),
    ):
        assert text_pattern(own) is None, type(own).__name__
    for text in ("x", " x ", "日本", "a\nb"):
        assert re.search(FILLED_TEXT_PATTERN, text), text
    for text in ("", " ", "\t\n", "\u3000\u2028", "x\x00"):
        assert not re.search(FILLED_TEXT_PATTERN, text), repr(text)
    assert re.search(TEXT_PATTERN, " ") and not re.search(TEXT_PATTERN, "\x00")


# -- fields that go together ----------------------------------------------------------

CLOCK = "POST /api/v1/tournaments/{event}/clock"


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({"action": "pause"}, True),
        ({"action": "pause", "level": None, "seconds": None}, True),
        ({"action": "pause", "level": 2}, False),
        ({"action": "resume", "seconds": 60}, False),
        ({"action": "stop", "level": 1}, False),
        ({"action": "add_time", "seconds": 60}, True),
        ({"action": "add_time", "seconds": 60, "level": 2}, False),
        ({"action": "move", "level": 3, "seconds": 100}, True),
        ({"action": "start", "level": 1}, True),
    ],
)
def test_the_clock_says_what_each_action_takes(spec, body, allowed):
    """TO12: a level or seconds the action doesn't take is refused (400
    clock_field_not_taken), and the schema says which action takes which."""
    assert allows(spec, CLOCK, body) is allowed


RACE = "POST /api/v1/tournaments/{event}/races"
RACE_BASE = {
    "table": "TT1",
    "denomination": 25,
    "new_denomination": 100,
    "seats": [{"seat": 1, "stack": 40_075, "retired": 3}],
}


@pytest.mark.parametrize(
    ("ways", "allowed"),
    [
        ({"race_order": [1]}, True),
        ({"cards": {"1": "Ah"}}, True),
        ({"seed": 3}, True),
        ({}, False),
        ({"race_order": [1], "seed": 3}, False),
        ({"cards": {"1": "Ah"}, "race_order": [1]}, False),
    ],
)
def test_a_race_is_ordered_one_way(spec, ways, allowed):
    """TO6: the cards drawn, the order they gave or a seed, exactly one of them
    (400 race_cards otherwise), as the schema says (oneOf)."""
    assert allows(spec, RACE, {**RACE_BASE, **ways}) is allowed


FORFEIT = "POST /api/v1/tournaments/{event}/payouts/{payout_id}/forfeit"


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({"destination": "house"}, True),
        ({"destination": "jackpot", "pool": "bad-beat"}, True),
        ({"destination": "house", "pool": "bad-beat"}, False),
        ({"destination": "jackpot"}, False),
    ],
)
def test_a_forfeit_names_a_pool_for_a_jackpot_only(spec, body, allowed):
    """TO9: a pool with a jackpot destination, and only then (400 otherwise)."""
    assert allows(spec, FORFEIT, {"reason": "no ID", **body}) is allowed


REPORTS = "POST /api/v1/reports/"


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({}, True),
        ({"new_version": False}, True),
        ({"new_version": True, "reason": "A1 drop box recounted"}, True),
        ({"new_version": True}, False),
        ({"new_version": True, "reason": "  "}, False),
        ({"new_version": True, "reason": ""}, False),
    ],
)
def test_a_reports_new_version_says_why(spec, body, allowed):
    """A new version of a stored report says why (400 reason_required)."""
    body = {"kind": "daily_audit", "first": "2026-11-28", **body}
    assert allows(spec, REPORTS, body) is allowed


SEAT = "POST /api/v1/waitlist/entries/{id}/seat"


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({}, True),
        ({"amount": 10_000, "method": "cash"}, True),
        ({"amount": 10_000}, False),
    ],
)
def test_a_waiting_list_buy_in_comes_with_its_method(spec, body, allowed):
    """An amount comes with its method, cash or chips (400 otherwise)."""
    assert allows(spec, SEAT, body) is allowed


TABLES = "POST /api/v1/tables"
TABLE = {
    "code": "T07",
    "game": "NLHE",
    "small_blind": 100,
    "big_blind": 200,
    "min_buy_in": 10_000,
}


@pytest.mark.parametrize(
    ("rake", "allowed"),
    [
        ({"scheme": "pot_order", "step": 1000, "unit": 100}, True),
        ({"scheme": "pot_order", "step": 1000}, False),
        ({"scheme": "percent", "percent": "5"}, True),
        ({"scheme": "percent", "percent": "2.5", "cap": 400}, True),
        ({"scheme": "percent", "percent": "100"}, True),
        ({"scheme": "percent"}, False),
        ({"scheme": "percent", "percent": "moved by the house"}, False),
        ({"scheme": "percent", "percent": "100.5"}, False),
        ({"scheme": "none"}, True),
    ],
)
def test_a_rake_policy_says_what_its_scheme_needs(spec, rake, allowed):
    """RK1, RK7: pot_order takes a step and a unit, percent a percentage from 0
    to 100 as a decimal string (400 invalid_policy otherwise)."""
    body = {**TABLE, "policy": {"smallest_chip": 100, "rake": rake}}
    assert allows(spec, TABLES, body) is allowed


@pytest.mark.parametrize(
    "operation",
    [
        "POST /api/v1/jackpots/pools",
        "PATCH /api/v1/jackpots/pools/{pool_id}",
        "POST /api/v1/jackpots/categories/{code}/versions",
    ],
)
def test_a_jackpot_covers_games_with_high_hands_only(spec, operation):
    """BB2, HM1: Razz and Sökö have no high hands a jackpot can rank (400
    invalid_configuration), and the schema's games say so."""
    method, path = operation.split(" ", 1)
    schema = body_schema(spec, method, path)
    games = jsonschema.Draft4Validator(
        {"$ref": "#/components/schemas/JackpotGame", "components": schema["components"]}
    )
    assert games.is_valid("NLHE") and games.is_valid("PLO8")
    assert not games.is_valid("RAZZ") and not games.is_valid("SOKO")


VERSION = "POST /api/v1/jackpots/categories/{code}/versions"
CATEGORY = {
    "pool": "bad-beat",
    "games": ["NLHE"],
    "min_losing_hand": ["As", "Ah", "Ad", "Ts", "Th"],
    "loser_card_use": {"hole_cards": 2, "quads_pocket_pair": True},
    "winner_card_use": {"hole_cards": 2, "quads_pocket_pair": True},
    "min_participants": 4,
    "payout": {"percent": 100, "loser": 50, "winner": 25, "table": 25},
}


@pytest.mark.parametrize(
    ("change", "allowed"),
    [
        ({}, True),
        ({"games": []}, False),
        ({"min_losing_hand": ["As", "Ah", "Ad", "Ts", "ab"]}, False),
        ({"min_losing_hand": ["As", "Ah", "Ad", "Ts", "Ts"]}, False),
        ({"payout": {"percent": 100, "loser": 0, "winner": 0, "table": 0}}, False),
        ({"payout": {"percent": 100, "loser": 0, "winner": 0, "table": 1}}, True),
    ],
)
def test_a_category_says_what_its_rules_can_use(spec, change, allowed):
    """BB2: a category covers a game, its minimum losing hand is five different
    cards, and some role has a part of the jackpot (400 invalid_configuration
    otherwise), as the schema now says."""
    assert allows(spec, VERSION, {**CATEGORY, **change}) is allowed


@pytest.mark.parametrize(("ratio", "allowed"), [(10**6, True), (10**6 + 1, False)])
def test_a_pools_share_of_the_drop_is_bounded_as_the_service_bounds_it(
    spec, ratio, allowed
):
    """JD4: a pool's drop ratio is at most 1,000,000 (400 beyond, which the
    schema allowed up to 2^31 - 1)."""
    pool = {"code": "bb2", "name": "Bad beat 2", "kind": "bad_beat"}
    body = {**pool, "drop_ratio": ratio}
    assert allows(spec, "POST /api/v1/jackpots/pools", body) is allowed
    patch = {"drop_ratio": ratio}
    assert allows(spec, "PATCH /api/v1/jackpots/pools/{pool_id}", patch) is allowed


CORRECTIONS = "POST /api/v1/corrections"
ASKED = {"table": "T01", "amount": 100, "reason": "pushed to the wrong seat"}


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        (
            {
                "kind": "pot_correction",
                "hand_no": 1,
                "from_player": "P-2",
                "to_player": "P-1",
            },
            True,
        ),
        ({"kind": "pot_correction", "hand_no": 1, "from_player": "P-2"}, False),
        ({"kind": "hold", "hand_no": 1, "from_player": "P-2"}, True),
        ({"kind": "hold", "from_player": "P-2"}, False),
        ({"kind": "hold", "hand_no": None, "from_player": "P-2"}, False),
        ({"kind": "release", "held": 3, "to_player": "P-1"}, True),
        ({"kind": "release", "to_player": "P-1"}, False),
        ({"kind": "receivable", "from_player": "P-2"}, True),
        ({"kind": "receivable"}, False),
    ],
)
def test_a_correction_says_what_its_kind_needs(spec, body, allowed):
    """HS7, HS8, DC3: each kind names what it needs, as the service refuses it
    (400 otherwise)."""
    assert allows(spec, CORRECTIONS, {**ASKED, **body}) is allowed


def test_a_hand_historys_unit_is_a_cent_or_more(spec):
    """``?unit=`` below 1 is refused (400), as the schema says."""
    operation = spec["paths"]["/api/v1/tables/{table}/hands/{hand_no}.phh"]["get"]
    [unit] = [p for p in operation["parameters"] if p["name"] == "unit"]
    assert unit["schema"]["minimum"] == 1
