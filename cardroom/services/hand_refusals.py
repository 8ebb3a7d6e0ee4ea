"""Hands a table's terminal posted and the server refused, kept for the floor.

A refused hand changes nothing: its transaction rolls back. The terminal is told
why, but a tablet that queued the hand while offline may have no dealer looking
at it, so the refusal is also kept here, written after the refused request was
answered, in a transaction of its own (as the cage's door refusals are,
``accounting.services.cage.protection.refusals_write``), and shown on the floor's
home until a floor person marks it handled, with a note (who and when recorded).
The same body refused again while the first is open counts on it (``count``); one
refused again after it was handled is a new record.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from cardroom.errors import Code, conflict
from cardroom.models import HandRefusal, Table, TerminalKey
from core.errors import ApplicationError, Invalid, NotFound
from core.errors import gettext_noop as _

KEPT_STATUSES = frozenset({400, 401, 409, 422})
"""The answers that refuse a hand for what it says or when it came (malformed, a
key revoked meanwhile, a conflict, a house rule); not those about how it was sent
(403 another table, 405, 413, 415, 429), which keep nothing."""
BIGINT = 2**63 - 1

_UPSERT = f"""
INSERT INTO {HandRefusal._meta.db_table} AS r
       (table_id, key_id, hand_no, body, body_hash, status, code, rule, error,
        said, count, at, last_at, note)
VALUES (%(table)s, %(key)s, %(hand_no)s, %(body)s::jsonb, %(hash)s, %(status)s,
        %(code)s, %(rule)s, %(error)s::jsonb, %(said)s::jsonb, 1, %(at)s, %(at)s,
        '')
    ON CONFLICT (table_id, body_hash) WHERE handled_at IS NULL
    DO UPDATE SET count = r.count + 1, last_at = EXCLUDED.last_at,
                  status = EXCLUDED.status, code = EXCLUDED.code,
                  rule = EXCLUDED.rule, error = EXCLUDED.error,
                  said = EXCLUDED.said, key_id = EXCLUDED.key_id
RETURNING id"""  # noqa: S608


def _json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), cls=DjangoJSONEncoder
    )


def _said(refusal: ApplicationError) -> dict[str, Any]:
    """The refusal's message as a template and its parameters (each as text or a
    number, as JSON holds them), to be said again in another language."""
    params = {
        str(name): value if isinstance(value, int | float) else str(value)
        for name, value in (refusal.params or {}).items()
    }
    return {"template": refusal.template, "params": params}


def _hand_no(body: Any) -> int | None:
    """The record's hand number, when it has one the database can hold."""
    found = body.get("hand_no") if isinstance(body, dict) else None
    if type(found) is int and 0 <= found <= BIGINT:
        return found
    return None


def hand_refusal_keep(
    *,
    table: Table,
    key: TerminalKey | None,
    body: Any,
    status: int,
    error: dict[str, Any],
    refusal: ApplicationError | None = None,
    now: datetime | None = None,
) -> int | None:
    """Keep a hand that ``table``'s terminal posted with ``key`` and the server
    refused with ``status`` and the error object ``error``; return its record's
    id, or ``None`` when ``status`` refuses nothing about the hand
    (:data:`KEPT_STATUSES`).

    Call it once the refused request's transaction is over: it commits in its own.
    ``body`` is the hand record as posted (decoded JSON, or the text of a body that
    wasn't); ``refusal``, when the refusal was an application error, gives its
    message's template and parameters, so the floor reads it in its own language
    (:meth:`HandRefusal.reason`). The same ``body`` refused again while its record
    is open adds to the record's count and keeps the latest error.
    """
    if status not in KEPT_STATUSES:
        return None
    found = error.get("error")
    inner: dict[str, Any] = found if isinstance(found, dict) else {}
    text = _json(body)
    params = {
        "table": table.pk,
        "key": key.pk if key is not None else None,
        "hand_no": _hand_no(body),
        "body": text,
        "hash": hashlib.sha256(text.encode()).hexdigest(),
        "status": status,
        "code": str(inner.get("code") or "error")[:64],
        "rule": str(inner.get("rule") or "")[:16],
        "error": _json(error),
        "said": _json(_said(refusal)) if refusal is not None else None,
        "at": now or timezone.now(),
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_UPSERT, params)
        (found,) = cursor.fetchone()
    return int(found)


@transaction.atomic
def hand_refusal_handle(
    *, refusal_id: int, note: str, by: User, now: datetime | None = None
) -> HandRefusal:
    """Mark a refused hand handled by ``by`` with ``note`` (what was done: posted
    again, entered by hand, voided…); it leaves the floor's list.

    Raises :class:`NotFound` for no such record, :class:`Invalid` (400) for an
    empty note, :class:`Conflict` (409) for one handled already.
    """
    refusal = (
        HandRefusal.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(pk=refusal_id)
        .first()
    )
    if refusal is None:
        raise NotFound(
            Code.NOT_FOUND, _("No refused hand %(id)s."), params={"id": refusal_id}
        )
    if refusal.handled_at is not None:
        raise conflict(Code.ALREADY_HANDLED)
    said = " ".join(note.split())
    if not said:
        raise Invalid("note_required", _("Say what was done with the refused hand."))
    refusal.handled_at, refusal.handled_by, refusal.note = (
        now or timezone.now(),
        by,
        said[:500],
    )
    refusal.save(update_fields=["handled_at", "handled_by", "note"])
    return refusal
