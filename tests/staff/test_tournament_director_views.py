"""The tournament director's and the floor's screens in staff/ (TO1–TO12): who may
open them, each action through the tournament services with its refusal said
with the rule, one booking per form key, and the old address redirected."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from core.roles import Role
from staff.common.tournaments import clock_text
from staff.floor.tournaments.race import race_deal
from tests.integration.tournaments.conftest import (
    cage,
    cashier,
    event,
    event_evening,
    floor_person,
    manager,
    players,
    room,
    shift,
    structure,
)
from tournaments import selectors, services
from tournaments.models import (
    Bust,
    ChipCount,
    ChipMovement,
    ChipRace,
    ClockChange,
    Deal,
    Entry,
    Event,
    EventTable,
    PayoutSheet,
    SeatMove,
    Structure,
)
from tournaments.services import setup

__all__ = [
    "cage",
    "cashier",
    "event",
    "event_evening",
    "floor_person",
    "manager",
    "players",
    "room",
    "shift",
    "structure",
]

pytestmark = pytest.mark.django_db

BASE = "/floor/events/sunday-100/"


def browser(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def key(n: int = 1) -> str:
    return f"form-key-{n:04d}"


def said(answer) -> str:
    """The messages shown on the page reached after a post."""
    return (
        " ".join(str(m) for m in answer.context["messages"]) if answer.context else ""
    )


@pytest.fixture
def seated(event, cage, shift, cashier, players):
    """Eight entries bought at the cage and seated by its draw; not started."""
    for p in players[:8]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier, level=0
        )
    return event


@pytest.fixture
def started(seated, floor_person):
    services.clock_change(event_code=seated.code, action="start", by=floor_person)
    event = Event.objects.get(pk=seated.pk)
    if event.status == Event.Status.SCHEDULED:
        services.event_start(event=event)
    return Event.objects.get(pk=seated.pk)


def _out(event, by, code: str, stack: int, hand: str) -> None:
    services.busts_report(
        event_code=event.code,
        hand=hand,
        busts=[services.BustReport(player=code, stack=stack)],
        by=by,
    )


# Who may ---------------------------------------------------------------------


def test_the_floor_and_managers_only(event, make_staff, floor_person, manager):
    """The screens are the floor's and the managers'; a cashier gets 403, a
    stranger the sign-in page, and nothing is written."""
    cashier = make_staff("cassie", Role.CASHIER)
    for url in ("/floor/events/", BASE, BASE + "deal", BASE + "payouts"):
        assert browser(cashier).get(url).status_code == 403
        assert Client().get(url).status_code == 302
        assert browser(floor_person).get(url).status_code == 200
        assert browser(manager).get(url).status_code == 200
    answer = browser(cashier).post(BASE + "clock/change", {"action": "start"})
    assert answer.status_code == 403
    assert not ClockChange.objects.exists()


def test_approvals_are_a_managers(started, floor_person):
    """TO9: the floor can't approve a payout sheet or release a prize (403)."""
    assert browser(floor_person).post(BASE + "payouts/approve").status_code == 403
    assert browser(floor_person).post(BASE + "payouts/1/release").status_code == 403


def test_the_old_address_leads_to_the_new_screen(event, floor_person):
    """The admin-framed /floor/tournaments/<event> is retired for the staff screen."""
    answer = browser(floor_person).get("/floor/tournaments/sunday-100")
    assert answer.status_code == 301
    assert answer["Location"] == BASE


def test_the_floor_finds_tonights_events(event, floor_person):
    """The floor's navigation leads to the events; the home lists tonight's."""
    client = browser(floor_person)
    home = client.get("/floor/").content.decode()
    assert 'href="/floor/events/"' in home and "/floor/events/tonight" in home
    tonight = client.get("/floor/events/tonight").content.decode()
    assert "Sunday €100" in tonight and 'href="/floor/events/sunday-100/"' in tonight
    assert "€115.00" in tonight  # buy-in, fee and staff fee, as money


# The clock (TO12) ------------------------------------------------------------


def test_clock_text_reads_minutes_and_seconds():
    assert [clock_text(s) for s in (873, 1200, 59, 3600, 3725)] == [
        "14:33",
        "20:00",
        "0:59",
        "1:00:00",
        "1:02:05",
    ]


