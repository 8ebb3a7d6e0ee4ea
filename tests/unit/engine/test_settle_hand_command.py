"""``manage.py settle_hand``: JSON in, settlements out, exit 2 on a bad hand."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from .helpers import POLICY, hand, seat

ROOT = Path(__file__).resolve().parents[3]
GOOD = hand(seat(1, 2000, "As Ad"), seat(2, 2000, "Kh Ks"))
BAD = hand(seat(1, 2000, "As Ad"), seat(2, 2000, "As Ks"))


@pytest.fixture
def policy_file(tmp_path: Path) -> str:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(POLICY))
    return str(path)


def run(policy: str, hand_arg: str, stdin: str = "") -> tuple[int, str, str]:
    """Run the command in-process; return (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(
            "settle_hand",
            "--policy",
            policy,
            hand_arg,
            stdout=out,
            stderr=err,
            stdin=io.StringIO(stdin),
        )
    except SystemExit as stop:
        return int(stop.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_one_hand_gives_one_settlement(policy_file: str, tmp_path: Path) -> None:
    """A hand object is answered by one settlement object on standard output."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(GOOD))
    status, out, err = run(policy_file, str(path))
    assert (status, err) == (0, "")
    settlement = json.loads(out)
    assert settlement["pots"][0]["winners"] == [{"seat": 1, "amount": 3800}]


def test_an_array_from_standard_input_keeps_its_order(policy_file: str) -> None:
    """``-`` reads standard input; an array is answered by an array in order."""
    hands: list[dict[str, Any]] = [dict(GOOD, hand_no=n) for n in (7, 3, 9)]
    status, out, _ = run(policy_file, "-", json.dumps(hands))
    assert status == 0
    assert [s["hand_no"] for s in json.loads(out)] == [7, 3, 9]


def test_a_bad_hand_exits_2_with_the_error_object(policy_file: str) -> None:
    """A hand that can't be settled: exit 2, API.md's error object on stderr."""
    status, out, err = run(policy_file, "-", json.dumps(BAD))
    assert (status, out) == (2, "")
    error = json.loads(err)["error"]
    assert (error["code"], error["rule"]) == ("duplicate_card", "RK8")
    assert set(error) == {"code", "rule", "detail", "allowed"}


def test_a_bad_hand_in_a_batch_is_named_by_position(policy_file: str) -> None:
    """In an array the error says which hand; nothing is printed on stdout."""
    status, out, err = run(policy_file, "-", json.dumps([GOOD, BAD, GOOD]))
    assert (status, out) == (2, "")
    error = json.loads(err)["error"]
    assert (error["code"], error["index"]) == ("duplicate_card", 1)
    assert error["detail"].startswith("Hand 1: ")


@pytest.mark.parametrize(
    ("policy_text", "hand_text", "code"),
    [
        (json.dumps(POLICY), "{not json", "malformed_json"),
        ('{"smallest_chip": 50}', json.dumps(GOOD), "invalid_policy"),
        (json.dumps(POLICY), json.dumps(dict(GOOD, seats=[])), "too_few_seats"),
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path, policy_text: str, hand_text: str, code: str
) -> None:
    """Bad JSON and bad policies are refused like bad hands."""
    policy = tmp_path / "p.json"
    policy.write_text(policy_text)
    status, _, err = run(str(policy), "-", hand_text)
    assert status == 2
    assert json.loads(err)["error"]["code"] == code


def test_a_missing_file_exits_2(policy_file: str, tmp_path: Path) -> None:
    """An unreadable hand file is an error object too, not a traceback."""
    status, _, err = run(policy_file, str(tmp_path / "nowhere.json"))
    assert status == 2
    assert json.loads(err)["error"]["code"] == "unreadable_file"


@pytest.mark.skipif(not (ROOT / "manage.py").exists(), reason="no manage.py yet")
def test_the_command_opens_no_database_connection(
    policy_file: str, tmp_path: Path
) -> None:
    """Settling works with the database unreachable: no connection is opened."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps([GOOD, GOOD]))
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL="postgres://nobody:nothing@127.0.0.1:9/none",
        CARDROOM_DATA_DIR=str(tmp_path / "data"),
    )
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "settle_hand",
            "--policy",
            policy_file,
            str(path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) == 2
    assert not (tmp_path / "data" / "postgres").exists()
