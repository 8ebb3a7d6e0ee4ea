"""Which database errors a whole transaction may be retried after.

PostgreSQL aborts one of two transactions that deadlock (40P01) or that a
serializable snapshot can't order (40001); run again from the start, the
transaction sees the other's commit and goes through or is refused on its merits.
Only the outermost ``transaction.atomic`` can be retried: inside one, the
transaction is already lost.
"""

from __future__ import annotations

from django.db import OperationalError
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
