"""Fixtures shared by every test: the room's clock, the database's roles, staff of
each role, tables, terminal keys."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import hypothesis
import pytest
import time_machine
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from cardroom.models import Table, TerminalKey
from core.roles import Role
from tests import roles as db_roles

PASSWORD = "correct-horse-battery-staple"
# Property tests run beside others on a shared machine (CI runs the moved-clock
# suite at the same time): a slow draw or a slow example is the machine's, not the
# code's, so neither fails a test.
hypothesis.settings.register_profile(
    "cardroom", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
hypothesis.settings.load_profile("cardroom")

# A Sunday evening in the middle of a gaming day, far from the cut-off, a month's
# end and a change of the clocks.
ROOM_EVENING = datetime(2026, 11, 29, 21, 0, tzinfo=ZoneInfo("Europe/Helsinki"))


@pytest.fixture(autouse=True)
def room_clock(
    request: pytest.FixtureRequest,
) -> Iterator[time_machine.Traveller | None]:
    """Start every test on the room's clock at ``ROOM_EVENING``, ticking on.

    No test reads the machine's date or hour: the suite passes whenever it runs. A
    test that needs another moment moves this clock (``room_clock.move_to``) or
    takes the floor's ``clock`` fixture; processes a test starts get the same time
    through ``tests.processes.Timeline``.

    ``make test-clocks`` sets ``CARDROOM_TESTS_ON_SYSTEM_CLOCK`` to leave the
    system's (moved) clock in place, so that the product's own code runs at each
    moment it tries and any test still bound to the wall clock shows itself. A
    test that walks moments of its own (it moves this clock, or counts its days
    and hours from ``ROOM_EVENING``) says so with ``@pytest.mark.room_evening``
    and keeps the room's clock there too: its moments are the ones it names.
    """
    if os.environ.get("CARDROOM_TESTS_ON_SYSTEM_CLOCK") and not (
        request.node.get_closest_marker("room_evening")
    ):
        yield None
        return
    with time_machine.travel(ROOM_EVENING, tick=True) as traveller:
        yield traveller


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest,
    django_test_environment: None,
    django_db_blocker,
    django_db_use_migrations: bool,
    django_db_keepdb: bool,
    django_db_createdb: bool,
    django_db_modify_db_settings: None,
) -> Iterator[None]:
    """pytest-django's test database, made by a superuser, migrated by the owner
    role and used by the app role when the server allows it (tests/roles.py)."""
    from django.conf import settings
    from django.db import connections
    from django.db.backends.postgresql.operations import DatabaseOperations
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    if not django_db_use_migrations:
        _disable_migrations()
    keepdb = django_db_keepdb and not django_db_createdb
    aliases, serialized = _get_databases_for_setup(request.session.items)
    with django_db_blocker.unblock():
        found = None
        if "default" in aliases:
            found = db_roles.prepare(settings.DATABASES["default"], keepdb=keepdb)
        connections["default"].settings_dict.update(settings.DATABASES["default"])
        config = setup_databases(
            verbosity=request.config.option.verbose,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized,
            keepdb=keepdb or found is not None,
        )
    # Django's flush TRUNCATEs, which the guards refuse (tests/roles.py).
    name = "sql_flush" if found is not None else "execute_sql_flush"
    original = getattr(DatabaseOperations, name)
    setattr(DatabaseOperations, name, getattr(db_roles, name))
    yield
    setattr(DatabaseOperations, name, original)
    if keepdb:
        return
    with django_db_blocker.unblock():
        if found is not None:
            db_roles.drop(found)
        else:
            teardown_databases(config, verbosity=request.config.option.verbose)


@pytest.fixture
def database_roles() -> db_roles.Roles:
    """The session's owner, app and superuser; skips when the suite runs as one role."""
    found = db_roles.current()
    if found is None:
        pytest.skip("the database server gives no superuser to make the roles with")
    return found


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
