"""Table terminals authenticate with ``Authorization: Api-Key <key>`` (API.md).

A terminal sends its key with every request. A key verified once (its row and
table read, its hash checked) is kept in the process for :data:`KEY_CACHE_SECONDS`;
each request still asks PostgreSQL, by the key's id, whether it is revoked or its
expiry changed (one small prepared statement; a hand's booking asks in the
statement that locks its table), so a revocation is refused on the very next
request in every process.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework_api_key.permissions import KeyParser

from cardroom.models import TerminalKey
from core.db import rows
from core.errors import ApplicationError
from core.roles import has_role

KEY_CACHE_SECONDS = 30.0
"""How long a verified key is kept in the process before it is read again."""

# sha256 of the raw key -> the verified key (its table read along) and until when
# (time.monotonic()). Only keys that verified get in, so it holds as many entries
# as the room has terminals.
_verified: dict[str, tuple[TerminalKey, float]] = {}
_STATE_SQL = (
    f"SELECT revoked, expiry_date FROM {TerminalKey._meta.db_table}"  # noqa: S608
    " WHERE id = %s"
)


def verified_key(raw: str, *, fresh: bool = True) -> TerminalKey:
    """Return the usable terminal key ``raw``; raise ``DoesNotExist`` for a key
    unknown, revoked or not matching its hash.

    ``fresh=False`` returns a key verified in the last :data:`KEY_CACHE_SECONDS`
    without asking whether it was revoked since: for a caller that asks in its
    own first statement (a hand's booking reads the key with the table's lock,
    ``cardroom.services.hands.sql``).
    """
    digest = hashlib.sha256(raw.encode()).hexdigest()
    cached = _verified.get(digest)
    if cached is not None and cached[1] > time.monotonic():
        key = cached[0]
        if not fresh:
            return key
        state = rows.query(_STATE_SQL, [key.pk])
        if state and not state[0][0] and state[0][1] == key.expiry_date:
            return key
        _verified.pop(digest, None)
        if not state or state[0][0]:
            raise TerminalKey.DoesNotExist("The key was revoked.")
    key = TerminalKey.objects.get_from_key(raw)
    _verified[digest] = (key, time.monotonic() + KEY_CACHE_SECONDS)
    return key


def usable_key(raw: str, *, fresh: bool = True) -> TerminalKey:
    """Return the terminal key ``raw``; raise DRF's ``AuthenticationFailed`` (401)
    for a key unknown, revoked or expired (``fresh`` as :func:`verified_key`)."""
    try:
        key = verified_key(raw, fresh=fresh)
    except TerminalKey.DoesNotExist:
        raise exceptions.AuthenticationFailed(
            _("Unknown or revoked terminal key.")
        ) from None
    if key.has_expired:
        raise exceptions.AuthenticationFailed(
            _("This terminal key was revoked or has expired.")
        )
    return key


class Terminal:
    """The principal of a request made with a terminal key: no staff role at all.

    ``refused`` holds the application errors that refused the hands the request
    posted, by their place in it (0 for ``POST hands``), for the refused hands
    kept for the floor (``cardroom.api.refusals``)."""

    is_authenticated = True
    is_active = True
    is_superuser = False
    is_staff = False
    pk = None

    def __init__(self, key: TerminalKey) -> None:
        self.key = key
        self.refused: dict[int, ApplicationError] = {}

    def __str__(self) -> str:
        return f"terminal {self.key.table.code}"


class TerminalKeyAuthentication(BaseAuthentication):
    """Authenticate a table terminal by its key; other schemes pass through."""

    keyword = KeyParser.keyword

    def authenticate(self, request: Request) -> tuple[Terminal, TerminalKey] | None:
        raw = KeyParser().get(request._request)
        if raw is None:
            return None
        key = usable_key(raw)
        request.terminal_key = key  # type: ignore[attr-defined]
        return Terminal(key), key

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class IsTableTerminal(BasePermission):
    """Let in the terminal of the table named in the URL, and no other."""

    message = _("This terminal key belongs to another table.")

    def has_permission(self, request: Request, view: Any) -> bool:
        key = request.auth
        return isinstance(key, TerminalKey) and key.table.code == view.kwargs.get(
            "table"
        )


def terminal_or_role(*roles: str) -> type[BasePermission]:
    """Let in the table's own terminal or staff holding one of ``roles``."""

    class TerminalOrRole(BasePermission):
        message = IsTableTerminal.message

        def has_permission(self, request: Request, view: Any) -> bool:
            if isinstance(request.auth, TerminalKey):
                return IsTableTerminal().has_permission(request, view)
            return has_role(request.user, *roles)

    return TerminalOrRole
