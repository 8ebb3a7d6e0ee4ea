"""Writes of waiting lists and seating (RULES.md WL1–WL10), time collection (RK6).

Every function is keyword-only and atomic and records what it decided as an
:class:`~waitlist.models.Event`: who (``by`` a staff member, or ``source`` a terminal
or the scheduled sweep), when, and why (the rule and a reason).

Concurrency: a change first locks the rows of the lists it touches, in primary-key
order, then the entries it reads, in primary-key order, and only then calls the
floor's services, which lock tables, players and seat sessions. The floor never
locks a list, so every path takes locks in the same order; two floor terminals
calling one list at the same moment act one after the other, and the second sees
the first one's call holding its seat.

Moves go through the floor's services (``seat_leave`` then ``seat_take`` in one
transaction), which apply the buy-in rules: a house move (closed table, must-move,
a seat change the floor grants) keeps the stack (BI7); a seated player called from
another game's list moves under BI5 or buys in afresh (WL5).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import Player
from accounting.services import retry_on_conflict
from cardroom import services as floor
from cardroom.domain.games import GAMES
from cardroom.models import Game, Hand, HandSeat, SeatSession, StackMovement, Table
from core.api.errors import ApiError, Conflict, RuleViolation
from waitlist import selectors
from waitlist.domain.seating import (
    NEW_GAME_LOCKUP,
    Kind,
    Opening,
    Pick,
    bar_until,
    call_deadline,
    draw,
    kept_apart,
    lockup_due,
    pick,
    table_order,
)
from waitlist.domain.time import (
    Collection,
    SeatFacts,
    TimeRefused,
    blind_seats,
    time_charges,
    time_policy,
)
from waitlist.models import (
    ACTIVE,
    Bar,
    Entry,
    Event,
    KeptApart,
    Lockup,
    MustMove,
    TableBreak,
    TimeCollection,
    WaitingList,
)

HOUSE_MOVES = (Kind.CLOSED_TABLE, Kind.MUST_MOVE, Kind.SEAT_CHANGE)
HOUSE_MOVE_WHY = {
    Kind.CLOSED_TABLE: "table_break",
    Kind.MUST_MOVE: "must_move",
    Kind.SEAT_CHANGE: "seat_change",
}
"""The floor's flow each house-move entry is, as :func:`floor.seat_move` names it."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a staff member, or a terminal or task named by ``source``."""

    by: User | None = None
    source: str = ""


TIMER = Actor(source="timer")
"""Who decides what the clock decides (WL2, WL8), whichever read or task noticed."""


def _event(
    kind: str,
    *,
    now: datetime,
    actor: Actor,
    rule: str = "",
    reason: str = "",
    details: dict[str, Any] | None = None,
    waiting_list: WaitingList | None = None,
    entry: Entry | None = None,
    table: Table | None = None,
    player: Player | None = None,
) -> Event:
    if entry is not None:
        waiting_list = waiting_list or entry.waiting_list
        player = player or entry.player
    return Event.objects.create(
        at=now,
        kind=kind,
        rule=rule,
        reason=str(reason)[:300],
        details=details or {},
        waiting_list=waiting_list,
        entry=entry,
        table=table,
        player=player,
        by=actor.by,
        source=actor.source if actor.by is None else "",
    )


def _iso(moment: datetime | None) -> str | None:
    """A time as the room reads it, with its offset (API.md conventions)."""
    return None if moment is None else timezone.localtime(moment).isoformat()


def _end(
    entry: Entry, *, status: str, end: str, now: datetime, session: Any = None
) -> None:
    entry.status, entry.end, entry.ended_at = status, end, now
    fields = ["status", "end", "ended_at"]
    if session is not None:
        entry.seated_session = session
        fields.append("seated_session")
    entry.save(update_fields=fields)


# Lists and locks ----------------------------------------------------------------------


def list_for_game(game: Game | None) -> WaitingList:
    """Return the game's waiting list, opening it on first use (WL1)."""
    assert game is not None, "an open table always has a game"
    waiting_list, _created = WaitingList.objects.get_or_create(game=game)
    return waiting_list


def _lock_lists(ids: Iterable[int]) -> list[WaitingList]:
    # Primary-key order: two services locking overlapping lists never wait in a cycle.
    return list(
        WaitingList.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(pk__in=set(ids))
        .order_by("pk")
    )


def _lock_entries(qs: Any) -> list[Entry]:
    return list(
        qs.select_for_update(of=("self",))
        .select_related(
            "player", "waiting_list__game", "table", "call_table", "from_session"
        )
        .order_by("pk")
    )


def _seat_exists(table: Table, seat: int) -> None:
    if not 1 <= seat <= table.seats:
        raise RuleViolation(
            _("Seat %(s)d doesn't exist at this table (1–%(n)d).")
            % {"s": seat, "n": table.seats},
            code="no_such_seat",
            rule="HS1",
            allowed={"min": 1, "max": table.seats},
        )


def _bar(player: Player, game: Game, now: datetime) -> Bar | None:
    return (
        Bar.objects.filter(player=player, game=game, since__lte=now, until__gt=now)
        .order_by("-until")
        .first()
    )


def _refuse_if_barred(player: Player, game: Game, now: datetime) -> None:
    bar = _bar(player, game, now)
    if bar is not None:
        raise RuleViolation(
            _(
                "WL7: %(p)s refused a must-move and can't play or list this game"
                " until %(t)s."
            )
            % {"p": player.code, "t": timezone.localtime(bar.until).strftime("%H:%M")},
            code="barred_from_game",
            rule="WL7",
            allowed={"until": _iso(bar.until)},
        )


def seat_check(*, player: Player, game: Game, now: datetime) -> None:
    """Refuse any seat in a game the player is barred from (WL7), however asked.

    The floor calls it (``CARDROOM_SEAT_CHECKS``) before seating anyone, so a
    terminal can't seat a barred player directly either.
    """
    _refuse_if_barred(player, game, now)


def _refuse_if_kept_apart(player: Player, others: Iterable[str]) -> None:
    pairs = selectors.apart_pairs([player.pk])
    partner = next((o for o in others if kept_apart(player.code, [o], pairs)), None)
    if partner is not None:
        raise RuleViolation(
            _("WL9: the house keeps %(p)s and %(o)s out of the same game.")
            % {"p": player.code, "o": partner},
            code="kept_apart",
            rule="WL9",
        )


# Keeping lists honest: calls run out (WL2), lockups are released (WL8) ----------------


