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
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable

from django.http import HttpRequest
from django.utils.translation import gettext as _

from core.errors import Conflict
from core.idempotency import MAX_KEY_LENGTH
from core.models import IdempotencyRecord
from core.work import Key, unit_of_work

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


def book_once(request: HttpRequest, book: Callable[[], str]) -> tuple[str, bool]:
    """Run ``book`` (which returns the URL to go to) once for the form's key.

    Returns the URL and whether this request booked (False for a replay). Raises
    :class:`core.errors.Conflict` (``form_key_missing``) for a form without a key
    and (``form_reused``) for a key sent before with other values; whatever
    ``book`` raises, after rolling the claim back.
    """
    key = request.POST.get(FIELD, "")
    if not key or len(key) > MAX_KEY_LENGTH:
        raise Conflict(
            "form_key_missing",
            _("This form has expired; open the page again and send it from there."),
        )
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
