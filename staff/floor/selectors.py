"""Reads for the floor's screens: the table map, the waiting lists' calls, one
list's whole screen and the seats and players the floor decided about (lockups,
must-moves, pairs kept apart).

The stacks are the ledger's, read as the tables' terminals read them
(``cardroom.selectors.table_seats``, HS6); who is called to a seat or holds it
locked up comes from the waiting lists (WL2, WL8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from accounting.models import Player
from cardroom import selectors as floor
from cardroom.models import Game, Hand, Policy, SeatSession, Table
from waitlist import selectors as lists
from waitlist.domain.seating import TableLoad
from waitlist.models import Entry, Event, KeptApart, Lockup, MustMove, WaitingList
from waitlist.selectors import TableState


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a table on the map."""

    seat: int
    player: str = ""
    name: str = ""
    stack_cents: int = 0
    frozen_cents: int = 0
    played_seconds: int = 0
    away_seconds: int | None = None
    called: str = ""
    locked: bool = False
    must_leave: str = ""  # PP5: the rule by which he leaves after this hand

    @property
    def taken(self) -> bool:
        return bool(self.player)


@dataclass(frozen=True, slots=True)
class TableRow:
    """An open table on the map: its game, seats and what the floor decided."""

    table: Table
    seats: list[SeatRow]
    broken: bool
    must_move_to: str | None
    last_hand_no: int | None
    currency: str
    others: list[str] = field(default_factory=list)

    @property
    def players(self) -> int:
        return sum(1 for s in self.seats if s.taken)

    @property
    def stacks_cents(self) -> int:
        return sum(s.stack_cents for s in self.seats)


def _seconds(since: datetime | None, now: datetime) -> int:
    return max(int((now - since).total_seconds()), 0) if since else 0


def played_tonight(table: Table, codes: list[str], now: datetime) -> dict[str, int]:
    """Seconds each player has sat in the room this gaming day, at any table: a
    house move or a table break keeps his time."""
    played: dict[str, int] = {}
    if table.gaming_day is None:
        return played
    sessions = SeatSession.objects.filter(
        player__code__in=codes, gaming_day=table.gaming_day
    ).values_list("player__code", "started_at", "ended_at")
    for code, started, ended in sessions:
        played[code] = played.get(code, 0) + _seconds(started, ended or now)
    return played


def _currency(table: Table, default: str) -> str:
    policy = (
        Policy.objects.filter(game=table.game).order_by("-version").first()
        if table.game_id
        else None
    )
    return str((policy.document if policy else {}).get("currency") or default)


def _called(code: str, names: dict[str, str]) -> str:
    """The player called to a seat, by name and code (``Aino Virtanen P-101``)."""
    return f"{names[code]} {code}" if code in names else code


def table_row(table: Table, *, now: datetime, currency: str) -> TableRow:
    """The map's row of one open table, with the ledger's stacks (HS6)."""
    seats = floor.table_seats(table.code)["seats"]
    state = lists.table_state(table)
    # Seated and called players by name, as the lists show them.
    names = dict(
        Player.objects.filter(
            code__in=[s["player"] for s in seats] + list(state.called.values())
        ).values_list("code", "name")
    )
    by_seat = {s["seat"]: s for s in seats}
    played = played_tonight(table, [s["player"] for s in seats], now)
    rows = []
    for n in range(1, table.seats + 1):
        s = by_seat.get(n)
        if s is None:
            rows.append(
                SeatRow(
                    seat=n,
                    called=_called(state.called.get(n, ""), names),
                    locked=n in state.locked,
                )
            )
            continue
        rows.append(
            SeatRow(
                seat=n,
                player=s["player"],
                name=names.get(s["player"], ""),
                stack_cents=s["stack"],
                frozen_cents=s["frozen"],
                played_seconds=played.get(s["player"], 0),
                away_seconds=(
                    _seconds(s["away_since"], now) if s["away_since"] else None
                ),
                must_leave=s.get("must_leave") or "",
            )
        )
    must_move = (
        MustMove.objects.filter(table=table, ended_at__isnull=True)
        .values_list("main__code", flat=True)
        .first()
    )
    last = Hand.objects.filter(table=table).order_by("-hand_no").first()
    return TableRow(
        table=table,
        seats=rows,
        broken=lists.is_broken(table),
        must_move_to=must_move,
        last_hand_no=last.hand_no if last else None,
        currency=_currency(table, currency),
    )


