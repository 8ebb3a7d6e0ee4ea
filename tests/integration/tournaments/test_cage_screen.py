"""The cage's tournament screen (TO1, TO9, CA2): a cashier registers a player
with the amount typed in euros; the same form sent twice books once; a wrong
count or another role books nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.models import Receipt
from core.roles import Role
from tournaments.cage_views import cents_of
from tournaments.domain import tables
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

URL = "/cage/tournaments/sunday-100"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_double_submit_books_once(event, shift, cashier, players):
    client = logged_in(cashier)
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="fi")
    assert page.status_code == 200 and "115,00 €" in page.content.decode()
    form = {"action": "register", "key": "k-1", "player": "P-100", "amount": "115,00"}
    first = client.post(URL, form)
    second = client.post(URL, form)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Entry.objects.count() == 1 and Receipt.objects.count() == 1
    receipt = client.get(first["Location"] + "/print")
    text = receipt.content.decode()
    assert "Buy-in (prize pool)" in text and "100.00 EUR" in text
    entry = Entry.objects.get()
    drawn = entry.seat_moves.get()
    assert drawn.seed in text
    # TO11: the seed, the tables and the entrant replay the draw.
    replay = tables.draw_seats(
        [str(entry.pk)],
        [tables.TableSeats("TT1", 9, {}), tables.TableSeats("TT2", 9, {})],
        order=["TT1", "TT2"],
        seed=drawn.seed,
    )
    assert [(m.to_table, m.to_seat) for m in replay] == [(entry.table, entry.seat)]
    rebuy = {"action": "rebuy", "key": "k-3", "entry": "1", "stack": "0"}
    sold = client.post(URL, {**rebuy, "amount": "105"})
    printed = client.get(sold["Location"] + "/print").content.decode()
    assert "rebuy" in printed and "5.00 EUR" in printed
    assert Receipt.objects.count() == 2


def test_a_wrong_count_or_role_books_nothing(
    event, shift, cashier, players, make_staff
):
    client = logged_in(cashier)
    form = {"action": "register", "key": "k-2", "player": "P-100", "amount": "110"}
    answer = client.post(URL, form, follow=True)
    assert "TO1" in answer.content.decode()
    assert not Entry.objects.exists()
    floor = logged_in(make_staff("fiona", Role.FLOOR))
    assert floor.post(URL, {**form, "amount": "115"}).status_code == 403
    assert logged_in(make_staff("aud", Role.AUDITOR)).get(URL).status_code == 403
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("115", 11_500), ("115.5", 11_550), ("115,50", 11_550), ("1 150,00", 115_000)],
)
def test_euros_as_typed(typed, cents):
    assert cents_of(typed) == cents


def test_a_refund_approved_by_a_manager_and_paid_by_a_cashier(
    event, shift, cashier, manager, players
):
    """TO10: the manager approves with a reason, the cashier pays it once."""
    client = logged_in(cashier)
    client.post(
        URL, {"action": "register", "key": "k-1", "player": "P-100", "amount": "115"}
    )
    purchase = Entry.objects.get().purchases.get()
    boss = logged_in(manager)
    approve = {"action": "refund_approve", "key": "a-1", "purchase": purchase.pk}
    assert "Approve the refund" in boss.get(URL).content.decode()
    boss.post(URL, {**approve, "reason": "Structure changed"})
    assert "Structure changed" in client.get(URL).content.decode()
    pay = {"action": "refund_pay", "key": "p-1", "purchase": purchase.pk}
    first = client.post(URL, {**pay, "amount": "115,00"})
    again = client.post(URL, {**pay, "amount": "115,00"})
    assert first["Location"] == again["Location"]
    assert Receipt.objects.filter(kind=Receipt.Kind.ENTRY_REFUND).count() == 1
    assert Entry.objects.get().status == Entry.Status.REFUNDED
    assert (
        "Refund approved by"
        in client.get(first["Location"] + "/print").content.decode()
    )
