"""A called player's answer, and taking a player off a list (WL2, WL5, WL7)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check
from cardroom import services as cardroom_services
from waitlist.domain.seating import (
    Kind,
)
from waitlist.errors import Code, conflict
from waitlist.models import (
    ACTIVE,
    Entry,
    Event,
)
from waitlist.services._shared import (
    end_entry,
    iso,
    record_event,
)
from waitlist.services._steps import (
    bar_player,
    locked_entry,
    must_be_called,
)


@retry_on_conflict()
@transaction.atomic
def entry_answer(
    *,
    entry_id: int,
    accept: bool,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Entry:
    """Record a called player's answer (WL2, WL5, WL7).

    Yes: he is on his way; the 5 minutes still run until he sits down. No: he
    leaves the list (WL5); a must-move player who says no leaves the must-move game
    with his stack and is barred from it for 60 minutes (WL7). A yes asks at the
    waiting list's door again (PP2–PP4): a restriction set since the call refuses
    it, and he may still say no. Raises :class:`Refusal` (WL2) when the call ran
    out, PP2 (``under_age``), PP3 (``player_barred``) or PP4
    (``player_self_excluded``) for a yes the door refuses; :class:`Conflict` when
    he isn't called.
    """
    now = now or timezone.now()
    entry = locked_entry(entry_id, now)
    must_be_called(entry)
    if accept:
        door_check(player=entry.player, door=Door.WAITLIST, at=now)
        entry.answered_at = now
        entry.save(update_fields=["answered_at"])
        record_event(
            Event.Kind.ANSWERED,
            now=now,
            by=by,
            source=source,
            rule="WL2",
            reason=_("On his way to the table."),
            details={"expires_at": iso(entry.expires_at)},
            entry=entry,
            table=entry.call_table,
        )
        return entry
    refused_move = entry.kind == Kind.MUST_MOVE
    end_entry(
        entry,
        status=Entry.Status.REMOVED,
        end=Entry.End.REFUSED_MOVE if refused_move else Entry.End.DECLINED,
        now=now,
    )
    record_event(
        Event.Kind.DECLINED,
        now=now,
        by=by,
        source=source,
        rule="WL7" if refused_move else "WL5",
        reason=_("Declined the seat and left the list."),
        details={
            "table": entry.call_table.code if entry.call_table else None,
            "seat": entry.call_seat,
        },
        entry=entry,
        table=entry.call_table,
    )
    if refused_move:
        session = entry.from_session
        if session is not None and session.ended_at is None:
            session = cardroom_services.seat_leave(
                table_code=session.table.code,
                seat=session.seat,
                stack=session.stack_cents,
                source=source,
                by=by,
                now=now,
            )
        bar_player(entry, now, by, source, must_leave=None)
    return entry


@retry_on_conflict()
@transaction.atomic
def entry_remove(
    *,
    entry_id: int,
    reason: str = "",
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Entry:
    """Take a player off a list (at his request or the floor's); a call frees its seat.

    Raises :class:`Conflict` when he is no longer on it.
    """
    now = now or timezone.now()
    entry = locked_entry(entry_id, now)
    if entry.status not in ACTIVE:
        raise conflict(Code.NOT_ON_LIST, s=entry.get_status_display())
    end_entry(entry, status=Entry.Status.REMOVED, end=Entry.End.REMOVED, now=now)
    record_event(
        Event.Kind.REMOVED,
        now=now,
        by=by,
        source=source,
        reason=reason or _("Removed by the floor."),
        entry=entry,
        table=entry.call_table,
    )
    return entry
