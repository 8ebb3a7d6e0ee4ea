"""The cage's screens with Django's test client: each action through the cage's
services, booked once per form, refused in the room's words (CA1–CA6)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from accounting import chart
from accounting.models import Payable, Receipt, Shift, TableSlip
from accounting.services import cage as services
from core.models import IdempotencyRecord
from core.roles import Role
from staff.models import ShiftCount
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def key_of(page) -> str:
    found = re.findall(r'name="once" value="([^"]+)"', page.content.decode())
    assert found, "the form carries no idempotency key"
    return found[0]


def identity_key(page) -> str:
    """The key of the page's form for a checked identity document (PP1)."""
    found = re.search(
        r'class="identity".*?name="once" value="([^"]+)"', page.content.decode(), re.S
    )
    assert found, "the document's form carries no idempotency key"
    return found.group(1)


def text(page) -> str:
    return page.content.decode()


def test_a_cashier_lands_on_the_cage_and_a_manager_on_his_approvals(
    cashier_user, make_staff
):
    """After signing in a cashier is on the cage's home page, a manager on his inbox."""
    answer = Client().post("/login", {"username": "kalle", "password": PASSWORD})
    assert (answer.status_code, answer["Location"]) == (302, "/cage/")
    make_staff("mia", Role.MANAGER)
    answer = Client().post("/login", {"username": "mia", "password": PASSWORD})
    assert answer["Location"] == "/manager/"


def test_the_cage_is_a_cashiers(cage, make_staff):
    """Anonymous callers are sent to sign in; the floor is refused (403)."""
    assert Client().get("/cage/")["Location"].startswith("/login")
    floor = Client()
    floor.force_login(make_staff("fred", Role.FLOOR))
    assert floor.get("/cage/").status_code == 403
    assert floor.post("/cage/players/P-1001/sell").status_code == 403


def test_a_shift_opens_with_a_count_by_denomination_once(desk, cashier_user):
    """CA1: the float is the notes, coins and chips counted; the same form sent
    twice opens one shift."""
    page = desk.get("/cage/shift/open")
    assert ">€500</label>" in text(page) and ">€5</label>" in text(page)
    form = {
        "once": key_of(page),
        "note_5000": "40",
        "note_2000": "25",
        "coins": "12.50",
        "chip_2500": "100",
        "chip_10000": "25",
    }
    first = desk.post("/cage/shift/open", form)
    second = desk.post("/cage/shift/open", form)
    assert first.status_code == second.status_code == 302
    shift = Shift.objects.get(cashier=cashier_user)
    assert shift.opening_cash_cents == 40 * 5_000 + 25 * 2_000 + 1_250
    assert shift.opening_chips_cents == 100 * 2_500 + 25 * 10_000
    count = ShiftCount.objects.get(shift=shift, moment="open")
    assert (count.notes, count.coins_cents) == ({"5000": 40, "2000": 25}, 1_250)
    assert "booked once" in text(desk.get("/cage/"))


@pytest.mark.parametrize(
    ("language", "line", "notes", "chips"),
    [
        ("en", "€2,000.00", "€2,500.00", "€250.00"),
        ("fi", "2\xa0000,00\xa0€", "2\xa0500,00\xa0€", "250,00\xa0€"),
        ("ko", "€2,000.00", "€2,500.00", "€250.00"),
    ],
)
def test_a_counts_running_totals_are_written_by_the_server(
    cage, cashier_user, language, line, notes, chips
):
    """CA1: each line and each side of the count being typed, as core.money writes
    it in the cashier's language; a line not yet a whole number shows nothing and
    adds nothing, and nothing is booked."""
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(cashier_user)
    typed = {"note_5000": "40", "note_2000": "25", "note_1000": "x", "chip_2500": "10"}
    page = text(desk.post("/cage/count/totals", typed))
    first = 'id="line-note_5000" data-line="note_5000" hx-swap-oob="true"'
    assert f"<output {first}>{line}</output>" in page
    assert f'data-total="note" hx-swap-oob="true">{notes}</output>' in page
    assert f'data-total="chip" hx-swap-oob="true">{chips}</output>' in page
    assert 'data-line="note_1000" hx-swap-oob="true"></output>' in page
    assert not Shift.objects.exists()