def _refresh(waiting_list: WaitingList, now: datetime) -> None:
    """Apply the clock to a locked list: calls run out (WL2), lockups end (WL8).

    A lockup also ends when its seat is taken or its player sits at its table.
    """
    for entry in _lock_entries(
        waiting_list.entries.filter(status=Entry.Status.CALLED, expires_at__lt=now)
    ):
        _expire(entry, now)
    lockups = list(
        Lockup.objects.select_for_update(of=("self",))
        .select_related("table", "player")
        .filter(
            table__game=waiting_list.game_id,
            table__status=Table.Status.OPEN,
            released_at__isnull=True,
        )
        .annotate(taken=Exists(_sitting_there()))
        .order_by("pk")
    )
    if not lockups:
        return
    list_waits = waiting_list.entries.filter(
        status=Entry.Status.WAITING, kind=Kind.LIST
    ).exists()
    for lockup in lockups:
        if lockup.taken:
            _release(lockup, Lockup.Release.TAKEN, now, TIMER)
        elif lockup_due(
            new_game=lockup.kind == Lockup.Kind.NEW_GAME,
            locked_at=lockup.locked_at,
            now=now,
            list_waits=list_waits,
        ):
            _release(
                lockup,
                Lockup.Release.TIMED_OUT,
                now,
                TIMER,
                reason=_("Held too long while players wait on the list."),
            )


def _sitting_there() -> QuerySet[SeatSession]:
    """Open sessions in a lockup's seat, or of its player at its table."""
    return SeatSession.objects.filter(
        Q(seat=OuterRef("seat")) | Q(player=OuterRef("player")),
        table=OuterRef("table"),
        ended_at__isnull=True,
    )


def _expire(entry: Entry, now: datetime) -> None:
    """A called player not at the table within 5 minutes leaves the list (WL2).

    A must-move player who lets the call run out has refused the move (WL7): he
    is barred from the game for 60 minutes and the event tells the floor he must
    leave it (the sweep doesn't unseat anyone in the middle of a hand).
    """
    details = {
        "table": entry.call_table.code if entry.call_table else None,
        "seat": entry.call_seat,
        "called_at": _iso(entry.called_at) if entry.called_at else None,
        "deadline": _iso(entry.expires_at) if entry.expires_at else None,
    }
    _end(entry, status=Entry.Status.REMOVED, end=Entry.End.NO_SHOW, now=now)
    _event(
        Event.Kind.EXPIRED,
        now=now,
        actor=TIMER,
        rule="WL2",
        reason=_("Not at the table within 5 minutes of the call."),
        details=details,
        entry=entry,
        table=entry.call_table,
    )
    if entry.kind == Kind.MUST_MOVE:
        _bar_player(entry, now, TIMER, must_leave=entry.from_session)


def _release(
    lockup: Lockup,
    release: str,
    now: datetime,
    actor: Actor,
    *,
    rule: str = "WL8",
    reason: str = "",
) -> None:
    lockup.released_at, lockup.release, lockup.released_by = now, release, actor.by
    lockup.save(update_fields=["released_at", "release", "released_by"])
    _event(
        Event.Kind.LOCKUP_RELEASED,
        now=now,
        actor=actor,
        rule=rule,
        reason=reason or lockup.get_release_display(),
        details={
            "seat": lockup.seat,
            "locked_at": _iso(lockup.locked_at),
            "kind": lockup.kind,
            "release": release,
        },
        table=lockup.table,
        player=lockup.player,
    )


@transaction.atomic
def list_refresh(*, waiting_list: WaitingList, now: datetime | None = None) -> None:
    """Apply the WL2 and WL8 timers to one list, under its lock."""
    now = now or timezone.now()
    for wl in _lock_lists([waiting_list.pk]):
        _refresh(wl, now)


def sweep(*, now: datetime | None = None) -> int:
    """Apply the timers to every list that has one due; return how many (WL2, WL8).

    The scheduled task runs it, and so does every read of the lists and the board,
    so a late task changes nothing: a call past its 5 minutes is never answered.
    Each list is refreshed in its own transaction, holding only its own lock.
    """
    now = now or timezone.now()
    due = set(
        Entry.objects.filter(
            status=Entry.Status.CALLED, expires_at__lt=now
        ).values_list("waiting_list_id", flat=True)
    )
    games = (
        Lockup.objects.filter(released_at__isnull=True, table__status=Table.Status.OPEN)
        .annotate(taken=Exists(_sitting_there()))
        .filter(Q(taken=True) | Q(locked_at__lte=now - NEW_GAME_LOCKUP))
        .values_list("table__game", flat=True)
    )
    for game in Game.objects.filter(pk__in=games):
        due.add(list_for_game(game).pk)
    for pk in sorted(due):
        list_refresh(waiting_list=WaitingList(pk=pk), now=now)
    return len(due)


# Joining (WL1) ------------------------------------------------------------------------


