"""Every door asks, through the services (PP2–PP6): a minor, a player without a
date of birth, a barred and a self-excluded player are refused with 422, the rule
and its code, and nothing is written; a redemption stays open (PP5); an award or a
prize due to a restricted player is held (PP6)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from accounting import chart
from accounting.models import Player, Receipt
from accounting.services import cage as cage_services
from accounting.services.cage import restriction_end
from accounting.services.cage.protection import player_correct
from cardroom import services as floor
from cardroom.models import SeatSession
from core.api.errors import status_of
from core.errors import Refusal
from tournaments import services as tournaments
from tournaments.models import Payout
from tournaments.services import BustIn
from waitlist import services as lists
from waitlist.models import Entry as ListEntry

from .conftest import (
    HELD,
    KINDS,
    REFUSED,
    STAFF,
    award_for,
    clock_at,
    enter,
    keep_out,
    pay_prize,
    prize_of,
    sit,
    written,
)

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]

HELSINKI = ZoneInfo("Europe/Helsinki")
VICTIM = "P-8"
"""The player each test keeps out; P-1 … P-7 are let in."""


def refused(kind: str, door: Callable[[], Any], expected: dict | None = None) -> None:
    """Try ``door``: 422 with the rule and code ``kind`` is refused with, and
    nothing written."""
    before = written()
    with pytest.raises(Refusal) as error:
        door()
    rule, code = (expected or REFUSED)[kind]
    assert (status_of(error.value), error.value.rule, error.value.code) == (
        422,
        rule,
        code,
    ), error.value.detail
    assert written() == before


def nl12(t01) -> Any:
    return lists.list_for_game(t01.game)


# --- The waiting list (WAITLIST) -----------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_joining_a_list(t01, manager, kind):
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind,
        lambda: lists.entry_join(
            waiting_list=nl12(t01), player_code=VICTIM, source=STAFF
        ),
    )
    # The door asks him only: another player joins.
    lists.entry_join(waiting_list=nl12(t01), player_code="P-1", source=STAFF)


def test_an_unregistered_player_is_still_bi10(t01):
    """The door asks a registered player: one nobody registered is BI10."""
    with pytest.raises(Refusal) as error:
        lists.entry_join(waiting_list=nl12(t01), player_code="P-404", source=STAFF)
    assert error.value.rule == "BI10"


@pytest.mark.parametrize("kind", KINDS)
def test_a_call_passes_him_over_and_he_keeps_his_place(t01, manager, kind):
    """He joined before he was kept out: the call passes him over, names why, and
    calls the next; his entry waits as it was."""
    first = lists.entry_join(waiting_list=nl12(t01), player_code=VICTIM, source=STAFF)
    lists.entry_join(waiting_list=nl12(t01), player_code="P-1", source=STAFF)
    keep_out(VICTIM, kind, by=manager)
    result = lists.list_call(waiting_list=nl12(t01), source=STAFF)
    assert result.entry is not None and result.entry.player.code == "P-1"
    rule, code = REFUSED[kind]
    assert result.skipped == [{"player": VICTIM, "rule": rule, "reason": code}]
    first.refresh_from_db()
    assert first.status == ListEntry.Status.WAITING and first.called_at is None


def test_a_call_with_only_him_waiting_calls_nobody(t01, manager):
    lists.entry_join(waiting_list=nl12(t01), player_code=VICTIM, source=STAFF)
    keep_out(VICTIM, "barred", by=manager)
    before = written()
    result = lists.list_call(waiting_list=nl12(t01), source=STAFF)
    assert result.entry is None
    assert result.skipped == [
        {"player": VICTIM, "rule": "PP3", "reason": "player_barred"}
    ]
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_saying_yes_to_a_call(t01, manager, kind):
    """Called before he was kept out: his yes is refused; his no is taken."""
    entry = lists.entry_join(waiting_list=nl12(t01), player_code=VICTIM, source=STAFF)
    assert lists.list_call(waiting_list=nl12(t01), source=STAFF).entry == entry
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind, lambda: lists.entry_answer(entry_id=entry.pk, accept=True, source=STAFF)
    )
    lists.entry_answer(entry_id=entry.pk, accept=False, source=STAFF)
    entry.refresh_from_db()
    assert entry.status == ListEntry.Status.REMOVED


@pytest.mark.parametrize("kind", KINDS)
def test_sitting_down_where_he_was_called(t01, manager, kind):
    entry = lists.entry_join(waiting_list=nl12(t01), player_code=VICTIM, source=STAFF)
    lists.list_call(waiting_list=nl12(t01), source=STAFF)
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind,
        lambda: lists.entry_seat(
            entry_id=entry.pk, amount=20_000, method="cash", source=STAFF
        ),
    )


@pytest.mark.parametrize("kind", KINDS)
def test_asking_for_a_seat_change(t01, manager, kind):
    sit(VICTIM, 1)
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind,
        lambda: lists.seat_change_request(
            player_code=VICTIM, table_code="T01", seat=5, source=STAFF
        ),
    )


# --- Seats, returns and buy-ins (SEAT, BUY_IN) ---------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_sitting_down_with_a_buy_in(t01, manager, kind):
    keep_out(VICTIM, kind, by=manager)
    refused(kind, lambda: sit(VICTIM, 1))
    sit("P-1", 1)


@pytest.mark.parametrize("kind", KINDS)
def test_coming_back_with_his_chips(t01, manager, kind):
    """A player who left with his chips and comes back (BI5) asks again."""
    sit(VICTIM, 1)
    floor.seat_leave(table_code="T01", seat=1, stack=20_000, source="desk")
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind,
        lambda: floor.seat_take(
            table_code="T01",
            seat=2,
            player_code=VICTIM,
            amount=20_000,
            method="chips",
            source="desk",
        ),
    )


@pytest.mark.parametrize("kind", KINDS)
def test_coming_back_from_a_break(t01, manager, kind):
    sit(VICTIM, 1)
    floor.seat_away(table_code="T01", seat=1)
    keep_out(VICTIM, kind, by=manager)
    refused(kind, lambda: floor.seat_back(table_code="T01", seat=1))
    assert SeatSession.objects.get(player__code=VICTIM).away_since is not None


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_held_for_him(t01, manager, kind):
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind,
        lambda: lists.lockup_take(
            table_code="T01", seat=3, player_code=VICTIM, source=STAFF
        ),
    )
    # A seat held for nobody in particular asks nobody.
    lists.lockup_take(table_code="T01", seat=3, source=STAFF)


@pytest.mark.parametrize("kind", KINDS)
def test_topping_up(t01, manager, kind):
    sit(VICTIM, 1)
    keep_out(VICTIM, kind, by=manager)
    refused(
        kind,
        lambda: floor.seat_top_up(
            table_code="T01", seat=1, amount=5_000, method="cash", source="desk"
        ),
    )


def test_a_bar_set_while_he_sits_refuses_his_next_top_up(t01, manager):
    """PP5: the top-up before the bar is sold, the one after refused; his chips are
    his to take and cash at the cage."""
    sit(VICTIM, 1)
    floor.seat_top_up(
        table_code="T01", seat=1, amount=5_000, method="cash", source="desk"
    )
    keep_out(VICTIM, "barred", by=manager)
    refused(
        "barred",
        lambda: floor.seat_top_up(
            table_code="T01", seat=1, amount=5_000, method="cash", source="desk"
        ),
    )
    floor.seat_leave(table_code="T01", seat=1, stack=25_000, source="desk")
    assert chart.player_chips(player=VICTIM).balance_cents == 25_000


def test_a_house_move_asks_nothing(t01, manager):
    """The house moves a seated player with his stack (BI7): no door asks, the
    restriction takes him out at the end of his hand (PP5)."""
    sit(VICTIM, 1)
    keep_out(VICTIM, "barred", by=manager)
    moved = floor.seat_move(
        from_table="T01",
        from_seat=1,
        to_table="T01",
        to_seat=4,
        why="seat_change",
        source="desk",
    )
    assert (moved.seat, moved.stack_cents) == (4, 20_000)


# --- The cage (CHIP_PURCHASE, REDEMPTION) --------------------------------------


def buy(player: str, cents: int, cashier) -> Receipt:
    return cage_services.chip_purchase(
        cage="MAIN", cashier=cashier, player=player, amount_cents=cents
    )


@pytest.mark.parametrize("kind", KINDS)
def test_buying_chips(t01, manager, cashier, kind):
    keep_out(VICTIM, kind, by=manager)
    refused(kind, lambda: buy(VICTIM, 10_000, cashier))
    assert Receipt.objects.filter(player__code=VICTIM).count() == 0


def test_an_unregistered_buyer_is_still_ca2(t01, cashier):
    with pytest.raises(Refusal) as error:
        buy("P-404", 10_000, cashier)
    assert (error.value.rule, error.value.code) == ("CA2", "player_not_registered")


@pytest.mark.parametrize("kind", KINDS)
def test_cashing_his_chips_stays_open(t01, manager, cashier, kind):
    """PP5: his money is his; the cage cashes his chips whoever keeps him out."""
    buy(VICTIM, 30_000, cashier)
    keep_out(VICTIM, kind, by=manager)
    receipt = cage_services.chip_redemption(
        cage="MAIN", cashier=cashier, player=VICTIM, amount_cents=30_000
    )
    assert receipt.kind == Receipt.Kind.REDEMPTION and receipt.amount_cents == 30_000
    assert chart.player_chips(player=VICTIM).balance_cents == 0


# --- Scopes (PP3) ----------------------------------------------------------------


def test_a_tournaments_bar_leaves_the_cash_games_open(t01, event, manager, cashier):
    keep_out(VICTIM, "barred", by=manager, scope="tournaments")
    lists.entry_join(waiting_list=nl12(t01), player_code=VICTIM, source=STAFF)
    sit(VICTIM, 1)
    floor.seat_top_up(
        table_code="T01", seat=1, amount=5_000, method="cash", source="desk"
    )
    buy(VICTIM, 10_000, cashier)
    refused(
        "barred",
        lambda: tournaments.entry_register(
            event=event, player=VICTIM, cage="MAIN", cashier=cashier
        ),
    )


def test_a_cash_bar_leaves_the_tournaments_open(t01, event, manager, cashier):
    keep_out(VICTIM, "barred", by=manager, scope="cash")
    tournaments.entry_register(event=event, player=VICTIM, cage="MAIN", cashier=cashier)
    for door in (
        lambda: sit(VICTIM, 1),
        lambda: buy(VICTIM, 10_000, cashier),
        lambda: lists.entry_join(
            waiting_list=nl12(t01), player_code=VICTIM, source=STAFF
        ),
    ):
        refused("barred", door)


def test_a_self_exclusion_from_tournaments_refuses_an_entry(
    t01, event, manager, cashier
):
    keep_out(VICTIM, "self_excluded", by=manager, scope="tournaments")
    sit(VICTIM, 1)
    refused(
        "self_excluded",
        lambda: tournaments.entry_register(
            event=event, player=VICTIM, cage="MAIN", cashier=cashier
        ),
    )


# --- Tournaments (TOURNAMENT) ----------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_entering_a_tournament(t01, event, manager, cashier, kind):
    keep_out(VICTIM, kind, by=manager, scope="tournaments")
    refused(kind, lambda: enter(event, VICTIM, cashier))
    enter(event, "P-1", cashier)


def test_an_unregistered_entrant_is_still_ca2(t01, event, cashier):
    with pytest.raises(Refusal) as error:
        enter(event, "P-404", cashier)
    assert error.value.rule == "CA2"


@pytest.mark.parametrize("kind", KINDS)
def test_re_entering_after_a_bust(t01, event, manager, cashier, floor_person, kind):
    entries = [enter(event, code, cashier) for code in (VICTIM, "P-1", "P-2")]
    tournaments.event_start(event=event)
    tournaments.busts_record(
        event=event, hand="h1", busts=[BustIn(entries[0], 20_000)], by=floor_person
    )
    keep_out(VICTIM, kind, by=manager, scope="tournaments")
    refused(kind, lambda: enter(event, VICTIM, cashier))


@pytest.mark.parametrize("kind", KINDS)
def test_a_rebuy(t01, event, manager, cashier, floor_person, kind):
    entry = enter(event, VICTIM, cashier)
    enter(event, "P-1", cashier)
    clock_at(event, 1, floor_person)
    tournaments.rebuy_buy(entry=entry, cage="MAIN", cashier=cashier, stack=4_000)
    keep_out(VICTIM, kind, by=manager, scope="tournaments")
    refused(
        kind,
        lambda: tournaments.rebuy_buy(
            entry=entry, cage="MAIN", cashier=cashier, stack=4_000
        ),
    )


@pytest.mark.parametrize("kind", KINDS)
def test_an_add_on(t01, event, manager, cashier, floor_person, kind):
    entry = enter(event, VICTIM, cashier)
    other = enter(event, "P-1", cashier)
    clock_at(event, 4, floor_person)
    tournaments.addon_buy(entry=other, cage="MAIN", cashier=cashier)
    keep_out(VICTIM, kind, by=manager, scope="tournaments")
    refused(
        kind, lambda: tournaments.addon_buy(entry=entry, cage="MAIN", cashier=cashier)
    )


# --- Awards and prizes (AWARD, PRIZE: PP6) ---------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_an_award_at_the_cage(t01, manager, cashier, floor_person, kind):
    """A jackpot share due to a restricted player is held (PP6, the award still
    owed); to one under age, refused (PP2)."""
    award = award_for(VICTIM, approver=manager, maker=floor_person)
    keep_out(VICTIM, kind, by=manager, scope="cash")
    refused(
        kind,
        lambda: cage_services.payable_pay(
            payable=award,
            cage="MAIN",
            cashier=cashier,
            player=VICTIM,
            player_signed=True,
        ),
        HELD,
    )


def test_a_tournaments_bar_holds_no_jackpot_share(t01, manager, cashier, floor_person):
    award = award_for(VICTIM, approver=manager, maker=floor_person)
    keep_out(VICTIM, "barred", by=manager, scope="tournaments")
    receipt = cage_services.payable_pay(
        payable=award, cage="MAIN", cashier=cashier, player=VICTIM, player_signed=True
    )
    assert receipt.amount_cents == 150_000


@pytest.mark.parametrize("kind", KINDS)
def test_a_prize_at_the_cage(t01, event, manager, cashier, floor_person, kind):
    payout = prize_of(
        event, VICTIM, seller=cashier, preparer=floor_person, approver=manager
    )
    keep_out(VICTIM, kind, by=manager, scope="tournaments")
    refused(kind, lambda: pay_prize(payout, VICTIM, cashier), HELD)
    payout.refresh_from_db()
    assert payout.status == Payout.Status.PAYABLE


def test_a_cash_bar_holds_no_prize(t01, event, manager, cashier, floor_person):
    """The prize is paid through the cage's award payment: asked as a prize, a
    cash game's bar doesn't hold it."""
    payout = prize_of(
        event, VICTIM, seller=cashier, preparer=floor_person, approver=manager
    )
    keep_out(VICTIM, "barred", by=manager, scope="cash")
    assert pay_prize(payout, VICTIM, cashier).amount_cents == payout.amount_cents


# --- The gaming day decides (PP2, BI8) --------------------------------------------


def test_he_turns_18_at_midnight_and_plays_from_the_cut_off(
    t01, manager, cashier, room_clock
):
    """Born on 30 November 2008, he is 18 from midnight; the gaming day of
    29 November runs until 06:00, so he is let in from then."""
    player_correct(
        player=Player.objects.get(code=VICTIM),
        by=manager,
        reason="Read from his passport",
        birth_date=date(2008, 11, 30),
    )
    refused("minor", lambda: buy(VICTIM, 10_000, cashier))
    room_clock.move_to(datetime(2026, 11, 30, 0, 30, tzinfo=HELSINKI))
    refused("minor", lambda: buy(VICTIM, 10_000, cashier))
    room_clock.move_to(datetime(2026, 11, 30, 5, 59, tzinfo=HELSINKI))
    refused("minor", lambda: sit(VICTIM, 1))
    room_clock.move_to(datetime(2026, 11, 30, 6, 0, 1, tzinfo=HELSINKI))
    assert buy(VICTIM, 10_000, cashier).amount_cents == 10_000
    lists.entry_join(waiting_list=nl12(t01), player_code=VICTIM, source=STAFF)


# --- A bar's end (PP3) -------------------------------------------------------------


def test_a_bar_ended_by_a_second_manager_lets_him_in_again(
    t01, manager, second_manager, cashier
):
    bar = keep_out(VICTIM, "barred", by=manager)
    assert bar is not None
    refused("barred", lambda: sit(VICTIM, 1))
    with pytest.raises(Refusal) as error:
        restriction_end(restriction=bar, reason="Cleared", by=manager)
    assert (error.value.rule, error.value.code) == ("PP3", "second_manager")
    refused("barred", lambda: buy(VICTIM, 10_000, cashier))
    restriction_end(restriction=bar, reason="Cleared on review", by=second_manager)
    assert sit(VICTIM, 1).stack_cents == 20_000
    assert buy(VICTIM, 10_000, cashier).amount_cents == 10_000
