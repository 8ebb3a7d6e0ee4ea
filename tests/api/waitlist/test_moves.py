"""Closed tables, moves of seated players, must-move games, pairs kept apart and seat
changes (WL3, WL5, WL7, WL9, WL10), booked through the floor's buy-in rules."""

from __future__ import annotations

import pytest

from accounting.models import Account
from accounting.selectors import trial_balance
from cardroom.models import SeatSession, Table
from tests.api.floor.conftest import leave, post_hand, seat
from tests.api.waitlist.conftest import (
    answer,
    call,
    called,
    events,
    fill,
    join,
    joined,
    key,
    refused,
    seat_entry,
    status_of,
)
from waitlist.domain.seating import draw
from waitlist.models import Bar, Entry, TableBreak

pytestmark = pytest.mark.django_db


def sitting(player: str) -> tuple[str, int, int, bool] | None:
    s = (
        SeatSession.objects.select_related("table")
        .filter(player__code=player, ended_at=None)
        .first()
    )
    return None if s is None else (s.table.code, s.seat, s.stack_cents, s.house_move)


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


def books_balance() -> None:
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def lose(terminal, table: str, hand_no: int, winner: tuple, loser: tuple, amount: int):
    """``loser`` (seat, player, stack) puts in ``amount`` and loses to ``winner``."""
    seats = []
    for (seat_no, player, stack), cards, put in (
        (winner, ["Ah", "Ad"], amount),
        (loser, ["Kh", "Kd"], amount),
    ):
        seats.append(
            {
                "seat": seat_no,
                "player": player,
                "stack": stack,
                "present": True,
                "put_in": put,
                "folded": False,
                "cards": cards,
            }
        )
    hand = {
        "table": table,
        "hand_no": hand_no,
        "game": "NLHE",
        "button": winner[0],
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": seats,
    }
    answer_ = post_hand(terminal, table, hand)
    assert answer_.status_code == 201, answer_.content


class TestClosedTable:
    @pytest.fixture
    def room(self, open_table, players, clock, floor):
        t1 = open_table("T01", seats=3)
        clock.advance(minutes=1)
        t2 = open_table("T02", seats=2)
        clock.advance(minutes=1)
        t3 = open_table("T03")
        fill(t1, "T01", ["P-1", "P-2"])
        fill(t2, "T02", ["P-3"])
        fill(t3, "T03", ["P-4", "P-5", "P-6"])
        # P-4 drops below the minimum of 10,000: a house move keeps it (BI7).
        lose(t3, "T03", 1, (2, "P-5", 20_000), (1, "P-4", 20_000), 12_000)
        joined(floor, "P-9")
        return t1, t2, t3

    def test_its_players_move_in_a_recorded_draw_and_the_rest_wait_first(
        self, floor, room, clock
    ):
        """WL3: a draw orders them; the free seats go in that order, tables chosen as
        for new players (WL4); the one left over waits ahead of the list."""
        answer_ = floor.post("/api/v1/waitlist/tables/T03/break", format="json")
        assert answer_.status_code == 200, answer_.content
        body = answer_.json()
        order = body["draw"]
        assert sorted(order) == ["P-4", "P-5", "P-6"]
        assert draw(["P-4", "P-5", "P-6"], body["seed"]) == order
        assert TableBreak.objects.get().order == order
        (recorded,) = events("draw")
        assert recorded.details == {"seed": body["seed"], "order": order}
        first, second, third = order
        # T02 has one player against T01's two: the first drawn goes there.
        assert [(m["player"], m["table"], m["draw_no"]) for m in body["moved"]] == [
            (first, "T02", 1),
            (second, "T01", 2),
        ]
        stacks = {"P-4": 8_000, "P-5": 31_500, "P-6": 20_000}
        for player, table in ((first, "T02"), (second, "T01")):
            where, _seat, stack, house = sitting(player)
            assert (where, stack, house) == (table, stacks[player], True)
        (waiting,) = body["waiting"]
        assert (waiting["player"], waiting["kind"], waiting["draw_no"]) == (
            third,
            "closed_table",
            3,
        )
        queue = floor.get(f"/api/v1/waitlist/lists/{key()}").json()["entries"]
        assert [e["player"] for e in queue] == [third, "P-9"]
        assert sitting(third)[0] == "T03"  # plays on until a seat opens
        books_balance()

    def test_the_closed_tables_player_is_called_before_the_list_and_it_closes(
        self, floor, room, clock
    ):
        """WL3: his priority holds for the next seat; the table closes behind him."""
        t1, _t2, _t3 = room
        body = floor.post("/api/v1/waitlist/tables/T03/break", format="json").json()
        third = body["draw"][2]
        stack = sitting(third)[2]
        refused(call(floor, table="T03"), "WL3")
        assert leave(t1, "T01", 1, 20_000).status_code == 200
        entry = called(floor, table="T01")
        assert entry["player"] == third
        seated = seat_entry(floor, entry["id"])
        assert seated.status_code == 201, seated.content
        assert seated.json()["house_move"] and seated.json()["stack"] == stack
        assert Table.objects.get(code="T03").status == "closed"
        books_balance()

    def test_breaking_twice_is_refused(self, floor, room, clock):
        floor.post("/api/v1/waitlist/tables/T03/break", format="json")
        assert (
            floor.post("/api/v1/waitlist/tables/T03/break", format="json").status_code
            == 409
        )


