"""Every real hand of the PHH dataset settles to its recorded stacks, with no rake.

The hands (Pluribus, WSOP 2023 in seven games) are vendored in ``tests/data/phh`` so
the test always runs; when ``../shared/phh`` holds other hands, they are settled too.
Each goes through the import's parsing (:mod:`cardroom.domain.phh`) and the engine
with no rake, and must end at the history's ``finishing_stacks``. The dataset
records a split pot's odd chip as two halves (10112.5 and 10112.5); there the engine
gives one seat the floor and the other the ceiling (HS5), and the two add up.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cardroom.domain.errors import HandError
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.phh import VARIANTS, Seating, load_histories, to_record
from cardroom.domain.settlement import settle_record

ROOT = Path(__file__).resolve().parents[3]
VENDORED = ROOT / "tests" / "data" / "phh"
SHARED = ROOT.parent / "shared" / "phh"
NO_RAKE = parse_policy(
    {"currency": "EUR", "smallest_chip": 1, "rake": {"scheme": "none"}}
)


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in (".phh", ".phhs"))


def _roots() -> list[Path]:
    """The vendored hands, and ../shared/phh's too when they differ."""
    roots = [VENDORED]
    if SHARED.is_dir() and _contents(SHARED) != _contents(VENDORED):
        roots.append(SHARED)
    return roots


def _contents(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in _files(root)}


def _hands(root: Path) -> list[tuple[str, int, dict[str, Any], Seating]]:
    hands = []
    for path in _files(root):
        seating = Seating()
        with path.open("rb") as fp:
            for index, hh in enumerate(load_histories(fp)):
                hands.append((str(path.relative_to(root)), index, hh, seating))
    return hands


def _check(root: Path) -> tuple[int, int, int, list[str]]:
    """Return (settled, of, outside our games, failures) for a dataset folder."""
    settled = total = other = 0
    failures = []
    for name, index, hh, seating in _hands(root):
        if hh["variant"] not in VARIANTS:
            other += 1
            with pytest.raises(HandError) as refused:
                to_record(hh, table="T01", hand_no=index + 1, seating=seating)
            assert refused.value.code == "unknown_game"
            continue
        total += 1
        record = to_record(hh, table="T01", hand_no=index + 1, seating=seating)
        try:
            result = settle_record(record, NO_RAKE)
        except HandError as error:
            failures.append(f"{name}#{index}: {error.code}: {error.detail}")
            continue
        finals = {s["seat"]: s["final_stack"] for s in result["seats"]}
        got = [finals[row["seat"]] for row in record["seats"]]
        want = [Decimal(v) for v in hh["finishing_stacks"]]
        assert sum(got) == sum(want), f"{name}#{index}: chips created or lost"
        if all(
            g == w or (w % 1 == Decimal("0.5") and abs(g - w) == Decimal("0.5"))
            for g, w in zip(got, want, strict=True)
        ):
            settled += 1
        else:
            failures.append(f"{name}#{index}: stacks {got}, recorded {want}")
    return settled, total, other, failures


@pytest.mark.parametrize(
    "root", _roots(), ids=lambda p: "vendored" if p == VENDORED else "shared"
)
def test_every_real_hand_settles_to_its_recorded_stacks(root: Path) -> None:
    """574 of 574 in the vendored set: 540 Pluribus hands and 34 WSOP hands in our
    games; the WSOP's 8 deuce-to-seven draw hands are refused as unknown_game."""
    settled, total, other, failures = _check(root)
    if root == VENDORED:
        assert (total, other) == (574, 8)
    assert failures == [], f"{settled} of {total} settle:\n" + "\n".join(failures)
    assert settled == total


def test_shared_hands_that_differ_are_checked_too(tmp_path: Path, monkeypatch) -> None:
    """A ../shared/phh with other hands than the vendored copy is settled too."""
    import tests.unit.engine.test_phh_dataset as module

    same, other = tmp_path / "same", tmp_path / "other"
    for path in _files(VENDORED):
        target = same / path.relative_to(VENDORED)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    monkeypatch.setattr(module, "SHARED", same)
    assert module._roots() == [VENDORED]
    other.mkdir()
    (other / "1.phh").write_bytes((VENDORED / "wsop-2023-43-5" / "1.phh").read_bytes())
    monkeypatch.setattr(module, "SHARED", other)
    assert module._roots() == [VENDORED, other]
    assert _check(other) == (1, 1, 0, [])
