"""The floor's services called directly, no HTTP: tables, buy-ins, leaving,
pick-ups and custody, corrections, terminal keys and the hand path (HS6)."""

from __future__ import annotations

import pytest

from accounting.models import Account, Transaction
from accounting.selectors import trial_balance
from cardroom import auth
from cardroom import services as floor
from cardroom.models import Correction, Hand, HandSeat, SeatSession, Table, TerminalKey
from core.api.errors import status_of
from core.errors import ApplicationError
from core.roles import Role
from tests.integration.cardroom.conftest import sit

pytestmark = pytest.mark.django_db


def balance(code: str) -> int:
    account = Account.objects.filter(code=code).first()
    return account.balance_cents if account else 0


def books_balance() -> None:
    tb = trial_balance()
    assert tb.balanced and tb.cached_balances_agree


def heads_up(hand_no: int = 1, stacks: tuple[int, int] = (20_000, 20_000)):
    """P-1 (aces) and P-2 (kings) all in for 5,000 each: P-1 wins 9,500 after rake."""
    return {
        "table": "T01",
        "hand_no": hand_no,
        "game": "NLHE",
        "button": 1,
        "streets": 4,
        "board": ["2c", "7d", "9h", "Js", "3d"],
        "seats": [
            {
                "seat": n,
                "player": f"P-{n}",
                "stack": stack,
                "present": True,
                "put_in": 5_000,
                "folded": False,
                "cards": cards,
            }
            for n, stack, cards in (
                (1, stacks[0], ["Ah", "Ad"]),
                (2, stacks[1], ["Kh", "Kd"]),
            )
        ],
    }


@pytest.fixture
def t01(clock, open_table, players):
    table = open_table("T01")
    sit(clock, "T01", 1, "P-1")
    sit(clock, "T01", 2, "P-2")
    return table


# Tables -----------------------------------------------------------------------


def test_table_open_twice_conflicts_and_close_refuses_while_seated(t01, clock):
    with pytest.raises(ApplicationError) as again:
        floor.table_open(
            code="T01",
            game_code="NLHE",
            small_blind=100,
            big_blind=200,
            min_buy_in=10_000,
            max_buy_in=40_000,
            seats=9,
            policy=t01.game.policies.get().document,
            by=None,
            now=clock.now,
        )
    assert (status_of(again.value), again.value.code) == (409, "table_open")
    with pytest.raises(ApplicationError) as seated:
        floor.table_close(table=t01, now=clock.now)
    assert (seated.value.code, seated.value.rule) == ("table_has_players", "WL3")
    for seat, player in ((1, "P-1"), (2, "P-2")):
        floor.seat_leave(
            source="desk", table_code="T01", seat=seat, stack=20_000, now=clock.now
        )
        assert balance(f"player:{player}:chips") == 20_000
    closed = floor.table_close(table=t01, now=clock.advance(minutes=1))
    assert closed.status == Table.Status.CLOSED and closed.closed_at == clock.now
    with pytest.raises(ApplicationError) as shut:
        floor.table_get_open("T01")
    assert (shut.value.code, shut.value.rule) == ("table_closed", "BI8")


# Buy-ins and leaving ----------------------------------------------------------


def test_buy_in_books_cash_and_chips_and_refuses_off_the_limits(t01, clock):
    assert balance("table:T01:drop_box") == 40_000
    assert balance("player:P-1:table:T01") == 20_000
    with pytest.raises(ApplicationError) as over:
        sit(clock, "T01", 3, "P-3", 50_000)
    assert (status_of(over.value), over.value.rule) == (422, "BI1")
    assert over.value.allowed["max"] == 40_000
    with pytest.raises(ApplicationError) as taken:
        sit(clock, "T01", 1, "P-3")
    assert (status_of(taken.value), taken.value.code) == (409, "seat_taken")
    with pytest.raises(ApplicationError) as unknown:
        sit(clock, "T01", 3, "P-99")
    assert (unknown.value.code, unknown.value.rule) == ("unknown_player", "BI10")
    topped = floor.seat_top_up(
        source="desk",
        table_code="T01",
        seat=1,
        amount=5_000,
        method="cash",
        now=clock.now,
    )
    assert topped.stack_cents == 25_000 == balance("player:P-1:table:T01")
    books_balance()


