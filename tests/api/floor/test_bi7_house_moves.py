"""BI7 house moves: only the floor's own flows make one, with the ledger's stack.

Live, any floor user could post ``house_move: true`` to ``POST seats``, and the
posted amount became the stack he "kept": a player never seated got a seat with €1
at a €100-minimum table. Now a house move comes only from a table the floor breaks
or balances, a must-move or a seat change, and moves what the ledger holds.
"""

from __future__ import annotations

import pytest

from accounting.models import Account, Entry, Transaction
from accounting.selectors import trial_balance
from cardroom import services
from cardroom.models import SeatSession, StackMovement
from core.errors import Refusal
from tests.api.floor.conftest import post_hand, seat
from waitlist.models import Event

pytestmark = pytest.mark.django_db


def ledger() -> tuple[object, ...]:
    """Entries, transactions, every balance, and the floor's rows."""
    return (
        Entry.objects.count(),
        Transaction.objects.count(),
        tuple(Account.objects.order_by("code").values_list("code", "balance_cents")),
        StackMovement.objects.count(),
        SeatSession.objects.count(),
        Event.objects.count(),
    )


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


def sitting(player: str) -> tuple[str, int, int, bool] | None:
    s = (
        SeatSession.objects.select_related("table")
        .filter(player__code=player, ended_at=None)
        .first()
    )
    return None if s is None else (s.table.code, s.seat, s.stack_cents, s.house_move)


def lose(terminal, table: str, winner: tuple, loser: tuple, amount: int) -> None:
    """``loser`` (seat, player, stack) puts in ``amount`` and loses it at showdown."""
    seats = [
        {
            "seat": seat_no,
            "player": player,
            "stack": stack,
            "present": True,
            "put_in": amount,
            "folded": False,
            "cards": cards,
        }
        for (seat_no, player, stack), cards in (
            (winner, ["Ah", "Ad"]),
            (loser, ["Kh", "Kd"]),
        )
    ]
    hand = {
        "table": table,
        "hand_no": 1,
        "game": "NLHE",
        "button": winner[0],
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": seats,
    }
    answer = post_hand(terminal, table, hand)
    assert answer.status_code == 201, answer.content


class TestNoPostedHouseMove:
    @pytest.mark.parametrize("method", ["cash", "chips"])
    def test_a_never_seated_player_gets_no_seat_with_one_euro(
        self, clock, open_table, players, floor, manager, method
    ):
        """The live attack, by floor, manager and the table's key: 422 BI7."""
        terminal = open_table("T01")  # NL 1/2, minimum €100
        before = ledger()
        for client in (floor, manager, terminal):
            answer = seat(client, "T01", 1, "P-1", 100, method=method, house_move=True)
            assert answer.status_code == 422, answer.content
            error = answer.json()["error"]
            assert (error["rule"], error["code"]) == ("BI7", "house_move_not_posted")
        assert ledger() == before
        assert sitting("P-1") is None

    def test_the_flag_is_refused_even_with_a_valid_buy_in(
        self, clock, open_table, players, floor
    ):
        """No amount a client posts becomes a house move's stack."""
        open_table("T01")
        before = ledger()
        answer = seat(floor, "T01", 1, "P-1", 10_000, house_move=False)
        assert answer.status_code == 422 and answer.json()["error"]["rule"] == "BI7"
        assert ledger() == before

    def test_without_the_flag_one_euro_is_below_the_minimum(
        self, clock, open_table, players, floor
    ):
        """BI1: a buy-in of €1 at a €100-minimum table, refused with the limits."""
        open_table("T01")
        before = ledger()
        answer = seat(floor, "T01", 1, "P-1", 100)
        assert answer.status_code == 422
        assert answer.json()["error"]["rule"] == "BI1"
        assert answer.json()["error"]["allowed"] == {"min": 10_000, "max": 40_000}
        assert ledger() == before


