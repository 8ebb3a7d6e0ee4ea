"""Idempotent POSTs (API.md, "Conventions").

A POST carrying ``Idempotency-Key`` is answered once: the first successful response
is stored in the same database transaction as the write; a retry with the same key
and body gets that response again and writes nothing; the same key with another body
is refused with 422. Two requests with the same key at the same moment: the second
waits on the unique index until the first commits, then replays its answer.
Responses other than 2xx are not stored and roll the attempt back, so the caller
may fix the cause and retry with the same key.

The claim and the write share one database transaction, so a deadlock or a
serialization failure in the write can only be retried from the claim: the
wrapper does that (up to ``core.db.retry.ATTEMPTS`` times), as the services'
own retry does for a request without a key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import OperationalError, connection, transaction
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.errors import ApiError
from core.db.retry import ATTEMPTS, backoff, retryable
from core.models import IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255


def caller_scope(request: Request) -> str:
    """Name who sent the request: a terminal key's id or a staff user's id."""
    key = getattr(request, "terminal_key", None)
    if key is not None:
        return f"key:{key.prefix}"
    return f"user:{request.user.pk}"


def request_fingerprint(request: Request) -> str:
    """Hash what makes two requests "the same": method, path and the parsed body."""
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder)
    raw = f"{request.method} {request.path}\n{body}".encode()
    return hashlib.sha256(raw).hexdigest()


def _claim(scope: str, key: str, fingerprint: str, request: Request) -> int | None:
    """Insert the record; return its id, or None if the key was already used."""
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


def _replay(scope: str, key: str, fingerprint: str) -> Response:
    record = IdempotencyRecord.objects.get(scope=scope, key=key)
    if record.request_hash != fingerprint:
        raise ApiError(
            _("This Idempotency-Key was used with another request."),
            code="idempotency_key_reused",
            status_code=422,
        )
    response = Response(record.response_body, status=record.status_code)
    response[REPLAY_HEADER] = "true"
    return response


def idempotent(view_method: Callable[..., Response]) -> Callable[..., Response]:
    """Make a DRF view's POST idempotent by its ``Idempotency-Key`` header."""

    @functools.wraps(view_method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            return view_method(self, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            raise ApiError(
                _("Idempotency-Key is longer than %(n)d characters.")
                % {"n": MAX_KEY_LENGTH},
                code="invalid_idempotency_key",
            )
        scope, fingerprint = caller_scope(request), request_fingerprint(request)
        for attempt in range(ATTEMPTS):
            try:
                with transaction.atomic():
                    record_id = _claim(scope, key, fingerprint, request)
                    if record_id is None:
                        return _replay(scope, key, fingerprint)
                    response = view_method(self, request, *args, **kwargs)
                    if 200 <= response.status_code < 300:
                        body = json.loads(
                            json.dumps(response.data, cls=DjangoJSONEncoder)
                        )
                        IdempotencyRecord.objects.filter(pk=record_id).update(
                            status_code=response.status_code, response_body=body
                        )
                    else:
                        transaction.set_rollback(True)
                return response
            except OperationalError as error:
                last = attempt == ATTEMPTS - 1
                if not retryable(error) or last or connection.in_atomic_block:
                    raise
                time.sleep(backoff(attempt))
        raise AssertionError("unreachable")

    return wrapper
