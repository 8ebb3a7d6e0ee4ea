"""Small helpers shared by the cage's services."""

from __future__ import annotations

from accounting.errors import NEGATIVE, NOT_POSITIVE, Code, invalid, missing
from accounting.models import Cage
from core.work import lock_check


def cents_check(value: object, *, name: str, positive: bool = True) -> int:
    """Return ``value`` if it is integer cents, positive (or ≥ 0 when not ``positive``).

    Raises :class:`core.errors.Invalid` (400, ``invalid_amount``) otherwise: floats,
    decimals and booleans are never money.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(Code.INVALID_AMOUNT, name=name)
    if value < (1 if positive else 0):
        text = NOT_POSITIVE if positive else NEGATIVE
        raise invalid(Code.INVALID_AMOUNT, text=text, name=name)
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
