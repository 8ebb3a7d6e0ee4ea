"""The tournament desk at the cage with Django's test client (TO1, TO9, TO10, TO12,
CA2, CA5, CA6): each action through the tournament services, booked once per form
key, refused with its rule; the clock decides what is open, never the cashier;
amounts typed and shown as each language writes them."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounting.models import Cage, Receipt
from accounting.services import cage as cage_services
from core.money import MoneyInputError, money_parse
from core.roles import Role
from tests.integration.tournaments.conftest import (
    cage,
    cashier,
    event,
    event_evening,
    floor_person,
    make_event,
    manager,
    players,
    room,
    second_cashier,
    second_shift,
    shift,
    structure,
)
from tests.staff.browser import say
from tournaments import services
from tournaments.api.board import clock_labels
from tournaments.models import Entry, Event, Payout, Purchase, Refund

__all__ = [
    "cage",
    "cashier",
    "event",
    "event_evening",
    "floor_person",
    "manager",
    "players",
    "room",
    "second_cashier",
    "second_shift",
    "shift",
    "structure",
]

pytestmark = pytest.mark.django_db

DESK = "/cage/events/sunday-100"


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def text(answer) -> str:
    return answer.content.decode()


def keys(page) -> list[str]:
    found = re.findall(r'name="once" value="([^"]+)"', text(page))
    assert found, "the page's money forms carry no key"
    return found


def said(client: Client) -> str:
    """The messages the next page shows (the desk after a redirect)."""
    return text(client.get(DESK))


def sell(client: Client, player: str, amount: str, key: str = "k-entry"):
    return client.post(
        f"{DESK}/entries", {"once": key, "player": player, "amount": amount}
    )


def clock_at(event: Event, level: int, by) -> None:
    """Start the event and its clock, then move the clock to ``level``."""
    if event.status == Event.Status.SCHEDULED:
        services.event_start(event=event)
    services.clock_change(event_code=event.code, action="start", by=by)
    if level != 1:
        services.clock_change(event_code=event.code, action="move", level=level, by=by)


# --- Who may come in ----------------------------------------------------------------


def test_the_desk_is_the_cashiers_and_the_managers(
    event, cashier, manager, floor_person, make_staff
):
    """Anonymous callers sign in first; the floor and the auditor are refused
    (403); a manager may look and approve, not sell."""
    assert Client().get(DESK)["Location"].startswith("/login")
    assert Client().get("/cage/events/")["Location"].startswith("/login")
    for user in (floor_person, make_staff("aud", Role.AUDITOR)):
        client = signed_in(user)
        assert client.get("/cage/events/").status_code == 403
        assert client.get(DESK).status_code == 403
        assert sell(client, "P-100", "115").status_code == 403
    boss = signed_in(manager)
    assert boss.get(DESK).status_code == 200
    assert sell(boss, "P-100", "115").status_code == 403
    desk = signed_in(cashier)
    assert desk.post(f"{DESK}/refunds/MAIN-000001/approve").status_code == 403
    assert desk.post(f"{DESK}/sheet/approve").status_code == 403
    assert desk.get(f"{DESK}/entries").status_code == 405
    assert not Entry.objects.exists()


def test_the_cage_links_to_tonights_events_and_each_to_its_desk(
    event, room, structure, shift, cashier
):
    """The cage's navigation has the tournaments; tonight's list shows the events
    scheduled or running, not next week's, each linking to its desk."""
    make_event(
        room,
        structure,
        code="next-week",
        name="Next week",
        starts_at=timezone.now() + timedelta(days=7),
    )
    desk = signed_in(cashier)
    home = text(desk.get("/cage/"))
    assert 'href="/cage/events/"' in home
    page = text(desk.get("/cage/events/"))
    assert f'href="{DESK}"' in page and "Sunday €100" in page
    assert "Next week" not in page
    assert "Clock not started" in page


# --- Entries --------------------------------------------------------------------------


