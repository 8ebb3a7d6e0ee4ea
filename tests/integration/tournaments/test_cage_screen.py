"""The cage's tournament screen (TO1, TO9, CA2): a cashier registers a player
with the amount typed in euros; the same form sent twice books once; a wrong
count or another role books nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.models import Receipt
from core.roles import Role
from tournaments.cage_views import cents_of
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
    assert Entry.objects.get().seat_moves.get().seed in text


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
