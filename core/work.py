"""One unit of work: the idempotency record, the transaction and the retry, together.

A money move is written in one database transaction; PostgreSQL may abort it on a
deadlock or a serialization failure (``core.db.retry``), and then only the whole
transaction can run again, from its start. A request carrying an idempotency key
claims the key in the same transaction as its writes, so a retry after a lost
answer finds the claim and replays the first answer, booking nothing.

:func:`unit_of_work` is that, for every money endpoint: the API's ``Idempotency-Key``
(:func:`core.idempotency.idempotent`) and the staff screens' form keys
(``staff.once``) run their booking in it; without a key the service's own unit
(``accounting.services.retry_on_conflict`` around ``transaction.atomic``, built on
:func:`retried`) is the unit of work.

Helpers that lock rows call :func:`lock_check` first: outside a transaction a row
lock ends with the statement that took it, which would protect nothing.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, Protocol, TypeVar

from django.db import InterfaceError, OperationalError, connection, transaction

from core.db.retry import ATTEMPTS, backoff, connection_lost, retryable
from core.models import IdempotencyRecord

P = ParamSpec("P")
R = TypeVar("R")


class Sent(Protocol):
    """What a claim reads of a request: a Django or a DRF one."""

    method: str | None
    path: str


def lock_check(what: str, *, using: str | None = None) -> None:
    """Raise :class:`RuntimeError` unless a database transaction is open.

    ``what`` names the lock for the message (``"the cage's row"``).
    """
    if not transaction.get_connection(using).in_atomic_block:
        raise RuntimeError(
            f"{what} is locked inside a transaction (transaction.atomic);"
            " outside one the lock would end with its statement."
        )


def claim(scope: str, key: str, fingerprint: str, request: Sent) -> int | None:
    """Insert the idempotency record of ``key``; return its id, or ``None`` if the
    key was claimed before (its record then holds the first answer, or is being
    written by a transaction this one waits for)."""
    lock_check("an idempotency key")
    table = IdempotencyRecord._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO {table}
                  (scope, key, method, path, request_hash, created_at)
                VALUES (%s, %s, %s, %s, %s, now())
                ON CONFLICT (scope, key) DO NOTHING RETURNING id""",  # noqa: S608
            [scope, key, request.method, request.path[:512], fingerprint],
        )
        row = cursor.fetchone()
    return row[0] if row else None


@dataclass(frozen=True, slots=True)
class Key:
    """An idempotency key as claimed: whose (``scope``), which, and the hash of
    the request it came with."""

    scope: str
    key: str
    fingerprint: str
    request: Sent


def unit_of_work(
    work: Callable[[], R],
    *,
    key: Key | None = None,
    replay: Callable[[IdempotencyRecord], R] | None = None,
    answer: Callable[[R], tuple[int, Any] | None] | None = None,
    attempts: int = ATTEMPTS,
) -> R:
    """Run ``work`` once, in one database transaction, retried on conflict.

    With ``key``: the key is claimed first, in the same transaction; a key claimed
    before returns ``replay(record)`` and runs nothing. ``answer(result)`` gives
    the ``(status, body)`` stored as the key's answer, or ``None`` for a result
    that isn't one (a refusal answered rather than raised): the transaction is
    then rolled back, claim included, so the caller may fix it and send the key
    again. Whatever ``work`` raises rolls everything back too.

    A deadlock or a serialization failure runs the whole unit again from the
    start (at most ``attempts`` times), unless a transaction was already open:
    the caller's, which only its owner can run again. With ``key``, a connection
    lost before the commit runs it once more on a new connection: had the commit
    happened, the claim finds it and replays its answer.
    """

    @retried(attempts, reconnect=key is not None)
    def once() -> R:
        with transaction.atomic():
            if key is not None:
                record_id = claim(key.scope, key.key, key.fingerprint, key.request)
                if record_id is None:
                    assert replay is not None, "a keyed unit of work replays"
                    record = IdempotencyRecord.objects.get(scope=key.scope, key=key.key)
                    return replay(record)
            result = work()
            if key is not None:
                stored = answer(result) if answer is not None else None
                if stored is None:
                    transaction.set_rollback(True)
                else:
                    assert record_id is not None
                    IdempotencyRecord.objects.filter(pk=record_id).update(
                        status_code=stored[0], response_body=stored[1]
                    )
            return result

    return once()


def retried(
    attempts: int = ATTEMPTS, *, reconnect: bool = False
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function whose body is one transaction (it is wrapped in
    ``transaction.atomic`` below this decorator) so that a deadlock or a
    serialization failure runs it again from the start; inside a transaction
    already open the error is let through to its owner.

    With ``reconnect`` (a body that is safe to run twice: it claims an
    idempotency key), a connection lost before the commit
    (:func:`core.db.retry.connection_lost`) runs it once more on a new
    connection."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            reconnected = False
            for attempt in range(attempts):
                try:
                    return func(*args, **kwargs)
                except (OperationalError, InterfaceError) as error:
                    if connection.in_atomic_block:
                        raise
                    if connection_lost(error):
                        if not reconnect or reconnected:
                            raise
                        reconnected = True
                        connection.close()  # the next query connects again
                        continue
                    if not retryable(error) or attempt == attempts - 1:
                        raise
                    time.sleep(backoff(attempt))
            raise AssertionError("unreachable")

        return wrapper

    return decorate
