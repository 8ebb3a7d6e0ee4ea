"""The floor's admin screens: a game's list and its actions, in his language."""

from __future__ import annotations

import pytest
from django.test import Client

from core.roles import Role
from tests.api.waitlist.conftest import fill, joined, status_of
from waitlist.models import Entry, Event, WaitingList

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_web(make_staff) -> Client:
    c = Client()
    c.force_login(make_staff("floor-web", Role.FLOOR))
    return c


@pytest.fixture
def screen(open_table, players, clock, floor_web) -> str:
    t = open_table("T01", seats=3)
    fill(t, "T01", ["P-1", "P-2"])
    answer = floor_web.get("/admin/waitlist/waitinglist/")
    assert answer.status_code == 200
    wl = WaitingList.objects.get(game__code="NLHE", game__big_blind_cents=200)
    return f"/admin/waitlist/waitinglist/{wl.pk}/floor/"


def test_the_floor_works_a_list_from_the_admin(floor_web, screen, clock):
    """Add, call, seat from one screen; each step recorded with the floor person."""
    floor_web.post(screen, {"action": "join", "player": "P-5"})
    floor_web.post(screen, {"action": "call", "table": "T01"})
    entry = Entry.objects.get(player__code="P-5")
    assert (entry.status, entry.call_table.code, entry.call_seat) == (
        "called",
        "T01",
        3,
    )
    page = floor_web.get(screen).content.decode()
    assert "P-5" in page and "300 s left" in page
    floor_web.post(
        screen,
        {"action": "seat", "entry": entry.pk, "amount": "20000", "method": "cash"},
    )
    assert status_of(entry.pk) == ("seated", "seated")
    assert set(Event.objects.values_list("by__username", flat=True)) == {"floor-web"}


def test_a_refusal_is_shown_with_its_rule(floor_web, screen, clock):
    floor_web.post(screen, {"action": "join", "player": "P-1"})
    answer = floor_web.get(screen)
    messages = [str(m) for m in answer.context["messages"]]
    assert any(m.startswith("WL10:") for m in messages), messages
    assert not Entry.objects.exists()


def test_the_screens_speak_the_browsers_language(floor_web, screen, floor, clock):
    joined(floor, "P-5")
    page = floor_web.get(screen, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Jono" in page and "Kutsu seuraava" in page
    page = floor_web.get(screen, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "대기열" in page and "다음 호출" in page
    records = floor_web.get("/admin/waitlist/event/", HTTP_ACCEPT_LANGUAGE="fi")
    assert "liittyi listalle" in records.content.decode()


def test_other_roles_dont_see_the_floor_screens(make_staff, screen):
    c = Client()
    c.force_login(make_staff("cashier-web", Role.CASHIER))
    assert c.get(screen).status_code == 403
    assert c.get("/admin/waitlist/entry/").status_code == 403
