"""Calling the next player for an open seat of a game (WL2–WL4, WL6, WL7, WL9, WL10),
passing over a player the waiting list's door refuses (PP2–PP4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import Player
from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check
from cardroom import services as cardroom_services
from cardroom.models import SeatSession, Table
from core.errors import Refusal, SharedCode
from waitlist import selectors
from waitlist.domain.calls import CallPlan, call_plan, tables_to_call
from waitlist.domain.seating import Kind, Opening, call_deadline
from waitlist.errors import NO_OPEN_SEAT_AT, Code, conflict, refuse
from waitlist.models import (
    Entry,
    Event,
    MustMove,
    WaitingList,
)
from waitlist.services._shared import (
    end_entry,
    iso,
    lock_entries,
    lock_lists,
    record_event,
    seat_exists,
)
from waitlist.services._steps import (
    refresh,
    sync_must_move,
)


@dataclass
class CallResult:
    """A call: the entry called (None: nobody could be) and who was passed over."""

    entry: Entry | None
    table: Table | None
    skipped: list[dict[str, Any]] = field(default_factory=list)


def _candidates(
    wl: WaitingList, now: datetime, by: User | None, source: str
) -> tuple[list[Entry], dict[str, str]]:
    """Lock the list's waiting entries; return them and where their players sit.

    Seat-change and must-move entries of a player who left the game end here.
    """
    entries = lock_entries(wl.entries.filter(status=Entry.Status.WAITING))
    seated_at = dict(
        SeatSession.objects.filter(
            player__in=[e.player_id for e in entries], ended_at__isnull=True
        ).values_list("player__code", "table__code")
    )
    keep = []
    for entry in entries:
        session = entry.from_session
        gone = session is not None and session.ended_at is not None
        if entry.kind in (Kind.MUST_MOVE, Kind.SEAT_CHANGE) and gone:
            end_entry(
                entry, status=Entry.Status.REMOVED, end=Entry.End.LEFT_GAME, now=now
            )
            record_event(
                Event.Kind.REMOVED,
                now=now,
                by=by,
                source=source,
                rule="WL10" if entry.kind == Kind.SEAT_CHANGE else "WL7",
                reason=_("Left the game."),
                entry=entry,
            )
            continue
        keep.append(entry)
    return keep, seated_at


Doors = dict[int, Refusal | None]
"""The waiting list's door for each player a call asked: his refusal, or None."""


def _at_door(player: Player, doors: Doors, now: datetime) -> Refusal | None:
    """Ask the waiting list's door for ``player`` once per call (PP2–PP4)."""
    if player.pk not in doors:
        try:
            door_check(player=player, door=Door.WAITLIST, at=now)
        except Refusal as refused:
            doors[player.pk] = refused
        else:
            doors[player.pk] = None
    return doors[player.pk]


def _plan_at(
    wl: WaitingList,
    table: Table,
    state: selectors.TableState,
    seat: int | None,
    game_tables: frozenset[str],
    now: datetime,
    by: User | None,
    source: str,
    doors: Doors,
) -> tuple[CallPlan, dict[int, Entry], list[Entry]]:
    """Read the queue for ``table`` (its must-move players first put on it) and
    return the call's plan with the entries by id, and the entries whose players
    the waiting list's door refuses (PP2–PP4), left out of the plan.

    Only the player the plan would call is asked at the door: one the door
    refuses is passed over, keeping his place (a bar may end before his turn
    comes again), and the plan is made again without him.
    """
    if MustMove.objects.filter(main=table, ended_at__isnull=True).exists():
        sync_must_move(wl, table, now, by, source)
    entries, seated_at = _candidates(wl, now, by, source)
    busy = frozenset(
        Entry.objects.filter(
            status=Entry.Status.CALLED, player__in=[e.player_id for e in entries]
        ).values_list("player__code", flat=True)
    )
    opening = Opening(
        table=table.code,
        game_tables=game_tables,
        free_seats=state.free_seats,
        seated=frozenset(state.seated.values()),
        coming=frozenset(state.called.values()),
        seat=seat,
    )
    candidates = [selectors.candidate(e, seated_at.get(e.player.code)) for e in entries]
    apart = selectors.apart_pairs([e.player_id for e in entries])
    by_id = {e.pk: e for e in entries}
    closed: list[Entry] = []
    while True:
        plan = call_plan(candidates, opening, apart=apart, busy=busy)
        if plan.called is None:
            return plan, by_id, closed
        entry = by_id[plan.called.id]
        if _at_door(entry.player, doors, now) is None:
            return plan, by_id, closed
        closed.append(entry)
        candidates = [c for c in candidates if c.id != entry.pk]


