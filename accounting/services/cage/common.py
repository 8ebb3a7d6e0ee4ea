"""Small helpers shared by the cage's services."""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

from accounting.errors import NEGATIVE, NOT_POSITIVE, Code, invalid, missing
from accounting.models import Cage
from core.errors import SharedCode
from core.work import lock_check


def cents_check(value: object, *, name: str, positive: bool = True) -> int:
    """Return ``value`` if it is integer cents, positive (or ≥ 0 when not ``positive``).

    Raises :class:`core.errors.Invalid` (400, ``invalid_amount``) otherwise: floats,
    decimals and booleans are never money.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(SharedCode.INVALID_AMOUNT, name=name)
    if value < (1 if positive else 0):
        text = NOT_POSITIVE if positive else NEGATIVE
        raise invalid(SharedCode.INVALID_AMOUNT, text=text, name=name)
    return value


def cage_get(*, code: str, lock: bool = False) -> Cage:
    """Return the cage ``code``, its row locked for update when ``lock``.

    Raises :class:`core.errors.NotFound` (404, ``cage_not_found``) for an unknown
    cage, :class:`RuntimeError` for a lock outside a transaction.
    """
    if lock:
        lock_check("the cage's row")
    cages = Cage.objects.select_for_update() if lock else Cage.objects.all()
    cage = cages.filter(code=code).first()
    if cage is None:
        raise missing(Code.CAGE_NOT_FOUND, code=code)
    return cage


def table_open(table: str) -> bool | None:
    """Whether the floor's table ``table`` is open (CA3), asked of the function the
    setting ``CAGE_TABLE_OPEN`` names (``f(*, table: str) -> bool | None``): the
    cage knows no floor. That function holds the table's row until the caller's
    transaction ends, so the table can't close meanwhile. None when no function is
    named or the floor knows no such table.
    """
    path = getattr(settings, "CAGE_TABLE_OPEN", "")
    if not path:
        return None
    found: bool | None = import_string(path)(table=table)
    return found
