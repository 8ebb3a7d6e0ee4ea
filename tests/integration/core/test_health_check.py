"""A persistent connection's health check asks the server nothing while the
connection is idle and well, and still finds one the server dropped
(core/db/postgresql)."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.db import connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper as Django

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def other():
    """A connection of its own, as a web worker's thread holds one."""
    wrapper = connections.create_connection("default")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def test_the_health_check_of_an_idle_connection_asks_nothing(other):
    with mock.patch.object(Django, "is_usable", side_effect=AssertionError("asked")):
        assert other.is_usable()
    with other.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_connection_the_server_dropped_is_found_and_replaced(other):
    pid = other.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone() == (True,)
    # The server says so on the socket as it closes it.
    deadline = time.monotonic() + 10
    while other.is_usable() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not other.is_usable()
    # What Django does at the first statement of a request.
    other.health_check_done = False
    other.close_if_health_check_failed()
    with other.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


def test_a_closed_connection_is_not_usable(other):
    other.connection.close()
    assert not other.is_usable()
