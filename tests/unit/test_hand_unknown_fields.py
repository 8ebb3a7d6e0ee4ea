"""The hand endpoints' quick check of unknown fields finds what the general one
(core.api.fields.unknown_fields over the hand's envelope) finds, in its order."""

from __future__ import annotations

import pytest

from cardroom.api.views import HAND_FIELDS, HandSerializer, hand_unknown_fields
from core.api.fields import unknown_fields

RECORD = {
    "table": "T01",
    "hand_no": 1,
    "game": "NLHE",
    "streets": 1,
    "boards": [["2c"]],
    "seats": [
        {"seat": 1, "player": "P-1", "stack": 1, "put_in": 1, "cards": ["Ah", "Ad"]},
        {"seat": 2, "player": "P-2", "stack": 1, "put_in": 1, "folded": True},
    ],
    "awarded": [{"seat": 1, "amount": 2}],
}


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"comment": "x", "Hand_no": 1},
        {"seats": [{"seat": 1, "colour": "red"}, "not an object", {"x": 1, "y": 2}]},
        {"awarded": [{"seat": 1, "tip": 1}], "zzz": 0, "seats": None},
        {"seats": {"seat": 1, "x": 1}, "awarded": "none"},
    ],
)
def test_the_quick_check_agrees_with_the_general_one(changes):
    record = {**RECORD, **changes}
    expected = unknown_fields(HandSerializer(), record, HAND_FIELDS)
    assert hand_unknown_fields(record) == expected
