"""PHH hand histories booked through the terminal's path."""

from __future__ import annotations

from datetime import date
from io import BytesIO, StringIO
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


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = Path(tmp_path) / name
    path.write_text(text)
    return path


def test_a_dry_run_prints_each_hand_and_books_nothing(clock, open_table, tmp_path):
    open_table("T01")
    out = StringIO()
    call_command(
        "import_phh",
        str(_write(tmp_path, "night.phhs", HISTORY)),
        "--table",
        "T01",
        "--seat",
        "--dry-run",
        stdout=out,
    )
    text = out.getvalue()
    assert "hand 1 (no. 1): NLHE, pots 30000, rake 500" in text
    assert "seat 1 P-1: stack 20000, put in 15000, returned 0, won 29500, " in text
    assert "Dry run: 1 hands would be booked at T01, 0 refused" in text
    assert not Hand.objects.exists()
    assert not SeatSession.objects.exists()


DOLLARS = """
[1]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200.50, 150.25, 300]
players = ["P-1", "P-2", "P-3"]
actions = ["d dh p1 AhAd", "d dh p2 KhKd", "d dh p3 7c2d", "p3 f", "p1 cbr 10.50",
  "p2 cc", "d db 2c7d9h", "p2 cbr 139.75", "p1 cc", "d db Js", "d db 3d",
  "p2 sm KhKd", "p1 sm AhAd"]

[2]
variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200]
players = ["P-1", "P-2", "P-3"]
actions = ["d dh p1 ?????????", "d dh p2 ??????????", "d dh p3 ??????????", "p3 f"]

[3]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100.005, 100, 100]
players = ["P-1", "P-2", "P-3"]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]

[4]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ["P-3", "P-1", "P-4"]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]
"""


def test_a_dollar_file_books_exact_cents_and_reports_what_it_refused(
    clock, open_table, players, tmp_path
):
    """--unit 100 books 200.50 as 20050 cents; a draw game and a fraction of a
    cent are refused with their reasons, changing nothing, and the import goes
    on with the next hand."""
    open_table("T01")
    out, err = StringIO(), StringIO()
    call_command(
        "import_phh",
        str(_write(tmp_path, "dollars.phhs", DOLLARS)),
        "--table",
        "T01",
        "--unit",
        "100",
        "--seat",
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    assert "2 hands booked at T01, 0 already there, 2 refused." in text
    assert "refused hand 2 (no. 2): unknown_game [HS9]: PHH variant 'F2L3D'" in text
    assert "refused hand 3 (no. 3): inexact_amount: p1's starting stack 100.005" in text
    assert "hand 3 (no. 3) refused" in err.getvalue()
    assert list(Hand.objects.order_by("hand_no").values_list("hand_no", flat=True)) == [
        1,
        4,
    ]
    first = Hand.objects.get(hand_no=1)
    assert [s["stack"] for s in first.record["seats"]] == [20050, 15025, 30000]
    assert [s["put_in"] for s in first.record["seats"]] == [15025, 15025, 0]
    # P-2 went broke in hand 1 and P-4 took a seat for hand 4; P-1 kept his.
    sitting = dict(
        SeatSession.objects.filter(ended_at__isnull=True).values_list(
            "player__code", "seat"
        )
    )
    assert sitting["P-1"] == 1 and sitting["P-3"] == 3 and sitting["P-4"] == 2


PLURIBUS = Path(__file__).resolve().parents[2] / "data" / "phh" / "pluribus"


def test_pluribus_hands_import_at_one_table(clock, open_table, tmp_path):
    """Fourteen players in six seats over 30 hands: each keeps his seat while he
    plays, players who leave stand up with their stacks, and the hands book at the
    one table."""
    from accounting.models import Player

    text = (PLURIBUS / "pluribus-public.phhs").read_text()
    hands = text.split("\n\n")[:30]
    names = sorted(
        {
            n.strip(" '")
            for h in hands
            for n in h.split("players = [")[1].split("]")[0].split(",")
        }
    )
    Player.objects.bulk_create(
        Player(code=n, name=n, id_verified=True, birth_date=date(1985, 1, 1))
        for n in names
    )
    open_table("T01", tray=20_000_000)
    out = StringIO()
    call_command(
        "import_phh",
        str(_write(tmp_path, "pluribus.phhs", "\n\n".join(hands))),
        "--table",
        "T01",
        "--seat",
        stdout=out,
        stderr=StringIO(),
    )
    text = out.getvalue()
    # No "Seat 1 is not held by Pluribus": every hand's seats are the table's. The
    # dataset restarts everyone at 10,000 each hand; the table books each hand on
    # the ledger's stacks (HS6), a player short of his put-in tops up first, and one
    # back the same night brings the stack he left with (BI5, BI6).
    booked = int(text.split(" hands booked")[0])
    assert booked == 30 and " 0 refused" in text, text
    assert "seat_not_held" not in text
    assert Hand.objects.count() == booked


def test_a_booked_hand_exports_as_phh_and_settles_the_same(
    clock, open_table, players, tmp_path, staff_client
):
    """GET …/hands/{no}.phh: the hand as PHH; imported again it settles to the
    booked settlement. The floor, auditors and the table's terminal read it."""
    from cardroom.domain.phh import load_histories, to_record
    from cardroom.domain.settlement import settle_record
    from cardroom.models import Table
    from core.roles import Role
    from tests.api.floor.conftest import POLICY

    terminal = open_table("T01")
    call_command(
        "import_phh",
        str(_write(tmp_path, "night.phhs", HISTORY)),
        "--table",
        "T01",
        "--seat",
        stdout=StringIO(),
    )
    hand = Hand.objects.get()
    auditor = staff_client(Role.AUDITOR, username="auditor")
    for client in (auditor, terminal):
        answer = client.get("/api/v1/tables/T01/hands/1.phh")
        assert answer.status_code == 200, answer.content
        assert answer["Content-Type"] == "text/plain; charset=utf-8"
        history = load_histories(BytesIO(answer.content))[0]
        record = to_record(history, table="T01", hand_no=1)
        assert record == hand.record
        assert settle_record(record, POLICY) == hand.settlement
        assert history["finishing_stacks"] == [34_500, 0, 30_000]
    euros = auditor.get("/api/v1/tables/T01/hands/1.phh?unit=100").content.decode()
    assert "starting_stacks = [200, 150, 300]" in euros
    # The command writes the same text.
    out = StringIO()
    call_command("export_phh", "--table", "T01", "--hand", "1", stdout=out)
    assert out.getvalue() == answer.content.decode()
    path = Path(tmp_path) / "T01.phhs"
    call_command("export_phh", "--table", "T01", "--output", str(path), stdout=out)
    assert len(load_histories(path.open("rb"))) == 1

    missing = auditor.get("/api/v1/tables/T01/hands/9.phh")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    bad_unit = auditor.get("/api/v1/tables/T01/hands/1.phh?unit=0")
    assert bad_unit.status_code == 400
    assert Table.objects.get(code="T01").hands.count() == 1