def test_players_are_found_by_name_id_or_card(desk, player, cashier_user):
    """A search by part of the name, the id or the identity card number finds him."""
    services.player_identity_verify(
        player=player,
        document_type="id_card",
        document_number="FI1234567",
        verified_by=cashier_user,
    )
    for query in ("virta", "P-1001", "FI1234567"):
        found = desk.get("/cage/players", {"q": query}, HTTP_HX_REQUEST="true")
        assert "Aino Virtanen" in text(found), query
    assert "Aino" not in text(desk.get("/cage/players", {"q": "nobody"}))


def test_chips_sold_and_cashed_once_each_with_the_players_figures(desk, opened, player):
    """CA2: "500" sells €500 of chips; the player page shows his chips, tonight's
    buy-ins and cash-outs; a double submit gives one receipt."""
    page = desk.get("/cage/players/P-1001")
    sell_key = key_of(page)
    form = {"once": sell_key, "sell-amount": "500"}
    first = desk.post("/cage/players/P-1001/sell", form)
    again = desk.post("/cage/players/P-1001/sell", form)
    receipt = Receipt.objects.get()
    assert first["Location"] == again["Location"] == f"/cage/receipts/{receipt.no}"
    assert receipt.amount_cents == 50_000
    redeem_key = re.findall(r'name="once" value="([^"]+)"', text(page))[1]
    desk.post(
        "/cage/players/P-1001/redeem", {"once": redeem_key, "redeem-amount": "120.50"}
    )
    figures = text(desk.get("/cage/players/P-1001"))
    assert Receipt.objects.count() == 2
    assert 'data-figure="chips">€379.50<' in figures
    assert 'data-figure="buy-ins">€500.00<' in figures
    assert 'data-figure="cash-outs">€120.50<' in figures


def test_a_redemption_above_the_chips_held_is_told_in_the_rooms_words(
    desk, opened, player
):
    """The ledger's refusal names no account: the player's chips and the most he
    can cash, in euros; nothing is booked."""
    services.chip_purchase(
        cage="MAIN", cashier=opened.cashier, player="P-1001", amount_cents=25_000
    )
    page = desk.get("/cage/players/P-1001")
    key = re.findall(r'name="once" value="([^"]+)"', text(page))[1]
    answer = desk.post(
        "/cage/players/P-1001/redeem", {"once": key, "redeem-amount": "999999"}
    )
    body = text(answer)
    assert "player:P-1001:chips" not in body
    assert "Aino Virtanen holds chips worth €250.00" in body
    assert Receipt.objects.count() == 1
    assert not IdempotencyRecord.objects.filter(key=key).exists()


def test_a_purchase_over_the_identity_threshold_says_how_much_is_left(
    desk, opened, cashier_user
):
    """CA5: a player without a verified identity is told the most he may still
    buy tonight, in euros."""
    services.player_register(
        code="P-2002", name="Kim Min-jun", birth_date=date(1985, 1, 1)
    )
    page = desk.get("/cage/players/P-2002")
    assert "Not verified" in text(page)
    answer = desk.post(
        "/cage/players/P-2002/sell", {"once": key_of(page), "sell-amount": "2500"}
    )
    assert "CA5" in text(answer) and "€1,999.99" in text(answer)
    assert not Receipt.objects.exists()
    desk.post(
        "/cage/players/P-2002/identity",
        {
            "once": identity_key(answer),
            "document_type": "passport",
            "document_number": "KR1234567",
        },
    )
    page = desk.get("/cage/players/P-2002")
    assert "Verified" in text(page) and "passport" in text(page)
    desk.post(
        "/cage/players/P-2002/sell", {"once": key_of(page), "sell-amount": "2500"}
    )
    assert Receipt.objects.get().amount_cents == 250_000


def test_money_is_typed_and_shown_in_finnish(cage, cashier_user, opened, player):
    """fi: "1 234,50" is €1,234.50 and shows as 1 234,50 €."""
    desk = Client(HTTP_ACCEPT_LANGUAGE="fi")
    desk.force_login(cashier_user)
    page = desk.get("/cage/players/P-1001")
    desk.post(
        "/cage/players/P-1001/sell", {"once": key_of(page), "sell-amount": "1 234,50"}
    )
    assert Receipt.objects.get().amount_cents == 123_450
    shown = text(desk.get("/cage/players/P-1001"))
    assert 'data-figure="chips">1\xa0234,50\xa0€<' in shown
    assert "Myy pelimerkkejä" in shown


