"""The table terminals' keys: issued once in clear, revoked for good (API.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from cardroom.models import Table, TerminalKey
from core import errors
from core.errors import NotFound


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
