"""``settle_hand`` without Django (``cardroom.domain.settle_cli``): the same bytes as
the Django command, no Django imported, the exit status kept through ``os._exit``."""

from __future__ import annotations

import gc
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.domain.settle_cli import settle_files

from .helpers import POLICY, hand, seat
from .test_settle_hand_command import BAD, GOOD, run

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "cardroom" / "domain" / "settle_cli.py"


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    policy, hands = tmp_path / "policy.json", tmp_path / "hands.json"
    policy.write_text(json.dumps(POLICY))
    side_pot = hand(
        seat(1, 600, "As Ad"), seat(2, 2000, "Kh Ks"), seat(3, 2000, "Qh Qs")
    )
    hands.write_text(json.dumps([GOOD, side_pot, dict(GOOD, hand_no=9)]))
    return str(policy), str(hands)


def test_the_management_command_prints_the_same_bytes(files: tuple[str, str]) -> None:
    """manage.py settle_hand dispatches to settle_files: output and status agree."""
    status, output = settle_files(*files, io.StringIO())
    assert (status, run(*files)) == (0, (0, output.decode(), ""))
    assert output.endswith(b"\n") and len(json.loads(output)) == 3


def test_a_bad_hand_gives_status_2_and_the_error_object(tmp_path: Path) -> None:
    """The error object of API.md, the same as manage.py settle_hand writes."""
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(POLICY))
    status, output = settle_files(str(policy), "-", io.StringIO(json.dumps(BAD)))
    assert status == 2
    assert json.loads(output)["error"]["code"] == "duplicate_card"
    assert run(str(policy), "-", json.dumps(BAD)) == (2, "", output.decode())


@pytest.mark.parametrize("how", ["path", "module"])
def test_the_command_runs_without_django(files: tuple[str, str], how: str) -> None:
    """Run by its path or as a module, it settles without importing Django or
    Celery: the ``cardroom`` package's ``__init__`` loads neither."""
    command = [str(SCRIPT)] if how == "path" else ["-m", "cardroom.domain.settle_cli"]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command, "--policy", *files],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == settle_files(*files, io.StringIO())[1]
    imported = {
        line.rsplit("|", 1)[-1].strip()
        for line in done.stderr.decode().splitlines()
        if line.startswith("import time:")
    }
    assert "cardroom.domain.settlement" in imported
    assert not {m for m in imported if m.endswith(".models") or ".db" in m}
    assert not {m for m in imported if m.split(".")[0] in ("django", "celery")}


def test_the_exit_status_of_a_bad_hand_survives_os_exit(tmp_path: Path) -> None:
    """A refused hand exits 2 with the error on standard error, nothing on stdout."""
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(POLICY))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--policy", str(policy), "-"],
        input=json.dumps([GOOD, BAD]).encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, b"")
    error = json.loads(done.stderr)["error"]
    assert (error["code"], error["index"]) == ("duplicate_card", 1)


@pytest.mark.parametrize("collecting", [True, False])
def test_the_collector_is_as_it_was_after_settling(
    files: tuple[str, str], collecting: bool
) -> None:
    """settle_files turns the cyclic collector off while it settles (it changes
    no result, only when memory is freed) and leaves it as it found it."""
    was = gc.isenabled()
    try:
        (gc.enable if collecting else gc.disable)()
        first = settle_files(*files, io.StringIO())
        assert gc.isenabled() is collecting
        gc.collect()
        assert settle_files(*files, io.StringIO()) == first
    finally:
        (gc.enable if was else gc.disable)()