def test_an_entry_is_sold_to_an_identified_player_once(event, shift, cashier, players):
    """TO1, CA2: the price and its split shown; the cashier types what he counted;
    the same form sent twice books once and both go to the receipt, with the split
    and the seat draw's seed."""
    desk = signed_in(cashier)
    page = desk.get(DESK)
    body = text(page)
    assert "€115.00" in body and "€100.00" in body and "€10.00" in body
    assert "€5.00" in body  # the staff fee
    key = keys(page)[0]
    first = sell(desk, "P-100", "115.00", key)
    second = sell(desk, "P-100", "115.00", key)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert "/cage/events/sunday-100/receipts/MAIN-" in first["Location"]
    assert Entry.objects.count() == 1 and Receipt.objects.count() == 1
    receipt = text(desk.get(first["Location"]))
    assert "This form was already sent; it was booked once." in receipt
    entry = Entry.objects.get()
    assert entry.seat_moves.get().seed in receipt
    assert "Entry #1 sold to Player 0 for €115.00." in receipt


def test_a_busted_player_buys_a_re_entry_at_the_same_form(
    event, shift, cashier, players, floor_person
):
    desk = signed_in(cashier)
    sell(desk, "P-100", "115", "k-1")
    sell(desk, "P-101", "115", "k-2")
    clock_at(event, 1, floor_person)
    entry = Entry.objects.get(number=1)
    services.busts_record(
        event=event, hand="1", busts=[services.BustIn(entry, 20_000)], by=floor_person
    )
    answer = sell(desk, "P-100", "115", "k-3")
    assert "/receipts/" in answer["Location"]
    assert "Re-entry #3 sold to Player 0" in said(desk)
    assert Entry.objects.get(number=3).kind == Entry.Kind.REENTRY


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("110", "TO1: the amount is €115.00; €110.00 was typed."),
        ("115,50", "could be read as two different amounts"),
        ("abc", "Type the amount in figures"),
    ],
)
def test_a_wrong_or_ambiguous_count_books_nothing(
    event, shift, cashier, players, typed, why
):
    desk = signed_in(cashier)
    answer = sell(desk, "P-100", typed)
    assert answer["Location"] == DESK
    assert why in said(desk)
    assert not Entry.objects.exists() and not Receipt.objects.exists()


def test_an_unknown_player_is_refused(event, shift, cashier, players):
    """CA2: only a registered, identified player is sold an entry."""
    desk = signed_in(cashier)
    sell(desk, "P-999", "115")
    assert "CA2: no registered player has this ID or card" in said(desk)
    assert not Entry.objects.exists()


def test_a_player_found_by_his_identity_card(event, shift, cashier, players):
    cage_services.player_identity_verify(
        player=players[3],
        document_type="passport",
        document_number="XP1234567",
        verified_by=cashier,
    )
    desk = signed_in(cashier)
    sell(desk, "xp1234567", "115")
    assert Entry.objects.get().player == players[3]


def test_the_cages_identity_rule_applies_to_entries(event, shift, cashier, cage):
    """CA5: a player without a verified document may move only so much cash in a
    gaming day; the refusal says how much is left."""
    Cage.objects.filter(pk=cage.pk).update(identity_threshold_cents=10_000)
    cage_services.player_register(
        code="P-777", name="Ulla Unknown", birth_date=date(1985, 1, 1)
    )
    desk = signed_in(cashier)
    sell(desk, "P-777", "115")
    page = said(desk)
    assert "CA5: Ulla Unknown has no verified identity document" in page
    assert not Entry.objects.exists()


def test_registration_closes_by_the_servers_clock(
    event, shift, cashier, players, floor_person
):
    """TO1, TO12: after the late-registration level the desk says it is closed and
    hides the form; a sale posted anyway is refused with its rule."""
    clock_at(event, 5, floor_person)
    desk = signed_in(cashier)
    page = text(desk.get(DESK))
    assert 'id="entry-form"' not in page
    assert "TO1: registration closed after level 3." in page
    assert 'data-open="registration"' in page
    sell(desk, "P-100", "115")
    assert "TO1" in said(desk)
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("language", "typed", "shown"),
    [
        ("en", "115.00", "€115.00"),
        ("fi", "115,00", "115,00\xa0€"),
        ("fi", "115.00", "115,00\xa0€"),
        ("ko", "115.00", "€115.00"),
        ("ko", "115", "€115.00"),
    ],
)
def test_amounts_as_each_language_writes_them(
    event, shift, cashier, players, language, typed, shown
):
    desk = signed_in(cashier, language)
    assert shown in text(desk.get(DESK))
    answer = sell(desk, "P-101", typed)
    assert "/receipts/" in answer["Location"], said(desk)
    assert Receipt.objects.get().amount_cents == 11_500


