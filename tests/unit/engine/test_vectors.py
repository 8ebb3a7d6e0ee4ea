"""The worked examples of ../shared/vectors/settlement.json, settled by the engine.

``../shared/tools/check_vectors.py`` runs the same cases through ``manage.py
settle_hand``; this compares the same fields without a subprocess.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardroom.domain.settlement import settle_record

VECTORS = Path(__file__).resolve().parents[3].parent / "shared" / "vectors"
CASES = (
    json.loads((VECTORS / "settlement.json").read_text())["cases"]
    if (VECTORS / "settlement.json").exists()
    else []
)


def compared(s: dict[str, Any]) -> dict[str, Any]:
    """Return the fields check_vectors.py compares, in its normal form."""
    return {
        "pots": [
            (
                p["amount"],
                sorted(p["eligible"]),
                p["rake"],
                p["jackpot_drop"],
                sorted((w["seat"], w["amount"]) for w in p["winners"] if w["amount"]),
            )
            for p in s["pots"]
        ],
        "returned": sorted(
            (r["seat"], r["amount"]) for r in s.get("returned", []) if r["amount"]
        ),
        "rake": s["rake"],
        "jackpot_drop": s["jackpot_drop"],
        "final_stacks": sorted((x["seat"], x["final_stack"]) for x in s["seats"]),
    }


@pytest.mark.skipif(not CASES, reason="../shared/vectors/settlement.json is absent")
@pytest.mark.parametrize("case", CASES, ids=[c["title"][:60] for c in CASES])
def test_worked_example(case: dict[str, Any]) -> None:
    """Every worked example of RULES.md settles as the vectors say."""
    got = settle_record(case["hand"], case["policy"])
    assert compared(got) == compared(case["settlement"])
    assert got["participants"] == case["settlement"]["participants"]
    assert [s["won"] for s in got["seats"]] == [
        s["won"] for s in sorted(case["settlement"]["seats"], key=lambda s: s["seat"])
    ]


def test_api_example() -> None:
    """The settlement example of API.md comes out field for field."""
    record = {
        "table": "T01",
        "hand_no": 1042,
        "game": "NLHE",
        "button": 3,
        "started_at": "2026-11-29T21:04:11+02:00",
        "ended_at": "2026-11-29T21:06:40+02:00",
        "streets": 4,
        "board": ["Ac", "Kd", "7c", "2s", "Ah"],
        "seats": [
            {"seat": 1, "player": "P-1001", "stack": 20000, "present": True,
             "put_in": 6000, "folded": False, "cards": ["As", "Ad"]},
            {"seat": 3, "player": "P-1003", "stack": 5000, "present": True,
             "put_in": 5000, "folded": False, "cards": ["Kh", "Ks"]},
            {"seat": 5, "player": "P-1005", "stack": 9000, "present": False,
             "put_in": 100, "folded": True},
        ],
        "awarded": [{"seat": 1, "amount": 9600}],
    }  # fmt: skip
    policy = {
        "currency": "EUR",
        "smallest_chip": 50,
        "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
        "jackpot_drop": {"amount": 100, "min_participants": 6},
    }
    assert settle_record(record, policy) == {
        "table": "T01", "hand_no": 1042,
        "participants": 2,
        "returned": [{"seat": 1, "amount": 1000}],
        "pots": [
            {"amount": 10100, "eligible": [1, 3], "rake": 500, "jackpot_drop": 0,
             "winners": [{"seat": 1, "amount": 9600}]}
        ],
        "rake": 500,
        "jackpot_drop": 0,
        "seats": [
            {"seat": 1, "player": "P-1001", "stack": 20000, "put_in": 6000,
             "returned": 1000, "won": 9600, "final_stack": 24600,
             "hand": "four of a kind, aces"},
            {"seat": 3, "player": "P-1003", "stack": 5000, "put_in": 5000,
             "returned": 0, "won": 0, "final_stack": 0,
             "hand": "full house, kings full of aces"},
            {"seat": 5, "player": "P-1005", "stack": 9000, "put_in": 100,
             "returned": 0, "won": 0, "final_stack": 8900},
        ],
        "exceptions": [],
    }  # fmt: skip
