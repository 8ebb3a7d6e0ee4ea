"""Idempotent POSTs (API.md, "Conventions").

A POST carrying ``Idempotency-Key`` is answered once: the first successful response
is stored in the same database transaction as the write; a retry with the same key
and body gets that response again and writes nothing; the same key with another body
is refused with 422. Two requests with the same key at the same moment: the second
waits on the unique index until the first commits, then replays its answer.
Responses other than 2xx are not stored and roll the attempt back, so the caller
may fix the cause and retry with the same key.

The claim and the write share one database transaction, so a deadlock or a
serialization failure in the write can only be retried from the claim:
:func:`core.work.unit_of_work` does that (up to ``core.db.retry.ATTEMPTS``
times), as the services' own retry does for a request without a key.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import SharedCode, invalid, unprocessable
from core.models import IdempotencyRecord
from core.work import Key, unit_of_work

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


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.request_hash != fingerprint:
        raise unprocessable(SharedCode.IDEMPOTENCY_KEY_REUSED)
    response = Response(record.response_body, status=record.status_code)
    response[REPLAY_HEADER] = "true"
    return response


def _stored(response: Response) -> tuple[int, Any] | None:
    """A 2xx answer to keep under the key; others are not kept."""
    if not 200 <= response.status_code < 300:
        return None
    body = json.loads(json.dumps(response.data, cls=DjangoJSONEncoder))
    return response.status_code, body


def idempotent(view_method: Callable[..., Response]) -> Callable[..., Response]:
    """Make a DRF view's POST idempotent by its ``Idempotency-Key`` header.

    With a key the view runs in :func:`core.work.unit_of_work`: the claim, the
    view's writes and the stored answer in one transaction, retried from the
    claim on a deadlock or a serialization failure. Without one the view runs as
    it is, each service call its own unit of work.
    """

    @functools.wraps(view_method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            return view_method(self, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            raise invalid(SharedCode.INVALID_IDEMPOTENCY_KEY, n=MAX_KEY_LENGTH)
        claimed = Key(caller_scope(request), key, request_fingerprint(request), request)
        return unit_of_work(
            lambda: view_method(self, request, *args, **kwargs),
            key=claimed,
            replay=lambda record: _replay(record, claimed.fingerprint),
            answer=_stored,
        )

    return wrapper