@retry_on_conflict()
@transaction.atomic
def list_call(
    *,
    waiting_list: WaitingList,
    table_code: str | None = None,
    seat: int | None = None,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> CallResult:
    """Call the next player for an open seat of the game (WL2).

    At ``table_code`` (and ``seat``) when named; otherwise at the table a new
    player goes to: the fewest players, and at equal counts the one that opened
    first (WL4). The queue: closed tables' players (WL3), must-move players to
    their main game (WL7), seat changes of players in the game (WL10), the list
    (WL1); players kept apart from someone at the table are passed over (WL9), and
    so are players the waiting list's door refuses (PP2–PP4), each named in
    ``skipped`` with the rule and the code of his refusal. The call holds the
    seat for 5 minutes. Raises :class:`Conflict` when the table has no free seat,
    :class:`Refusal` (WL1, WL3) for a table of another game or one being broken.
    """
    now = now or timezone.now()
    # Lock the list and read the game's tables.
    (wl,) = lock_lists([waiting_list.pk])
    refresh(wl, now)
    loads = selectors.table_loads(wl.game)
    names = frozenset(load.table for load, _state in loads)
    states = {load.table: state for load, state in loads}
    if table_code is not None:
        _check_named(wl, table_code, seat, names, states)
    order = tables_to_call((load for load, _state in loads), named=table_code)
    if not order:
        raise conflict(Code.NO_OPEN_SEAT)
    # Try each table in turn: plan (pure), then book what it decided.
    skipped: list[dict[str, Any]] = []
    doors: Doors = {}
    for code in order:
        state = states[code]
        plan, by_id, closed = _plan_at(
            wl, state.table, state, seat, names, now, by, source, doors
        )
        skipped += _closed_door(closed, doors, skipped)
        skipped += _pass_over(plan, by_id, now, by, source)
        if plan.called is not None:
            assert plan.seat is not None
            entry = by_id[plan.called.id]
            _call(entry, state.table, plan.seat, skipped, table_code, now, by, source)
            return CallResult(entry, state.table, skipped)
    return CallResult(None, states[order[0]].table if table_code else None, skipped)


def _check_named(
    wl: WaitingList,
    table_code: str,
    seat: int | None,
    names: frozenset[str],
    states: dict[str, selectors.TableState],
) -> None:
    """Refuse a named table of another game (WL1), one being broken (WL3), a seat
    that doesn't exist (HS1) or a table without the open seat asked for."""
    table = cardroom_services.table_get_open(table_code, lock=False)
    if table.game_id != wl.game_id:
        raise refuse(SharedCode.WRONG_GAME, rule="WL1", t=table.code)
    if table.code not in names:
        raise refuse(Code.TABLE_BREAKING, rule="WL3", t=table.code)
    if seat is not None:
        seat_exists(table, seat)
    free = states[table.code].free_seats
    if not free or (seat is not None and seat not in free):
        raise conflict(Code.NO_OPEN_SEAT, text=NO_OPEN_SEAT_AT, t=table.code)


def _closed_door(
    closed: list[Entry], doors: Doors, skipped: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Name the players passed over because the waiting list's door refuses them
    (PP2–PP4), once per call however many tables it tried."""
    named = {(one["player"], one["rule"]) for one in skipped}
    passed = []
    for entry in closed:
        refused = doors[entry.player_id]
        assert refused is not None
        if (entry.player.code, refused.rule) in named:
            continue
        passed.append(
            {"player": entry.player.code, "rule": refused.rule, "reason": refused.code}
        )
    return passed


def _pass_over(
    plan: CallPlan, by_id: dict[int, Entry], now: datetime, by: User | None, source: str
) -> list[dict[str, Any]]:
    """Record who the call passed over; a listed player who sat down in the game
    meanwhile leaves the list (WL6)."""
    leaving = {c.id for c in plan.off_the_list}
    skipped = []
    for skip in plan.passed_over:
        entry = by_id[skip.candidate.id]
        skipped.append(
            {"player": entry.player.code, "rule": skip.rule, "reason": skip.reason}
        )
        if entry.pk in leaving and entry.status == Entry.Status.WAITING:
            end_entry(
                entry,
                status=Entry.Status.REMOVED,
                end=Entry.End.SEATED_IN_GAME,
                now=now,
            )
            record_event(
                Event.Kind.REMOVED,
                now=now,
                by=by,
                source=source,
                rule=skip.rule,
                reason=_("Sat down in this game: one seat at a time."),
                entry=entry,
            )
    return skipped


def _call(
    entry: Entry,
    table: Table,
    seat: int,
    skipped: list[dict[str, Any]],
    table_code: str | None,
    now: datetime,
    by: User | None,
    source: str,
) -> None:
    """Call ``entry`` to ``seat`` of ``table``, holding it for 5 minutes (WL2)."""
    entry.status = Entry.Status.CALLED
    entry.called_at, entry.expires_at = now, call_deadline(now)
    entry.call_table, entry.call_seat = table, seat
    entry.answered_at = None
    entry.save(
        update_fields=[
            "status",
            "called_at",
            "expires_at",
            "call_table",
            "call_seat",
            "answered_at",
        ]
    )
    record_event(
        Event.Kind.CALLED,
        now=now,
        by=by,
        source=source,
        rule="WL2",
        reason=_("First in the queue for the open seat."),
        details={
            "table": table.code,
            "seat": seat,
            "kind": entry.kind,
            "expires_at": iso(entry.expires_at),
            "skipped": skipped,
            "table_chosen_by": "floor" if table_code else "WL4",
        },
        entry=entry,
        table=table,
    )