def test_starting_the_clock_starts_the_event_and_shows_mm_ss(seated, floor_person):
    """TO12: the start is logged with who did it; the event runs; the clock reads
    20:00 at level 1 with its blinds, never seconds."""
    client = browser(floor_person)
    answer = client.post(
        BASE + "clock/change", {"action": "start", "once": key()}, follow=True
    )
    assert "The clock is running." in said(answer)
    assert list(ClockChange.objects.values_list("action", "by")) == [
        ("start", floor_person.pk)
    ]
    assert Event.objects.get(pk=seated.pk).status == Event.Status.RUNNING
    clock = client.get(BASE + "clock").content.decode()
    assert re.search(r'id="time-left"[^>]*>(20:00|19:5\d)<', clock)
    assert "100 / 200" in clock and " s<" not in clock
    # The same form again books nothing more.
    again = client.post(
        BASE + "clock/change", {"action": "start", "once": key()}, follow=True
    )
    assert "already sent" in said(again)
    assert ClockChange.objects.count() == 1


def test_a_refused_clock_change_says_the_rule(event, floor_person):
    """TO12: resuming a clock that never started is refused; nothing is logged."""
    answer = browser(floor_person).post(
        BASE + "clock/change", {"action": "resume", "once": key()}, follow=True
    )
    assert "TO12" in said(answer)
    assert not ClockChange.objects.exists()


def test_time_is_added_in_minutes(started, floor_person):
    answer = browser(floor_person).post(
        BASE + "clock/change",
        {"action": "add_time", "minutes": "-2", "reason": "dispute", "once": key()},
        follow=True,
    )
    assert "The clock's time is changed." in said(answer)
    change = ClockChange.objects.get(action="add_time")
    assert (change.seconds, change.reason) == (-120, "dispute")
    refused = browser(floor_person).post(
        BASE + "clock/change",
        {"action": "add_time", "minutes": "30", "once": key(2)},
        follow=True,
    )
    assert "TO12" in said(refused)
    assert ClockChange.objects.filter(action="add_time").count() == 1


# Seats (TO11) ----------------------------------------------------------------


def test_the_draw_seats_the_unseated_and_lists_where_they_go(
    room, structure, cage, shift, cashier, players, floor_person
):
    """TO11: entries sold before the tables existed draw their seats here."""
    event = setup.event_create(
        code="sunday-100",
        name="Sunday",
        structure=structure.code,
        starts_at=timezone.now(),
        settings={"buy_in_cents": 10_000, "starting_stack": 20_000},
        by=floor_person,
    )
    for p in players[:3]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier, level=0
        )
    client = browser(floor_person)
    refused = client.post(BASE + "seats/draw", {"once": key(1)}, follow=True)
    assert "TO11" in said(refused)
    setup.event_table_add(event=event, table="TT9", by=floor_person)
    answer = client.post(BASE + "seats/draw", {"once": key(2)}, follow=True)
    assert "3 seats drawn" in said(answer)
    assert not Entry.objects.filter(event=event, seat__isnull=True).exists()
    page = answer.content.decode()
    assert page.count("<strong>TT9 · ") == 3
    assert SeatMove.objects.filter(event=event).count() == 3


def test_balancing_lists_each_move(started, floor_person):
    """TO11: the tables are balanced and each move is said."""
    for n, entry in enumerate(Entry.objects.filter(event=started, table="TT1")[:3]):
        _out(started, floor_person, entry.player.code, 1_000 + n, f"TT1#{n}")
    answer = browser(floor_person).post(
        BASE + "tables/balance", {"once": key()}, follow=True
    )
    assert "players moved" in said(answer)


# Busts and counts (TO3, TO4) -------------------------------------------------


def test_a_bust_is_recorded_with_its_place(started, floor_person):
    """TO4: a player out at a table takes the last place."""
    entry = Entry.objects.filter(event=started, table="TT1").first()
    answer = browser(floor_person).post(
        BASE + "busts",
        {
            "table": "TT1",
            "hand": "41",
            "player_1": entry.player.code,
            "stack_1": "3000",
            "once": key(),
        },
        follow=True,
    )
    bust = Bust.objects.get(entry=entry)
    assert (bust.hand, bust.place_high) == ("TT1:41", 8)
    assert "is out in place 8" in said(answer)


