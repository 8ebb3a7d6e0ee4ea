"""Changes several use cases make on rows they hold locked: the timers (calls run out,
WL2; lockups end, WL8), a lockup released, a call taken back, a refused must-move's
bar (WL7), a must-move's queue kept and ended, a broken table closed (WL3)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom import services as cardroom_services
from cardroom.models import SeatSession, Table
from core.errors import SharedCode
from waitlist import selectors
from waitlist.domain.seating import (
    Kind,
    bar_until,
    lockup_due,
)
from waitlist.errors import Code, conflict, missing, refuse
from waitlist.models import (
    ACTIVE,
    Bar,
    Entry,
    Event,
    Lockup,
    MustMove,
    WaitingList,
)
from waitlist.services._shared import (
    TIMER,
    bar_of,
    end_entry,
    iso,
    lock_entries,
    lock_lists,
    locked,
    record_event,
)


def refresh(waiting_list: WaitingList, now: datetime) -> None:
    """Apply the clock to a locked list: calls run out (WL2), lockups end (WL8).

    A lockup also ends when its seat is taken or its player sits at its table.
    """
    for entry in lock_entries(
        waiting_list.entries.filter(status=Entry.Status.CALLED, expires_at__lt=now)
    ):
        expire(entry, now)
    lockups = locked(
        Lockup.objects.select_related("table", "player")
        .filter(
            table__game=waiting_list.game_id,
            table__status=Table.Status.OPEN,
            released_at__isnull=True,
        )
        .annotate(taken=Exists(sitting_there()))
    )
    if not lockups:
        return
    list_waits = waiting_list.entries.filter(
        status=Entry.Status.WAITING, kind=Kind.LIST
    ).exists()
    for lockup in lockups:
        if lockup.taken:  # type: ignore[attr-defined]  # the annotation, through locked()
            release(lockup, Lockup.Release.TAKEN, now, None, TIMER)
        elif lockup_due(
            new_game=lockup.kind == Lockup.Kind.NEW_GAME,
            locked_at=lockup.locked_at,
            now=now,
            list_waits=list_waits,
        ):
            release(
                lockup,
                Lockup.Release.TIMED_OUT,
                now,
                None,
                TIMER,
                reason=_("Held too long while players wait on the list."),
            )


def sitting_there() -> QuerySet[SeatSession]:
    """Open sessions in a lockup's seat, or of its player at its table."""
    return SeatSession.objects.filter(
        Q(seat=OuterRef("seat")) | Q(player=OuterRef("player")),
        table=OuterRef("table"),
        ended_at__isnull=True,
    )


def expire(entry: Entry, now: datetime) -> None:
    """A called player not at the table within 5 minutes leaves the list (WL2).

    A must-move player who lets the call run out has refused the move (WL7): he
    is barred from the game for 60 minutes and the event tells the floor he must
    leave it (the sweep doesn't unseat anyone in the middle of a hand).
    """
    details = {
        "table": entry.call_table.code if entry.call_table else None,
        "seat": entry.call_seat,
        "called_at": iso(entry.called_at) if entry.called_at else None,
        "deadline": iso(entry.expires_at) if entry.expires_at else None,
    }
    end_entry(entry, status=Entry.Status.REMOVED, end=Entry.End.NO_SHOW, now=now)
    record_event(
        Event.Kind.EXPIRED,
        now=now,
        by=None,
        source=TIMER,
        rule="WL2",
        reason=_("Not at the table within 5 minutes of the call."),
        details=details,
        entry=entry,
        table=entry.call_table,
    )
    if entry.kind == Kind.MUST_MOVE:
        bar_player(entry, now, None, TIMER, must_leave=entry.from_session)


def release(
    lockup: Lockup,
    release: str,
    now: datetime,
    by: User | None,
    source: str,
    *,
    rule: str = "WL8",
    reason: str = "",
) -> None:
    lockup.released_at, lockup.release, lockup.released_by = now, release, by
    lockup.save(update_fields=["released_at", "release", "released_by"])
    record_event(
        Event.Kind.LOCKUP_RELEASED,
        now=now,
        by=by,
        source=source,
        rule=rule,
        reason=reason or lockup.get_release_display(),
        details={
            "seat": lockup.seat,
            "locked_at": iso(lockup.locked_at),
            "kind": lockup.kind,
            "release": release,
        },
        table=lockup.table,
        player=lockup.player,
    )


def bar_player(
    entry: Entry,
    now: datetime,
    by: User | None,
    source: str,
    *,
    must_leave: SeatSession | None,
) -> Bar:
    game = entry.waiting_list.game
    bar = Bar.objects.create(
        player=entry.player,
        game=game,
        since=now,
        until=bar_until(now),
        entry=entry,
        by=by,
    )
    record_event(
        Event.Kind.BARRED,
        now=now,
        by=by,
        source=source,
        rule="WL7",
        reason=_("Refused the must-move: can't play or list this game for 60 minutes."),
        details={
            "until": iso(bar.until),
            "must_leave": (
                must_leave.table.code
                if must_leave is not None and must_leave.ended_at is None
                else None
            ),
        },
        entry=entry,
    )
    return bar


