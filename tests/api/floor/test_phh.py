"""PHH hand histories booked through the terminal's path."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from cardroom.models import Hand, SeatSession

pytestmark = pytest.mark.django_db

HISTORY = """
[1]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [100, 200, 0]
min_bet = 200
starting_stacks = [20000, 15000, 30000]
players = ["P-1", "P-2", "P-3"]
actions = [
  "d dh p1 AhAd", "d dh p2 KhKd", "d dh p3 7c2d",
  "p3 f", "p1 cbr 1000", "p2 cc",
  "d db 2c7d9h", "p2 cbr 14000", "p1 cc", "d db Js", "d db 3d",
  "p2 sm KhKd", "p1 sm AhAd",
]

"""


def test_phh_file_is_booked_through_the_same_path(clock, open_table, players, tmp_path):
    """import_phh seats the players and books each hand; a re-run books nothing."""
    open_table("T01")
    path = Path(tmp_path) / "night.phhs"
    path.write_text(HISTORY)
    out = StringIO()
    call_command("import_phh", str(path), "--table", "T01", "--seat", stdout=out)
    assert "1 hands booked" in out.getvalue()
    hand = Hand.objects.get()
    assert hand.settlement["rake"] == 500
    stacks = dict(SeatSession.objects.values_list("player__code", "stack_cents"))
    assert stacks == {"P-1": 34_500, "P-2": 0, "P-3": 30_000}
    again = StringIO()
    call_command("import_phh", str(path), "--table", "T01", stdout=again)
    assert "0 hands booked at T01, 1 already there" in again.getvalue()