class TestSeatedPlayerCalled:
    @pytest.fixture
    def t01(self, open_table, players, clock):
        t = open_table("T01", seats=2)
        fill(t, "T01", ["P-1"])
        return t

    def test_moving_down_in_stakes_brings_his_stack_up_to_the_maximum(
        self, floor, t01, open_table, clock
    ):
        """WL5 under BI5 (c): from NL 2/5 to NL 1/2 he brings 40,000 of 60,000."""
        t4 = open_table("T04", "NL25")
        assert seat(t4, "T04", 1, "P-7", 60_000).status_code == 201
        entry = joined(floor, "P-7")
        called(floor, table="T01")
        answer_ = seat_entry(floor, entry)
        assert answer_.status_code == 201, answer_.content
        assert (answer_.json()["kind"], answer_.json()["stack"]) == ("transfer", 40_000)
        assert not answer_.json()["house_move"]
        assert sitting("P-7") == ("T01", 2, 40_000, False)
        left = SeatSession.objects.get(player__code="P-7", table__code="T04")
        assert left.left_with_cents == 60_000
        assert balance("player:P-7:chips") == 20_000  # he carries the rest
        books_balance()

    def test_another_structure_means_a_fresh_minimum(
        self, floor, t01, open_table, clock
    ):
        """WL5 under BI5 (d): from PLO he starts NL with the minimum; less is refused
        and leaves him where he sat."""
        t5 = open_table("T05", "PLO12")
        assert seat(t5, "T05", 1, "P-8", 20_000).status_code == 201
        entry = joined(floor, "P-8")
        called(floor, table="T01")
        error = refused(seat_entry(floor, entry, amount=5_000, method="chips"), "BI1")
        assert error["allowed"]["min"] == 10_000
        assert sitting("P-8") == ("T05", 1, 20_000, False)
        assert status_of(entry) == ("called", "")
        answer_ = seat_entry(floor, entry, amount=10_000, method="chips")
        assert answer_.status_code == 201, answer_.content
        assert sitting("P-8") == ("T01", 2, 10_000, False)
        assert balance("player:P-8:chips") == 10_000
        books_balance()

    def test_declining_he_leaves_the_list_and_keeps_his_seat(
        self, floor, t01, open_table, clock
    ):
        """WL5: a seated player who declines leaves the list, not his game."""
        t5 = open_table("T05", "PLO12")
        assert seat(t5, "T05", 1, "P-8", 20_000).status_code == 201
        entry = joined(floor, "P-8")
        called(floor, table="T01")
        assert answer(floor, entry, False).status_code == 200
        assert status_of(entry) == ("removed", "declined")
        assert events("declined")[0].rule == "WL5"
        assert sitting("P-8") == ("T05", 1, 20_000, False)

    def test_a_new_player_needs_an_amount(self, floor, t01, clock):
        entry = joined(floor, "P-9")
        called(floor, table="T01")
        answer_ = seat_entry(floor, entry)
        assert answer_.status_code == 400
        assert answer_.json()["error"]["code"] == "amount_required"
        answer_ = seat_entry(floor, entry, amount=500_000, method="cash")
        refused(answer_, "BI1")


