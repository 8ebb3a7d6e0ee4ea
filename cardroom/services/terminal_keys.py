"""The table terminals' keys: issued once in clear, revoked for good (API.md), and
the one-time codes that pair a tablet with its table (API.md "Pairing a terminal").

A manager asks for a pairing code on the floor screen; the tablet sends it once,
within :data:`PAIRING_MINUTES`, and gets a new key of the table in exchange. The
code is shown once and stored only as a keyed hash (:func:`pairing_code_hash`).
Unpairing a tablet is revoking its key (:func:`terminal_key_revoke`).
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from cardroom.errors import Code, unprocessable
from cardroom.models import Table, TerminalKey, TerminalPairing
from core import errors
from core.errors import NotFound

PAIRING_MINUTES = 10
"""How long a pairing code may be redeemed."""
PAIRING_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The code's characters: digits and capitals a person can't confuse when reading
them off a screen (no 0/O, 1/I/L, U/V)."""
PAIRING_LENGTH = 8
PAIRING_PAGE = "/terminal/"
"""The reference terminal's page, which pairs the tablet with ``?pair=<code>``."""


def terminal_key_create(*, table_code: str, name: str) -> tuple[TerminalKey, str]:
    """Issue a key for table ``table_code``'s terminal; return it and the key in
    clear, shown this once (the server keeps only its hash). Raises
    :class:`NotFound` for an unknown table."""
    table = Table.objects.filter(code=table_code).first()
    if table is None:
        raise NotFound("not_found", _("No table %(t)s.") % {"t": table_code})
    key, raw = TerminalKey.objects.create_key(
        name=name or f"terminal {table.code}", table=table
    )
    assert isinstance(key, TerminalKey)
    return key, raw


@transaction.atomic
def terminal_key_revoke(*, prefix: str) -> TerminalKey:
    """Revoke a terminal's key: from the next request on it is refused (401).

    Raises :class:`NotFound` for an unknown key, :class:`Conflict` (409) for one
    revoked already.
    """
    key = (
        TerminalKey.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(prefix=prefix)
        .first()
    )
    if key is None:
        raise NotFound("not_found", _("No terminal key %(p)s.") % {"p": prefix})
    if key.revoked:
        raise errors.Conflict(
            "key_revoked", _("This terminal key was revoked already.")
        )
    key.revoked = True
    key.save(update_fields=["revoked"])
    return key


# -- Pairing a tablet with a table ---------------------------------------------------


def pairing_code_normal(code: str) -> str | None:
    """The code as issued (8 capitals of :data:`PAIRING_ALPHABET`) from what a
    person typed: any case, with or without the dash or a space in it, spaces
    around it; ``None`` when it can't be a code.

    >>> pairing_code_normal(" 7kq4-m2xd ")
    '7KQ4M2XD'
    >>> pairing_code_normal("7KQ4-M2X0") is None
    True
    """
    typed = "".join(code.split()).replace("-", "").upper()
    if len(typed) != PAIRING_LENGTH or any(c not in PAIRING_ALPHABET for c in typed):
        return None
    return typed


def pairing_code_shown(code: str) -> str:
    """The code as people read it: two groups of four (``7KQ4-M2XD``)."""
    half = PAIRING_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def pairing_page(code: str) -> str:
    """The terminal page's path that pairs the tablet opening it with ``code``."""
    return f"{PAIRING_PAGE}?pair={code}"


def pairing_code_hash(code: str) -> str:
    """The stored form of a normal code: keyed by the project's secret, so the
    table's rows alone don't give the codes back."""
    return salted_hmac(
        "cardroom.terminal-pairing", code, algorithm="sha256"
    ).hexdigest()


@transaction.atomic
def terminal_pairing_create(
    *, table_code: str, by: User, now: datetime | None = None
) -> tuple[TerminalPairing, str]:
    """Make a one-time code that pairs a tablet with table ``table_code`` within
    :data:`PAIRING_MINUTES`; return the pairing and the code as shown
    (``7KQ4-M2XD``), the only time it is seen. Raises :class:`NotFound` for an
    unknown table."""
    now = now or timezone.now()
    table = Table.objects.filter(code=table_code).first()
    if table is None:
        raise NotFound("not_found", _("No table %(t)s.") % {"t": table_code})
    for _attempt in range(5):
        code = "".join(secrets.choice(PAIRING_ALPHABET) for _ in range(PAIRING_LENGTH))
        try:
            with transaction.atomic():
                pairing = TerminalPairing.objects.create(
                    table=table,
                    code_hash=pairing_code_hash(code),
                    created_by=by,
                    created_at=now,
                    expires_at=now + timedelta(minutes=PAIRING_MINUTES),
                )
        except IntegrityError:  # the same code still on record: draw again
            continue
        return pairing, pairing_code_shown(code)
    raise RuntimeError("no free pairing code in five draws")


@transaction.atomic
def terminal_pairing_redeem(
    *, code: str, now: datetime | None = None
) -> tuple[TerminalKey, str]:
    """Redeem a pairing code, once: return a new key of its table and the key in
    clear (the tablet keeps it; the server keeps its hash). The key is named for
    the tablet and the moment (``tablet 2026-11-29 21:04``, room time).

    Raises :class:`Unprocessable` (422): ``pairing_code_unknown`` for a code never
    issued (or not a code at all), ``pairing_code_used`` for one redeemed already,
    ``pairing_code_expired`` for one older than :data:`PAIRING_MINUTES`.
    """
    now = now or timezone.now()
    normal = pairing_code_normal(code)
    pairing = (
        TerminalPairing.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(code_hash=pairing_code_hash(normal))
        .first()
        if normal is not None
        else None
    )
    if pairing is None:
        raise unprocessable(Code.PAIRING_CODE_UNKNOWN)
    if pairing.redeemed_at is not None:
        raise unprocessable(Code.PAIRING_CODE_USED)
    if pairing.expires_at <= now:
        raise unprocessable(Code.PAIRING_CODE_EXPIRED, minutes=PAIRING_MINUTES)
    local = timezone.localtime(
        now, pairing.table.room.tz if pairing.table.room else None
    )
    key, raw = TerminalKey.objects.create_key(
        name=f"tablet {local:%Y-%m-%d %H:%M}", table=pairing.table
    )
    pairing.redeemed_at, pairing.key = now, key
    pairing.save(update_fields=["redeemed_at", "key"])
    return key, raw
