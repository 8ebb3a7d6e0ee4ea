"""Small helpers shared by the cage's services."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounting.models import Cage
from core.api.errors import ApiError


def cents_check(value: object, *, name: str, positive: bool = True) -> int:
    """Return ``value`` if it is integer cents, positive (or ≥ 0 when not ``positive``).

    Raises :class:`ApiError` (400, code ``invalid_amount``) otherwise: floats,
    decimals and booleans are never money.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(
            _("%(name)s must be integer cents.") % {"name": name},
            code="invalid_amount",
        )
    if value < (1 if positive else 0):
        message = (
            _("%(name)s must be more than zero.")
            if positive
            else _("%(name)s can't be negative.")
        )
        raise ApiError(message % {"name": name}, code="invalid_amount")
    return value


def cage_get(*, code: str, lock: bool = False) -> Cage:
    """Return the cage ``code``, its row locked for update when ``lock``.

    Raises :class:`ApiError` (404, code ``cage_not_found``) for an unknown cage.
    """
    cages = Cage.objects.select_for_update() if lock else Cage.objects.all()
    cage = cages.filter(code=code).first()
    if cage is None:
        raise ApiError(
            _("No cage %(code)s.") % {"code": code},
            code="cage_not_found",
            status_code=404,
        )
    return cage