def test_leave_moves_the_stack_to_his_chips_and_refuses_another_stack(t01, clock):
    with pytest.raises(ApplicationError) as wrong:
        floor.seat_leave(
            source="desk", table_code="T01", seat=1, stack=19_000, now=clock.now
        )
    assert (wrong.value.code, wrong.value.rule) == ("stack_mismatch", "HS6")
    assert wrong.value.allowed == {"min": 20_000, "max": 20_000}
    left = floor.seat_leave(
        source="desk", table_code="T01", seat=1, stack=20_000, now=clock.now
    )
    assert left.ended_at == clock.now and left.left_with_cents == 20_000
    assert balance("player:P-1:table:T01") == 0 == left.stack_cents
    assert balance("player:P-1:chips") == 20_000
    assert Transaction.objects.filter(kind="seat_leave").count() == 1
    with pytest.raises(ApplicationError) as empty:
        floor.seat_leave(
            source="desk", table_code="T01", seat=1, stack=0, now=clock.now
        )
    assert (status_of(empty.value), empty.value.code) == (404, "seat_empty")
    books_balance()


# Pick-ups and custody (BI9) ---------------------------------------------------


def test_pick_up_after_thirty_minutes_and_custody_returned(t01, clock, make_staff):
    floor_person = make_staff("fp", Role.FLOOR)
    floor.seat_away(table_code="T01", seat=2, now=clock.now)
    clock.advance(minutes=30)
    with pytest.raises(ApplicationError) as early:
        floor.seat_pick_up(table_code="T01", seat=2, by=floor_person, now=clock.now)
    assert (early.value.code, early.value.rule) == ("not_away_long_enough", "BI9")
    picked = floor.seat_pick_up(
        table_code="T01", seat=2, by=floor_person, now=clock.advance(seconds=1)
    )
    assert picked.ended_at == clock.now and picked.left_with_cents == 20_000
    assert balance("player:P-2:custody") == 20_000
    assert balance("player:P-2:table:T01") == 0
    assert Transaction.objects.get(kind="seat_pick_up").posted_by == floor_person
    returned = floor.custody_return(player_code="P-2", by=floor_person, now=clock.now)
    assert returned == 20_000 == balance("player:P-2:chips")
    assert balance("player:P-2:custody") == 0
    with pytest.raises(ApplicationError) as none:
        floor.custody_return(player_code="P-2", by=floor_person, now=clock.now)
    assert (none.value.code, none.value.rule) == ("nothing_in_custody", "BI9")
    books_balance()


# Corrections (DC1, DC2, HS8) ---------------------------------------------------


def test_correction_requested_then_approved_by_another(t01, clock, make_staff):
    anna, ben = make_staff("anna", Role.FLOOR), make_staff("ben", Role.FLOOR)
    floor.hand_record(source="desk", table_code="T01", record=heads_up(), now=clock.now)
    with pytest.raises(ApplicationError) as why:
        floor.correction_request(
            kind="pot_correction", table_code="T01", amount=1_000, reason=" ",
            by=anna, hand_no=1, from_player="P-1", to_player="P-2",
        )  # fmt: skip
    assert (why.value.code, why.value.rule) == ("reason_required", "DC2")
    with pytest.raises(ApplicationError) as needs:
        floor.correction_request(
            kind="pot_correction", table_code="T01", amount=1_000, reason="misread",
            by=anna, hand_no=1, from_player="P-1",
        )  # fmt: skip
    assert (status_of(needs.value), needs.value.code) == (400, "invalid")
    asked = floor.correction_request(
        kind="pot_correction", table_code="T01", amount=1_000, reason="misread",
        by=anna, hand_no=1, from_player="P-1", to_player="P-2", now=clock.now,
    )  # fmt: skip
    assert asked.status == Correction.Status.PENDING
    assert balance("player:P-1:table:T01") == 24_500
    with pytest.raises(ApplicationError) as own:
        floor.correction_decide(correction=asked, approve=True, by=anna)
    assert (own.value.code, own.value.rule) == ("four_eyes", "DC2")
    done = floor.correction_decide(
        correction=asked, approve=True, by=ben, now=clock.now
    )
    assert done.status == Correction.Status.APPROVED
    assert done.ledger_transaction.kind == "pot_correction"
    assert balance("player:P-1:table:T01") == 23_500
    assert SeatSession.objects.get(seat=2, ended_at__isnull=True).stack_cents == 16_000
    with pytest.raises(ApplicationError) as twice:
        floor.correction_decide(correction=asked, approve=True, by=ben)
    assert (status_of(twice.value), twice.value.code) == (409, "decided")
    books_balance()


