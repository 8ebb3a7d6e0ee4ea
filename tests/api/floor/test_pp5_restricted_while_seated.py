"""PP5: a bar or a self-exclusion that begins while the player sits.

The terminal hears of it in its next answer, the hand in play is played out, and
the next hand the table books ends his seat: his chips leave with him, his to cash
at the cage.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from accounting.models import Account, Player
from accounting.services.cage import restriction_set
from cardroom.models import SeatSession
from core.roles import Role
from tests.api.floor.conftest import post_hand, seat

pytestmark = pytest.mark.django_db(transaction=True)


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


@pytest.fixture
def table(clock, open_table):
    for code in ("P-71", "P-72", "P-73"):
        Player.objects.create(
            code=code, name=f"Player {code}", birth_date=date(1980, 1, 1)
        )
    t = open_table("T01")
    for n, code in ((1, "P-71"), (2, "P-72"), (3, "P-73")):
        assert seat(t, "T01", n, code, 20_000).status_code == 201
    return t


def hand(no: int) -> dict:
    """P-71 and P-72 fold their blinds' worth; P-73 takes it: no showdown."""
    return {
        "table": "T01",
        "hand_no": no,
        "game": "NLHE",
        "button": 1,
        "streets": 1,
        "board": [],
        "seats": [
            {"seat": 1, "player": "P-71", "stack": 20_000 if no == 1 else 19_900,
             "present": True, "put_in": 100, "folded": True},
            {"seat": 2, "player": "P-72", "stack": 20_000 if no == 1 else 19_800,
             "present": True, "put_in": 200, "folded": True},
            {"seat": 3, "player": "P-73", "stack": 20_000 if no == 1 else 20_300,
             "present": True, "put_in": 200, "folded": False},
        ],
    }  # fmt: skip


def bar(code: str, make_staff, *, scope: str = "room", kind: str = "bar"):
    manager = make_staff("pp5-manager", Role.MANAGER)
    return restriction_set(
        player=Player.objects.get(code=code),
        kind=kind,
        scope=scope,
        until=None,
        reason="Collusion seen on camera",
        by=manager,
    )


def test_the_terminal_is_told_and_the_next_hand_ends_his_seat(table, make_staff):
    assert post_hand(table, "T01", hand(1)).status_code == 201
    restriction = bar("P-71", make_staff)
    session = SeatSession.objects.get(player__code="P-71", ended_at__isnull=True)
    assert session.must_leave_at is not None and session.must_leave_rule == "PP3"

    # The terminal's next call about its table answers with it.
    seen = table.get("/api/v1/tables/T01")
    notices = seen.json()["notices"]
    assert notices == [
        {
            "seat": 1,
            "player": "P-71",
            "rule": "PP3",
            "code": "player_barred",
            "since": notices[0]["since"],
            "action": "leave_after_hand",
            "left_with": None,
        }
    ]
    listed = table.get("/api/v1/tables/T01/seats").json()
    assert listed["notices"] == notices
    seats = {s["seat"]: s["must_leave"] for s in listed["seats"]}
    assert seats == {1: "PP3", 2: None, 3: None}
    # The floor's map says it too.
    floor = Client()
    floor.force_login(make_staff("pp5-floor", Role.FLOOR))
    page = floor.get("/floor/map", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Restricted (PP3): leaves after this hand" in page
    # The hand in play is played out and booked; then he is gone.
    booked = post_hand(table, "T01", hand(2))
    assert booked.status_code == 201, booked.content
    left = booked.json()["notices"]
    assert [(n["seat"], n["player"], n["action"], n["left_with"]) for n in left] == [
        (1, "P-71", "left", 19_800)
    ]
    session.refresh_from_db()
    assert session.ended_at is not None and session.left_with_cents == 19_800
    # His chips are his: off the table, in his hands, to cash at the cage.
    assert balance("player:P-71:table:T01") == 0
    assert balance("player:P-71:chips") == 19_800
    assert restriction.pk
    # The others play on, and the table has nothing more to say.
    assert "notices" not in table.get("/api/v1/tables/T01").json()


def test_a_tournaments_only_bar_leaves_his_cash_seat_alone(table, make_staff):
    bar("P-72", make_staff, scope="tournaments")
    session = SeatSession.objects.get(player__code="P-72", ended_at__isnull=True)
    assert session.must_leave_at is None
    assert "notices" not in table.get("/api/v1/tables/T01").json()


def test_the_floor_may_take_him_out_at_once(table, make_staff):
    bar("P-73", make_staff, kind="self_exclusion")
    gone = table.post(
        "/api/v1/tables/T01/seats/3/leave", {"stack": 20_000}, format="json"
    )
    assert gone.status_code == 200
    assert balance("player:P-73:chips") == 20_000
    # Nobody left to mark; the next hand books without him.
    assert "notices" not in table.get("/api/v1/tables/T01").json()