class TestMustMove:
    @pytest.fixture
    def tables(self, open_table, players, clock, floor):
        main = open_table("T01", seats=3)
        fill(main, "T01", ["P-1", "P-2", "P-3"])
        second = open_table("T02", seats=4)
        assert seat(second, "T02", 1, "P-5", 20_000).status_code == 201  # walk-in
        clock.advance(minutes=1)
        listed = joined(floor, "P-4")
        clock.advance(minutes=1)
        called(floor, table="T02")
        assert (
            seat_entry(floor, listed, amount=20_000, method="cash").status_code == 201
        )
        clock.advance(minutes=1)
        joined(floor, "P-9")
        answer_ = floor.post(
            "/api/v1/waitlist/must-moves",
            {"table": "T02", "main": "T01"},
            format="json",
        )
        assert answer_.status_code == 201, answer_.content
        return main, second

    def test_its_players_move_to_the_main_game_first_in_list_order(
        self, floor, tables, clock
    ):
        """WL7: P-5 sat first, P-4 came from the list later: P-5 moves first, before
        the list, keeping his stack."""
        main, _second = tables
        queue = floor.get(f"/api/v1/waitlist/lists/{key()}").json()["entries"]
        assert [(e["player"], e["kind"]) for e in queue] == [
            ("P-5", "must_move"),
            ("P-4", "must_move"),
            ("P-9", "list"),
        ]
        assert leave(main, "T01", 2, 20_000).status_code == 200
        entry = called(floor, table="T01")
        assert (entry["player"], entry["kind"]) == ("P-5", "must_move")
        answer_ = seat_entry(floor, entry["id"])
        assert answer_.status_code == 201, answer_.content
        assert sitting("P-5") == ("T01", 2, 20_000, True)
        # New players go to the must-move game.
        assert called(floor)["table"] == "T02"

    def test_refusing_he_leaves_the_game_and_is_barred_for_an_hour(
        self, floor, tables, clock
    ):
        """WL7: no to the move: out of the game, no listing for 60 minutes."""
        main, _second = tables
        assert leave(main, "T01", 2, 20_000).status_code == 200
        entry = called(floor, table="T01")
        assert answer(floor, entry["id"], False).status_code == 200
        assert status_of(entry["id"]) == ("removed", "refused_move")
        assert sitting("P-5") is None
        error = refused(join(floor, "P-5"), "WL7")
        assert error["allowed"]["until"] == "2026-11-29T22:03:00+02:00"
        # Nor can a terminal seat him in the game directly.
        direct = main.post(
            "/api/v1/tables/T01/seats",
            {"seat": 2, "player": "P-5", "amount": 20_000, "method": "chips"},
            format="json",
        )
        refused(direct, "WL7")
        clock.advance(minutes=59, seconds=59)
        refused(join(floor, "P-5"), "WL7")
        clock.advance(seconds=1)
        assert join(floor, "P-5").status_code == 201

    def test_letting_the_call_run_out_is_a_refusal(self, floor, tables, clock):
        """WL7: an expired must-move call bars him; the floor is told he must leave,
        and he isn't called again."""
        main, _second = tables
        assert leave(main, "T01", 2, 20_000).status_code == 200
        called(floor, table="T01")
        clock.advance(minutes=5, seconds=1)
        entry = called(floor, table="T01")
        assert entry["player"] == "P-4"
        (barred,) = events("barred")
        assert barred.player.code == "P-5" and barred.details["must_leave"] == "T02"
        assert Bar.objects.get().player.code == "P-5"
        assert not Entry.objects.filter(
            player__code="P-5", status__in=["waiting", "called"]
        ).exists()

    def test_a_must_move_needs_two_tables_of_one_game(
        self, floor, tables, open_table, clock
    ):
        open_table("T05", "PLO12")
        for body in ({"table": "T05", "main": "T01"}, {"table": "T01", "main": "T01"}):
            refused(
                floor.post("/api/v1/waitlist/must-moves", body, format="json"), "WL7"
            )
        again = floor.post(
            "/api/v1/waitlist/must-moves",
            {"table": "T02", "main": "T01"},
            format="json",
        )
        refused(again, "WL7")

    def test_ending_it_ends_the_queue_places(self, floor, tables, clock):
        (row,) = floor.get("/api/v1/waitlist/must-moves").json()
        answer_ = floor.post(f"/api/v1/waitlist/must-moves/{row['id']}/end")
        assert answer_.status_code == 200 and answer_.json()["ended_at"]
        queue = floor.get(f"/api/v1/waitlist/lists/{key()}").json()["entries"]
        assert [e["player"] for e in queue] == ["P-9"]