def table_map(*, now: datetime, currency: str) -> list[TableRow]:
    """Every open table, by game and code, with its seats and players."""
    tables = (
        Table.objects.select_related("game")
        .filter(status=Table.Status.OPEN)
        .order_by("game__code", "game__big_blind_cents", "code")
    )
    rows = [table_row(t, now=now, currency=currency) for t in tables]
    by_game: dict[int | None, list[str]] = {}
    for row in rows:
        by_game.setdefault(row.table.game_id, []).append(row.table.code)
    for row in rows:
        row.others.extend(c for c in by_game[row.table.game_id] if c != row.table.code)
    return rows


@dataclass(frozen=True, slots=True)
class CallRow:
    """A player on a list: waiting, or called with the moment his call runs out."""

    entry: Entry
    position: int
    deadline: datetime | None
    seconds_left: int = 0


@dataclass(frozen=True, slots=True)
class ListRow:
    waiting_list: WaitingList
    rows: list[CallRow]

    @property
    def waiting(self) -> int:
        return sum(1 for r in self.rows if r.entry.status == Entry.Status.WAITING)


def _call_row(entry: Entry, position: int, now: datetime) -> CallRow:
    deadline = entry.expires_at if entry.status == Entry.Status.CALLED else None
    left = max(int((deadline - now).total_seconds()), 0) if deadline else 0
    return CallRow(entry, position, deadline, left)


def waiting_lists(*, now: datetime) -> list[ListRow]:
    """Each game's list in call order, the called with their deadlines (WL2)."""
    out = []
    for waiting_list in lists.all_lists():
        rows = [
            _call_row(entry, n, now)
            for n, entry in enumerate(lists.queue(waiting_list), 1)
        ]
        out.append(ListRow(waiting_list=waiting_list, rows=rows))
    return out


def games_to_open() -> list[Game]:
    """The room's games that have a published policy, so a table can deal them."""
    return list(
        Game.objects.filter(policies__isnull=False)
        .distinct()
        .order_by("code", "big_blind_cents", "small_blind_cents")
    )


# One list's whole screen, and what the floor decided for the seats ----------------


@dataclass(frozen=True, slots=True)
class ListTable:
    """A table dealing a list's game: its load (WL4), who holds its seats, and the
    game it must move to, if it is a must-move table (WL7)."""

    load: TableLoad
    state: TableState
    must_move_to: str | None


def list_tables(waiting_list: WaitingList) -> list[ListTable]:
    """The open tables of the list's game, as the calls see them (WL4)."""
    return [
        ListTable(
            load=load,
            state=state,
            must_move_to=MustMove.objects.filter(
                table=state.table, ended_at__isnull=True
            )
            .values_list("main__code", flat=True)
            .first(),
        )
        for load, state in lists.table_loads(waiting_list.game)
    ]


def list_rows(waiting_list: WaitingList, *, now: datetime) -> list[CallRow]:
    """The list's players in call order, the called with their deadlines (WL2)."""
    return [
        _call_row(entry, n, now) for n, entry in enumerate(lists.queue(waiting_list), 1)
    ]


def list_decisions(waiting_list: WaitingList, *, limit: int = 30) -> list[Event]:
    """The list's latest recorded decisions, newest first, with their rule."""
    return list(
        waiting_list.events.select_related("player", "by").order_by("-at", "-pk")[
            :limit
        ]
    )


def lockups_held() -> list[Lockup]:
    """The seats locked up now (WL8), by table and seat."""
    return list(
        Lockup.objects.filter(released_at__isnull=True)
        .select_related("table", "player")
        .order_by("table__code", "seat")
    )


def must_moves_running() -> list[MustMove]:
    """The must-move tables now, each with the game it feeds (WL7)."""
    return list(
        MustMove.objects.filter(ended_at__isnull=True)
        .select_related("table", "main")
        .order_by("table__code")
    )


def pairs_kept_apart() -> list[KeptApart]:
    """The pairs of players kept out of the same game now (WL9), newest first."""
    return list(
        KeptApart.objects.filter(ended_at__isnull=True)
        .select_related("player_a", "player_b")
        .order_by("-created_at", "-pk")
    )
