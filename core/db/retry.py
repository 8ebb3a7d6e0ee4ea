"""Which database errors a whole transaction may be retried after.

PostgreSQL aborts one of two transactions that deadlock (40P01) or that a
serializable snapshot can't order (40001); run again from the start, the
transaction sees the other's commit and goes through or is refused on its merits.
Only the outermost ``transaction.atomic`` can be retried: inside one, the
transaction is already lost.

A connection lost before the commit (:func:`connection_lost`: the server ended the
backend, the network dropped it) is different: the commit may have been on its
way, so the transaction is run again only where that is safe, once, on a new
connection: a unit of work claiming an idempotency key (its claim shows a
commit that happened) and a request that reads only (``core.connection_lost``).
Anything else is answered 503 with ``Retry-After``.
"""

from __future__ import annotations

import psycopg
from django.db import InterfaceError, OperationalError
from psycopg import errors as pg_errors

ATTEMPTS = 5
"""How many times a transaction is tried before the error is let through."""


def retryable(error: BaseException) -> bool:
    """Say whether ``error`` is a deadlock or a serialization failure."""
    return isinstance(error, OperationalError) and isinstance(
        error.__cause__, pg_errors.DeadlockDetected | pg_errors.SerializationFailure
    )


def backoff(attempt: int) -> float:
    """Seconds to wait before attempt ``attempt + 1`` (5, 10, 20, 40 ms)."""
    return 0.005 * 2**attempt


# The server ended the backend (admin or crash shutdown, can't connect now).
_SHUTDOWN = {"57P01", "57P02", "57P03"}


def connection_lost(error: BaseException) -> bool:
    """Say whether ``error`` is the database connection lost: the server ended
    the backend, or the client found the connection closed or broken (class 08).

    A refusal of the server (a constraint, a lock or statement timeout, a
    cancelled query) is not: the connection still works.
    """
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    cause = error.__cause__
    if not isinstance(cause, psycopg.OperationalError | psycopg.InterfaceError):
        return False
    state = getattr(cause, "sqlstate", None)
    return state is None or state in _SHUTDOWN or state.startswith("08")
