"""The OpenAPI schema types the hand record, the settlement and the policy: a
terminal vendor reads every field there, none is a bare additionalProperties."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

TYPED = {
    "HandRecordRequest": {"seats", "board", "boards", "bring_in", "awarded"},
    "HandSeatRequest": {"seat", "put_in", "dead", "straddle", "mucked", "cards"},
    "Settlement": {"returned", "pots", "seats", "exceptions", "runs"},
    "Pot": {"amount", "eligible", "rake", "jackpot_drop", "winners", "runs"},
    "PotRun": {"run", "amount", "winners"},
    "SettledSeat": {"seat", "returned", "won", "final_stack", "dead", "mucked"},
    "HandExceptionItem": {"code", "rule", "detail", "seats", "suspense"},
    "PolicyRequest": {"smallest_chip", "rake", "jackpot_drop"},
    "RakePolicyRequest": {"scheme", "cap", "caps_by_players", "min_pot"},
    "DropPolicyRequest": {"amount", "min_participants", "min_pot"},
}


def resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if "allOf" in node and len(node["allOf"]) == 1:
        return resolve(spec, node["allOf"][0])
    return node


def bare_objects(spec: dict[str, Any], node: dict[str, Any], seen: set[int]) -> int:
    """Count the objects under ``node`` that say nothing of their fields."""
    node = resolve(spec, node)
    if id(node) in seen:
        return 0
    seen.add(id(node))
    count = 0
    if node.get("type") == "object" and "properties" not in node:
        extra = node.get("additionalProperties")
        if not isinstance(extra, dict) or extra.get("type") not in (
            "string",
            "integer",
        ):
            count += 1
    for child in node.get("properties", {}).values():
        count += bare_objects(spec, child, seen)
    if "items" in node:
        count += bare_objects(spec, node["items"], seen)
    return count


def test_the_hand_contract_is_typed_field_by_field(api):
    """Hand record, settlement and policy: every object has its fields listed."""
    spec = api.get("/api/schema/?format=json").json()
    schemas = spec["components"]["schemas"]
    for name, fields in TYPED.items():
        assert fields <= set(schemas[name]["properties"]), name
        assert bare_objects(spec, schemas[name], set()) == 0, name
    hands = spec["paths"]["/api/v1/tables/{table}/hands"]["post"]
    body = hands["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/HandRecordRequest"}
    answer = hands["responses"]["201"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/Settlement"}
    opening = schemas["TableOpenInputRequest"]["properties"]["policy"]
    assert resolve(spec, opening) is schemas["PolicyRequest"]
