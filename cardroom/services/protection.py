"""A restriction that begins while the player sits (PP5): told, then taken out.

``accounting.cage.protection.restriction_set`` calls :func:`restriction_started`
once the restriction commits (``CARDROOM_RESTRICTION_HOOKS``). Every open seat of
the player at a cash table that the restriction closes is marked: the floor's map
shows it, and the table's terminal hears of it in its next answer
(:func:`table_notices`). He plays out the hand in play; the next hand the table
books ends his seat (:func:`leaves_carry_out`, from the booking): his chips leave
the table with him, his to cash at the cage, which a restriction never refuses.
The floor may also end his seat at once (``POST seats/{seat}/leave``).
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
            said.append(_notice(left, left=True))


def _notice(session: SeatSession, *, left: bool) -> dict[str, Any]:
    rule = session.must_leave_rule
    code = "player_barred" if rule == "PP3" else "player_self_excluded"
    return {
        "seat": session.seat,
        "player": session.player.code,
        "rule": rule,
        "code": code,
        "since": session.must_leave_at.isoformat() if session.must_leave_at else None,
        "action": "left" if left else "leave_after_hand",
        "left_with": session.left_with_cents if left else None,
    }


def table_notices(table_code: str) -> list[dict[str, Any]]:
    """What the table's terminal must know now (PP5): each seat whose player must
    leave at the end of the hand in play."""
    sessions = SeatSession.objects.filter(
        table__code=table_code, ended_at__isnull=True, must_leave_at__isnull=False
    ).select_related("player")
    return [_notice(session, left=False) for session in sessions.order_by("seat")]


def notices_remember() -> contextvars.Token[Any]:
    """Start collecting the seats a request's booking ended (PP5)."""
    return _left.set([])


def notices_taken(token: contextvars.Token[Any]) -> list[dict[str, Any]]:
    """The seats ended since ``token``; stop collecting."""
    said = _left.get() or []
    _left.reset(token)
    return said