def test_an_amount_that_reads_two_ways_is_never_guessed():
    def refused(typed: str, language: str) -> bool:
        try:
            money_parse(typed, "EUR", language)
        except MoneyInputError as error:
            return error.reason == "ambiguous"
        return False

    assert refused("115,50", "en") and refused("115,50", "ko")
    assert not refused("1,150.00", "en")
    assert refused("1.150", "fi") and refused("1.150,00", "fi")
    assert not refused("115.50", "fi") and not refused("1 150,50", "fi")
    assert not refused("€115", "en")


# --- Rebuys and the add-on -----------------------------------------------------------


def test_a_rebuy_in_the_period_and_refused_before_the_clock_starts(
    event, shift, cashier, players, floor_person
):
    desk = signed_in(cashier)
    sell(desk, "P-100", "115", "k-1")
    rebuy = {"once": "k-r1", "stack": "0", "amount": "105"}
    desk.post(f"{DESK}/entries/1/rebuy", rebuy)
    assert "TO1" in said(desk)
    assert not Purchase.objects.filter(kind=Purchase.Kind.REBUY).exists()
    clock_at(event, 2, floor_person)
    page = desk.get(DESK)
    assert "Sell a rebuy" in text(page)
    first = desk.post(f"{DESK}/entries/1/rebuy", {**rebuy, "once": "k-r2"})
    again = desk.post(f"{DESK}/entries/1/rebuy", {**rebuy, "once": "k-r2"})
    assert first["Location"] == again["Location"]
    assert "/receipts/" in first["Location"]
    assert Purchase.objects.filter(kind=Purchase.Kind.REBUY).count() == 1
    receipt = text(desk.get(first["Location"]))
    assert "€100.00" in receipt and "€5.00" in receipt
    # Over the stack limit: refused with what is allowed.
    desk.post(f"{DESK}/entries/1/rebuy", {**rebuy, "once": "k-r3", "stack": "25000"})
    assert "TO1" in said(desk)
    assert Purchase.objects.filter(kind=Purchase.Kind.REBUY).count() == 1


def test_the_add_on_at_its_level_only(event, shift, cashier, players, floor_person):
    desk = signed_in(cashier)
    sell(desk, "P-100", "115", "k-1")
    clock_at(event, 2, floor_person)
    assert "Sell the add-on" not in text(desk.get(DESK))
    desk.post(f"{DESK}/entries/1/addon", {"once": "k-a1", "amount": "105"})
    assert "TO1" in said(desk)
    services.clock_change(
        event_code=event.code, action="move", level=4, by=floor_person
    )
    assert "Sell the add-on" in text(desk.get(DESK))
    answer = desk.post(f"{DESK}/entries/1/addon", {"once": "k-a2", "amount": "105"})
    assert "/receipts/" in answer["Location"]
    assert "Add-on sold to Player 0 (entry #1) for €105.00." in said(desk)
    assert Purchase.objects.filter(kind=Purchase.Kind.ADDON).count() == 1


# --- Refunds --------------------------------------------------------------------------


