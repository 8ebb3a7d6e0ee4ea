"""The tournament terminals' API: busts and chip counts with the tables' keys,
idempotency and error shape; the clock for the floor and the room's clocks (TO3,
TO4, TO11, TO12)."""

from __future__ import annotations

import pytest

from core.money import money_format
from tournaments.models import Bust, ChipCount, ClockChange, Entry, Event, SeatMove

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/sunday-100"


def seated(event, table):
    return list(
        Entry.objects.select_related("player")
        .filter(event=event, table=table, status="active")
        .order_by("seat")
    )


def written():
    return (
        Bust.objects.count(),
        ChipCount.objects.count(),
        ClockChange.objects.count(),
        SeatMove.objects.count(),
        list(Entry.objects.order_by("pk").values_list("status", "table", "seat")),
    )


def error_of(answer):
    body = answer.json()
    assert set(body) == {"error"}
    return body["error"]


class TestBusts:
    def test_a_terminal_posts_its_tables_bust_and_a_retry_answers_the_same(
        self, running, terminals
    ):
        """TO4: the terminal of the bust's table records it; the same hand again is
        answered 200 with the same places; other busts for it are 409."""
        table = next(t for t in ("TT1", "TT2") if len(seated(running, t)) >= 2)
        out, winner = seated(running, table)[:2]
        body = {
            "hand": "17",
            "busts": [{"player": out.player.code, "stack": 4_000}],
        }
        url = f"{BASE}/tables/{table}/busts"
        first = terminals[table].post(url, body, format="json")
        assert first.status_code == 201, first.json()
        assert first.json() == [
            {
                "entry": out.number,
                "player": out.player.code,
                "hand": f"{table}:17",
                "stack": 4_000,
                "place_high": 8,
                "place_low": 8,
                "hand_for_hand": False,
            }
        ]
        again = terminals[table].post(url, body, format="json")
        assert (again.status_code, again.json()) == (200, first.json())
        other = {"hand": "17", "busts": [{"player": winner.player.code, "stack": 1}]}
        before = written()
        conflict = terminals[table].post(url, other, format="json")
        assert conflict.status_code == 409
        assert error_of(conflict)["code"] == "hand_recorded"
        assert written() == before
        bust = Bust.objects.get()
        assert (bust.recorded_by, bust.source) == (None, f"terminal:{table}")

    def test_a_bounty_bust_is_the_floors(self, running, terminals):
        """TO8, CA6: a bounty is an award a person approves, so a table's terminal
        can't record a bust in a bounty event; refused, nothing written."""
        Event.objects.filter(pk=running.pk).update(
            bounty_kind="standard", bounty_cents=1
        )
        table = next(t for t in ("TT1", "TT2") if seated(running, t))
        out, winner = seated(running, table)[:2]
        body = {
            "hand": "3",
            "busts": [
                {
                    "player": out.player.code,
                    "stack": 10,
                    "busted_by": [winner.player.code],
                }
            ],
        }
        before = written()
        answer = terminals[table].post(
            f"{BASE}/tables/{table}/busts", body, format="json"
        )
        assert answer.status_code == 422
        assert (error_of(answer)["code"], error_of(answer)["rule"]) == (
            "bounty_needs_staff",
            "TO8",
        )
        assert written() == before

    def test_an_idempotency_key_replays_the_first_answer(self, running, terminals):
        """API.md: the same key and body answer the first response, writing nothing."""
        table = next(t for t in ("TT1", "TT2") if seated(running, t))
        out = seated(running, table)[0]
        body = {"hand": "3", "busts": [{"player": out.player.code, "stack": 500}]}
        url = f"{BASE}/tables/{table}/busts"
        headers = {"HTTP_IDEMPOTENCY_KEY": "bust-3"}
        first = terminals[table].post(url, body, format="json", **headers)
        before = written()
        again = terminals[table].post(url, body, format="json", **headers)
        assert again.status_code == first.status_code == 201
        assert again.json() == first.json()
        assert again["Idempotent-Replayed"] == "true"
        assert written() == before

    def test_a_terminal_of_another_table_is_refused_and_nothing_changes(
        self, running, terminals
    ):
        """A key posts only for its own table; a table not in the event is refused."""
        out = seated(running, "TT1")[0]
        body = {"hand": "1", "busts": [{"player": out.player.code, "stack": 100}]}
        before = written()
        wrong_key = terminals["TT2"].post(
            f"{BASE}/tables/TT1/busts", body, format="json"
        )
        assert wrong_key.status_code == 403
        cash_table = terminals["T09"].post(
            f"{BASE}/tables/T09/busts", body, format="json"
        )
        assert cash_table.status_code == 403
        assert error_of(cash_table)["rule"] == "TO11"
        assert written() == before

    def test_a_player_of_another_table_is_refused_and_nothing_changes(
        self, running, terminals
    ):
        """TO4: a table reports only the players seated there."""
        elsewhere = seated(running, "TT2")[0]
        body = {"hand": "9", "busts": [{"player": elsewhere.player.code, "stack": 1}]}
        before = written()
        answer = terminals["TT1"].post(f"{BASE}/tables/TT1/busts", body, format="json")
        assert answer.status_code == 422
        error = error_of(answer)
        assert (error["code"], error["rule"]) == ("not_at_this_table", "TO4")
        assert written() == before

    @pytest.mark.parametrize(
        "body",
        [
            {},
            {"hand": "1", "busts": []},
            {"hand": "1", "busts": [{"player": "P-100", "stack": -1}]},
            {"hand": "1", "busts": [{"player": "P-100", "stack": "many"}]},
        ],
    )
    def test_bad_input_is_400_and_writes_nothing(self, running, terminals, body):
        """API.md: malformed input answers 400 and changes nothing."""
        before = written()
        answer = terminals["TT1"].post(f"{BASE}/tables/TT1/busts", body, format="json")
        assert answer.status_code == 400
        assert written() == before

    def test_hand_for_hand_busts_at_two_tables_share_the_places(
        self, running, floor_client
    ):
        """TO4 (TDA RP-8-A): in a hand-for-hand hand, players out at different
        tables share the places of that hand, whatever their stacks."""
        one, two = seated(running, "TT1")[0], seated(running, "TT2")[0]
        body = {
            "hand": "h4h-1",
            "hand_for_hand": True,
            "busts": [
                {"player": one.player.code, "stack": 9_000},
                {"player": two.player.code, "stack": 2_000},
            ],
        }
        answer = floor_client.post(f"{BASE}/busts", body, format="json")
        assert answer.status_code == 201, answer.json()
        places = {(b["place_high"], b["place_low"]) for b in answer.json()}
        assert places == {(7, 8)}


