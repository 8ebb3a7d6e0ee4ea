"""The cage names a jackpot award by its pool and role in the cashier's language
(CA6), as the receipt does, on the awards to pay, the pay page and the message
that says it was paid (issue 33).

Before: those screens showed the payable's stored reference and memo, written
once in English when the manager approved the hit (``bad beat #1 T01#1``,
``winning hand``), so a Finnish or Korean cashier read English.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from accounting.models import Cage, Payable
from accounting.services import cage as cage_services
from core.roles import Role
from jackpots import services as jackpot_services
from jackpots.models import Award
from tests.api.jackpots.conftest import (
    clock,
    dealer,
    manager,
    open_table,
    players,
    pools,
    stock_tray,
)
from tests.staff.browser import say

__all__ = ["clock", "dealer", "manager", "open_table", "players", "pools"]
__all__ += ["stock_tray"]

pytestmark = pytest.mark.django_db


def text(page) -> str:
    return page.content.decode()


@pytest.fixture
def awards(pools, dealer, make_staff) -> list[Award]:
    """A bad beat at T01 verified by the floor and approved by a manager working
    in English: its awards are payable at the cage."""
    [hit] = jackpot_services.hand_qualify(hand_id=dealer.bad_beat().pk)
    with translation.override("en"):
        jackpot_services.hit_verify(hit=hit, by=make_staff("fred", Role.FLOOR))
        jackpot_services.hit_approve(hit=hit, by=make_staff("mia", Role.MANAGER))
    return list(hit.awards.select_related("payable", "player").order_by("position"))


def named(language: str, award: Award) -> str:
    with translation.override(language):
        return f"{award.pool.name}: {award.get_role_display()}"


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_an_award_is_named_in_the_cashiers_language(language, awards, make_staff):
    cashier = make_staff(f"cashier-{language}", Role.CASHIER)
    cage_services.shift_open(
        cage=Cage.objects.get(code="MAIN"),
        cashier=cashier,
        cash_cents=1_000_000,
        chips_cents=0,
    )
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(cashier)
    loser = awards[0]
    assert loser.role == Award.Role.LOSER
    reference, memo = loser.payable.reference, loser.payable.memo
    assert (reference, memo) == (f"bad beat #{loser.hit_id} T01#1", "losing hand")
    role = say(language, "losing hand")
    assert role != "losing hand", "the catalogue translates the role"

    for url in ("/cage/awards", "/cage/", f"/cage/players/{loser.player.code}"):
        shown = text(desk.get(url))
        assert named(language, loser) in shown, url
        assert "T01#1" in shown, url
        assert reference not in shown and ">losing hand<" not in shown, url

    pay = desk.get(f"/cage/awards/{loser.payable.pk}/pay")
    shown = text(pay)
    assert named(language, loser) in shown and "T01#1" in shown
    assert reference not in shown and memo not in shown
    key = re.findall(r'name="once" value="([^"]+)"', shown)[0]
    paid = desk.post(
        f"/cage/awards/{loser.payable.pk}/pay",
        {"once": key, "signed": "on"},
        follow=True,
    )
    [message] = [str(m) for m in paid.context["messages"]]
    assert named(language, loser) in message and reference not in message
    assert Payable.objects.get(pk=loser.payable.pk).status == Payable.Status.PAID
