"""Seating an event (TO2, TO11): seats drawn at random from a recorded seed, tables
broken and balanced (the map of who sits where is ``selectors.table_map``).

Each service locks the event's row, turns the rows into the pure values of
``tournaments.domain.tables``, asks them, and records what they decided: a
:class:`SeatMove` for every seat drawn or moved, with the seed, so an auditor
replays the draw from the record.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Refusal
from tournaments import selectors
from tournaments.domain import tables as table_rules
from tournaments.errors import Code, refuse
from tournaments.models import Entry, Event, EventTable, SeatMove
from tournaments.services._shared import event_get


def _seating(
    event: Event,
    tables: Sequence[EventTable],
    big_blinds: Mapping[str, int] | None = None,
) -> tuple[list[table_rules.TableSeats], dict[str, Entry]]:
    live = list(
        Entry.objects.select_for_update()
        .filter(event=event, status=Entry.Status.ACTIVE)
        .exclude(seat__isnull=True)
        .order_by("pk")
    )
    by_code = {str(e.pk): e for e in live}
    seated: dict[str, dict[int, str]] = {t.table: {} for t in tables}
    for entry in live:
        if entry.table in seated and entry.seat is not None:
            seated[entry.table][entry.seat] = str(entry.pk)
    big_blinds = big_blinds or {}
    values = [
        table_rules.TableSeats(
            t.table, t.seats, seated[t.table], big_blind=big_blinds.get(t.table)
        )
        for t in tables
    ]
    return values, by_code


def _record(
    event: Event,
    moves: Sequence[table_rules.Move],
    entries: Mapping[str, Entry],
    *,
    seed: str,
    by: User | None,
    now: datetime,
) -> list[SeatMove]:
    records = []
    for move in moves:
        entry = entries[move.player]
        entry.table, entry.seat = move.to_table, move.to_seat
        entry.save(update_fields=["table", "seat"])
        records.append(
            SeatMove.objects.create(
                event=event,
                entry=entry,
                reason=move.reason.value,
                from_table=move.from_table or "",
                from_seat=move.from_seat,
                to_table=move.to_table,
                to_seat=move.to_seat,
                seed=seed,
                by=by,
                at=now,
            )
        )
    return records


def _no_tables(event: Event) -> Refusal:
    return refuse(Code.NO_TABLES, rule="TO11", event=event.code)


@transaction.atomic
def seats_draw(
    *,
    event_code: str,
    entries: Sequence[int] | None = None,
    seed: str | None = None,
    by: User | None,
    now: datetime | None = None,
    alternates: bool = False,
) -> list[SeatMove]:
    """Draw a random seat for each live entry without one (TO2, TO11).

    ``entries`` limits the draw to those entry ids (an alternate, a late entrant,
    a re-entry); the draw goes in entry order. The seed (a fresh random one unless
    given) is recorded with every seat so the draw can be replayed. With
    ``alternates`` (the cage's registration), no table or too few seats draw
    nothing: the entrants wait as alternates.

    Raises :class:`NotFound` for an unknown event, :class:`Refusal` (TO11) when
    the event has no open table or no seat is left.
    """
    now = now or timezone.now()
    event = event_get(code=event_code, lock=True)
    tables = selectors.tables_open(event)
    if not tables:
        if alternates:
            return []
        raise _no_tables(event)
    values, seated = _seating(event, tables)
    waiting = Entry.objects.select_for_update().filter(
        event=event, status=Entry.Status.ACTIVE, seat__isnull=True
    )
    if entries is not None:
        waiting = waiting.filter(pk__in=entries)
    drawn = {str(e.pk): e for e in waiting.order_by("number")}
    if not drawn:
        return []
    free = sum(len(v.empty) for v in values)
    if free < len(drawn) and alternates:
        return []
    if free < len(drawn):
        raise refuse(
            Code.NO_SEAT_LEFT,
            rule="TO11",
            allowed={"seats": free},
            n=free,
            m=len(drawn),
        )
    seed = seed or secrets.token_hex(16)
    moves = table_rules.draw_seats(
        list(drawn), values, order=[t.table for t in tables], seed=seed
    )
    return _record(event, moves, {**seated, **drawn}, seed=seed, by=by, now=now)


@dataclass(frozen=True, slots=True)
class Rebalance:
    """What :func:`tables_rebalance` did: tables broken, seats moved, halts left."""

    broken: tuple[str, ...]
    moves: tuple[SeatMove, ...]
    seed: str


@transaction.atomic
def tables_rebalance(
    *,
    event_code: str,
    big_blinds: Mapping[str, int] | None = None,
    stud: bool = False,
    tolerance: int = 1,
    seed: str | None = None,
    by: User | None,
    now: datetime | None = None,
) -> Rebalance:
    """Break the tables that can break and balance the rest (TO11, TDA R11, R12).

    ``big_blinds`` gives, per table, the seat that posted the big blind in its last
    hand (the dealer's report): the player to be big blind next moves, to the
    worst position at the short table. Tables break in the event's breaking order;
    their players draw new seats (the seed is recorded). Each player moved takes
    the seat assigned with his stack: his entry's seat changes and a
    :class:`SeatMove` records why.

    Raises :class:`NotFound` for an unknown event, :class:`Refusal` (TO11) when it
    has no open table, and ``Invalid`` (TO11) for a tolerance below one.
    """
    now = now or timezone.now()
    event = event_get(code=event_code, lock=True)
    tables = selectors.tables_open(event)
    if not tables:
        raise _no_tables(event)
    values, seated = _seating(event, tables, big_blinds)
    seed = seed or secrets.token_hex(16)
    result = table_rules.plan(
        values,
        order=[t.table for t in tables],
        seed=seed,
        game=table_rules.Game.STUD if stud else table_rules.Game.FLOP,
        tolerance=tolerance,
    )
    # The broken tables' players leave them first; the moves then fill seats
    # that are empty at their turn.
    records = _record(event, result.moves, seated, seed=seed, by=by, now=now)
    for table in tables:
        if table.table in result.broken:
            table.status, table.broken_at = EventTable.Status.BROKEN, now
            table.save(update_fields=["status", "broken_at"])
    return Rebalance(result.broken, tuple(records), seed)


def entry_seat_draw(
    *, event: Event, entry: Entry, by: User | None, at: datetime
) -> SeatMove | None:
    """Draw ``entry``'s seat at random among the event's empty seats (TO2, TO11),
    or ``None`` when every seat is taken (he is an alternate).

    The seeded draw of :func:`seats_draw`: the seed is recorded with the seat, so
    an auditor replays the draw from the record.
    """
    moves = seats_draw(
        event_code=event.code, entries=[entry.pk], by=by, now=at, alternates=True
    )
    if not moves:
        return None
    entry.table, entry.seat = moves[0].to_table, moves[0].to_seat
    return moves[0]