def uncall(
    entry: Entry, now: datetime, by: User | None, source: str, *, rule: str, reason: str
) -> None:
    """Take back a call: the seat is free again, the player keeps his place."""
    table = entry.call_table
    entry.status = Entry.Status.WAITING
    entry.called_at = entry.expires_at = entry.answered_at = None
    entry.call_table, entry.call_seat = None, None
    entry.save(
        update_fields=[
            "status",
            "called_at",
            "expires_at",
            "answered_at",
            "call_table",
            "call_seat",
        ]
    )
    record_event(
        Event.Kind.CALL_CANCELLED,
        now=now,
        by=by,
        source=source,
        rule=rule,
        reason=reason,
        entry=entry,
        table=table,
    )


def close_if_broken_and_empty(
    table: Table, now: datetime, by: User | None, source: str
) -> None:
    table.refresh_from_db()
    if (
        table.status == Table.Status.OPEN
        and selectors.is_broken(table)
        and not table.sessions.filter(ended_at__isnull=True).exists()
    ):
        cardroom_services.table_close(table=table, now=now)
        record_event(
            Event.Kind.TABLE_CLOSED,
            now=now,
            by=by,
            source=source,
            rule="WL3",
            reason=_("The broken table's last player moved: the table is closed."),
            table=table,
        )


def sync_must_move(
    wl: WaitingList, main: Table, now: datetime, by: User | None, source: str
) -> None:
    """Put the players of ``main``'s must-move games on its queue (WL7).

    In list order: the time they joined the list that seated them there, or the
    time they sat down when they came another way. A player who left the
    must-move game leaves its queue; a barred player is not put back.
    """
    for entry in lock_entries(
        wl.entries.filter(kind=Kind.MUST_MOVE, table=main, status__in=ACTIVE)
    ):
        session = entry.from_session
        if entry.status == Entry.Status.WAITING and (
            session is None or session.ended_at is not None
        ):
            end_entry(
                entry, status=Entry.Status.REMOVED, end=Entry.End.LEFT_GAME, now=now
            )
            record_event(
                Event.Kind.REMOVED,
                now=now,
                by=by,
                source=source,
                rule="WL7",
                reason=_("Left the must-move game."),
                entry=entry,
            )
    feeders = MustMove.objects.filter(main=main, ended_at__isnull=True).values_list(
        "table_id", flat=True
    )
    sessions = (
        SeatSession.objects.select_related("player", "table")
        .filter(table__in=list(feeders), ended_at__isnull=True)
        .exclude(player__in=wl.entries.filter(status__in=ACTIVE).values("player"))
        .order_by("pk")
    )
    for session in sessions:
        if bar_of(session.player, wl.game, now) is not None:
            continue
        listed = (
            Entry.objects.filter(seated_session=session, kind=Kind.LIST)
            .values_list("joined_at", flat=True)
            .first()
        )
        entry = Entry.objects.create(
            waiting_list=wl,
            player=session.player,
            kind=Kind.MUST_MOVE,
            joined_at=listed or session.started_at,
            table=main,
            from_session=session,
        )
        record_event(
            Event.Kind.JOINED,
            now=now,
            by=by,
            source=source,
            rule="WL7",
            reason=_("Plays the must-move game: moves to the main game in list order."),
            details={"from": session.table.code, "to": main.code},
            entry=entry,
            table=main,
        )


def end_must_move(
    must_move: MustMove, wl: WaitingList, now: datetime, by: User | None, source: str
) -> None:
    must_move.ended_at, must_move.ended_by = now, by
    must_move.save(update_fields=["ended_at", "ended_by"])
    for entry in lock_entries(
        wl.entries.filter(
            kind=Kind.MUST_MOVE,
            table=must_move.main_id,
            from_session__table=must_move.table_id,
            status__in=ACTIVE,
        )
    ):
        end_entry(entry, status=Entry.Status.REMOVED, end=Entry.End.REMOVED, now=now)
        record_event(
            Event.Kind.REMOVED,
            now=now,
            by=by,
            source=source,
            rule="WL7",
            reason=_("The must-move ended."),
            entry=entry,
        )
    record_event(
        Event.Kind.MUST_MOVE_ENDED,
        now=now,
        by=by,
        source=source,
        rule="WL7",
        details={"table": must_move.table.code, "main": must_move.main.code},
        waiting_list=wl,
        table=must_move.table,
    )


def locked_entry(entry_id: int, now: datetime) -> Entry:
    """Lock the entry's list (and the lists where its player is called), refresh them,
    and return the entry locked."""
    entry = Entry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise missing(SharedCode.NOT_FOUND, id=entry_id)
    others = Entry.objects.filter(
        player=entry.player_id, status=Entry.Status.CALLED
    ).values_list("waiting_list_id", flat=True)
    for wl in lock_lists({entry.waiting_list_id, *others}):
        refresh(wl, now)
    (entry,) = lock_entries(Entry.objects.filter(pk=entry_id))
    return entry


def must_be_called(entry: Entry) -> None:
    if entry.status == Entry.Status.CALLED:
        return
    if entry.end == Entry.End.NO_SHOW:
        raise refuse(
            Code.CALL_EXPIRED,
            rule="WL2",
            allowed={"expires_at": iso(entry.expires_at)},
            t=timezone.localtime(entry.expires_at).strftime("%H:%M:%S"),
        )
    raise conflict(Code.NOT_CALLED, s=entry.get_status_display())