def test_a_partial_refund_approved_by_a_manager_and_paid_by_a_cashier(
    event, shift, cashier, manager, players
):
    """TO10: the manager approves €50 of an entry, saying why; the cashier pays
    exactly that once, with a receipt naming the approver."""
    desk = signed_in(cashier, "fi")
    sell(desk, "P-100", "115", "k-1")
    no = Purchase.objects.get().receipt.no
    boss = signed_in(manager, "fi")
    assert f"{DESK}/refunds/{no}/approve" in text(boss.get(DESK))
    approve = {"once": "a-1", "reason": "Structure changed", "amount": "50,00"}
    boss.post(f"{DESK}/refunds/{no}/approve", approve)
    assert Refund.objects.count() == 0
    page = text(desk.get(DESK))
    assert "Structure changed" in page and "50,00\xa0€" in page
    pay = {"once": "p-1", "amount": "115,00"}
    desk.post(f"{DESK}/refunds/{no}/pay", pay)
    mismatch = say("fi", "%(rule)s: the amount is %(price)s; %(typed)s was typed.")
    assert mismatch % {
        "rule": "TO10",
        "price": "50,00\xa0€",
        "typed": "115,00\xa0€",
    } in said(desk)
    first = desk.post(
        f"{DESK}/refunds/{no}/pay", {**pay, "once": "p-2", "amount": "50"}
    )
    again = desk.post(
        f"{DESK}/refunds/{no}/pay", {**pay, "once": "p-2", "amount": "50"}
    )
    assert first["Location"] == again["Location"] and "/receipts/" in first["Location"]
    refund = Refund.objects.get()
    assert refund.amount_cents == 5_000 and refund.approved_by == manager
    assert "mia" in text(desk.get(first["Location"]))


def test_a_refund_after_a_bust_is_refused_with_its_rule(
    event, shift, cashier, manager, players, floor_person
):
    """TO10: a busted entry's purchase is not refunded while the event runs (the
    house's setting allows it); the manager is told why."""
    desk = signed_in(cashier)
    sell(desk, "P-100", "115", "k-1")
    sell(desk, "P-101", "115", "k-2")
    clock_at(event, 1, floor_person)
    entry = Entry.objects.get(number=1)
    services.busts_record(
        event=event, hand="1", busts=[services.BustIn(entry, 20_000)], by=floor_person
    )
    no = entry.purchases.get().receipt.no
    boss = signed_in(manager)
    boss.post(f"{DESK}/refunds/{no}/approve", {"once": "a-1", "reason": "Asked"})
    assert "TO10" in said(boss)
    assert not entry.purchases.get().refund_approvals.exists()


def test_the_manager_who_approved_does_not_pay_it(
    event, shift, cashier, manager, players, cage, make_staff
):
    """Four-eyes (TO10): a manager pays nothing at the desk (403), and one who is a
    cashier too is refused paying the refund he approved himself."""
    sell(signed_in(cashier), "P-100", "115", "k-1")
    no = Purchase.objects.get().receipt.no
    pay = f"{DESK}/refunds/{no}/pay"
    assert (
        signed_in(manager).post(pay, {"once": "p", "amount": "115"}).status_code == 403
    )
    both = make_staff("max", Role.MANAGER, Role.CASHIER)
    cage_services.shift_open(cage=cage, cashier=both, cash_cents=100_000, chips_cents=0)
    client = signed_in(both)
    client.post(f"{DESK}/refunds/{no}/approve", {"once": "a-1", "reason": "Ill"})
    client.post(pay, {"once": "p-1", "amount": "115"})
    assert "TO10" in said(client)
    assert not Refund.objects.exists()


# --- Prizes -------------------------------------------------------------------------


def mini_over(room, structure, cashier, floor_person, manager, holds=False) -> Event:
    """A small event over: P-102 won €100, P-103 second; the prize held if
    ``holds``."""
    mini = make_event(
        room,
        structure,
        code="mini",
        name="Mini €55",
        buy_in_cents=5_000,
        fee_cents=500,
        staff_fee_cents=0,
        rebuy_max=0,
        addon_level=None,
        tax_document_threshold_cents=10_000,
        payout_table=[{"min_entries": 1, "shares": [10_000]}],
    )
    for code in ("P-102", "P-103"):
        services.entry_register(event=mini, player=code, cage="MAIN", cashier=cashier)
    services.event_start(event=mini)
    services.clock_change(event_code=mini.code, action="start", by=floor_person)
    out = Entry.objects.get(event=mini, player__code="P-103")
    services.busts_record(
        event=mini, hand="1", busts=[services.BustIn(out, 500)], by=floor_person
    )
    winner = Entry.objects.get(event=mini, player__code="P-102")
    sheet = services.payout_sheet_prepare(
        event=mini,
        by=floor_person,
        holds={winner.pk: "absent at the end"} if holds else None,
    )
    services.payout_sheet_approve(sheet=sheet, by=manager)
    return mini


