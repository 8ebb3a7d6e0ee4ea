"""Breaking a table: its players move, in a recorded draw's order, before the list
(WL3, WL4, WL9, BI7)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from cardroom import services as cardroom_services
from cardroom.models import SeatSession, Table
from waitlist import selectors
from waitlist.domain.breaks import Seats, Step, break_plan
from waitlist.domain.seating import Kind, TableLoad, draw
from waitlist.errors import BEING_BROKEN, Code, conflict
from waitlist.models import (
    ACTIVE,
    Entry,
    Event,
    Lockup,
    MustMove,
    TableBreak,
    WaitingList,
)
from waitlist.services._shared import (
    end_entry,
    list_for_game,
    lock_entries,
    lock_lists,
    locked,
    record_event,
)
from waitlist.services._steps import (
    close_if_broken_and_empty,
    end_must_move,
    refresh,
    release,
    uncall,
)


@dataclass
class BreakResult:
    broken: TableBreak
    moved: list[dict[str, Any]]
    waiting: list[Entry]


@retry_on_conflict()
@transaction.atomic
def table_break(
    *,
    table_code: str,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
    seed: int | None = None,
) -> BreakResult:
    """Break a table: its players get seats in the game before the list (WL3).

    A draw, recorded with its seed, orders them. In that order each moves, keeping
    his stack (BI7), to a free seat of another table of the game, chosen as for a
    new player (WL4) and away from players he is kept apart from (WL9); those left
    without a seat wait at the head of the queue in the draw's order and are called
    as seats open. Calls to the table and lockups there end; when its last player
    has moved the table closes. Raises :class:`Conflict` when it is being broken.
    """
    now = now or timezone.now()
    # Lock and check.
    table = cardroom_services.table_get_open(table_code, lock=False)
    (wl,) = lock_lists([list_for_game(table.game).pk])
    refresh(wl, now)
    if selectors.is_broken(table):
        raise conflict(Code.TABLE_BREAKING, text=BEING_BROKEN, t=table.code)
    # Draw, and end what waited for the table.
    sessions = {
        s.player.code: s
        for s in SeatSession.objects.select_related("player", "table").filter(
            table=table, ended_at__isnull=True
        )
    }
    broken = _draw(table, wl, list(sessions), seed, now, by, source)
    _end_waits_for(table, wl, now, by, source)
    # Plan (pure), then book each step in the draw's order.
    assert table.game is not None
    loads = selectors.table_loads(table.game)
    plan = break_plan(
        broken.order,
        stacks={code: s.stack_cents for code, s in sessions.items()},
        tables=[_seats(load, state) for load, state in loads],
        apart=selectors.apart_pairs([s.player_id for s in sessions.values()]),
    )
    tables = {load.table: state.table for load, state in loads}
    moved: list[dict[str, Any]] = []
    waiting: list[Entry] = []
    for step in plan:
        session = sessions[step.player]
        if step.table is None:
            waiting.append(_wait(step, session, wl, table, now, by, source))
        else:
            to = tables[step.table]
            moved.append(_move(step, session, to, wl, table, now, by, source))
    close_if_broken_and_empty(table, now, by, source)
    return BreakResult(broken, moved, waiting)


def _seats(load: TableLoad, state: selectors.TableState) -> Seats:
    """The domain's view of a table taking the broken table's players."""
    present = frozenset(state.seated.values()) | frozenset(state.called.values())
    return Seats(load.table, load.opened_at, load.players, state.free_seats, present)


def _draw(
    table: Table,
    wl: WaitingList,
    players: list[str],
    seed: int | None,
    now: datetime,
    by: User | None,
    source: str,
) -> TableBreak:
    """Draw the order of the table's players and record it with its seed (WL3)."""
    seed = secrets.randbits(62) if seed is None else seed
    order = draw(players, seed)
    broken = TableBreak.objects.create(
        table=table, at=now, seed=seed, order=order, by=by
    )
    record_event(
        Event.Kind.DRAW,
        now=now,
        by=by,
        source=source,
        rule="WL3",
        reason=_("The table closes: a draw orders its players for the seats."),
        details={"seed": seed, "order": order},
        waiting_list=wl,
        table=table,
    )
    return broken


def _end_waits_for(
    table: Table, wl: WaitingList, now: datetime, by: User | None, source: str
) -> None:
    """End the must-moves, queue places, calls and lockups of a closing table (WL3)."""
    for must_move in MustMove.objects.select_related("table", "main").filter(
        Q(table=table) | Q(main=table), ended_at__isnull=True
    ):
        end_must_move(must_move, wl, now, by, source)
    for entry in lock_entries(
        Entry.objects.filter(
            Q(table=table) | Q(from_session__table=table), status__in=ACTIVE
        )
    ):
        end_entry(
            entry, status=Entry.Status.REMOVED, end=Entry.End.TABLE_CLOSED, now=now
        )
        record_event(
            Event.Kind.REMOVED,
            now=now,
            by=by,
            source=source,
            rule="WL3",
            reason=_("The table he waited for or moved from closes."),
            entry=entry,
        )
    for entry in lock_entries(
        Entry.objects.filter(call_table=table, status=Entry.Status.CALLED)
    ):
        uncall(
            entry,
            now,
            by,
            source,
            rule="WL3",
            reason=_("The table closes; he keeps his place."),
        )
    for lockup in locked(Lockup.objects.filter(table=table, released_at__isnull=True)):
        release(
            lockup,
            Lockup.Release.FLOOR,
            now,
            by,
            source,
            rule="WL3",
            reason=_("The table closes."),
        )


def _wait(
    step: Step,
    session: SeatSession,
    wl: WaitingList,
    table: Table,
    now: datetime,
    by: User | None,
    source: str,
) -> Entry:
    """No seat for him: he waits ahead of the list in the draw's order (WL3)."""
    entry = Entry.objects.create(
        waiting_list=wl,
        player=session.player,
        kind=Kind.CLOSED_TABLE,
        joined_at=now,
        joined_by=by,
        draw_no=step.draw_no,
        from_session=session,
    )
    record_event(
        Event.Kind.JOINED,
        now=now,
        by=by,
        source=source,
        rule="WL3",
        reason=_("No seat free: waits ahead of the list in the draw's order."),
        details={"draw_no": step.draw_no},
        entry=entry,
        table=table,
    )
    return entry


def _move(
    step: Step,
    session: SeatSession,
    to: Table,
    wl: WaitingList,
    table: Table,
    now: datetime,
    by: User | None,
    source: str,
) -> dict[str, Any]:
    """Move him to the seat the plan gave him, keeping his stack (BI7)."""
    assert step.table is not None and step.seat is not None
    new = cardroom_services.seat_move(
        from_table=table.code,
        from_seat=session.seat,
        to_table=step.table,
        to_seat=step.seat,
        why="table_break",
        source=source,
        by=by,
        now=now,
    )
    move = {
        "player": step.player,
        "draw_no": step.draw_no,
        "table": step.table,
        "seat": step.seat,
        "stack": new.stack_cents,
    }
    record_event(
        Event.Kind.MOVED,
        now=now,
        by=by,
        source=source,
        rule="WL3",
        reason=_("Moved from the closed table, keeping his stack (BI7)."),
        details={**move, "from": f"{table.code}/{session.seat}"},
        waiting_list=wl,
        table=to,
        player=session.player,
    )
    return move