# Terminal keys -----------------------------------------------------------------


def test_terminal_key_verifies_and_is_refused_once_revoked(t01):
    key, raw = floor.terminal_key_create(table_code="T01", name="T01 terminal")
    assert key.table == t01 and not key.revoked
    assert auth.verified_key(raw).pk == key.pk
    assert auth.verified_key(raw).pk == key.pk  # from the cache, state re-read
    floor.terminal_key_revoke(prefix=key.prefix)
    with pytest.raises(TerminalKey.DoesNotExist):
        auth.verified_key(raw)
    with pytest.raises(ApplicationError) as again:
        floor.terminal_key_revoke(prefix=key.prefix)
    assert (status_of(again.value), again.value.code) == (409, "key_revoked")
    with pytest.raises(ApplicationError) as unknown:
        floor.terminal_key_create(table_code="T99", name="")
    assert status_of(unknown.value) == 404


# Hands (HS6) -------------------------------------------------------------------


def test_hand_is_booked_and_a_repeat_replays_it(t01, clock):
    hand, new = floor.hand_record(
        source="desk", table_code="T01", record=heads_up(), now=clock.now
    )
    assert new and hand.hand_no == 1 and hand.rake_cents == 500
    assert balance("player:P-1:table:T01") == 24_500
    assert balance("player:P-2:table:T01") == 15_000
    assert balance("revenue:rake") == 500
    finals = HandSeat.objects.filter(hand=hand).order_by("seat")
    assert [s.final_stack_cents for s in finals] == [24_500, 15_000]
    again, new = floor.hand_record(
        source="desk", table_code="T01", record=heads_up(), now=clock.now
    )
    assert (again.pk, new) == (hand.pk, False)
    other = heads_up()
    other["seats"][0]["put_in"] = 4_000
    with pytest.raises(ApplicationError) as conflict:
        floor.hand_record(source="desk", table_code="T01", record=other, now=clock.now)
    assert (status_of(conflict.value), conflict.value.code) == (409, "hand_conflict")
    assert Hand.objects.count() == 1 == Transaction.objects.filter(kind="hand").count()
    books_balance()


def test_hand_above_the_ledger_is_refused_and_below_it_frozen(t01, clock):
    with pytest.raises(ApplicationError) as above:
        floor.hand_record(
            source="desk",
            table_code="T01",
            record=heads_up(stacks=(21_000, 20_000)),
            now=clock.now,
        )
    assert (above.value.code, above.value.rule) == ("stack_above_ledger", "HS6")
    assert not Hand.objects.exists()
    hand, _new = floor.hand_record(
        source="desk",
        table_code="T01",
        record=heads_up(stacks=(19_000, 20_000)),
        now=clock.now,
    )
    assert [e["code"] for e in hand.settlement["exceptions"]] == ["stack_mismatch"]
    assert balance("player:P-1:table:T01:review") == 1_000
    assert balance("player:P-1:table:T01") == 23_500
    books_balance()


def test_a_hand_books_in_five_statements(t01, clock, django_assert_num_queries):
    """The hand path without HTTP: the table locked with its game and policy, the
    sessions locked with the last hand number, the accounts, the pools and the
    new rows' ids; one statement writing the ledger transaction and its entries,
    the hand, its seats and the sessions' stacks (and the savepoint's two)."""
    floor.hand_record(source="desk", table_code="T01", record=heads_up(), now=clock.now)
    second = heads_up(2, stacks=(24_500, 15_000))
    clock.advance(minutes=2)
    with django_assert_num_queries(5):
        floor.hand_record(source="desk", table_code="T01", record=second, now=clock.now)
    assert balance("player:P-1:table:T01") == 29_000
    books_balance()
