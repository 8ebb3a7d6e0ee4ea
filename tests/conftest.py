"""Fixtures shared by every test: the room's clock, staff of each role, tables,
terminal keys."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from cardroom.models import Table, TerminalKey
from core.roles import Role

PASSWORD = "correct-horse-battery-staple"
# A Sunday evening in the middle of a gaming day, far from the cut-off, a month's
# end and a change of the clocks.
ROOM_EVENING = datetime(2026, 11, 29, 21, 0, tzinfo=ZoneInfo("Europe/Helsinki"))


@pytest.fixture(autouse=True)
def room_clock() -> Iterator[time_machine.Traveller | None]:
    """Start every test on the room's clock at ``ROOM_EVENING``, ticking on.

    No test reads the machine's date or hour: the suite passes whenever it runs. A
    test that needs another moment moves this clock (``room_clock.move_to``) or
    takes the floor's ``clock`` fixture; processes a test starts get the same time
    through ``tests.processes.Timeline``.

    ``make test-clocks`` sets ``CARDROOM_TESTS_ON_SYSTEM_CLOCK`` to leave the
    system's (moved) clock in place, so that the product's own code runs at each
    moment it tries and any test still bound to the wall clock shows itself.
    """
    if os.environ.get("CARDROOM_TESTS_ON_SYSTEM_CLOCK"):
        yield None
        return
    with time_machine.travel(ROOM_EVENING, tick=True) as traveller:
        yield traveller


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def make_staff(db: None) -> Callable[..., User]:
    def make(username: str, *roles: Role) -> User:
        user = User.objects.create_user(username, password=PASSWORD, is_staff=True)
        user.groups.set(Group.objects.filter(name__in=[r.value for r in roles]))
        return user

    return make


@pytest.fixture
def staff_client(make_staff: Callable[..., User]) -> Callable[..., APIClient]:
    """Return an API client logged in with a bearer token as staff with ``roles``."""

    def client(*roles: Role, username: str | None = None) -> APIClient:
        name = username or "-".join(r.value for r in roles) or "nobody"
        make_staff(name, *roles)
        c = APIClient()
        answer = c.post(
            "/api/v1/auth/login",
            {"username": name, "password": PASSWORD},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        c.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
        return c

    return client


@pytest.fixture
def table(db: None) -> Table:
    return Table.objects.create(code="T01", name="Hold'em 1/2", seats=9)


@pytest.fixture
def other_table(db: None) -> Table:
    return Table.objects.create(code="T02", name="Omaha 1/2", seats=9)


@pytest.fixture
def terminal(table: Table) -> APIClient:
    """An API client holding the terminal key of table T01."""
    _, key = TerminalKey.objects.create_key(name="T01 terminal", table=table)
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    return c
