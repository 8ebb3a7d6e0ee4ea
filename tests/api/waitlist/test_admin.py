"""The floor's admin: the records of what was decided, read only, in the reader's
language; a list's whole screen is the floor's staff screen
(tests/staff/test_floor_list.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from core.roles import Role
from tests.api.waitlist.conftest import fill, joined

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_web(make_staff) -> Client:
    c = Client()
    c.force_login(make_staff("floor-web", Role.FLOOR))
    return c


def test_the_records_speak_the_browsers_language(
    floor_web, open_table, players, floor, clock
):
    t = open_table("T01", seats=3)
    fill(t, "T01", ["P-1", "P-2"])
    joined(floor, "P-5")
    assert floor_web.get("/admin/waitlist/waitinglist/").status_code == 200
    records = floor_web.get("/admin/waitlist/event/", HTTP_ACCEPT_LANGUAGE="fi")
    assert "liittyi listalle" in records.content.decode()


def test_the_records_do_nothing_but_show(floor_web, open_table, players, floor, clock):
    """No action, no add form: the night's work is the floor's screens'."""
    t = open_table("T01", seats=3)
    fill(t, "T01", ["P-1", "P-2"])
    joined(floor, "P-5")
    for model in ("entry", "lockup", "mustmove", "keptapart"):
        page = floor_web.get(f"/admin/waitlist/{model}/").content.decode()
        assert 'name="action"' not in page, model
    assert floor_web.get("/admin/waitlist/keptapart/add/").status_code == 403


def test_other_roles_dont_see_the_floor_records(make_staff):
    c = Client()
    c.force_login(make_staff("cashier-web", Role.CASHIER))
    assert c.get("/admin/waitlist/entry/").status_code == 403