@pytest.fixture
def paid_event(room, structure, cashier, floor_person, manager, players, shift):
    return mini_over(room, structure, cashier, floor_person, manager)


def test_a_prize_paid_to_the_identified_player_with_his_tax_document(
    paid_event, cashier
):
    """TO9, CA6: the player named by his id, the prize counted, his signature, and
    a tax document at the event's threshold; refused without each, booked once."""
    url = "/cage/events/mini"
    line = Payout.objects.get(sheet__event=paid_event)
    desk = signed_in(cashier)
    page = text(desk.get(url))
    assert "Pay the prize" in page and "needs a tax document" in page
    form = {"once": "x-1", "player": "P-102", "amount": "100", "signed": "on"}
    pay = f"{url}/prizes/{line.pk}/pay"
    desk.post(pay, form)
    assert "TO9" in text(desk.get(url))
    desk.post(pay, {**form, "once": "x-2", "tax_document": "VERO-1", "player": "P-100"})
    assert "CA6" in text(desk.get(url))
    unsigned = {k: v for k, v in form.items() if k != "signed"}
    desk.post(pay, {**unsigned, "once": "x-3", "tax_document": "VERO-1"})
    assert "CA6: the player signs the receipt of a prize" in text(desk.get(url))
    good = {**form, "once": "x-4", "tax_document": "VERO-1"}
    first, again = desk.post(pay, good), desk.post(pay, good)
    assert first["Location"] == again["Location"] and "/receipts/" in first["Location"]
    line.refresh_from_db()
    assert line.status == Payout.Status.PAID and line.tax_document == "VERO-1"
    assert Receipt.objects.filter(kind=Receipt.Kind.AWARD_PAYOUT).count() == 1
    slip = text(desk.get(first["Location"]))
    assert "VERO-1" in slip and "Mini €55" in slip


def test_a_held_prize_is_shown_held(
    room, structure, cashier, floor_person, manager, players, shift
):
    """TO9: a held prize isn't paid at the cage; the floor releases or forfeits it."""
    mini_over(room, structure, cashier, floor_person, manager, holds=True)
    assert Payout.objects.get().status == Payout.Status.HELD
    page = text(signed_in(cashier).get("/cage/events/mini"))
    assert "absent at the end" in page and "Pay the prize" not in page
    assert "floor&#x27;s screen" in page or "floor's screen" in page


# --- The old addresses, the board ----------------------------------------------------


def test_the_old_addresses_go_to_the_new_screens(event, shift, cashier, players):
    desk = signed_in(cashier)
    old = desk.get("/cage/tournaments/sunday-100")
    assert (old.status_code, old["Location"]) == (301, DESK)
    sell(desk, "P-100", "115")
    receipt = Receipt.objects.get()
    for suffix in ("", "/print"):
        answer = desk.get(f"/cage/tournaments/sunday-100/receipts/{receipt.pk}{suffix}")
        assert answer["Location"] == f"{DESK}/receipts/{receipt.no}"


def test_the_desk_shows_the_real_prize_pool_beside_the_guarantee(
    event, shift, cashier, players
):
    Event.objects.filter(pk=event.pk).update(guarantee_cents=300_000)
    desk = signed_in(cashier)
    sell(desk, "P-100", "115")
    page = text(desk.get(DESK))
    pool = re.search(r'data-figure="prize-pool">([^<]+)<', page).group(1)
    guarantee = re.search(r'data-figure="guarantee">([^<]+)<', page).group(1)
    assert (pool, guarantee) == ("€100.00", "€3,000.00")
    assert clock_labels()["guaranteed"] == "Guaranteed"
