"""The floor's tournament screen: the clock with its buttons, the map, balancing
(TO11, TO12), for floor staff and managers only."""

from __future__ import annotations

import pytest
from django.test import Client

from core.roles import Role
from tournaments.floor_models import ClockChange

pytestmark = pytest.mark.django_db

URL = "/floor/tournaments/sunday-100"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_floor_sees_the_map_and_runs_the_clock(event, floor_person):
    """TO11/TO12: the event's tables seat by seat; a pause from the screen is logged."""
    client = logged_in(floor_person)
    page = client.get(URL)
    assert page.status_code == 200
    assert b"TT1" in page.content and b"TT2" in page.content
    client.post(URL, {"action": "start"})
    client.post(URL, {"action": "pause", "reason": "dinner"})
    assert list(ClockChange.objects.values_list("action", "by", "reason")) == [
        ("start", floor_person.pk, ""),
        ("pause", floor_person.pk, "dinner"),
    ]


def test_a_refused_change_is_shown_and_not_logged(event, floor_person):
    """TO12: resuming a clock that never started is refused with the rule."""
    client = logged_in(floor_person)
    answer = client.post(URL, {"action": "resume"}, follow=True)
    assert b"TO12" in answer.content
    assert not ClockChange.objects.exists()


def test_a_cashier_may_not(event, make_staff):
    """Only the floor and managers run an event's floor."""
    cashier = make_staff("cassie", Role.CASHIER)
    client = logged_in(cashier)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"action": "start"}).status_code == 403
    assert not ClockChange.objects.exists()
    assert Client().get(URL).status_code == 302  # to the login
