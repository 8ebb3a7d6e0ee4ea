"""Every door asks, through the API as API.md describes it (PP2–PP6): a minor, a
player without a date of birth, a barred and a self-excluded player are answered
422 with the rule and its code, nothing is written, and the refusal is kept for the
daily audit; a redemption stays open (PP5); an award or a prize due to a restricted
player is held (PP6)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from accounting.models import DoorRefusal, Receipt
from tests.integration.protection.conftest import (
    award_for,
    clock_at,
    enter,
    prize_of,
    sit,
)
from tournaments import services as tournaments
from tournaments.services import BustIn

from .conftest import HELD, KINDS, REFUSED, keep_out, post, refused, written

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]

HELSINKI = ZoneInfo("Europe/Helsinki")
VICTIM = "P-8"
LIST = "waitlist/lists/NLHE-100-200"


def join(floor_api, player: str):
    return post(floor_api, f"{LIST}/join", {"player": player})


def buy(desk, player: str, amount: int = 10_000):
    return post(
        desk, "cage/purchases", {"cage": "MAIN", "player": player, "amount": amount}
    )


# --- The waiting list (WAITLIST) -----------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_joining_a_list(t01, floor_api, boss, kind):
    keep_out(boss, VICTIM, kind)
    before = written()
    error = refused(join(floor_api, VICTIM), kind, "waitlist")
    assert written() == before
    assert error["detail"].startswith(REFUSED[kind][0])
    assert join(floor_api, "P-1").status_code == 201


def test_the_refusal_says_what_is_allowed(t01, floor_api, boss):
    """PP2 names the room's minimum age; PP3 the bar's scope and end (for good)."""
    keep_out(boss, "P-7", "minor")
    keep_out(boss, VICTIM, "barred", scope="room")
    minor = refused(join(floor_api, "P-7"), "minor", "waitlist", player="P-7")
    assert minor["allowed"] == {"min_age": 18}
    barred = refused(join(floor_api, VICTIM), "barred", "waitlist")
    assert barred["allowed"] == {"until": None, "scope": "room"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_call_passes_him_over(t01, floor_api, boss, kind):
    """He joined before he was kept out: the call names him passed over with his
    rule and code and calls the next player; his place is kept."""
    first = join(floor_api, VICTIM).json()["id"]
    join(floor_api, "P-1")
    keep_out(boss, VICTIM, kind)
    answer = post(floor_api, f"{LIST}/call")
    assert answer.status_code == 201, answer.content
    rule, code = REFUSED[kind]
    assert answer.json()["entry"]["player"] == "P-1"
    assert answer.json()["skipped"] == [
        {"player": VICTIM, "rule": rule, "reason": code}
    ]
    shown = floor_api.get(f"/api/v1/waitlist/entries/{first}").json()
    assert shown["status"] == "waiting"
    assert DoorRefusal.objects.filter(player__code=VICTIM, door="waitlist").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_saying_yes_to_a_call(t01, floor_api, boss, kind):
    entry = join(floor_api, VICTIM).json()["id"]
    assert post(floor_api, f"{LIST}/call").status_code == 201
    keep_out(boss, VICTIM, kind)
    before = written()
    answer = post(floor_api, f"waitlist/entries/{entry}/answer", {"accept": True})
    refused(answer, kind, "waitlist")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_sitting_down_where_he_was_called(t01, floor_api, boss, kind):
    entry = join(floor_api, VICTIM).json()["id"]
    assert post(floor_api, f"{LIST}/call").status_code == 201
    keep_out(boss, VICTIM, kind)
    before = written()
    answer = post(
        floor_api,
        f"waitlist/entries/{entry}/seat",
        {"amount": 20_000, "method": "cash"},
    )
    refused(answer, kind, "seat")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_asking_for_a_seat_change(t01, floor_api, boss, kind):
    sit(VICTIM, 1)
    keep_out(boss, VICTIM, kind)
    before = written()
    answer = post(
        floor_api,
        "waitlist/seat-changes",
        {"player": VICTIM, "table": "T01", "seat": 5},
    )
    refused(answer, kind, "waitlist")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_held_for_him(t01, floor_api, boss, kind):
    keep_out(boss, VICTIM, kind)
    before = written()
    answer = post(
        floor_api,
        "waitlist/lockups",
        {"table": "T01", "seat": 3, "kind": "seat", "player": VICTIM},
    )
    refused(answer, kind, "seat")
    assert written() == before


# --- Seats, returns and buy-ins (SEAT, BUY_IN) ---------------------------------


def seat_at(terminal, seat: int, player: str, method: str = "cash"):
    return post(
        terminal,
        "tables/T01/seats",
        {"seat": seat, "player": player, "amount": 20_000, "method": method},
    )


@pytest.mark.parametrize("kind", KINDS)
def test_sitting_down_with_a_buy_in(terminal, boss, kind):
    keep_out(boss, VICTIM, kind)
    before = written()
    refused(seat_at(terminal, 1, VICTIM), kind, "seat")
    assert written() == before
    assert seat_at(terminal, 1, "P-1").status_code == 201


@pytest.mark.parametrize("kind", KINDS)
def test_coming_back_with_his_chips(terminal, boss, kind):
    """He left with his chips and comes back with them (BI5): asked again."""
    assert seat_at(terminal, 1, VICTIM).status_code == 201
    left = post(terminal, "tables/T01/seats/1/leave", {"stack": 20_000})
    assert left.status_code == 200, left.content
    keep_out(boss, VICTIM, kind)
    before = written()
    refused(seat_at(terminal, 2, VICTIM, method="chips"), kind, "seat")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_coming_back_from_a_break(terminal, boss, kind):
    assert seat_at(terminal, 1, VICTIM).status_code == 201
    assert post(terminal, "tables/T01/seats/1/away").status_code == 201
    keep_out(boss, VICTIM, kind)
    before = written()
    refused(post(terminal, "tables/T01/seats/1/back"), kind, "seat")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_topping_up(terminal, boss, kind):
    assert seat_at(terminal, 1, VICTIM).status_code == 201
    keep_out(boss, VICTIM, kind)
    before = written()
    answer = post(
        terminal, "tables/T01/seats/1/top-ups", {"amount": 5_000, "method": "cash"}
    )
    refused(answer, kind, "buy_in")
    assert written() == before


def test_a_bar_set_while_he_sits_refuses_his_next_top_up(terminal, boss, desk):
    """PP5: sold before the bar, refused after it; he leaves with his chips and
    the cage cashes them."""
    assert seat_at(terminal, 1, VICTIM).status_code == 201
    top_up = {"amount": 5_000, "method": "cash"}
    assert post(terminal, "tables/T01/seats/1/top-ups", top_up).status_code == 201
    keep_out(boss, VICTIM, "barred")
    refused(post(terminal, "tables/T01/seats/1/top-ups", top_up), "barred", "buy_in")
    left = post(terminal, "tables/T01/seats/1/leave", {"stack": 25_000})
    assert left.status_code == 200, left.content
    cashed = post(
        desk, "cage/redemptions", {"cage": "MAIN", "player": VICTIM, "amount": 25_000}
    )
    assert cashed.status_code == 201, cashed.content


# --- The cage (CHIP_PURCHASE, REDEMPTION) --------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_buying_chips(t01, desk, boss, kind):
    keep_out(boss, VICTIM, kind)
    before = written()
    refused(buy(desk, VICTIM), kind, "chip_purchase")
    assert written() == before
    assert buy(desk, "P-1").status_code == 201


def test_an_unregistered_buyer_is_still_ca2(t01, desk):
    answer = buy(desk, "P-404")
    assert answer.status_code == 422
    assert (answer.json()["error"]["rule"], answer.json()["error"]["code"]) == (
        "CA2",
        "player_not_registered",
    )


@pytest.mark.parametrize("kind", KINDS)
def test_cashing_his_chips_stays_open(t01, desk, boss, kind):
    """PP5: his money is his; the cage cashes his chips whoever keeps him out."""
    assert buy(desk, VICTIM, 30_000).status_code == 201
    keep_out(boss, VICTIM, kind)
    cashed = post(
        desk, "cage/redemptions", {"cage": "MAIN", "player": VICTIM, "amount": 30_000}
    )
    assert cashed.status_code == 201, cashed.content
    assert cashed.json()["amount"] == 30_000
    assert not DoorRefusal.objects.exists()


# --- Scopes (PP3) ----------------------------------------------------------------


def test_a_tournaments_bar_refuses_an_entry_not_a_cash_buy_in(
    t01, event, terminal, desk, floor_api, boss
):
    keep_out(boss, VICTIM, "barred", scope="tournaments")
    assert join(floor_api, VICTIM).status_code == 201
    assert seat_at(terminal, 1, VICTIM).status_code == 201
    assert buy(desk, VICTIM).status_code == 201
    before = written()
    answer = post(
        desk, f"tournaments/{event.code}/entries", {"cage": "MAIN", "player": VICTIM}
    )
    error = refused(answer, "barred", "tournament")
    assert error["allowed"] == {"until": None, "scope": "tournaments"}
    assert written() == before


def test_a_cash_bar_refuses_a_buy_in_not_an_entry(t01, event, terminal, desk, boss):
    keep_out(boss, VICTIM, "barred", scope="cash")
    entered = post(
        desk, f"tournaments/{event.code}/entries", {"cage": "MAIN", "player": VICTIM}
    )
    assert entered.status_code == 201, entered.content
    before = written()
    refused(seat_at(terminal, 1, VICTIM), "barred", "seat")
    assert written() == before


# --- Tournaments (TOURNAMENT) ----------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_entering_a_tournament(t01, event, desk, boss, kind):
    keep_out(boss, VICTIM, kind, scope="tournaments")
    before = written()
    answer = post(
        desk, f"tournaments/{event.code}/entries", {"cage": "MAIN", "player": VICTIM}
    )
    refused(answer, kind, "tournament")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_re_entering_after_a_bust(t01, event, desk, boss, cashier, floor_person, kind):
    entries = [enter(event, code, cashier) for code in (VICTIM, "P-1", "P-2")]
    tournaments.event_start(event=event)
    tournaments.busts_record(
        event=event, hand="h1", busts=[BustIn(entries[0], 20_000)], by=floor_person
    )
    keep_out(boss, VICTIM, kind, scope="tournaments")
    before = written()
    answer = post(
        desk, f"tournaments/{event.code}/entries", {"cage": "MAIN", "player": VICTIM}
    )
    refused(answer, kind, "tournament")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_a_rebuy(t01, event, desk, boss, cashier, floor_person, kind):
    entry = enter(event, VICTIM, cashier)
    enter(event, "P-1", cashier)
    clock_at(event, 1, floor_person)
    path = f"tournaments/{event.code}/entries/{entry.number}/rebuys"
    assert post(desk, path, {"cage": "MAIN", "stack": 4_000}).status_code == 201
    keep_out(boss, VICTIM, kind, scope="tournaments")
    before = written()
    refused(post(desk, path, {"cage": "MAIN", "stack": 4_000}), kind, "tournament")
    assert written() == before


@pytest.mark.parametrize("kind", KINDS)
def test_an_add_on(t01, event, desk, boss, cashier, floor_person, kind):
    entry = enter(event, VICTIM, cashier)
    enter(event, "P-1", cashier)
    clock_at(event, 4, floor_person)
    keep_out(boss, VICTIM, kind, scope="tournaments")
    before = written()
    answer = post(
        desk,
        f"tournaments/{event.code}/entries/{entry.number}/addons",
        {"cage": "MAIN"},
    )
    refused(answer, kind, "tournament")
    assert written() == before


# --- Awards and prizes (AWARD, PRIZE: PP6) ---------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_an_award_at_the_cage(t01, desk, boss, manager, floor_person, kind):
    """A jackpot share due to a restricted player is held at payment (PP6
    ``award_held``); to one under age, refused (PP2). It stays owed."""
    award = award_for(VICTIM, approver=manager, maker=floor_person)
    keep_out(boss, VICTIM, kind, scope="cash")
    before = written()
    answer = post(
        desk,
        f"cage/payables/{award.pk}/pay",
        {"cage": "MAIN", "player": VICTIM, "player_signed": True},
    )
    refused(answer, kind, None, HELD)
    assert written() == before
    assert not Receipt.objects.filter(payable=award).exists()


@pytest.mark.parametrize("kind", KINDS)
def test_a_prize_at_the_cage(
    t01, event, desk, boss, cashier, manager, floor_person, kind
):
    payout = prize_of(
        event, VICTIM, seller=cashier, preparer=floor_person, approver=manager
    )
    keep_out(boss, VICTIM, kind, scope="tournaments")
    before = written()
    answer = post(
        desk,
        f"tournaments/{event.code}/payouts/{payout.pk}/pay",
        {
            "cage": "MAIN",
            "player": VICTIM,
            "player_signed": True,
            "tax_document": "FI-2026-1",
        },
    )
    refused(answer, kind, None, HELD)
    assert written() == before


# --- The gaming day decides (PP2, BI8) --------------------------------------------


def test_he_turns_18_at_midnight_and_plays_from_the_cut_off(
    t01, desk, boss, floor_api, room_clock
):
    """Born on 30 November 2008: 17 on the gaming day of 29 November, which runs
    until 06:00 on the 30th; let in from then."""
    corrected = boss.patch(
        f"/api/v1/players/{VICTIM}",
        {"birth_date": "2008-11-30", "reason": "Per his passport"},
        format="json",
    )
    assert corrected.status_code == 200, corrected.content
    refused(buy(desk, VICTIM), "minor", "chip_purchase")
    room_clock.move_to(datetime(2026, 11, 30, 0, 30, tzinfo=HELSINKI))
    assert buy(desk, VICTIM).status_code == 422
    room_clock.move_to(datetime(2026, 11, 30, 5, 59, tzinfo=HELSINKI))
    assert join(floor_api, VICTIM).status_code == 422
    refusals = DoorRefusal.objects.filter(player__code=VICTIM)
    assert {r.gaming_day for r in refusals} == {date(2026, 11, 29)}
    room_clock.move_to(datetime(2026, 11, 30, 6, 0, 1, tzinfo=HELSINKI))
    assert buy(desk, VICTIM).status_code == 201
    assert join(floor_api, VICTIM).status_code == 201


# --- A bar's end (PP3) -------------------------------------------------------------


def test_a_bar_ended_by_a_second_manager_lets_him_in_again(
    terminal, desk, boss, other_boss
):
    bar = keep_out(boss, VICTIM, "barred")
    refused(seat_at(terminal, 1, VICTIM), "barred", "seat")
    same = post(boss, f"restrictions/{bar}/end", {"reason": "Cleared"})
    assert same.status_code == 422
    assert (same.json()["error"]["rule"], same.json()["error"]["code"]) == (
        "PP3",
        "second_manager",
    )
    ended = post(other_boss, f"restrictions/{bar}/end", {"reason": "Cleared on review"})
    assert ended.status_code == 200, ended.content
    assert ended.json()["active"] is False
    assert seat_at(terminal, 1, VICTIM).status_code == 201
    assert buy(desk, VICTIM).status_code == 201
