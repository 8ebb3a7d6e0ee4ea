"""The floor's use cases for an event: its clock (TO12) and its seats (TO2, TO11).

Each service locks the event's row, turns the rows into the pure values of
``tournaments.domain.clock`` and ``tournaments.domain.tables``, asks them, and
records what they decided: a clock change, or the seats drawn and moved. The
clock's state is never stored, only replayed from its log.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounting.models import Account
from core.errors import Refusal
from core.money import money_format
from tournaments import chart, selectors, services
from tournaments.domain import clock as clock_rules
from tournaments.domain import tables as table_rules
from tournaments.domain.payouts import PayoutError, shares_for
from tournaments.errors import Code, conflict, missing, refuse
from tournaments.models import (
    Bust,
    ChipMovement,
    ClockChange,
    Entry,
    Event,
    EventTable,
    Level,
    SeatMove,
)


def event_get(*, code: str, lock: bool = False) -> Event:
    """Return the event ``code``, locked for the rest of the transaction if asked.

    Raises :class:`NotFound`.
    """
    events = Event.objects.select_related("structure")
    if lock:
        events = events.select_for_update(of=("self",))
    try:
        return events.get(code=code)
    except Event.DoesNotExist:
        raise missing(Code.NO_SUCH_EVENT, code=code) from None


# --- The clock (TO12) ------------------------------------------------------------

# The clock is read in ``selectors`` (the cage's services read it too); these are
# the floor's names for it.
Clock = selectors.Clock
clock_of = selectors.clock_of
structure_of = selectors.structure_of
_log = selectors.clock_log


@transaction.atomic
def clock_change(
    *,
    event_code: str,
    action: str,
    level: int | None = None,
    seconds: int | None = None,
    reason: str = "",
    by: User | None,
    source: str = "",
    now: datetime | None = None,
) -> Clock:
    """Start, pause, resume, move or stop the event's clock, or add time (TO12).

    ``level`` is the structure's level number to move (or start) at; ``seconds``
    the time left there, or the seconds added. Every change is logged with who
    made it and why.

    Starting the clock starts a scheduled event (scheduled → running, in the same
    transaction): busts are taken from then on (TO4). Stopping it stops the clock
    only: registration, rebuys and the add-on close with it (TO1), and the event
    finishes when its winner is known, as the busts decide.

    Raises :class:`NotFound` for an unknown event; :class:`Invalid` (TO12) for a
    level or seconds the action doesn't take (``clock.check_fields``);
    :class:`Refusal` (TO12) for a change the clock can't take now (see
    ``clock.check_event``), an unknown level, or an event that is over or
    cancelled. A refusal writes nothing.
    """
    now = now or timezone.now()
    act = clock_rules.Action(action)
    clock_rules.check_fields(act, level=level, seconds=seconds)
    event = event_get(code=event_code, lock=True)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise refuse(
            Code.EVENT_OVER,
            text="clock",
            rule="TO12",
            status=event.get_status_display(),
        )
    rows, structure = structure_of(event)
    numbers = [row.number for row in rows]
    period = None
    if level is not None:
        if level not in numbers:
            raise refuse(
                Code.NO_SUCH_LEVEL, rule="TO12", allowed={"levels": numbers}, n=level
            )
        period = numbers.index(level)
    entry = clock_rules.ClockEvent(act, now, period=period, seconds=seconds)
    clock_rules.check_event(structure, _log(event, rows), entry)
    if act is clock_rules.Action.START and event.status == Event.Status.SCHEDULED:
        event = services.event_start(event=event)
    ClockChange.objects.create(
        event=event,
        action=act.value,
        level=level,
        seconds=seconds,
        reason=reason[:200],
        by=by,
        source=source[:64],
        at=now,
    )
    return clock_of(event, now=now)


def level_for_hand(event: Event, *, started_at: datetime) -> Level:
    """Return the level row a hand begun at ``started_at`` is played at (TO12).

    Raises :class:`Refusal` (TO12) before the clock starts.
    """
    rows, structure = structure_of(event)
    level = clock_rules.level_for_hand(structure, _log(event, rows), started_at)
    return rows[list(structure).index(level)]


# --- Seats (TO2, TO11) -----------------------------------------------------------


def _open_tables(event: Event) -> list[EventTable]:
    return list(
        EventTable.objects.filter(event=event, status=EventTable.Status.OPEN).order_by(
            "break_order"
        )
    )


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
    tables = _open_tables(event)
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
    tables = _open_tables(event)
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


def table_map(event: Event) -> list[dict[str, Any]]:
    """Return the event's open tables with their seats, for the floor's map (TO11)."""
    tables = _open_tables(event)
    live = (
        Entry.objects.select_related("player")
        .filter(event=event, status=Entry.Status.ACTIVE)
        .order_by("table", "seat")
    )
    seats: dict[str, dict[int, Entry]] = {t.table: {} for t in tables}
    unseated = []
    for entry in live:
        if entry.table in seats and entry.seat is not None:
            seats[entry.table][entry.seat] = entry
        else:
            unseated.append(entry)
    values = [
        table_rules.TableSeats(
            t.table, t.seats, {s: str(e.pk) for s, e in seats[t.table].items()}
        )
        for t in tables
    ]
    halted = set(table_rules.halted(values))
    return [
        {
            "table": t.table,
            "seats": t.seats,
            "break_order": t.break_order,
            "players": len(seats[t.table]),
            "halted": t.table in halted,
            "seated": [
                {
                    "seat": n,
                    "entry": seats[t.table][n].number,
                    "player": seats[t.table][n].player.code,
                }
                if n in seats[t.table]
                else {"seat": n, "entry": None, "player": None}
                for n in range(1, t.seats + 1)
            ],
        }
        for t in tables
    ]


# --- What the clocks and the board show ------------------------------------------


def chips_in_play(event: Event) -> int:
    """Return the chips issued less the chips removed (TO3)."""
    total = ChipMovement.objects.filter(event=event).aggregate(s=Sum("chips"))["s"]
    return int(total or 0)


def clock_display(event: Event, *, now: datetime | None = None) -> dict[str, Any]:
    """Return what a tournament clock shows (TO12): the level, blinds and ante, the
    time left, the next break, players left, the average stack, the prize pool and
    the places paid, and what the clock opens at the cage (TO1). No player's name
    or stack.

    ``prize_pool`` is the real pool (TO7): the buy-ins the pool holds, with the
    house's overlay only once a payout sheet has fixed it; ``guarantee`` is shown
    beside it, never in its place.
    """
    now = now or timezone.now()
    clock = clock_of(event, now=now)
    state = clock.state
    windows = selectors.cage_windows(event=event, at=now)
    entries = Entry.objects.filter(event=event)
    field_size = entries.exclude(status=Entry.Status.REFUNDED).count()
    left = entries.filter(status=Entry.Status.ACTIVE).count()
    chips = chips_in_play(event)
    sheet = getattr(event, "payout_sheet", None)
    if sheet is not None:
        pool_cents = int(sheet.pool_cents)
    else:
        # Read, not opened: a clock's GET writes nothing.
        pool = Account.objects.filter(code=chart.prize_pool_code(event=event.code))
        pool_cents = int(pool.values_list("balance_cents", flat=True).first() or 0)
    try:
        rows = [(int(r["min_entries"]), tuple(r["shares"])) for r in event.payout_table]
        paid = len(shares_for(field_size, rows or None)) if field_size else 0
    except (PayoutError, KeyError, TypeError, ValueError):
        paid = 0
    level = state.level if isinstance(state.level, clock_rules.Level) else None
    following = state.next_level
    return {
        "event": event.code,
        "name": event.name,
        "status": state.status.value,
        "level": state.level_number,
        "on_break": state.on_break,
        "small_blind": level.small_blind if level else None,
        "big_blind": level.big_blind if level else None,
        "ante": level.ante if level else None,
        "big_blind_ante": level.big_blind_ante if level else False,
        "seconds_left": state.seconds_left,
        "next_level": (
            {
                "level": state.level_number + 1,
                "small_blind": following.small_blind,
                "big_blind": following.big_blind,
                "ante": following.ante,
                "big_blind_ante": following.big_blind_ante,
            }
            if following
            else None
        ),
        "next_break_in": state.next_break_in_seconds,
        "players_left": left,
        "entries": field_size,
        "average_stack": chips // left if left else 0,
        "chips_in_play": chips,
        "prize_pool": pool_cents,
        "currency": event.currency,
        "places_paid": paid,
        "guarantee": int(event.guarantee_cents),
        "structure_level": clock.number,
        "registration_open": windows.registration,
        "rebuys_open": windows.rebuys,
        "addon_open": windows.addon,
    }


def board_events(*, now: datetime, language: str) -> list[dict[str, Any]]:
    """Return the clocks of the events running now, for the public board (TO12),
    with the prize pool and the guarantee written in ``language`` by core.money
    (``prize_pool_text``, ``guarantee_text``: whole units without cents)."""
    events = Event.objects.filter(status=Event.Status.RUNNING).order_by(
        "starts_at", "code"
    )
    clocks = []
    for event in events:
        if not event.structure_id:
            continue
        clock = clock_display(event, now=now)
        for name in ("prize_pool", "guarantee"):
            clock[f"{name}_text"] = money_format(
                clock[name], event.currency, language, whole=True
            )
        clocks.append(clock)
    return clocks


# --- What the terminals post (TO3, TO4) ------------------------------------------


@dataclass(frozen=True, slots=True)
class BustReport:
    """A player out, as a terminal reports him: his player code, his stack at the
    start of the hand (after posting in big-blind-ante games) and who won it."""

    player: str
    stack: int
    busted_by: tuple[str, ...] = ()


def _hand_key(table: str | None, hand: str) -> str:
    return f"{table}:{hand}" if table else hand


def _same_busts(recorded: Sequence[Any], reports: Sequence[BustReport]) -> bool:
    mine = sorted((r.player, r.stack) for r in reports)
    theirs = sorted((b.entry.player.code, int(b.stack_at_start)) for b in recorded)
    return mine == theirs


@transaction.atomic
def busts_report(
    *,
    event_code: str,
    hand: str,
    busts: Sequence[BustReport],
    table: str | None = None,
    hand_for_hand: bool = False,
    by: User | None,
    source: str = "",
    now: datetime | None = None,
) -> tuple[list[Any], bool]:
    """Record the players out in one hand and their places (TO4), as a table's
    terminal or the floor reports them; return the busts and whether they are new.

    A table's hand is keyed ``table:hand``; during hand-for-hand the floor reports
    the busts of every table in one call, keyed by the hand alone, so they share
    the places of that hand (TDA RP-8-A). The same report again answers the busts
    recorded (not new); another report for a recorded hand is a :class:`Conflict`.
    The places and bounties are the tournament services' (TO4, TO8).

    Raises :class:`NotFound` for an unknown event, :class:`Refusal` (TO4) for a
    player not playing in it or, for a table's report, not seated at that table,
    and what ``services.busts_record`` raises.
    """
    event = event_get(code=event_code, lock=True)
    key = _hand_key(table, hand)
    recorded = list(
        Bust.objects.select_related("entry__player").filter(event=event, hand=key)
    )
    if recorded:
        if _same_busts(recorded, busts):
            return recorded, False
        raise conflict(Code.HAND_RECORDED, text="other", hand=key)
    codes = {r.player for r in busts} | {w for r in busts for w in r.busted_by}
    live = {
        e.player.code: e
        for e in Entry.objects.select_related("player").filter(
            event=event, status=Entry.Status.ACTIVE, player__code__in=codes
        )
    }
    for code in sorted(codes):
        if code not in live:
            raise refuse(
                Code.ENTRY_NOT_PLAYING,
                text="report",
                rule="TO4",
                player=code,
                event=event.code,
            )
    if table is not None:
        for report in busts:
            if live[report.player].table != table:
                raise refuse(
                    Code.NOT_AT_THIS_TABLE,
                    rule="TO4",
                    player=report.player,
                    table=table,
                )
    reports = [
        services.BustIn(
            entry=live[r.player],
            stack_at_start=r.stack,
            busted_by=tuple(live[w] for w in r.busted_by),
        )
        for r in busts
    ]
    done = services.busts_record(
        event=event,
        hand=key,
        busts=reports,
        by=by,
        source=source,
        hand_for_hand=hand_for_hand,
        at=now or timezone.now(),
    )
    return list(done), True


def chip_count_report(
    *, event: Event, table: str, chips: int, by: User | None, source: str = ""
) -> Any:
    """Record a table's chips counted (TO3) through the tournament services.

    Raises :class:`Refusal` (TO3) for a table that doesn't play in the event.
    """
    if not EventTable.objects.filter(
        event=event, table=table, status=EventTable.Status.OPEN
    ).exists():
        raise refuse(Code.NOT_AN_EVENT_TABLE, rule="TO3", table=table, event=event.code)
    return services.chip_count_record(
        event=event, chips=chips, table=table, by=by, source=source
    )