class TestChipCounts:
    def test_a_terminal_counts_its_table(self, running, terminals):
        """TO3: a table's count, recorded with its terminal as the source."""
        answer = terminals["TT1"].post(
            f"{BASE}/tables/TT1/chip-counts", {"chips": 81_500}, format="json"
        )
        assert answer.status_code == 201
        assert answer.json()["chips"] == 81_500
        count = ChipCount.objects.get()
        assert (count.table, count.source) == ("TT1", "terminal:TT1")


class TestClock:
    def test_the_floor_runs_the_clock_and_the_tables_read_it(
        self, running, floor_client, terminals
    ):
        """TO12: the floor starts and pauses the clock; the terminals read it."""
        start = floor_client.post(f"{BASE}/clock", {"action": "start"}, format="json")
        assert start.status_code == 200, start.json()
        assert start.json()["status"] == "running"
        assert start.json()["players_left"] == 8
        read = terminals["TT1"].get(f"{BASE}/tables/TT1/clock")
        assert read.status_code == 200
        assert read.json()["level"] == 1 and read.json()["big_blind"] == 200
        # Another table's URL, a cash table, the staff URL: refused.
        assert terminals["TT2"].get(f"{BASE}/tables/TT1/clock").status_code == 403
        cash = terminals["T09"].get(f"{BASE}/tables/T09/clock")
        assert (cash.status_code, error_of(cash)["rule"]) == (403, "TO11")
        assert terminals["TT1"].get(f"{BASE}/clock").status_code == 403

    def test_a_change_the_clock_cannot_take_is_422_and_not_logged(
        self, running, floor_client, terminals
    ):
        """TO12: resuming a clock that isn't paused is refused with the rule."""
        floor_client.post(f"{BASE}/clock", {"action": "start"}, format="json")
        before = written()
        answer = floor_client.post(f"{BASE}/clock", {"action": "resume"}, format="json")
        assert answer.status_code == 422
        error = error_of(answer)
        assert (error["code"], error["rule"]) == ("clock_running", "TO12")
        assert "pause" in error["allowed"]["actions"]
        bad = floor_client.post(f"{BASE}/clock", {"action": "jump"}, format="json")
        assert bad.status_code == 400
        by_terminal = terminals["TT1"].post(
            f"{BASE}/clock", {"action": "pause"}, format="json"
        )
        assert by_terminal.status_code == 403
        assert written() == before


