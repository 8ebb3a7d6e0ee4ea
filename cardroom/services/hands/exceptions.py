"""A booked hand's exceptions resolved by what decided them: a stack review, a
correction, a void (HS6, HS7, RK8)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from cardroom.models import HandException


def exceptions_resolve(
    *,
    hand_id: int,
    kinds: tuple[str, ...],
    by: User | None,
    at: datetime | None,
    resolution: str,
    **match: Any,
) -> None:
    """Resolve the hand's open exceptions of ``kinds`` (and ``match``, e.g. a
    seat), saying who and what resolved them (HS6, HS7, RK8)."""
    HandException.objects.filter(
        hand_id=hand_id, kind__in=kinds, status=HandException.Status.OPEN, **match
    ).update(
        status=HandException.Status.RESOLVED,
        resolved_by=by,
        resolved_at=at,
        resolution=resolution[:500],
    )
