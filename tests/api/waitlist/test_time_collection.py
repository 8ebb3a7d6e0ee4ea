"""Time collection from the table terminal, exemptions from the waiting list (RK6)."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import Account, Transaction
from accounting.selectors import trial_balance
from cardroom.models import SeatSession
from tests.api.floor.conftest import POLICY, post_hand, seat
from tests.api.waitlist.conftest import TIME_POLICY, joined, refused
from waitlist.models import TimeCollection

pytestmark = pytest.mark.django_db


def collect(terminal, table: str = "T01"):
    return terminal.post(f"/api/v1/tables/{table}/time", format="json")


def stacks() -> dict[int, int]:
    return dict(
        SeatSession.objects.filter(ended_at=None).values_list("seat", "stack_cents")
    )


def books_agree() -> None:
    for s in SeatSession.objects.filter(ended_at=None).select_related("player"):
        code = f"player:{s.player.code}:table:{s.table.code}"
        assert Account.objects.get(code=code).balance_cents == s.stack_cents
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def hand(hand_no: int, button: int, seats: dict[int, tuple[str, int]]) -> dict:
    """All fold to the last seat, which wins the blinds (no rake in time games)."""
    order = sorted(seats)
    rows = []
    for n in order:
        player, stack = seats[n]
        rows.append(
            {
                "seat": n,
                "player": player,
                "stack": stack,
                "present": True,
                "put_in": 200,
                "folded": n != order[-1],
            }
        )
    return {
        "table": "T01",
        "hand_no": hand_no,
        "game": "NLHE",
        "button": button,
        "streets": 1,
        "board": [],
        "seats": rows,
    }


@pytest.fixture
def t01(open_table, players, clock):
    """T01 raked by time: P-1 and P-2 since 21:00, a hand at 21:05, P-3 new at 21:10."""
    t = open_table("T01", policy=TIME_POLICY)
    assert seat(t, "T01", 1, "P-1", 20_000).status_code == 201
    assert seat(t, "T01", 2, "P-2", 20_000).status_code == 201
    clock.advance(minutes=5)
    body = hand(1, 1, {1: ("P-1", 20_000), 2: ("P-2", 20_000)})
    assert post_hand(t, "T01", body).status_code == 201
    clock.advance(minutes=5)
    assert seat(t, "T01", 3, "P-3", 20_000).status_code == 201
    clock.set("2026-11-29T21:30:00")
    return t


def test_everyone_but_the_new_player_pays_the_period(t01, clock):
    """RK6: nobody waiting: P-3, new since the game began, skips until his blind."""
    answer = collect(t01)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["period_start"] == "2026-11-29T21:30:00+02:00"
    assert body["period_end"] == "2026-11-29T22:00:00+02:00"
    assert (body["waiting"], body["everyone_pays"], body["total"]) == (0, False, 1_200)
    assert body["charged"] == [
        {"seat": 1, "player": "P-1", "amount": 600},
        {"seat": 2, "player": "P-2", "amount": 600},
    ]
    assert body["exempt"] == [{"seat": 3, "player": "P-3", "reason": "new_player"}]
    assert chart.time_revenue().balance_cents == 1_200
    assert stacks() == {1: 19_800 - 600, 2: 20_200 - 600, 3: 20_000}
    books_agree()


def test_the_period_is_collected_once(t01, clock):
    """RK6: asked again within the period, the first collection is the answer."""
    first = collect(t01).json()
    clock.advance(minutes=14)
    again = collect(t01)
    assert again.status_code == 200 and again.json() == first
    assert Transaction.objects.filter(kind="time_collection").count() == 1
    assert TimeCollection.objects.count() == 1


def test_at_the_next_period_he_is_no_longer_new(t01, clock):
    """RK6: P-3 sat down before the 21:30 collection: at 22:00 he pays."""
    collect(t01)
    clock.set("2026-11-29T22:00:00")
    body = collect(t01).json()
    assert [c["seat"] for c in body["charged"]] == [1, 2, 3]
    assert chart.time_revenue().balance_cents == 3_000


def test_two_waiting_everyone_pays(t01, floor, clock):
    """RK6: with two or more on the game's list the new player pays too."""
    joined(floor, "P-8")
    joined(floor, "P-9")
    body = collect(t01).json()
    assert (body["waiting"], body["everyone_pays"]) == (2, True)
    assert [c["seat"] for c in body["charged"]] == [1, 2, 3]
    assert body["exempt"] == []


def test_one_waiting_the_new_player_still_skips(t01, floor, clock):
    joined(floor, "P-9")
    body = collect(t01).json()
    assert body["waiting"] == 1
    assert [e["seat"] for e in body["exempt"]] == [3]


