"""``manage.py settle_hand`` without Django: the plain form of the command goes to
the engine's command line before Django loads, with the same arguments, bytes and
exit statuses as the Django command; every other form goes through Django."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.domain.settle_cli import plain_arguments, settle_files

from .helpers import POLICY, hand, seat
from .test_settle_hand_command import BAD, GOOD

ROOT = Path(__file__).resolve().parents[3]


def manage(
    *args: str, stdin: bytes = b"", tmp: Path, importtime: bool = False
) -> subprocess.CompletedProcess[bytes]:
    """Run ``manage.py`` with ``args``; the database unreachable, as a room's
    command line may find it."""
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL="postgres://nobody@127.0.0.1:9/none",
        CARDROOM_DATA_DIR=str(tmp / "data"),
    )
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run(
        [sys.executable, *flags, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


def imported(stderr: bytes) -> set[str]:
    """The modules ``-X importtime`` says were imported."""
    return {
        line.rsplit("|", 1)[-1].strip()
        for line in stderr.decode().splitlines()
        if line.startswith("import time:")
    }


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--policy", "p.json", "h.json"], ("p.json", "h.json")),
        (["h.json", "--policy", "p.json"], ("p.json", "h.json")),
        (["--policy=p.json", "-"], ("p.json", "-")),
        (["--policy", "-", "h.json"], ("-", "h.json")),
        (["--policy=", ""], ("", "")),
        # Everything else is the Django command's to parse, answer or refuse.
        (["--policy", "p.json"], None),
        (["h.json"], None),
        ([], None),
        (["--policy", "p.json", "h.json", "more.json"], None),
        (["--policy", "p.json", "--policy", "q.json", "h.json"], None),
        (["--policy", "--verbosity", "h.json"], None),
        (["--pol", "p.json", "h.json"], None),
        (["--policy", "p.json", "h.json", "--settings", "config.settings"], None),
        (["--policy", "p.json", "-v", "2", "h.json"], None),
        (["--policy", "p.json", "--", "h.json"], None),
        (["--policy", "p.json", "-1"], None),
        (["--help"], None),
        (["--policy", "p.json", "h.json", "-h"], None),
    ],
)
def test_only_the_plain_form_skips_django(
    argv: list[str], expected: tuple[str, str] | None
) -> None:
    """The plain form is read as argparse reads it; anything else is left alone."""
    assert plain_arguments(argv) == expected


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    policy, hands = tmp_path / "policy.json", tmp_path / "hands.json"
    policy.write_text(json.dumps(POLICY))
    side_pot = hand(
        seat(1, 600, "As Ad"), seat(2, 2000, "Kh Ks"), seat(3, 2000, "Qh Qs")
    )
    hands.write_text(json.dumps([GOOD, side_pot, dict(GOOD, hand_no=9)]))
    return str(policy), str(hands)


def test_settle_hand_starts_no_django(files: tuple[str, str], tmp_path: Path) -> None:
    """The plain form imports neither Django nor Celery nor the settings, and
    prints what settle_files returns."""
    policy, hands = files
    done = manage(
        "settle_hand", "--policy", policy, hands, tmp=tmp_path, importtime=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == settle_files(policy, hands, io.StringIO())[1]
    modules = imported(done.stderr)
    assert "cardroom.domain.settlement" in modules
    assert not {m for m in modules if m.split(".")[0] in ("django", "celery")}
    assert not {m for m in modules if m.startswith(("config", "environ"))}
    assert not (tmp_path / "data").exists()


def test_settle_hand_reads_standard_input(tmp_path: Path) -> None:
    """``-`` reads the hands from standard input, in the plain form too."""
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(POLICY))
    done = manage(
        "settle_hand",
        f"--policy={policy}",
        "-",
        stdin=json.dumps([GOOD, GOOD]).encode(),
        tmp=tmp_path,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert len(json.loads(done.stdout)) == 2


CASES = {
    "a batch": (json.dumps(POLICY), json.dumps([GOOD, dict(GOOD, hand_no=2)])),
    "one hand": (json.dumps(POLICY), json.dumps(GOOD)),
    "a bad hand": (json.dumps(POLICY), json.dumps(BAD)),
    "a bad hand in a batch": (json.dumps(POLICY), json.dumps([GOOD, BAD])),
    "no JSON": (json.dumps(POLICY), "{not json"),
    "a bad policy": ('{"smallest_chip": 50}', json.dumps(GOOD)),
    "an unknown game": (json.dumps(POLICY), json.dumps(dict(GOOD, game="X"))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_same_bytes_and_status_as_through_django(case: str, tmp_path: Path) -> None:
    """The plain form and the Django command (made to parse the arguments by an
    option of Django's own) print the same bytes and exit alike."""
    policy_text, hand_text = CASES[case]
    policy, hands = tmp_path / "policy.json", tmp_path / "hands.json"
    policy.write_text(policy_text)
    hands.write_text(hand_text)
    fast = manage("settle_hand", "--policy", str(policy), str(hands), tmp=tmp_path)
    django = manage(
        "settle_hand", "--policy", str(policy), str(hands), "-v", "1", tmp=tmp_path
    )
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        django.returncode,
        django.stdout,
        django.stderr,
    )
    assert fast.returncode in (0, 2)


def test_a_missing_file_is_the_same_error_object(tmp_path: Path) -> None:
    """An unreadable file: exit 2 and the error object, either way."""
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(POLICY))
    args = ("settle_hand", "--policy", str(policy), str(tmp_path / "nowhere.json"))
    fast = manage(*args, tmp=tmp_path)
    django = manage(*args, "--no-color", tmp=tmp_path)
    assert (fast.returncode, fast.stdout) == (2, b"")
    assert json.loads(fast.stderr)["error"]["code"] == "unreadable_file"
    assert (django.returncode, django.stdout, django.stderr) == (
        2,
        b"",
        fast.stderr,
    )


def test_help_and_argument_errors_are_djangos(tmp_path: Path) -> None:
    """``help settle_hand``, ``settle_hand --help`` and a missing argument are
    answered by Django's command, as before."""
    for args in (("help", "settle_hand"), ("settle_hand", "--help")):
        done = manage(*args, tmp=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        text = done.stdout.decode()
        assert "--policy POLICY.json" in text and "--settings SETTINGS" in text
    done = manage("settle_hand", "hands.json", tmp=tmp_path)
    assert done.returncode == 2
    error = done.stderr.decode()
    assert error.startswith("usage: manage.py settle_hand")
    assert "the following arguments are required: --policy" in error