@retry_on_conflict()
@transaction.atomic
def entry_join(
    *,
    waiting_list: WaitingList,
    player_code: str,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> Entry:
    """Put a player on a game's list (WL1).

    He may be on several lists and may list while seated in another game. Raises
    :class:`RuleViolation`: WL1 when he is on this list already, WL10 when he plays
    this game already (he asks the floor for a seat change), WL7 while a refused
    must-move bars him from the game, BI10 for an unregistered player.
    """
    now = now or timezone.now()
    (wl,) = _lock_lists([waiting_list.pk])
    _refresh(wl, now)
    player = floor.player_get(player_code)
    _refuse_if_barred(player, wl.game, now)
    if wl.entries.filter(player=player, status__in=ACTIVE).exists():
        raise RuleViolation(
            _("WL1: %(p)s is on this list already.") % {"p": player.code},
            code="already_listed",
            rule="WL1",
        )
    session = selectors.open_session(player)
    if session is not None and session.game_id == wl.game_id:
        raise RuleViolation(
            _(
                "WL10: %(p)s already plays this game at %(t)s; the floor can change"
                " his seat or table."
            )
            % {"p": player.code, "t": session.table.code},
            code="already_in_game",
            rule="WL10",
        )
    entry = Entry.objects.create(
        waiting_list=wl,
        player=player,
        kind=Kind.LIST,
        joined_at=now,
        joined_by=actor.by,
    )
    _event(
        Event.Kind.JOINED,
        now=now,
        actor=actor,
        rule="WL1",
        reason=_("Joined the list."),
        details={"seated_at": session.table.code if session else None},
        entry=entry,
    )
    return entry


# Calling (WL2–WL4, WL7, WL9, WL10) ----------------------------------------------------


@dataclass
class CallResult:
    """A call: the entry called (None: nobody could be) and who was passed over."""

    entry: Entry | None
    table: Table | None
    skipped: list[dict[str, Any]] = field(default_factory=list)


def _sync_must_move(wl: WaitingList, main: Table, now: datetime, actor: Actor) -> None:
    """Put the players of ``main``'s must-move games on its queue (WL7).

    In list order: the time they joined the list that seated them there, or the
    time they sat down when they came another way. A player who left the
    must-move game leaves its queue; a barred player is not put back.
    """
    for entry in _lock_entries(
        wl.entries.filter(kind=Kind.MUST_MOVE, table=main, status__in=ACTIVE)
    ):
        session = entry.from_session
        if entry.status == Entry.Status.WAITING and (
            session is None or session.ended_at is not None
        ):
            _end(entry, status=Entry.Status.REMOVED, end=Entry.End.LEFT_GAME, now=now)
            _event(
                Event.Kind.REMOVED,
                now=now,
                actor=actor,
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
        if _bar(session.player, wl.game, now) is not None:
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
        _event(
            Event.Kind.JOINED,
            now=now,
            actor=actor,
            rule="WL7",
            reason=_("Plays the must-move game: moves to the main game in list order."),
            details={"from": session.table.code, "to": main.code},
            entry=entry,
            table=main,
        )


def _candidates(
    wl: WaitingList, now: datetime, actor: Actor
) -> tuple[list[Entry], dict[str, str]]:
    """Lock the list's waiting entries; return them and where their players sit.

    Seat-change and must-move entries of a player who left the game end here.
    """
    entries = _lock_entries(wl.entries.filter(status=Entry.Status.WAITING))
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
            _end(entry, status=Entry.Status.REMOVED, end=Entry.End.LEFT_GAME, now=now)
            _event(
                Event.Kind.REMOVED,
                now=now,
                actor=actor,
                rule="WL10" if entry.kind == Kind.SEAT_CHANGE else "WL7",
                reason=_("Left the game."),
                entry=entry,
            )
            continue
        keep.append(entry)
    return keep, seated_at


def _try_call(
    wl: WaitingList,
    table: Table,
    state: selectors.TableState,
    seat: int | None,
    game_tables: frozenset[str],
    now: datetime,
    actor: Actor,
) -> tuple[Pick, dict[int, Entry]]:
    if MustMove.objects.filter(main=table, ended_at__isnull=True).exists():
        _sync_must_move(wl, table, now, actor)
    entries, seated_at = _candidates(wl, now, actor)
    by_id = {e.pk: e for e in entries}
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
    return pick(candidates, opening, apart=apart, busy=busy), by_id


@retry_on_conflict()
@transaction.atomic
def list_call(
    *,
    waiting_list: WaitingList,
    table_code: str | None = None,
    seat: int | None = None,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> CallResult:
    """Call the next player for an open seat of the game (WL2).

    At ``table_code`` (and ``seat``) when named; otherwise at the table a new
    player goes to: the fewest players, and at equal counts the one that opened
    first (WL4). The queue: closed tables' players (WL3), must-move players to
    their main game (WL7), seat changes of players in the game (WL10), the list
    (WL1); players kept apart from someone at the table are passed over (WL9). The
    call holds the seat for 5 minutes. Raises :class:`Conflict` when the table has
    no free seat, :class:`RuleViolation` (WL1, WL3) for a table of another game or
    one being broken.
    """
    now = now or timezone.now()
    (wl,) = _lock_lists([waiting_list.pk])
    _refresh(wl, now)
    loads = selectors.table_loads(wl.game)
    names = frozenset(load.table for load, _state in loads)
    states = {load.table: state for load, state in loads}
    if table_code is not None:
        table = floor.table_get_open(table_code, lock=False)
        if table.game_id != wl.game_id:
            raise RuleViolation(
                _("Table %(t)s deals another game.") % {"t": table.code},
                code="wrong_game",
                rule="WL1",
            )
        if table.code not in names:
            raise RuleViolation(
                _("WL3: table %(t)s is being broken; it takes no players.")
                % {"t": table.code},
                code="table_breaking",
                rule="WL3",
            )
        tables = [(table, states[table.code])]
        if seat is not None:
            _seat_exists(table, seat)
        if not states[table.code].free_seats or (
            seat is not None and seat not in states[table.code].free_seats
        ):
            raise Conflict(
                _("No open seat to call at %(t)s.") % {"t": table.code},
                code="no_open_seat",
            )
    else:
        tables = [
            (states[load.table].table, states[load.table])
            for load in table_order(load for load, _state in loads)
        ]
        if not tables:
            raise Conflict(
                _("No open seat in this game to call for."), code="no_open_seat"
            )
    skipped: list[dict[str, Any]] = []
    for table, state in tables:
        chosen, by_id = _try_call(wl, table, state, seat, names, now, actor)
        for skip in chosen.skipped:
            entry = by_id[skip.candidate.id]
            skipped.append(
                {"player": entry.player.code, "rule": skip.rule, "reason": skip.reason}
            )
            if skip.remove and entry.status == Entry.Status.WAITING:
                _end(
                    entry,
                    status=Entry.Status.REMOVED,
                    end=Entry.End.SEATED_IN_GAME,
                    now=now,
                )
                _event(
                    Event.Kind.REMOVED,
                    now=now,
                    actor=actor,
                    rule=skip.rule,
                    reason=_("Sat down in this game: one seat at a time."),
                    entry=entry,
                )
        if chosen.chosen is None:
            continue
        entry = by_id[chosen.chosen.id]
        entry.status = Entry.Status.CALLED
        entry.called_at, entry.expires_at = now, call_deadline(now)
        entry.call_table = table
        entry.call_seat = chosen.seat or min(state.free_seats)
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
        _event(
            Event.Kind.CALLED,
            now=now,
            actor=actor,
            rule="WL2",
            reason=_("First in the queue for the open seat."),
            details={
                "table": table.code,
                "seat": entry.call_seat,
                "kind": entry.kind,
                "expires_at": _iso(entry.expires_at),
                "skipped": skipped,
                "table_chosen_by": "floor" if table_code else "WL4",
            },
            entry=entry,
            table=table,
        )
        return CallResult(entry, table, skipped)
    return CallResult(None, tables[0][0] if table_code else None, skipped)


# Answering, seating, removing (WL2, WL5–WL7, WL9) -------------------------------------


def _locked_entry(entry_id: int, now: datetime) -> Entry:
    """Lock the entry's list (and the lists where its player is called), refresh them,
    and return the entry locked."""
    entry = Entry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise ApiError(
            _("No waiting list entry %(id)s.") % {"id": entry_id},
            code="not_found",
            status_code=404,
        )
    others = Entry.objects.filter(
        player=entry.player_id, status=Entry.Status.CALLED
    ).values_list("waiting_list_id", flat=True)
    for wl in _lock_lists({entry.waiting_list_id, *others}):
        _refresh(wl, now)
    (entry,) = _lock_entries(Entry.objects.filter(pk=entry_id))
    return entry


def _must_be_called(entry: Entry) -> None:
    if entry.status == Entry.Status.CALLED:
        return
    if entry.end == Entry.End.NO_SHOW:
        raise RuleViolation(
            _("WL2: the call ran out at %(t)s; the player left the list.")
            % {"t": timezone.localtime(entry.expires_at).strftime("%H:%M:%S")},
            code="call_expired",
            rule="WL2",
            allowed={"expires_at": _iso(entry.expires_at)},
        )
    raise Conflict(
        _("The entry is %(s)s, not called.") % {"s": entry.get_status_display()},
        code="not_called",
    )


def _bar_player(
    entry: Entry, now: datetime, actor: Actor, *, must_leave: SeatSession | None
) -> Bar:
    game = entry.waiting_list.game
    bar = Bar.objects.create(
        player=entry.player,
        game=game,
        since=now,
        until=bar_until(now),
        entry=entry,
        by=actor.by,
    )
    _event(
        Event.Kind.BARRED,
        now=now,
        actor=actor,
        rule="WL7",
        reason=_("Refused the must-move: can't play or list this game for 60 minutes."),
        details={
            "until": _iso(bar.until),
            "must_leave": (
                must_leave.table.code
                if must_leave is not None and must_leave.ended_at is None
                else None
            ),
        },
        entry=entry,
    )
    return bar


@retry_on_conflict()
@transaction.atomic
def entry_answer(
    *,
    entry_id: int,
    accept: bool,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> Entry:
    """Record a called player's answer (WL2, WL5, WL7).

    Yes: he is on his way; the 5 minutes still run until he sits down. No: he
    leaves the list (WL5); a must-move player who says no leaves the must-move game
    with his stack and is barred from it for 60 minutes (WL7). Raises
    :class:`RuleViolation` (WL2) when the call ran out, :class:`Conflict` when he
    isn't called.
    """
    now = now or timezone.now()
    entry = _locked_entry(entry_id, now)
    _must_be_called(entry)
    if accept:
        entry.answered_at = now
        entry.save(update_fields=["answered_at"])
        _event(
            Event.Kind.ANSWERED,
            now=now,
            actor=actor,
            rule="WL2",
            reason=_("On his way to the table."),
            details={"expires_at": _iso(entry.expires_at)},
            entry=entry,
            table=entry.call_table,
        )
        return entry
    refused_move = entry.kind == Kind.MUST_MOVE
    _end(
        entry,
        status=Entry.Status.REMOVED,
        end=Entry.End.REFUSED_MOVE if refused_move else Entry.End.DECLINED,
        now=now,
    )
    _event(
        Event.Kind.DECLINED,
        now=now,
        actor=actor,
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
            session = floor.seat_leave(
                table_code=session.table.code,
                seat=session.seat,
                stack=session.stack_cents,
                source=actor.source,
                by=actor.by,
                now=now,
            )
        _bar_player(entry, now, actor, must_leave=None)
    return entry


def _first_free(state: selectors.TableState) -> int | None:
    return min(state.free_seats) if state.free_seats else None


@retry_on_conflict()
@transaction.atomic
def entry_seat(
    *,
    entry_id: int,
    seat: int | None = None,
    amount: int | None = None,
    method: str | None = None,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> tuple[Entry, SeatSession]:
    """Seat a called player at the table he was called to; he leaves the list.

    A house move (closed table WL3, must-move WL7, seat change WL10) takes his
    whole stack from the seat he leaves, even below the minimum (BI7). A player
    seated in another game moves under BI5 with his stack (capped at the table's
    maximum), or with ``amount`` and ``method`` as the floor says (WL5). A new
    player buys in with ``amount`` and ``method``. The floor's services book it and
    apply BI1–BI7 and WL6. His other calls go back to waiting; a lockup he held at
    the table is released.

    Raises :class:`RuleViolation` for WL2 (the call ran out), WL7 (barred), WL9
    (kept apart) and the buy-in rules, :class:`Conflict` when the seat is taken or
    he isn't called, :class:`ApiError` (400) when a new player has no amount.
    """
    now = now or timezone.now()
    entry = _locked_entry(entry_id, now)
    _must_be_called(entry)
    assert entry.call_table is not None and entry.call_seat is not None
    table = floor.table_get_open(entry.call_table.code, lock=False)
    assert table.game is not None
    player = entry.player
    _refuse_if_barred(player, table.game, now)
    state = selectors.table_state(table)
    seat = seat or entry.call_seat
    assert seat is not None
    his_lockups = Lockup.objects.filter(
        table=table, player=player, released_at__isnull=True
    )
    held_for_him = his_lockups.filter(seat=seat).exists()
    if seat != entry.call_seat and seat not in state.free_seats and not held_for_him:
        raise Conflict(
            _("Seat %(s)d is taken or held.") % {"s": seat}, code="seat_taken"
        )
    _refuse_if_kept_apart(
        player, [p for p in state.seated.values() if p != player.code]
    )
    origin = selectors.open_session(player)
    house = (
        Kind(entry.kind) in HOUSE_MOVES
        and origin is not None
        and origin.pk == entry.from_session_id
        and origin.stack_cents > 0
    )
    if origin is not None and origin.table_id == table.pk and not house:
        raise RuleViolation(
            _("WL6: %(p)s already sits at %(t)s.")
            % {"p": player.code, "t": table.code},
            code="already_seated",
            rule="WL6",
        )
    stack = 0
    if origin is not None and not house:
        stack = origin.stack_cents
        floor.seat_leave(
            table_code=origin.table.code,
            seat=origin.seat,
            stack=stack,
            source=actor.source,
            by=actor.by,
            now=now,
        )
    if not house and amount is None:
        if stack == 0:
            raise ApiError(
                _("A player who brings no stack buys in: give amount and method."),
                code="amount_required",
            )
        top = table.game.max_buy_in_cents
        amount = stack if top is None else min(stack, top)  # BI5 (c): capped
        method = method or StackMovement.Method.CHIPS
    for lockup in his_lockups.select_for_update(of=("self",)).order_by("pk"):
        _release(lockup, Lockup.Release.TAKEN, now, actor, reason=_("He sat down."))
    if house:
        # The floor moves his stack as the ledger holds it, never an amount (BI7).
        assert origin is not None
        session = floor.seat_move(
            from_table=origin.table.code,
            from_seat=origin.seat,
            to_table=table.code,
            to_seat=seat,
            why=HOUSE_MOVE_WHY[Kind(entry.kind)],
            source=actor.source,
            by=actor.by,
            now=now,
        )
        amount = session.stack_cents
    else:
        assert amount is not None
        session = floor.seat_take(
            table_code=table.code,
            seat=seat,
            player_code=player.code,
            amount=amount,
            method=method or StackMovement.Method.CASH,
            source=actor.source,
            by=actor.by,
            now=now,
        )
    _end(
        entry,
        status=Entry.Status.SEATED,
        end=Entry.End.SEATED,
        now=now,
        session=session,
    )
    _event(
        Event.Kind.SEATED,
        now=now,
        actor=actor,
        rule={"list": "WL5" if origin else "WL2"}.get(entry.kind, "BI7"),
        reason=_("Sat down in the seat he was called to."),
        details={
            "table": table.code,
            "seat": seat,
            "from": f"{origin.table.code}/{origin.seat}" if origin else None,
            "house_move": house,
            "amount": amount,
            "stack": session.stack_cents,
            "buy_in_kind": session.kind,
        },
        entry=entry,
        table=table,
    )
    _cancel_other_calls(entry, now, actor)
    if origin is not None and origin.table_id != table.pk:
        _close_if_broken_and_empty(origin.table, now, actor)
    return entry, session


def _uncall(
    entry: Entry, now: datetime, actor: Actor, *, rule: str, reason: str
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
    _event(
        Event.Kind.CALL_CANCELLED,
        now=now,
        actor=actor,
        rule=rule,
        reason=reason,
        entry=entry,
        table=table,
    )


def _cancel_other_calls(entry: Entry, now: datetime, actor: Actor) -> None:
    """He sits down: calls for him elsewhere free their seats (WL6)."""
    for other in _lock_entries(
        Entry.objects.filter(player=entry.player, status=Entry.Status.CALLED).exclude(
            pk=entry.pk
        )
    ):
        _uncall(
            other,
            now,
            actor,
            rule="WL6",
            reason=_("Seated elsewhere: one seat at a time; he keeps his place."),
        )


def _close_if_broken_and_empty(table: Table, now: datetime, actor: Actor) -> None:
    table.refresh_from_db()
    if (
        table.status == Table.Status.OPEN
        and selectors.is_broken(table)
        and not table.sessions.filter(ended_at__isnull=True).exists()
    ):
        floor.table_close(table=table, now=now)
        _event(
            Event.Kind.TABLE_CLOSED,
            now=now,
            actor=actor,
            rule="WL3",
            reason=_("The broken table's last player moved: the table is closed."),
            table=table,
        )


@retry_on_conflict()
@transaction.atomic
def entry_remove(
    *,
    entry_id: int,
    reason: str = "",
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> Entry:
    """Take a player off a list (at his request or the floor's); a call frees its seat.

    Raises :class:`Conflict` when he is no longer on it.
    """
    now = now or timezone.now()
    entry = _locked_entry(entry_id, now)
    if entry.status not in ACTIVE:
        raise Conflict(
            _("The entry is %(s)s already.") % {"s": entry.get_status_display()},
            code="not_on_list",
        )
    _end(entry, status=Entry.Status.REMOVED, end=Entry.End.REMOVED, now=now)
    _event(
        Event.Kind.REMOVED,
        now=now,
        actor=actor,
        reason=reason or _("Removed by the floor."),
        entry=entry,
        table=entry.call_table,
    )
    return entry


# Seat changes (WL10) ------------------------------------------------------------------


@retry_on_conflict()
@transaction.atomic
def seat_change_request(
    *,
    player_code: str,
    table_code: str,
    seat: int | None = None,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> Entry:
    """Record a seated player's request for another seat or table of his game (WL10).

    When a seat opens there, he is called before new players from the list; the
    floor grants the change as a house move, so he keeps his stack. Raises
    :class:`RuleViolation`: WL10 when he doesn't play this game (new players join the
    list), WL9 when a player kept apart from him sits there, WL1 when he already
    waits in this game.
    """
    now = now or timezone.now()
    table = floor.table_get_open(table_code, lock=False)
    (wl,) = _lock_lists([list_for_game(table.game).pk])
    _refresh(wl, now)
    player = floor.player_get(player_code)
    session = selectors.open_session(player)
    if session is None or session.game_id != table.game_id:
        raise RuleViolation(
            _("WL10: %(p)s doesn't play this game; new players join the list.")
            % {"p": player.code},
            code="not_in_game",
            rule="WL10",
        )
    if seat is not None and (
        not 1 <= seat <= table.seats
        or (session.table_id == table.pk and session.seat == seat)
    ):
        raise RuleViolation(
            _("Seat %(s)d is no other seat at this table.") % {"s": seat},
            code="no_such_seat",
            rule="WL10",
            allowed={"min": 1, "max": table.seats},
        )
    if selectors.is_broken(table):
        raise RuleViolation(
            _("WL3: table %(t)s is being broken; it takes no players.")
            % {"t": table.code},
            code="table_breaking",
            rule="WL3",
        )
    state = selectors.table_state(table)
    _refuse_if_kept_apart(
        player, [p for p in state.seated.values() if p != player.code]
    )
    if wl.entries.filter(player=player, status__in=ACTIVE).exists():
        raise RuleViolation(
            _("WL1: %(p)s already waits in this game.") % {"p": player.code},
            code="already_listed",
            rule="WL1",
        )
    entry = Entry.objects.create(
        waiting_list=wl,
        player=player,
        kind=Kind.SEAT_CHANGE,
        joined_at=now,
        joined_by=actor.by,
        table=table,
        seat=seat,
        from_session=session,
    )
    _event(
        Event.Kind.SEAT_CHANGE_REQUESTED,
        now=now,
        actor=actor,
        rule="WL10",
        reason=_("Asks for another seat; players in the game come before new players."),
        details={
            "from": f"{session.table.code}/{session.seat}",
            "to": table.code,
            "seat": seat,
        },
        entry=entry,
        table=table,
    )
    return entry


# Must-move (WL7) ----------------------------------------------------------------------


@retry_on_conflict()
@transaction.atomic
def must_move_start(
    *,
    table_code: str,
    main_code: str,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> MustMove:
    """Make ``table_code`` a must-move game feeding the main game ``main_code`` (WL7).

    Its players go on the main game's queue in list order and move there, keeping
    their stacks, as seats open. Raises :class:`RuleViolation` (WL7) unless both
    are open tables of the same game and the main game feeds no other.
    """
    now = now or timezone.now()
    table, main = (
        floor.table_get_open(table_code, lock=False),
        floor.table_get_open(main_code, lock=False),
    )
    (wl,) = _lock_lists([list_for_game(main.game).pk])
    _refresh(wl, now)
    if table.pk == main.pk or table.game_id != main.game_id:
        raise RuleViolation(
            _("WL7: a must-move game feeds another table of the same game."),
            code="not_same_game",
            rule="WL7",
        )
    if MustMove.objects.filter(
        Q(table=main) | Q(main=table) | Q(table=table), ended_at__isnull=True
    ).exists():
        raise RuleViolation(
            _("WL7: one of these tables is in a must-move already."),
            code="must_move_exists",
            rule="WL7",
        )
    must_move = MustMove.objects.create(
        table=table, main=main, started_at=now, started_by=actor.by
    )
    _event(
        Event.Kind.MUST_MOVE_STARTED,
        now=now,
        actor=actor,
        rule="WL7",
        reason=_(
            "A second game of the kind opened: its players move to the main game."
        ),
        details={"table": table.code, "main": main.code},
        waiting_list=wl,
        table=table,
    )
    _sync_must_move(wl, main, now, actor)
    return must_move


@retry_on_conflict()
@transaction.atomic
def must_move_end(
    *, must_move_id: int, actor: Actor = Actor(), now: datetime | None = None
) -> MustMove:
    """End a must-move; its players' places in the main game's queue end too (WL7)."""
    now = now or timezone.now()
    must_move = (
        MustMove.objects.select_related("table", "main__game")
        .filter(pk=must_move_id)
        .first()
    )
    if must_move is None:
        raise ApiError(_("No such must-move."), code="not_found", status_code=404)
    (wl,) = _lock_lists([list_for_game(must_move.main.game).pk])
    must_move = MustMove.objects.select_for_update().get(pk=must_move_id)
    if must_move.ended_at is not None:
        raise Conflict(_("This must-move has ended already."), code="ended")
    _end_must_move(must_move, wl, now, actor)
    return must_move


def _end_must_move(
    must_move: MustMove, wl: WaitingList, now: datetime, actor: Actor
) -> None:
    must_move.ended_at, must_move.ended_by = now, actor.by
    must_move.save(update_fields=["ended_at", "ended_by"])
    for entry in _lock_entries(
        wl.entries.filter(
            kind=Kind.MUST_MOVE,
            table=must_move.main_id,
            from_session__table=must_move.table_id,
            status__in=ACTIVE,
        )
    ):
        _end(entry, status=Entry.Status.REMOVED, end=Entry.End.REMOVED, now=now)
        _event(
            Event.Kind.REMOVED,
            now=now,
            actor=actor,
            rule="WL7",
            reason=_("The must-move ended."),
            entry=entry,
        )
    _event(
        Event.Kind.MUST_MOVE_ENDED,
        now=now,
        actor=actor,
        rule="WL7",
        details={"table": must_move.table.code, "main": must_move.main.code},
        waiting_list=wl,
        table=must_move.table,
    )


# Closed tables (WL3, WL4, BI7) --------------------------------------------------------


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
    actor: Actor = Actor(),
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
    table = floor.table_get_open(table_code, lock=False)
    (wl,) = _lock_lists([list_for_game(table.game).pk])
    _refresh(wl, now)
    if selectors.is_broken(table):
        raise Conflict(
            _("Table %(t)s is being broken already.") % {"t": table.code},
            code="table_breaking",
        )
    sessions = {
        s.player.code: s
        for s in SeatSession.objects.select_related("player", "table").filter(
            table=table, ended_at__isnull=True
        )
    }
    seed = secrets.randbits(62) if seed is None else seed
    order = draw(list(sessions), seed)
    broken = TableBreak.objects.create(
        table=table, at=now, seed=seed, order=order, by=actor.by
    )
    _event(
        Event.Kind.DRAW,
        now=now,
        actor=actor,
        rule="WL3",
        reason=_("The table closes: a draw orders its players for the seats."),
        details={"seed": seed, "order": order},
        waiting_list=wl,
        table=table,
    )
    for must_move in MustMove.objects.select_related("table", "main").filter(
        Q(table=table) | Q(main=table), ended_at__isnull=True
    ):
        _end_must_move(must_move, wl, now, actor)
    for entry in _lock_entries(
        Entry.objects.filter(
            Q(table=table) | Q(from_session__table=table), status__in=ACTIVE
        )
    ):
        _end(entry, status=Entry.Status.REMOVED, end=Entry.End.TABLE_CLOSED, now=now)
        _event(
            Event.Kind.REMOVED,
            now=now,
            actor=actor,
            rule="WL3",
            reason=_("The table he waited for or moved from closes."),
            entry=entry,
        )
    for entry in _lock_entries(
        Entry.objects.filter(call_table=table, status=Entry.Status.CALLED)
    ):
        _uncall(
            entry,
            now,
            actor,
            rule="WL3",
            reason=_("The table closes; he keeps his place."),
        )
    for lockup in Lockup.objects.select_for_update().filter(
        table=table, released_at__isnull=True
    ):
        _release(
            lockup,
            Lockup.Release.FLOOR,
            now,
            actor,
            rule="WL3",
            reason=_("The table closes."),
        )

    moved: list[dict[str, Any]] = []
    waiting: list[Entry] = []
    for draw_no, code in enumerate(order, 1):
        session = sessions[code]
        target = None
        if session.stack_cents > 0:
            pairs = selectors.apart_pairs([session.player_id])
            assert table.game is not None
            loads = selectors.table_loads(table.game)
            states = {load.table: state for load, state in loads}
            for load in table_order(load for load, _state in loads):
                state = states[load.table]
                others = set(state.seated.values()) | set(state.called.values())
                if not kept_apart(code, others, pairs):
                    target = state
                    break
        if target is None:
            entry = Entry.objects.create(
                waiting_list=wl,
                player=session.player,
                kind=Kind.CLOSED_TABLE,
                joined_at=now,
                joined_by=actor.by,
                draw_no=draw_no,
                from_session=session,
            )
            _event(
                Event.Kind.JOINED,
                now=now,
                actor=actor,
                rule="WL3",
                reason=_("No seat free: waits ahead of the list in the draw's order."),
                details={"draw_no": draw_no},
                entry=entry,
                table=table,
            )
            waiting.append(entry)
            continue
        seat = min(target.free_seats)
        new = floor.seat_move(
            from_table=table.code,
            from_seat=session.seat,
            to_table=target.table.code,
            to_seat=seat,
            why="table_break",
            source=actor.source,
            by=actor.by,
            now=now,
        )
        move = {
            "player": code,
            "draw_no": draw_no,
            "table": target.table.code,
            "seat": seat,
            "stack": new.stack_cents,
        }
        moved.append(move)
        _event(
            Event.Kind.MOVED,
            now=now,
            actor=actor,
            rule="WL3",
            reason=_("Moved from the closed table, keeping his stack (BI7)."),
            details={**move, "from": f"{table.code}/{session.seat}"},
            waiting_list=wl,
            table=target.table,
            player=session.player,
        )
    _close_if_broken_and_empty(table, now, actor)
    return BreakResult(broken, moved, waiting)


# Table balancing (BI7) ----------------------------------------------------------------


@retry_on_conflict()
@transaction.atomic
def table_balance(
    *,
    table_code: str,
    seat: int,
    to_table: str,
    to_seat: int | None = None,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> SeatSession:
    """Balance two tables of a game: the player in ``seat`` moves to ``to_table``.

    A house move (BI7): he keeps the stack the ledger holds, even below the new
    table's minimum. Both tables deal the same game at the same stakes, and the
    table he leaves has at least two players more than the one he goes to (the move
    makes them more even); the house keeps pairs apart there too (WL9). He goes to
    ``to_seat`` or the lowest free seat. Raises :class:`RuleViolation` (BI7, WL9)
    and :class:`Conflict` when the seat is taken or held.
    """
    now = now or timezone.now()
    source = floor.table_get_open(table_code, lock=False)
    target = floor.table_get_open(to_table, lock=False)
    if target.pk == source.pk or target.game_id != source.game_id:
        raise RuleViolation(
            _(
                "BI7: tables are balanced within one game; %(t)s doesn't deal the"
                " game of %(s)s."
            )
            % {"t": target.code, "s": source.code},
            code="not_the_same_game",
            rule="BI7",
        )
    there, here = selectors.table_state(target), selectors.table_state(source)
    if here.players < there.players + 2:
        raise RuleViolation(
            _(
                "BI7: balancing moves a player from the fuller table; %(s)s has"
                " %(n)d, %(t)s %(m)d."
            )
            % {
                "s": source.code,
                "n": here.players,
                "t": target.code,
                "m": there.players,
            },
            code="tables_balanced",
            rule="BI7",
            allowed={"min": there.players + 2, "max": None},
        )
    code = here.seated.get(seat)
    if code is None:
        raise ApiError(
            _("Nobody sits in seat %(s)d.") % {"s": seat},
            code="seat_empty",
            status_code=404,
        )
    new_seat = to_seat if to_seat is not None else _first_free(there)
    if new_seat is None or new_seat not in there.free_seats:
        raise Conflict(
            _("No free seat at %(t)s.") % {"t": target.code}
            if new_seat is None
            else _("Seat %(s)d is taken or held.") % {"s": new_seat},
            code="seat_taken",
        )
    player = Player.objects.get(code=code)
    _refuse_if_kept_apart(player, there.seated.values())
    session = floor.seat_move(
        from_table=source.code,
        from_seat=seat,
        to_table=target.code,
        to_seat=new_seat,
        why="table_balance",
        source=actor.source,
        by=actor.by,
        now=now,
    )
    _event(
        Event.Kind.MOVED,
        now=now,
        actor=actor,
        rule="BI7",
        reason=_("Moved to balance the tables, keeping his stack (BI7)."),
        details={
            "player": code,
            "from": f"{source.code}/{seat}",
            "table": target.code,
            "seat": new_seat,
            "stack": session.stack_cents,
        },
        table=target,
        player=player,
    )
    return session


# Lockups (WL8) ------------------------------------------------------------------------


@retry_on_conflict()
@transaction.atomic
def lockup_take(
    *,
    table_code: str,
    seat: int,
    kind: str = Lockup.Kind.SEAT,
    player_code: str | None = None,
    note: str = "",
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> Lockup:
    """Hold a free seat for a player on his way (WL8).

    While players wait on the game's list a new game's lockup is released after 5
    minutes and any other after 10. Raises :class:`Conflict` when the seat is
    taken, called or held.
    """
    now = now or timezone.now()
    table = floor.table_get_open(table_code, lock=False)
    (wl,) = _lock_lists([list_for_game(table.game).pk])
    _refresh(wl, now)
    player = floor.player_get(player_code) if player_code else None
    _seat_exists(table, seat)
    if seat not in selectors.table_state(table).free_seats:
        raise Conflict(
            _("Seat %(s)d is taken or held.") % {"s": seat}, code="seat_taken"
        )
    lockup = Lockup.objects.create(
        table=table,
        seat=seat,
        player=player,
        kind=kind,
        note=note,
        locked_at=now,
        locked_by=actor.by,
    )
    _event(
        Event.Kind.LOCKUP_TAKEN,
        now=now,
        actor=actor,
        rule="WL8",
        reason=note or lockup.get_kind_display(),
        details={"seat": seat, "kind": kind},
        waiting_list=wl,
        table=table,
        player=player,
    )
    return lockup


@retry_on_conflict()
@transaction.atomic
def lockup_release(
    *, lockup_id: int, actor: Actor = Actor(), now: datetime | None = None
) -> Lockup:
    """Release a held seat. Raises :class:`Conflict` when it was released already."""
    now = now or timezone.now()
    lockup = Lockup.objects.select_related("table__game").filter(pk=lockup_id).first()
    if lockup is None:
        raise ApiError(_("No such lockup."), code="not_found", status_code=404)
    if lockup.table.game is not None:
        (wl,) = _lock_lists([list_for_game(lockup.table.game).pk])
        _refresh(wl, now)
    lockup = (
        Lockup.objects.select_for_update(of=("self",))
        .select_related("table", "player")
        .get(pk=lockup_id)
    )
    if lockup.released_at is not None:
        raise Conflict(_("This lockup was released already."), code="released")
    _release(lockup, Lockup.Release.FLOOR, now, actor)
    return lockup


# Pairs kept apart (WL9) ---------------------------------------------------------------


@transaction.atomic
def apart_keep(
    *,
    player_codes: tuple[str, str],
    reason: str,
    actor: Actor = Actor(),
    now: datetime | None = None,
) -> KeptApart:
    """Keep two players out of the same game from now on (WL9).

    Raises :class:`RuleViolation` (WL9) for one player twice or a pair kept apart
    already, and (DC2) without a reason.
    """
    now = now or timezone.now()
    a, b = sorted((floor.player_get(c) for c in player_codes), key=lambda p: p.pk)
    if a.pk == b.pk:
        raise RuleViolation(
            _("WL9: a pair is two different players."), code="same_player", rule="WL9"
        )
    if not reason.strip():
        raise RuleViolation(_("Say why."), code="reason_required", rule="DC2")
    if KeptApart.objects.filter(player_a=a, player_b=b, ended_at__isnull=True).exists():
        raise RuleViolation(
            _("WL9: these players are kept apart already."),
            code="kept_apart_already",
            rule="WL9",
        )
    pair = KeptApart.objects.create(
        player_a=a, player_b=b, reason=reason, created_at=now, created_by=actor.by
    )
    _event(
        Event.Kind.KEPT_APART,
        now=now,
        actor=actor,
        rule="WL9",
        reason=reason,
        details={"players": [a.code, b.code]},
        player=a,
    )
    return pair


@transaction.atomic
def apart_end(
    *, pair_id: int, actor: Actor = Actor(), now: datetime | None = None
) -> KeptApart:
    """Stop keeping a pair apart (WL9). Raises :class:`Conflict` when it ended."""
    now = now or timezone.now()
    pair = KeptApart.objects.select_for_update().filter(pk=pair_id).first()
    if pair is None:
        raise ApiError(_("No such pair."), code="not_found", status_code=404)
    if pair.ended_at is not None:
        raise Conflict(_("This pair is not kept apart any more."), code="ended")
    pair.ended_at, pair.ended_by = now, actor.by
    pair.save(update_fields=["ended_at", "ended_by"])
    _event(
        Event.Kind.KEPT_APART_ENDED,
        now=now,
        actor=actor,
        rule="WL9",
        details={"players": [pair.player_a.code, pair.player_b.code]},
        player=pair.player_a,
    )
    return pair


# Time collection (RK6) ----------------------------------------------------------------


def _new_since(table: Table, before: datetime) -> datetime | None:
    """When players who sit down count as new: the previous collection, else the
    table's first hand since it opened; None while no hand was dealt (RK6)."""
    previous = (
        TimeCollection.objects.filter(table=table, period_start__lt=before)
        .order_by("-collected_at")
        .values_list("collected_at", flat=True)
        .first()
    )
    if previous is not None:
        return previous
    first = (
        Hand.objects.filter(table=table, ended_at__gte=table.opened_at)
        .order_by("ended_at")
        .first()
    )
    if first is None:
        return None
    return first.started_at or first.ended_at


def _reached_blind(sessions: list[SeatSession], button_game: bool) -> set[int]:
    """Return the sessions that had their blind (stud: their first hand) (RK6)."""
    reached: set[int] = set()
    rows = HandSeat.objects.filter(
        session__in=sessions, hand__status=Hand.Status.BOOKED
    ).select_related("hand")
    for row in rows:
        if not button_game:
            reached.add(row.session_id)
            continue
        record = row.hand.record
        dealt = [s["seat"] for s in record.get("seats", [])]
        if row.seat in blind_seats(record.get("button"), dealt):
            reached.add(row.session_id)
    return reached


@retry_on_conflict()
@transaction.atomic
def time_collect(
    *, table_code: str, actor: Actor = Actor(), now: datetime | None = None
) -> tuple[TimeCollection, bool]:
    """Collect the period's time from the table's seats; return it and whether new.

    The period and amount come from the game's policy (``time`` section); the
    exemption from the game's waiting list at this moment: two or more waiting,
    everyone pays; otherwise a new player skips it until his blind, or his first
    hand in stud games (RK6). Booked once per period through the floor's
    ``seat_time_charge``; asking again in the same period returns the first
    collection. Raises :class:`RuleViolation` (RK6) when the game isn't raked by
    time or its policy has no usable ``time`` section.
    """
    now = now or timezone.now()
    table = floor.table_get_open(table_code, lock=False)
    game = table.game
    assert game is not None and table.room is not None
    (wl,) = _lock_lists([list_for_game(game).pk])
    _refresh(wl, now)
    policy = game.current_policy()
    try:
        terms = time_policy(policy.document)
    except TimeRefused as error:
        raise RuleViolation(error.detail, code=error.code, rule=error.rule) from error
    start, end = terms.period(now.astimezone(table.room.tz))
    done = TimeCollection.objects.filter(table=table, period_start=start).first()
    if done is not None:
        return done, False
    waiting = wl.entries.filter(
        status__in=ACTIVE, kind__in=[Kind.LIST, Kind.CLOSED_TABLE]
    ).count()
    since = _new_since(table, start)
    sessions = list(
        SeatSession.objects.select_related("player").filter(
            table=table, ended_at__isnull=True
        )
    )
    new = [s for s in sessions if since is not None and s.started_at > since]
    reached = _reached_blind(new, button_game=not GAMES[game.code].is_stud)
    decided: Collection = time_charges(
        [
            SeatFacts(
                s.seat,
                s.player.code,
                s.stack_cents,
                new=s in new,
                reached_blind=s.pk in reached,
            )
            for s in sessions
        ],
        waiting=waiting,
        amount=terms.amount,
    )
    players = {s.seat: s.player.code for s in sessions}
    if decided.charges:
        floor.seat_time_charge(
            table_code=table.code,
            charges=decided.charges,
            reference=start.isoformat(),
            source=actor.source,
            by=actor.by,
            now=now,
        )
    collection = TimeCollection.objects.create(
        table=table,
        game=game,
        policy=policy,
        period_start=start,
        period_end=end,
        collected_at=now,
        amount_cents=terms.amount,
        waiting=waiting,
        everyone_pays=decided.everyone_pays,
        charged=[
            {"seat": seat, "player": players[seat], "amount": amount}
            for seat, amount in decided.charges.items()
        ],
        exempt=[
            {"seat": seat, "player": players[seat], "reason": str(why)}
            for seat, why in decided.exempt.items()
        ],
        total_cents=sum(decided.charges.values()),
        by=actor.by,
        source=actor.source if actor.by is None else "",
    )
    _event(
        Event.Kind.TIME_COLLECTED,
        now=now,
        actor=actor,
        rule="RK6",
        reason=(
            _("Two or more waiting: everyone pays.")
            if decided.everyone_pays
            else _("Fewer than two waiting: new players skip until their blind.")
        ),
        details={
            "period_start": start.isoformat(),
            "waiting": waiting,
            "charged": collection.charged,
            "exempt": collection.exempt,
        },
        waiting_list=wl,
        table=table,
    )
    return collection, True
