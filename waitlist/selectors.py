"""Reads of the waiting lists: a table's seats, the game's tables, queues, the board."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from accounting.models import Account, Player
from cardroom.models import Game, Room, SeatSession, Table
from core.errors import SharedCode
from core.money import money_format
from waitlist.domain.board import board_name
from waitlist.domain.seating import Candidate, Kind, TableLoad, queue_order
from waitlist.errors import NO_SUCH_GAME, missing
from waitlist.models import ACTIVE, Entry, KeptApart, Lockup, TableBreak, WaitingList

POOL_CODE = r"^jackpot:[^:]+:pool$"
RESERVE_CODE = r"^jackpot:[^:]+:reserve$"


@dataclass(frozen=True, slots=True)
class TableState:
    """Who holds each seat of a table: players, calls on their way, lockups."""

    table: Table
    seated: dict[int, str]
    called: dict[int, str]
    locked: dict[int, int]

    @property
    def free_seats(self) -> frozenset[int]:
        held = set(self.seated) | set(self.called) | set(self.locked)
        return frozenset(range(1, self.table.seats + 1)) - held

    @property
    def players(self) -> int:
        """Players at the table or on their way to it (WL4 counts)."""
        return len(self.seated) + len(self.called)


def table_state(table: Table) -> TableState:
    """Return the seats of ``table``: taken, called (WL2), locked up (WL8)."""
    seated = dict(
        SeatSession.objects.filter(table=table, ended_at__isnull=True).values_list(
            "seat", "player__code"
        )
    )
    called = {
        seat: code
        for seat, code in Entry.objects.filter(
            call_table=table, status=Entry.Status.CALLED
        ).values_list("call_seat", "player__code")
        if seat is not None
    }
    locked = dict(
        Lockup.objects.filter(table=table, released_at__isnull=True).values_list(
            "seat", "pk"
        )
    )
    return TableState(table, seated, called, locked)


def is_broken(table: Table) -> bool:
    """Return whether the floor broke this table since it opened (WL3)."""
    return (
        table.opened_at is not None
        and TableBreak.objects.filter(table=table, at__gte=table.opened_at).exists()
    )


def game_tables(game: Game) -> list[Table]:
    """Return the open tables of ``game`` that take players (not being broken)."""
    tables = list(
        Table.objects.select_related("game", "room")
        .filter(game=game, status=Table.Status.OPEN)
        .order_by("opened_at", "code")
    )
    return [t for t in tables if not is_broken(t)]


def table_loads(game: Game) -> list[tuple[TableLoad, TableState]]:
    """Return each open table of ``game`` with its load, for WL4."""
    out = []
    for table in game_tables(game):
        state = table_state(table)
        assert table.opened_at is not None
        load = TableLoad(
            table.code, table.opened_at, state.players, len(state.free_seats)
        )
        out.append((load, state))
    return out


def open_session(player: Player) -> SeatSession | None:
    """Return the player's seat, if he sits somewhere (WL6: at most one)."""
    return (
        SeatSession.objects.select_related("table", "game")
        .filter(player=player, ended_at__isnull=True)
        .first()
    )


def apart_pairs(players: list[int]) -> frozenset[frozenset[str]]:
    """Return the pairs kept apart (WL9) that involve one of ``players`` (ids)."""
    rows = KeptApart.objects.filter(
        Q(player_a__in=players) | Q(player_b__in=players), ended_at__isnull=True
    ).values_list("player_a__code", "player_b__code")
    return frozenset(frozenset(pair) for pair in rows)


def candidate(entry: Entry, seated_at: str | None = None) -> Candidate:
    """Return the domain's view of an entry."""
    return Candidate(
        id=entry.pk,
        player=entry.player.code,
        kind=Kind(entry.kind),
        joined_at=entry.joined_at,
        draw_no=entry.draw_no,
        table=entry.table.code if entry.table else None,
        seat=entry.seat,
        seated_at=seated_at,
    )


def queue(waiting_list: WaitingList, *, kinds: tuple[str, ...] = ()) -> list[Entry]:
    """Return the list's waiting and called entries in call order (WL1–WL10)."""
    qs = waiting_list.entries.filter(status__in=ACTIVE).select_related(
        "player", "table", "call_table"
    )
    if kinds:
        qs = qs.filter(kind__in=kinds)
    return sorted(qs, key=lambda e: queue_order(candidate(e)))