def test_a_bust_at_the_wrong_table_is_refused(started, floor_person):
    """TO4: a table reports only its own players."""
    entry = Entry.objects.filter(event=started, table="TT2").first()
    answer = browser(floor_person).post(
        BASE + "busts",
        {
            "table": "TT1",
            "hand": "7",
            "player_1": entry.player.code,
            "stack_1": "3000",
            "once": key(),
        },
        follow=True,
    )
    assert "TO4" in said(answer)
    assert not Bust.objects.exists()


def test_a_stack_typed_as_a_fraction_is_refused(started, floor_person):
    entry = Entry.objects.filter(event=started, table="TT1").first()
    answer = browser(floor_person).post(
        BASE + "busts",
        {"table": "TT1", "hand": "7", "player_1": entry.player.code, "stack_1": "1.5"},
        follow=True,
    )
    assert "whole number" in said(answer)
    assert not Bust.objects.exists()


def test_a_table_count_reaches_the_reconciliation(started, floor_person):
    """TO3: each table's count is recorded and shown against the chips issued."""
    client = browser(floor_person)
    client.post(BASE + "counts", {"table": "TT1", "chips": "80000", "once": key(1)})
    answer = client.post(
        BASE + "counts", {"table": "TT2", "chips": "80000", "once": key(2)}, follow=True
    )
    assert "80,000 chips counted at TT2" in said(answer)
    assert ChipCount.objects.filter(event=started).count() == 2
    page = answer.content.decode()
    assert "160,000" in page  # issued: eight starting stacks of 20,000
    refused = client.post(
        BASE + "counts", {"table": "T99", "chips": "1", "once": key(3)}, follow=True
    )
    assert "T99" in said(refused)
    assert ChipCount.objects.filter(event=started).count() == 2


# Penalties (TO3) -------------------------------------------------------------


def test_disqualification_and_chips_removed_with_their_cause(started, floor_person):
    """TO3: chips leave play only with a cause; a hidden-chips removal needs a note."""
    client = browser(floor_person)
    refused = client.post(
        BASE + "chips/remove",
        {"cause": "hidden", "chips": "500", "once": key(1)},
        follow=True,
    )
    assert "TO3" in said(refused)
    client.post(
        BASE + "chips/remove",
        {"cause": "hidden", "chips": "500", "note": "behind his cards", "once": key(2)},
    )
    assert ChipMovement.objects.filter(cause="hidden").get().chips == -500
    entry = Entry.objects.filter(event=started).first()
    answer = client.post(
        BASE + "disqualify",
        {"entry": entry.pk, "reason": "abuse", "stack": "20000", "once": key(3)},
        follow=True,
    )
    assert "is disqualified" in said(answer)
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.DISQUALIFIED


# Colour-up and race (TO6) ----------------------------------------------------


def test_race_cards_follow_the_seed_and_the_highest_card_leads():
    draw = race_deal({"1": 3, "4": 2, "6": 1}, seed="abc")
    assert race_deal({"1": 3, "4": 2, "6": 1}, seed="abc") == draw
    assert [len(draw.cards[s]) for s in ("1", "4", "6")] == [3, 2, 1]
    ranks = "23456789TJQKA"

    def best(seat: str) -> tuple[int, int]:
        return max((ranks.index(c[0]), "cdhs".index(c[1])) for c in draw.cards[seat])

    assert draw.order == sorted(draw.cards, key=best, reverse=True)


