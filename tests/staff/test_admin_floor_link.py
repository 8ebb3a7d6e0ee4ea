"""The admin's waiting lists lead back to the floor screen, in every language; its
index names each model's plural as the catalogue has it; a list's old floor page
is the floor's staff screen."""

from __future__ import annotations

import pytest
from django.test import Client

from core.roles import Role
from waitlist.models import WaitingList

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "link", "players"),
    [("en", "The floor screen", "Players"), ("fi", "Salinäkymä", "Pelaajat")],
)
def test_the_waiting_lists_link_back_to_the_floor(make_staff, language, link, players):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_staff("fred", Role.FLOOR))
    page = client.get("/admin/waitlist/waitinglist/").content.decode()
    assert f'<a href="/floor/" class="viewlink">{link}</a>' in page
    client.force_login(make_staff("mia", Role.MANAGER))
    index = client.get("/admin/").content.decode()
    assert players in index
    assert "Pelaajas" not in index


def test_a_lists_old_floor_page_is_the_floors_screen(make_staff):
    """The admin's floor page of a list moved to the floor's staff screens: its
    address sends there, a page in the reader's language in the staff frame."""
    from cardroom.models import Game
    from cardroom.services import room_default

    game = Game.objects.create(
        room=room_default(),
        code="NLHE",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
    )
    waiting_list = WaitingList.objects.create(game=game)
    client = Client(HTTP_ACCEPT_LANGUAGE="ko")
    client.force_login(make_staff("fred", Role.FLOOR))
    page = client.get(
        f"/admin/waitlist/waitinglist/{waiting_list.pk}/floor/", follow=True
    )
    assert page.redirect_chain == [(f"/floor/lists/{waiting_list.pk}", 301)]
    body = page.content.decode()
    assert '<a href="/floor/">플로어</a>' in body
    assert "대기열" in body