class TestFloor:
    def test_the_map_the_draw_and_a_rebalance(self, running, floor_client, players):
        """TO11: the floor sees the tables seat by seat, seats alternates and breaks
        a table when its players fit at the others."""
        tables = floor_client.get(f"{BASE}/tables").json()
        assert sorted(t["table"] for t in tables) == ["TT1", "TT2"]
        assert sum(t["players"] for t in tables) == 8
        assert all(len(t["seated"]) == 9 for t in tables)
        done = floor_client.post(f"{BASE}/tables/rebalance", {}, format="json")
        assert done.status_code == 200, done.json()
        assert done.json()["broken"] == ["TT1"]
        assert {m["to_table"] for m in done.json()["moves"]} == {"TT2"}
        tables = floor_client.get(f"{BASE}/tables").json()
        assert [(t["table"], t["players"]) for t in tables] == [("TT2", 8)]
        draw = floor_client.post(f"{BASE}/seats/draw", {}, format="json")
        assert (draw.status_code, draw.json()) == (201, [])


def test_the_public_clocks_name_no_player(running, floor_client, api):
    """TO12, WL11: the board's clocks carry no player code, name or stack."""
    floor_client.post(f"{BASE}/clock", {"action": "start"}, format="json")
    answer = api.get("/api/v1/board/tournaments")
    assert answer.status_code == 200
    (clock,) = answer.json()
    assert clock["event"] == "sunday-100" and clock["players_left"] == 8
    assert "P-1" not in answer.content.decode()


@pytest.mark.parametrize(
    ("language", "pool", "guarantee"),
    [
        ("en", "€800", "€1,500"),
        ("fi", "800\xa0€", "1\xa0500\xa0€"),
        ("ko", "€800", "€1,500"),
    ],
)
def test_the_public_clocks_write_their_money_in_the_boards_language(
    running, floor_client, api, language, pool, guarantee
):
    """Issue 33: the prize pool and the guarantee come written by core.money in
    the board's language (``?lang=``), beside their cents; another language is
    refused (400)."""
    Event.objects.filter(pk=running.pk).update(guarantee_cents=150_000)
    floor_client.post(f"{BASE}/clock", {"action": "start"}, format="json")
    answer = api.get("/api/v1/board/tournaments", {"lang": language})
    assert answer.status_code == 200, answer.content
    assert answer["Content-Language"] == language
    (clock,) = answer.json()
    assert (clock["prize_pool"], clock["guarantee"]) == (80_000, 150_000)
    assert (clock["prize_pool_text"], clock["guarantee_text"]) == (pool, guarantee)
    assert pool == money_format(80_000, "EUR", language, whole=True)
    refused = api.get("/api/v1/board/tournaments", {"lang": "sv"})
    assert refused.status_code == 400
    assert list(refused.json()["error"]["fields"]) == ["lang"]