def list_by_key(key: str) -> WaitingList:
    """Return the list named ``NLHE-100-200`` (game code and blinds).

    Raises :class:`NotFound` when the room deals no such game.
    """
    code, _sep, stakes = key.partition("-")
    small, _sep, big = stakes.partition("-")
    game = None
    if small.isdigit() and big.isdigit():
        game = Game.objects.filter(
            code=code, small_blind_cents=int(small), big_blind_cents=int(big)
        ).first()
    if game is None:
        raise missing(SharedCode.NOT_FOUND, text=NO_SUCH_GAME, g=key)
    waiting_list, _created = WaitingList.objects.get_or_create(game=game)
    return waiting_list


def board(*, now: datetime, language: str) -> dict[str, Any]:
    """Return what the public board shows (WL11, JD6), and nothing more.

    Open games with their tables and free seats, each game's list by nickname or
    initials, and every jackpot pool's amount with its reserve, equal to the
    ledger's balances. No player code, name or stack leaves this function.

    Money and stakes come written in ``language`` by core.money (Babel's CLDR
    formats), beside the cents: the board's script shows the text as it is.
    """
    room = Room.objects.order_by("pk").first()
    tables = list(
        Table.objects.select_related("game__room")
        .filter(status=Table.Status.OPEN, game__isnull=False)
        .order_by("opened_at", "code")
    )
    lists = {
        wl.game_id: wl
        for wl in WaitingList.objects.select_related("game__room").filter(
            entries__status__in=ACTIVE, entries__kind=Kind.LIST
        )
    }
    games: dict[int, Game] = {t.game.pk: t.game for t in tables if t.game}
    for game_id, wl in lists.items():
        games.setdefault(game_id, wl.game)
    out_games = []
    for game in sorted(
        games.values(), key=lambda g: (g.code, g.big_blind_cents, g.small_blind_cents)
    ):
        rows: list[dict[str, Any]] = []
        for table in tables:
            if table.game_id != game.pk or is_broken(table):
                continue
            state = table_state(table)
            rows.append(
                {
                    "table": table.name or table.code,
                    "seats": table.seats,
                    "players": len(state.seated),
                    "free": len(state.free_seats),
                }
            )
        waiting = _board_list(lists.get(game.pk))
        out_games.append(
            {
                "game": game.code,
                "stakes": game.blinds_label(language),
                "small_blind": game.small_blind_cents,
                "big_blind": game.big_blind_cents,
                "tables": rows,
                "seats_free": sum(r["free"] for r in rows),
                "waiting": waiting,
            }
        )
    jackpots = _board_jackpots(language)
    return {
        "room": room.name if room else "",
        "currency": room.currency if room else "",
        "language": language,
        "at": now,
        "games": out_games,
        "jackpots": jackpots,
    }


def _board_list(waiting_list: WaitingList | None) -> list[dict[str, Any]]:
    """A game's list as the board shows it: positions and names only (WL11)."""
    if waiting_list is None:
        return []
    return [
        {
            "position": position,
            "name": board_name(entry.player.nickname, entry.player.name),
            "called": entry.status == Entry.Status.CALLED,
            "table": (
                (entry.call_table.name or entry.call_table.code)
                if entry.call_table
                else None
            ),
        }
        for position, entry in enumerate(queue(waiting_list, kinds=(Kind.LIST,)), 1)
    ]


def _board_jackpots(language: str) -> list[dict[str, Any]]:
    """Every jackpot pool's amount with its reserve, the ledger's balances (JD6),
    each also written in ``language`` (whole euros without cents: ``€12,345``)."""
    pools = Account.objects.filter(code__regex=POOL_CODE).order_by("code")
    reserves = {
        a.code.rsplit(":", 1)[0]: a.balance_cents
        for a in Account.objects.filter(code__regex=RESERVE_CODE)
    }
    out = []
    for pool in pools:
        reserve = reserves.get(pool.code.rsplit(":", 1)[0])
        out.append(
            {
                "name": pool.name,
                "amount": pool.balance_cents,
                "amount_text": money_format(
                    pool.balance_cents, pool.currency, language, whole=True
                ),
                "reserve": reserve,
                "reserve_text": (
                    None
                    if reserve is None
                    else money_format(reserve, pool.currency, language, whole=True)
                ),
                "currency": pool.currency,
            }
        )
    return out


def all_lists() -> list[WaitingList]:
    """Return the lists with players on them or open tables, by game."""
    games = Table.objects.filter(status=Table.Status.OPEN, game__isnull=False).values(
        "game"
    )
    for game in Game.objects.filter(pk__in=games).exclude(waiting_list__isnull=False):
        WaitingList.objects.get_or_create(game=game)
    return list(
        WaitingList.objects.select_related("game")
        .filter(Q(game__in=games) | Q(entries__status__in=ACTIVE))
        .distinct()
        .order_by("game__code", "game__big_blind_cents", "game__small_blind_cents")
    )
