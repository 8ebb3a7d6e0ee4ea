"""Money forms that book once (API.md, "idempotency"), on the API's own table.

Every form that moves money carries a key made when the form is rendered
(:func:`form_key`, a hidden field). Posting it claims the key in
``core.models.IdempotencyRecord`` in the same database transaction as the booking,
with the page to go to afterwards (the receipt) stored as the answer
(:func:`core.work.unit_of_work`, which also runs it again on a deadlock). A second post
of the same form (a double click, a reload, a retry after a lost answer) waits for
the first to commit and is sent to the same page, booking nothing; the key with
other values is refused. A refusal rolls the claim back: the cashier corrects the
amount and posts again.

Work that can't run inside the claim's transaction (a report computed in the
read-only snapshot its service opens) claims the key in a transaction of its own
(:func:`claim_once`), then records the page to go to or releases the claim
(:class:`Claimed`). The same key field, fingerprint and table keep both: this is
the staff screens' one double-submit guard; ``staff.js`` only spares the server a
second click while the first post is on its way.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _

from core.errors import Conflict
from core.idempotency import MAX_KEY_LENGTH
from core.models import IdempotencyRecord
from core.work import Key, claim, unit_of_work

FIELD = "once"
_NOT_HASHED = {FIELD, "csrfmiddlewaretoken"}


def form_key() -> str:
    """A fresh key for one rendering of a money form."""
    return secrets.token_urlsafe(24)


def form_fingerprint(request: HttpRequest) -> str:
    """The hash of a money form as sent: its method, path and values but the key."""
    values = {
        k: request.POST.getlist(k) for k in sorted(request.POST) if k not in _NOT_HASHED
    }
    raw = f"{request.method} {request.path}\n{json.dumps(values, sort_keys=True)}"
    return hashlib.sha256(raw.encode()).hexdigest()


def form_reused() -> Conflict:
    """The refusal of a form key sent again with other values."""
    return Conflict(
        "form_reused",
        _("This form was already sent with other amounts; start again from the page."),
    )


def _key_of(request: HttpRequest) -> str:
    """The form's key as posted. Raises :class:`core.errors.Conflict`
    (``form_key_missing``) for a form without one."""
    key = request.POST.get(FIELD, "")
    if not key or len(key) > MAX_KEY_LENGTH:
        raise Conflict(
            "form_key_missing",
            _("This form has expired; open the page again and send it from there."),
        )
    return key


def book_once(request: HttpRequest, book: Callable[[], str]) -> tuple[str, bool]:
    """Run ``book`` (which returns the URL to go to) once for the form's key.

    Returns the URL and whether this request booked (False for a replay). Raises
    :class:`core.errors.Conflict` (``form_key_missing``) for a form without a key
    and (``form_reused``) for a key sent before with other values; whatever
    ``book`` raises, after rolling the claim back.
    """
    key = _key_of(request)
    claimed = Key(f"user:{request.user.pk}", key, form_fingerprint(request), request)

    def replay(record: IdempotencyRecord) -> tuple[str, bool]:
        if record.request_hash != claimed.fingerprint or not record.response_body:
            raise form_reused()
        return str(record.response_body["redirect"]), False

    return unit_of_work(
        lambda: (book(), True),
        key=claimed,
        replay=replay,
        answer=lambda done: (303, {"redirect": done[0]}),
    )


def booked_say(
    request: HttpRequest, fresh: bool, done: str | Callable[[], str]
) -> None:
    """Tell the staff member what :func:`book_once` did: ``done`` (or what it
    returns, asked only then) when this request booked, else that the form was
    booked once already."""
    if fresh:
        messages.success(request, done if isinstance(done, str) else done())
    else:
        messages.info(request, _("This form was already sent; it was booked once."))


@dataclass(frozen=True, slots=True)
class Claimed:
    """A form's key claimed by :func:`claim_once`: ``record_id`` is None when the
    form was sent before."""

    scope: str
    key: str
    record_id: int | None

    def answer(self, url: str) -> None:
        """Record the page the work led to: a form sent again goes there."""
        assert self.record_id is not None  # only the first sending answers
        IdempotencyRecord.objects.filter(pk=self.record_id).update(
            status_code=303, response_body={"redirect": url}
        )

    def release(self) -> None:
        """Let the form be sent again: its work was refused and did nothing."""
        assert self.record_id is not None  # only the first sending releases
        IdempotencyRecord.objects.filter(pk=self.record_id).delete()

    def replayed(self, request: HttpRequest) -> str | None:
        """The page the first sending of the form led to, or None while its work
        still runs. Raises :class:`core.errors.Conflict` (``form_reused``) for the
        key sent before with other values."""
        record = IdempotencyRecord.objects.get(scope=self.scope, key=self.key)
        if record.request_hash != form_fingerprint(request):
            raise form_reused()
        if not record.response_body:
            return None
        return str(record.response_body["redirect"])


def claim_once(request: HttpRequest) -> Claimed:
    """Claim the form's key in a transaction of its own, for work that runs after
    it; :meth:`Claimed.answer` or :meth:`Claimed.release` it when the work is
    done. Raises :class:`core.errors.Conflict` (``form_key_missing``) for a form
    without a key."""
    key = _key_of(request)
    scope = f"user:{request.user.pk}"
    with transaction.atomic():
        return Claimed(
            scope, key, claim(scope, key, form_fingerprint(request), request)
        )