class TestKeptApart:
    @pytest.fixture
    def pair(self, floor, open_table, players, clock):
        t = open_table("T01", seats=3)
        fill(t, "T01", ["P-1"])
        answer_ = floor.post(
            "/api/v1/waitlist/kept-apart",
            {"players": ["P-5", "P-1"], "reason": "relatives"},
            format="json",
        )
        assert answer_.status_code == 201, answer_.content
        assert answer_.json()["players"] == ["P-1", "P-5"]
        return answer_.json()["id"]

    def test_the_call_passes_over_a_player_kept_apart_from_one_at_the_table(
        self, floor, pair, clock
    ):
        """WL9: P-5 keeps his place; P-6 gets the seat at P-1's table."""
        p5 = joined(floor, "P-5")
        joined(floor, "P-6")
        answer_ = call(floor, table="T01")
        assert answer_.json()["entry"]["player"] == "P-6"
        assert answer_.json()["skipped"] == [
            {"player": "P-5", "rule": "WL9", "reason": "kept_apart"}
        ]
        assert events("called")[0].details["skipped"][0]["rule"] == "WL9"
        assert status_of(p5) == ("waiting", "")
        assert floor.post(f"/api/v1/waitlist/kept-apart/{pair}/end").status_code == 200
        assert called(floor, table="T01")["player"] == "P-5"

    def test_alone_on_the_list_he_is_not_called(self, floor, pair, clock):
        joined(floor, "P-5")
        answer_ = call(floor, table="T01")
        assert answer_.status_code == 200 and answer_.json()["entry"] is None

    def test_a_pair_is_two_players_once(self, floor, pair, clock):
        for players in (["P-1", "P-1"], ["P-1", "P-5"]):
            answer_ = floor.post(
                "/api/v1/waitlist/kept-apart",
                {"players": players, "reason": "x"},
                format="json",
            )
            refused(answer_, "WL9")

    def test_a_seat_change_next_to_him_is_refused(self, floor, pair, open_table, clock):
        t2 = open_table("T02")
        assert seat(t2, "T02", 1, "P-5", 20_000).status_code == 201
        answer_ = floor.post(
            "/api/v1/waitlist/seat-changes",
            {"player": "P-5", "table": "T01"},
            format="json",
        )
        refused(answer_, "WL9")


class TestSeatChange:
    @pytest.fixture
    def t01(self, floor, open_table, players, clock):
        t = open_table("T01", seats=3)
        fill(t, "T01", ["P-1", "P-2", "P-3"])
        joined(floor, "P-9")
        return t

    def test_a_seat_change_comes_before_the_list_and_keeps_the_stack(
        self, floor, t01, clock
    ):
        """WL10: P-1 asked for seat 3; when it opens he moves, then the list fills
        the seat he left."""
        answer_ = floor.post(
            "/api/v1/waitlist/seat-changes",
            {"player": "P-1", "table": "T01", "seat": 3},
            format="json",
        )
        assert answer_.status_code == 201, answer_.content
        assert leave(t01, "T01", 3, 20_000).status_code == 200
        entry = called(floor, table="T01")
        assert (entry["player"], entry["seat"]) == ("P-1", 3)
        seated = seat_entry(floor, entry["id"])
        assert seated.status_code == 201, seated.content
        assert sitting("P-1") == ("T01", 3, 20_000, True)
        nxt = called(floor, table="T01")
        assert (nxt["player"], nxt["seat"]) == ("P-9", 1)
        books_balance()

    def test_a_table_change_comes_before_new_players(
        self, floor, t01, open_table, clock
    ):
        """WL10: a player of the game at T02 asked for T01: he is called first."""
        t2 = open_table("T02")
        assert seat(t2, "T02", 4, "P-4", 25_000).status_code == 201
        floor.post(
            "/api/v1/waitlist/seat-changes",
            {"player": "P-4", "table": "T01"},
            format="json",
        )
        assert leave(t01, "T01", 2, 20_000).status_code == 200
        entry = called(floor, table="T01")
        assert entry["player"] == "P-4"
        assert seat_entry(floor, entry["id"]).status_code == 201
        assert sitting("P-4") == ("T01", 2, 25_000, True)

    def test_only_players_in_the_game_change_seats(self, floor, t01, open_table, clock):
        """WL10: a new player joins the list instead; another game's player too."""
        for player in ("P-9", "P-10"):
            answer_ = floor.post(
                "/api/v1/waitlist/seat-changes",
                {"player": player, "table": "T01"},
                format="json",
            )
            refused(answer_, "WL10")
        t5 = open_table("T05", "PLO12")
        assert seat(t5, "T05", 1, "P-8", 20_000).status_code == 201
        answer_ = floor.post(
            "/api/v1/waitlist/seat-changes",
            {"player": "P-8", "table": "T01"},
            format="json",
        )
        refused(answer_, "WL10")
