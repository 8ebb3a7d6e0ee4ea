"""The database's timeouts fire on whatever clock the suite runs.

The ledger's fold waits at most ``lock_timeout`` for the postings in flight
(accounting.services.balances_fold); a backend whose timeout never fires would wait
for ever. Under libfaketime (``make test-clocks``) PostgreSQL's timeout handler
read the true clock while its backend waited, and re-armed each timeout for the
clock's offset (.ci/pg_timeouts.c). The waiting statement is cancelled from here
(a cancel request needs no timer) so a broken timeout fails the test in seconds
instead of hanging it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest

from tests import roles as db_roles
from tests.roles import APP, Roles

LOCK = 4_242_424


@pytest.fixture
def roles(django_db_setup) -> Roles:
    found = db_roles.current()
    if found is None:
        pytest.skip("the database server gives no superuser to make the roles with")
    return found


def waited(conn: psycopg.Connection[Any], statement: str) -> tuple[str, float]:
    """Run ``statement``; cancel it after 5 s. Returns the error's class name
    (or "none") and the seconds it took."""
    started = time.monotonic()
    timer = threading.Timer(5, conn.cancel)
    timer.start()
    try:
        conn.execute(statement)
        outcome = "none"
    except psycopg.Error as error:
        outcome = type(error).__name__
    finally:
        timer.cancel()
        conn.rollback()
    return outcome, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("setting", "statement", "error"),
    [
        ("lock_timeout", f"SELECT pg_advisory_xact_lock({LOCK})", "LockNotAvailable"),
        ("statement_timeout", "SELECT pg_sleep(3)", "QueryCanceled"),
    ],
)
def test_a_waiting_backend_times_out(roles, setting, statement, error):
    with roles.connect(APP) as holder, roles.connect(APP) as waiter:
        holder.execute(f"SELECT pg_advisory_xact_lock_shared({LOCK})")
        waiter.execute(f"SET {setting} = '200ms'")
        outcome, took = waited(waiter, statement)
        holder.rollback()
    assert outcome == error, (outcome, took)
    assert took < 2, took
