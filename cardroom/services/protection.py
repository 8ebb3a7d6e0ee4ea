"""A restriction that begins while the player sits (PP5): told, then taken out.

``accounting.services.cage.protection.restriction_set`` calls
:func:`restriction_started` once the restriction commits
(``CARDROOM_RESTRICTION_HOOKS``). Every open seat of
the player at a cash table that the restriction closes is marked: the floor's map
shows it, and the table's terminal hears of it in its next answer
(``cardroom.selectors.table_notices``). He plays out the hand in play; the next
hand the table books ends his seat (:func:`leaves_carry_out`, from the booking):
his chips leave the table with him, his to cash at the cage, which a restriction
never refuses. The floor may also end his seat at once (``POST seats/{seat}/leave``).
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounting.domain.protection import Door, Kind, Scope, closes
from cardroom.models import SeatSession
from cardroom.selectors import seat_notice
from cardroom.services.leaving import seat_leave

RULES = {Kind.BAR: "PP3", Kind.SELF_EXCLUSION: "PP4"}

_left: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "protection_left", default=None
)


def restriction_started(*, restriction: Any, now: datetime | None = None) -> int:
    """Mark the restricted player's open seats at cash tables (PP5); return how
    many. A tournaments-only restriction leaves his cash seats alone."""
    if not closes(Scope(restriction.scope), Door.SEAT):
        return 0
    rule = RULES[Kind(restriction.kind)]
    return SeatSession.objects.filter(
        player_id=restriction.player_id,
        ended_at__isnull=True,
        must_leave_at__isnull=True,
    ).update(must_leave_at=now or timezone.now(), must_leave_rule=rule)


def leaves_carry_out(session_ids: Iterable[int], *, source: str = "PP5") -> None:
    """End the marked seats ``session_ids`` with the stack the hands left (PP5),
    each in a transaction of its own, once the hand that ended the hand in play
    is booked. A seat the floor ended meanwhile is skipped."""
    for session in SeatSession.objects.filter(
        pk__in=list(session_ids), ended_at__isnull=True, must_leave_at__isnull=False
    ).select_related("table", "player"):
        with transaction.atomic():
            left = seat_leave(
                table_code=session.table.code,
                seat=session.seat,
                stack=session.stack_cents,
                source=source,
            )
        said = _left.get()
        if said is not None:
            said.append(seat_notice(left, left=True))


def notices_remember() -> contextvars.Token[Any]:
    """Start collecting the seats a request's booking ended (PP5)."""
    return _left.set([])


def notices_taken(token: contextvars.Token[Any]) -> list[dict[str, Any]]:
    """The seats ended since ``token``; stop collecting."""
    said = _left.get() or []
    _left.reset(token)
    return said
