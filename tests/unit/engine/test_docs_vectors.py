"""The worked examples of docs/vectors/, run through ``manage.py settle_hand``.

One file per added field or option (docs/api.md), in the format of
../shared/vectors/settlement.json. Compared: what ../shared/tools/check_vectors.py
compares (pots, winners, rake, drop, returns, final stacks) and the added fields
each example is about (every run's part, hi-lo halves, exceptions, dead, mucked).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .test_settle_hand_command import run
from .test_vectors import compared

DOCS = Path(__file__).resolve().parents[3] / "docs" / "vectors"
FILES = sorted(DOCS.glob("*.json"))
CASES = [
    (path.stem, case)
    for path in FILES
    for case in json.loads(path.read_text())["cases"]
]


def added(s: dict[str, Any]) -> dict[str, Any]:
    """Return the added fields an example shows, in a comparable form."""
    return {
        "runs": [
            [(r["amount"], r["winners"]) for r in p.get("runs", [])] for p in s["pots"]
        ],
        "halves": [(p.get("high"), p.get("low")) for p in s["pots"]],
        "exceptions": [(e["code"], e["rule"], e.get("seats")) for e in s["exceptions"]],
        "seats": [(x.get("dead"), x.get("mucked"), x.get("hand")) for x in s["seats"]],
        "boards": [r["board"] for r in s.get("runs", [])],
    }


def test_there_is_an_example_for_every_added_field() -> None:
    """docs/api.md's added fields and options each have worked examples."""
    text = " ".join(
        json.dumps(case["hand"]) + json.dumps(case["policy"]) for _, case in CASES
    )
    for field in (
        '"dead"', '"straddle"', '"mucked"', '"boards"', '"caps_by_players"',
        '"min_pot"', '"awarded"', '"PLSTUD"', '"STUD8"',
    ):  # fmt: skip
        assert field in text, field
    assert all(case["rules"] for _, case in CASES)


@pytest.mark.parametrize(
    ("name", "case"), CASES, ids=[f"{n}: {c['title'][:50]}" for n, c in CASES]
)
def test_worked_example_through_settle_hand(
    name: str, case: dict[str, Any], tmp_path: Path
) -> None:
    """Each example settles through the command exactly as the file says."""
    policy, hand = tmp_path / "policy.json", tmp_path / "hand.json"
    policy.write_text(json.dumps(case["policy"]))
    hand.write_text(json.dumps(case["hand"]))
    status, out, err = run(str(policy), str(hand))
    assert status == 0, err
    got = json.loads(out)
    assert compared(got) == compared(case["settlement"])
    assert added(got) == added(case["settlement"])