def test_the_race_is_dealt_on_screen_and_recorded(started, floor_person):
    """TO6: the odd 25s of the table are raced for 100s by the cards shown; the
    result per player is recorded and shown."""
    client = browser(floor_person)
    seats = list(
        Entry.objects.filter(event=started, table="TT1").values_list("seat", flat=True)
    )
    form = {"table": "TT1", "denomination": "25", "new_denomination": "100"}
    for n, seat in enumerate(seats):
        form[f"stack_{seat}"] = str(20_000 + 25 * (n % 3))
        form[f"retired_{seat}"] = str(n % 3)
    page = client.post(BASE + "race", form)
    assert page.status_code == 200
    record = page.context["record_form"]
    assert page.content.decode().count("playing-card") >= 1
    posted = {k: str(v) for k, v in record.initial.items()}
    answer = client.post(
        BASE + "race/record", {**posted, "once": record.key}, follow=True
    )
    race = ChipRace.objects.get(event=started)
    assert "The colour-up at TT1 is recorded." in said(answer)
    dealt = race_deal(
        {s: int(v) // 25 for s, v in race.result["odd"].items() if int(v)},
        seed=posted["seed"],
    )
    assert race.result["cards"] == dealt.best
    assert race.result["order"] == dealt.order
    shown = answer.content.decode()
    assert all(f'data-seat="{s}"' in shown for s in race.result["before"])
    assert "playing-card" in shown  # the cards dealt, again from the seed


def test_a_race_the_rule_refuses_is_said(started, floor_person):
    """TO6: more chips of the retired colour than the stack holds is refused."""
    seat = Entry.objects.filter(event=started, table="TT1").first().seat
    seats = Entry.objects.filter(event=started, table="TT1").values_list(
        "seat", flat=True
    )
    form = {"table": "TT1", "denomination": "25", "new_denomination": "100"}
    for s in seats:
        form[f"stack_{s}"] = "20000"
        form[f"retired_{s}"] = "0"
    form[f"retired_{seat}"] = "5000"
    answer = client_post(browser(floor_person), BASE + "race", form)
    assert "TO6" in said(answer)
    assert not ChipRace.objects.exists()


def client_post(client: Client, url: str, data: dict) -> object:
    return client.post(url, data, follow=True)


# Deals (TO5) and payouts (TO7, TO9) ------------------------------------------


@pytest.fixture
def three_left(started, floor_person):
    """Five players out, one hand each; three left to deal."""
    entries = list(Entry.objects.filter(event=started).order_by("number"))
    for n, entry in enumerate(entries[:5]):
        _out(started, floor_person, entry.player.code, 1_000 + n, f"{entry.table}#{n}")
    return started


def test_a_deal_from_figures_to_signatures(three_left, floor_person, manager):
    """TO5: chip-chop and ICM side by side, the amounts prefilled from the choice,
    proposed, signed by every player left and witnessed by the floor."""
    client = browser(floor_person)
    left = list(Entry.objects.filter(event=three_left, status="active").order_by("pk"))
    query = {
        "button": "1",
        **{f"s_{e.pk}": str(40_000 + 20_000 * i) for i, e in enumerate(left)},
    }
    page = client.get(BASE + "deal", {**query, "method": "icm"})
    offers = selectors.deal_offers(
        event=three_left, stacks={e.pk: int(query[f"s_{e.pk}"]) for e in left}
    )
    form = page.context["propose_form"]
    assert {e.pk: form.initial[f"amount_{e.pk}"] for e in left} == offers["icm"]
    text = page.content.decode()
    assert "Chip-chop" in text and "ICM" in text and "€" in text
    posted = {k: form[k].value() for k in form.fields}
    posted = {
        k: (form.fields[k].prepare_value(v) if v is not None else "")
        for k, v in posted.items()
    }
    answer = client.post(
        BASE + "deal/propose", {**posted, "once": form.key}, follow=True
    )
    assert "every player signs it now" in said(answer)
    deal = Deal.objects.get(event=three_left)
    assert deal.method == "icm"
    assert {int(k): v for k, v in deal.amounts.items()} == offers["icm"]
    for n, entry in enumerate(left):
        client.post(
            BASE + f"deals/{deal.pk}/sign", {"entry": entry.pk, "once": key(10 + n)}
        )
    deal.refresh_from_db()
    assert deal.status == "signed"
    assert deal.signatures.count() == 3
    assert set(deal.signatures.values_list("witnessed_by", flat=True)) == {
        floor_person.pk
    }
    # The floor can't approve; a manager who didn't propose it does, and the
    # event ends with the deal.
    url = BASE + f"deals/{deal.pk}/approve"
    assert client.post(url, {"once": key(20)}).status_code == 403
    answer = browser(manager).post(url, {"once": key(21)}, follow=True)
    assert "The deal is approved." in said(answer)
    deal.refresh_from_db()
    assert deal.status == "approved"
    assert not Entry.objects.filter(event=three_left, status="active").exists()


def test_a_deal_leaving_a_player_out_is_refused(three_left, floor_person):
    """TO5: amounts that don't add up to the prizes left are refused, with the rule."""
    client = browser(floor_person)
    left = list(Entry.objects.filter(event=three_left, status="active").order_by("pk"))
    query = {"button": "1", **{f"s_{e.pk}": "50000" for e in left}}
    form = client.get(BASE + "deal", query).context["propose_form"]
    posted = {
        k: (
            form.fields[k].prepare_value(form[k].value())
            if form[k].value() is not None
            else ""
        )
        for k in form.fields
    }
    posted[f"amount_{left[0].pk}"] = "1"
    answer = client.post(
        BASE + "deal/propose", {**posted, "once": form.key}, follow=True
    )
    assert "TO5" in said(answer)
    assert not Deal.objects.exists()


def test_the_payout_sheet_prepared_with_a_hold_and_approved_by_another(
    three_left, floor_person, manager, make_staff
):
    """TO7, TO9: the floor prepares with a hold and its reason; the manager who
    prepared nothing approves; a manager can't approve his own sheet."""
    left = list(Entry.objects.filter(event=three_left, status="active"))
    for n, entry in enumerate(left[:2]):
        _out(three_left, floor_person, entry.player.code, 100 + n, f"end#{n}")
    client = browser(floor_person)
    held = Entry.objects.filter(event=three_left, place=3).get()
    answer = client.post(
        BASE + "payouts/prepare",
        {f"hold_{held.pk}": "absent at the end", "once": key(1)},
        follow=True,
    )
    assert "payout sheet is prepared" in said(answer)
    sheet = PayoutSheet.objects.get(event=three_left)
    line = sheet.lines.get(entry=held)
    assert line.hold_reason == "absent at the end"
    page = answer.content.decode()
    assert "€" in page and "absent at the end" in page
    boss = browser(manager)
    done = boss.post(BASE + "payouts/approve", {"once": key(2)}, follow=True)
    assert "approved" in said(done)
    assert PayoutSheet.objects.get(pk=sheet.pk).status == "approved"
    line.refresh_from_db()
    assert line.status == "held"
    # A manager who prepared nothing releases the held prize.
    other = make_staff("otto", Role.MANAGER)
    released = browser(other).post(
        BASE + f"payouts/{line.pk}/release",
        {"reason": "came back with his ID", "once": key(3)},
        follow=True,
    )
    assert "released to the cage" in said(released)
    line.refresh_from_db()
    assert line.status == "payable"


def test_a_manager_cannot_approve_his_own_sheet(three_left, floor_person, manager):
    left = list(Entry.objects.filter(event=three_left, status="active"))
    for n, entry in enumerate(left[:2]):
        _out(three_left, floor_person, entry.player.code, 100 + n, f"end#{n}")
    boss = browser(manager)
    boss.post(BASE + "payouts/prepare", {"once": key(1)})
    answer = boss.post(BASE + "payouts/approve", {"once": key(2)}, follow=True)
    assert "TO9" in said(answer)
    assert PayoutSheet.objects.get(event=three_left).status == "prepared"


# Set-up (TO1, TO7, TO11, TO12) -----------------------------------------------


def _levels(rows: list[dict]) -> dict:
    data = {
        "level-TOTAL_FORMS": str(len(rows)),
        "level-INITIAL_FORMS": "0",
        "level-MIN_NUM_FORMS": "1",
        "level-MAX_NUM_FORMS": "100",
    }
    for n, row in enumerate(rows):
        for k, v in row.items():
            data[f"level-{n}-{k}"] = v
    return data


def test_a_director_sets_up_an_event_from_nothing(room, floor_person):
    """A structure with its levels, the event with its money typed in euros, two
    tables and a payout table in percent: all through the set-up services."""
    client = browser(floor_person)
    levels = [
        {"minutes": "20", "small_blind": "100", "big_blind": "200", "ante": "200"},
        {"minutes": "20", "small_blind": "200", "big_blind": "400", "ante": "400"},
        {"minutes": "10", "is_break": "on", "retire_denomination": "25"},
        {"minutes": "20", "small_blind": "300", "big_blind": "600"},
        {"minutes": ""},
    ]
    client.post(
        "/floor/events/structures/new",
        {"code": "deep", "name": "Deep", "once": key(1), **_levels(levels)},
    )
    structure = Structure.objects.get(code="deep")
    assert structure.levels.count() == 4
    answer = client.post(
        "/floor/events/new",
        {
            "code": "friday-50",
            "name": "Friday €50",
            "starts_at": "2026-11-28T19:00",
            "structure": "deep",
            "buy_in_cents": "50",
            "fee_cents": "5",
            "starting_stack": "20000",
            "late_registration_level": "2",
            "bounty_kind": "none",
            "payout_remainder": "top",
            "payout_unit_cents": "1",
            "tax_document_threshold_cents": "2000",
            "once": key(2),
        },
        follow=True,
    )
    event = Event.objects.get(code="friday-50")
    assert (event.buy_in_cents, event.fee_cents) == (5_000, 500)
    assert "is created" in said(answer)
    client.post(
        "/floor/events/friday-50/tables",
        {"table": "tt5", "seats": "9", "once": key(3)},
    )
    assert list(
        EventTable.objects.filter(event=event).values_list("table", "seats")
    ) == [("TT5", 9)]
    client.post(
        "/floor/events/friday-50/payout-table",
        {"rows": "1: 100\n10: 50, 30, 20", "once": key(4)},
    )
    event.refresh_from_db()
    assert event.payout_table == [
        {"min_entries": 1, "shares": [10_000]},
        {"min_entries": 10, "shares": [5_000, 3_000, 2_000]},
    ]
    refused = client.post(
        "/floor/events/friday-50/payout-table",
        {"rows": "1: 60, 30", "once": key(5)},
        follow=True,
    )
    assert "TO7" in said(refused)
    event.refresh_from_db()
    assert len(event.payout_table) == 2


def test_settings_locked_once_sold_are_refused(seated, floor_person):
    """TO1: the buy-in can't change once entries are sold."""
    client = browser(floor_person)
    form = client.get(BASE + "setup").context["form"]
    posted = {}
    for name, field in form.fields.items():
        value = form[name].value()
        posted[name] = "" if value is None else field.prepare_value(value)
    posted["starts_at"] = "2026-11-28T19:00"
    posted["buy_in_cents"] = "150"
    answer = client.post(BASE + "setup", {**posted, "once": form.key}, follow=True)
    assert "TO1" in said(answer)
    assert Event.objects.get(pk=seated.pk).buy_in_cents == 10_000


def test_a_held_prize_forfeited_to_the_house_by_a_second_manager(
    three_left, floor_person, manager, make_staff
):
    """TO9: a held prize is forfeited with why and where the money goes, by a
    manager who didn't prepare the sheet; without a reason it is refused."""
    left = list(Entry.objects.filter(event=three_left, status="active"))
    for n, entry in enumerate(left[:2]):
        _out(three_left, floor_person, entry.player.code, 100 + n, f"end#{n}")
    winner = Entry.objects.get(event=three_left, status="won")
    boss = browser(manager)
    boss.post(
        BASE + "payouts/prepare",
        {f"hold_{winner.pk}": "never came back", "once": key(1)},
    )
    other = browser(make_staff("otto", Role.MANAGER))
    other.post(BASE + "payouts/approve", {"once": key(2)})
    line = PayoutSheet.objects.get(event=three_left).lines.get(entry=winner)
    url = BASE + f"payouts/{line.pk}/forfeit"
    page = other.get(BASE + "payouts").content.decode()
    assert f'action="{url}"' in page and 'value="house"' in page
    refused = boss.post(
        url, {"reason": "", "destination": "house", "once": key(3)}, follow=True
    )
    assert "Why" in said(refused)
    own = boss.post(
        url,
        {"reason": "left", "destination": "house", "once": key(4)},
        follow=True,
    )
    assert "TO9" in said(own)  # he prepared the sheet
    done = other.post(
        url,
        {"reason": "not claimed in 30 days", "destination": "house", "once": key(5)},
        follow=True,
    )
    assert "is forfeited" in said(done)
    line.refresh_from_db()
    assert line.status == "forfeited"