class TestTableBalance:
    @pytest.fixture
    def room(self, clock, open_table, players):
        t1 = open_table("T01")
        t2 = open_table("T02")
        plo = open_table("P01", "PLO12")
        for n, player in enumerate(["P-1", "P-2", "P-3"], 1):
            assert seat(t1, "T01", n, player, 20_000).status_code == 201
        assert seat(t2, "T02", 1, "P-4", 20_000).status_code == 201
        assert seat(plo, "P01", 1, "P-5", 20_000).status_code == 201
        # P-1 drops to 8,000, below the minimum of 10,000.
        lose(t1, "T01", (2, "P-2", 20_000), (1, "P-1", 20_000), 12_000)
        return t1, t2

    def test_the_player_keeps_the_stack_the_ledger_holds(self, room, floor):
        """BI7: moved to the shorter table with his 8,000, below its minimum."""
        assert balance("player:P-1:table:T01") == 8_000
        answer = floor.post(
            "/api/v1/waitlist/tables/T01/balance",
            {"seat": 1, "to": "T02"},
            format="json",
        )
        assert answer.status_code == 201, answer.content
        assert answer.json() == {
            "player": "P-1",
            "table": "T02",
            "seat": 2,
            "stack": 8_000,
            "house_move": True,
        }
        assert sitting("P-1") == ("T02", 2, 8_000, True)
        assert balance("player:P-1:table:T01") == 0
        assert balance("player:P-1:table:T02") == 8_000
        assert balance("player:P-1:chips") == 0
        (moved,) = Event.objects.filter(kind="moved")
        assert (moved.rule, moved.details["from"], moved.details["stack"]) == (
            "BI7",
            "T01/1",
            8_000,
        )
        tb = trial_balance()
        assert tb.balanced and tb.cached_balances_agree

    def test_even_tables_and_other_games_are_not_balanced(self, room, floor):
        """BI7: only from the fuller table, within one game; nothing changes."""
        before = ledger()
        for body, code in (
            ({"seat": 1, "to": "P01"}, "not_the_same_game"),
            ({"seat": 1, "to": "T01"}, "not_the_same_game"),
        ):
            answer = floor.post(
                "/api/v1/waitlist/tables/T01/balance", body, format="json"
            )
            assert answer.status_code == 422, answer.content
            assert (answer.json()["error"]["rule"], answer.json()["error"]["code"]) == (
                "BI7",
                code,
            )
        back = floor.post(
            "/api/v1/waitlist/tables/T02/balance",
            {"seat": 1, "to": "T01"},
            format="json",
        )
        assert back.status_code == 422
        assert back.json()["error"]["code"] == "tables_balanced"
        assert ledger() == before

    def test_an_empty_seat_or_a_taken_one(self, room, floor):
        before = ledger()
        empty = floor.post(
            "/api/v1/waitlist/tables/T01/balance",
            {"seat": 5, "to": "T02"},
            format="json",
        )
        assert empty.status_code == 404
        taken = floor.post(
            "/api/v1/waitlist/tables/T01/balance",
            {"seat": 1, "to": "T02", "to_seat": 1},
            format="json",
        )
        assert taken.status_code == 409
        assert ledger() == before


class TestSeatMove:
    def test_only_the_floors_flows_name_a_house_move(self, clock, open_table, players):
        """The service knows the flows that move players; nothing else is one."""
        t1 = open_table("T01")
        open_table("T02")
        assert seat(t1, "T01", 1, "P-1", 20_000).status_code == 201
        with pytest.raises(ValueError, match="not a house move"):
            services.seat_move(
                from_table="T01", from_seat=1, to_table="T02", to_seat=1, why="api"
            )
        assert sitting("P-1") == ("T01", 1, 20_000, False)

    def test_no_chips_to_move_is_refused(self, clock, open_table, players):
        """BI7: a player with nothing at the table buys in; nothing changes."""
        t1 = open_table("T01")
        open_table("T02")
        assert seat(t1, "T01", 1, "P-1", 20_000).status_code == 201
        assert seat(t1, "T01", 2, "P-2", 20_000).status_code == 201
        lose(t1, "T01", (2, "P-2", 20_000), (1, "P-1", 20_000), 20_000)
        before = ledger()
        with pytest.raises(Refusal) as refused:
            services.seat_move(
                from_table="T01",
                from_seat=1,
                to_table="T02",
                to_seat=1,
                why="table_balance",
            )
        assert (refused.value.rule, refused.value.code) == ("BI7", "nothing_to_move")
        assert ledger() == before
