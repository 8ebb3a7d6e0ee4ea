"""create_staff without a terminal: a clear refusal, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


class _NoTerminal(StringIO):
    def isatty(self) -> bool:
        return False


@pytest.mark.django_db
def test_no_password_and_no_terminal_is_refused(monkeypatch):
    """Without --password and with stdin no terminal, the command refuses and
    creates nothing."""
    monkeypatch.setattr(sys, "stdin", _NoTerminal("Kassa-2026-yo\n"))
    with pytest.raises(CommandError, match="--password"):
        call_command("create_staff", "mika", "--role", "cashier", stdout=StringIO())
    assert not User.objects.filter(username="mika").exists()


def test_the_command_line_answers_on_stderr_with_a_failing_status():
    """Run as a script (no controlling terminal, stdin closed), create_staff exits
    non-zero with its message on stderr and no traceback."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "create_staff",
            "mika",
            "--role",
            "cashier",
            "--skip-checks",
        ],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,  # no controlling terminal for getpass to open
    )
    assert result.returncode != 0
    assert "no terminal to ask for one" in result.stderr
    assert "--password" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