def test_after_his_blind_the_new_player_pays(t01, clock):
    """RK6: a hand put P-3 in the big blind (button 1: blinds 2 and 3)."""
    clock.set("2026-11-29T21:20:00")
    seats = {1: ("P-1", 19_800), 2: ("P-2", 20_200), 3: ("P-3", 20_000)}
    assert post_hand(t01, "T01", hand(2, 1, seats)).status_code == 201
    clock.set("2026-11-29T21:30:00")
    body = collect(t01).json()
    assert [c["seat"] for c in body["charged"]] == [1, 2, 3]


def test_a_hand_without_his_blind_keeps_him_exempt(t01, clock):
    """RK6: dealt in on the button (blinds 1 and 2), he hasn't had his blind."""
    clock.set("2026-11-29T21:20:00")
    seats = {1: ("P-1", 19_800), 2: ("P-2", 20_200), 3: ("P-3", 20_000)}
    assert post_hand(t01, "T01", hand(2, 3, seats)).status_code == 201
    clock.set("2026-11-29T21:30:00")
    body = collect(t01).json()
    assert [e["seat"] for e in body["exempt"]] == [3]


def test_a_game_starting_everyone_pays(open_table, players, clock):
    """RK6: before any hand nobody is a new player joining a running game."""
    t = open_table("T01", policy=TIME_POLICY)
    for n in (1, 2, 3):
        assert seat(t, "T01", n, f"P-{n}", 20_000).status_code == 201
    body = collect(t).json()
    assert body["period_start"] == "2026-11-29T21:00:00+02:00"
    assert [c["seat"] for c in body["charged"]] == [1, 2, 3]


def test_stud_new_players_pay_after_their_first_hand(manager, stock_tray, players):
    """RK6 in stud: a new player skips until he has played one hand."""
    from rest_framework.test import APIClient

    from cardroom.models import Table, TerminalKey

    body = {
        "code": "S01",
        "game": "STUD",
        "small_blind": 100,
        "big_blind": 200,
        "min_buy_in": 4_000,
        "max_buy_in": None,
        "seats": 8,
        "policy": TIME_POLICY,
    }
    assert manager.post("/api/v1/tables", body, format="json").status_code == 201
    stock_tray("S01", 1_000_000)
    _, raw = TerminalKey.objects.create_key(name="S01", table=Table.objects.get())
    t = APIClient()
    t.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    for n in (1, 2):
        assert seat(t, "S01", n, f"P-{n}", 10_000).status_code == 201

    def stud_hand(no: int, seats: list[int]) -> dict:
        return {
            "table": "S01",
            "hand_no": no,
            "game": "STUD",
            "streets": 1,
            "board": [],
            "seats": [
                {
                    "seat": n,
                    "player": f"P-{n}",
                    "stack": 10_000,
                    "present": True,
                    "put_in": 100,
                    "folded": n != seats[-1],
                }
                for n in seats
            ],
        }

    first = post_hand(t, "S01", stud_hand(1, [1, 2]))
    assert first.status_code == 201, first.content
    assert seat(t, "S01", 3, "P-3", 10_000).status_code == 201
    assert seat(t, "S01", 4, "P-4", 10_000).status_code == 201
    hand2 = stud_hand(2, [1, 2, 3])
    hand2["seats"][0]["stack"], hand2["seats"][1]["stack"] = 9_900, 10_100
    assert post_hand(t, "S01", hand2).status_code == 201
    answer = collect(t, "S01")
    assert answer.status_code == 201, answer.content
    assert [c["seat"] for c in answer.json()["charged"]] == [1, 2, 3]
    assert answer.json()["exempt"] == [
        {"seat": 4, "player": "P-4", "reason": "new_player"}
    ]


def test_a_pot_raked_game_takes_no_time(open_table, players, clock):
    """RK6: the game's policy decides; a pot-raked game refuses a collection."""
    t = open_table("T01", policy=POLICY)
    error = refused(collect(t), "RK6")
    assert error["code"] == "not_time_collection"


def test_a_time_game_without_its_period_and_amount_is_refused(
    open_table, players, clock
):
    """The engine accepts the time section; without it there is nothing to charge."""
    policy = {k: v for k, v in TIME_POLICY.items() if k != "time"}
    t = open_table("T01", policy=policy)
    error = refused(collect(t), "RK6")
    assert error["code"] == "invalid_time_policy"
    assert not Transaction.objects.filter(kind="time_collection").exists()


def test_only_the_tables_own_terminal_or_the_floor_collects(
    t01, open_table, floor, clock
):
    other = open_table("T02", policy=TIME_POLICY)
    assert collect(other, "T01").status_code == 403
    assert collect(floor, "T01").status_code == 201