def test_the_queue_shows_fills_waiting_and_the_cashier_issues_one_once(
    desk, opened, fill
):
    """CA3: the polled queue lists the fill; issuing it twice moves the chips once."""
    queue = desk.get("/cage/queue")
    assert "T01" in text(queue) and "€1,000.00" in text(queue)
    form = {"once": key_of(queue)}
    desk.post(f"/cage/slips/{fill.pk}/issue", form)
    desk.post(f"/cage/slips/{fill.pk}/issue", form)
    fill.refresh_from_db()
    assert fill.status == TableSlip.Status.ISSUED
    assert chart.table_tray(table="T01").balance_cents == 100_000
    assert "Nothing is waiting" in text(desk.get("/cage/queue"))
    credit = services.slip_request(
        kind=TableSlip.Kind.CREDIT,
        cage=fill.cage,
        table="T01",
        amount_cents=150_000,
        requested_by=fill.requested_by,
    )
    queue = desk.get("/cage/queue")
    assert "Take the credit" in text(queue)
    refused = desk.post(f"/cage/slips/{credit.pk}/issue", {"once": key_of(queue)})
    shown = text(desk.get(refused["Location"]))
    assert "tray holds €1,000.00 in chips; a credit can take at most €1,000.00" in shown
    credit.refresh_from_db()
    assert credit.status == TableSlip.Status.PENDING


def test_an_award_is_paid_only_with_the_players_signature(desk, opened, award):
    """CA6: without the box ticked nothing is paid; with it, one receipt that says
    the player signed."""
    page = desk.get(f"/cage/awards/{award.pk}/pay")
    assert "€1,500.00" in text(page)
    refused = desk.post(f"/cage/awards/{award.pk}/pay", {"once": key_of(page)})
    assert "CA6" in text(refused) and not Receipt.objects.exists()
    answer = desk.post(
        f"/cage/awards/{award.pk}/pay", {"once": key_of(page), "signed": "on"}
    )
    receipt = Receipt.objects.get()
    assert receipt.player_signed and receipt.payable_id == award.pk
    award.refresh_from_db()
    assert award.status == Payable.Status.PAID
    printed = text(desk.get(answer["Location"]))
    assert "The player signed at the cage." in printed


def test_the_receipt_is_in_the_rooms_language_with_its_name(desk, opened, player):
    """The printed receipt: the room's name and language, signature lines."""
    from cardroom.models import Room

    Room.objects.create(
        code="hki",
        name="Casino Helsinki",
        time_zone="Europe/Helsinki",
        currency="EUR",
        language="fi",
    )
    receipt = services.chip_purchase(
        cage="MAIN", cashier=opened.cashier, player="P-1001", amount_cents=50_000
    )
    printed = text(desk.get(f"/cage/receipts/{receipt.no}"))
    assert "Casino Helsinki" in printed and receipt.no in printed
    assert "500,00\xa0€" in printed and "Pelaajan allekirjoitus" in printed
    css = Path(finders.find("staff/staff.css")).read_text()
    assert "@page { size: 80mm 200mm" in css


def test_a_close_with_an_over_short_needs_a_note_and_records_it(
    desk, opened, cashier_user
):
    """CA1: the over/short is shown while counting; a close €30 short without a
    note is refused, with one it closes and the note is kept."""
    page = desk.get("/cage/shift/close")
    count = {"once": key_of(page), "note_50000": "10", "chip_100000": "5"}
    preview = desk.post("/cage/shift/close/over-short", count)
    assert "The count matches" in text(preview)
    # 9 × €500 + 2 × €200 + €50 + 2 × €10 = €4,970: €30 short in cash.
    short = {**count, "note_50000": "9", "note_20000": "2", "note_5000": "1"}
    short["note_1000"] = "2"
    assert "-€30.00" in text(desk.post("/cage/shift/close/over-short", short))
    refused = desk.post("/cage/shift/close", short)
    assert "CA1" in text(refused) and "note" in text(refused)
    assert Shift.objects.get().status == Shift.Status.OPEN
    closed = desk.post("/cage/shift/close", {**short, "note": "€30 paid twice"})
    again = desk.post("/cage/shift/close", {**short, "note": "€30 paid twice"})
    shift = Shift.objects.get()
    assert closed["Location"] == again["Location"] == f"/cage/shifts/{shift.pk}"
    assert shift.over_short_cash_cents == -3_000
    note = ShiftCount.objects.get(shift=shift, moment="close")
    assert (note.note, note.over_short_cash_cents) == ("€30 paid twice", -3_000)
    assert "€30 paid twice" in text(desk.get(closed["Location"]))
