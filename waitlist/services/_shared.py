"""Shared by the use cases: the event each decision records (who acted: ``by`` or
``source``), the row locks taken in primary-key order, and the refusals several use
cases make (WL7, WL9, HS1)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Model, QuerySet
from django.utils import timezone

from accounting.models import Player
from cardroom.models import Game, Table
from core.errors import SharedCode
from core.work import lock_check
from waitlist import selectors
from waitlist.domain.seating import (
    Kind,
    kept_apart,
)
from waitlist.errors import Code, refuse
from waitlist.models import (
    Bar,
    Entry,
    Event,
    WaitingList,
)

M = TypeVar("M", bound=Model)

HOUSE_MOVES = (Kind.CLOSED_TABLE, Kind.MUST_MOVE, Kind.SEAT_CHANGE)


HOUSE_MOVE_WHY = {
    Kind.CLOSED_TABLE: "table_break",
    Kind.MUST_MOVE: "must_move",
    Kind.SEAT_CHANGE: "seat_change",
}
"""The cash-game flow each house-move entry is, as
:func:`cardroom.services.seat_move` names it."""


TIMER = "timer"
"""The ``source`` of what the clock decides (WL2, WL8), whichever read or task
noticed."""


def record_event(
    kind: str,
    *,
    now: datetime,
    by: User | None,
    source: str,
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
        by=by,
        source=source if by is None else "",
    )


def iso(moment: datetime | None) -> str | None:
    """A time as the room reads it, with its offset (API.md conventions)."""
    return None if moment is None else timezone.localtime(moment).isoformat()


def end_entry(
    entry: Entry, *, status: str, end: str, now: datetime, session: Any = None
) -> None:
    entry.status, entry.end, entry.ended_at = status, end, now
    fields = ["status", "end", "ended_at"]
    if session is not None:
        entry.seated_session = session
        fields.append("seated_session")
    entry.save(update_fields=fields)


def list_for_game(game: Game | None) -> WaitingList:
    """Return the game's waiting list, opening it on first use (WL1)."""
    assert game is not None, "an open table always has a game"
    waiting_list, _created = WaitingList.objects.get_or_create(game=game)
    return waiting_list


def locked(rows: QuerySet[M]) -> list[M]:
    """Lock the rows of ``rows`` (not the rows it joins) and return them.

    In primary-key order: two services locking overlapping rows never wait in a
    cycle. Raises :class:`RuntimeError` outside a transaction, where a row lock would
    end with the statement that took it.
    """
    lock_check("a waiting-list row", using=rows.db)
    return list(rows.select_for_update(of=("self",)).order_by("pk"))


def lock_lists(ids: Iterable[int]) -> list[WaitingList]:
    """Lock the waiting lists ``ids``, with their games, in primary-key order."""
    return locked(WaitingList.objects.select_related("game").filter(pk__in=set(ids)))


def lock_entries(entries: QuerySet[Entry]) -> list[Entry]:
    """Lock ``entries`` in primary-key order, with what the services read of them."""
    return locked(
        entries.select_related(
            "player", "waiting_list__game", "table", "call_table", "from_session"
        )
    )


def seat_exists(table: Table, seat: int) -> None:
    if not 1 <= seat <= table.seats:
        raise refuse(
            SharedCode.NO_SUCH_SEAT,
            rule="HS1",
            allowed={"min": 1, "max": table.seats},
            s=seat,
            n=table.seats,
        )


def bar_of(player: Player, game: Game, now: datetime) -> Bar | None:
    return (
        Bar.objects.filter(player=player, game=game, since__lte=now, until__gt=now)
        .order_by("-until")
        .first()
    )


def refuse_if_barred(player: Player, game: Game, now: datetime) -> None:
    bar = bar_of(player, game, now)
    if bar is not None:
        raise refuse(
            Code.BARRED_FROM_GAME,
            rule="WL7",
            allowed={"until": iso(bar.until)},
            p=player.code,
            t=timezone.localtime(bar.until).strftime("%H:%M"),
        )


def refuse_if_kept_apart(player: Player, others: Iterable[str]) -> None:
    pairs = selectors.apart_pairs([player.pk])
    partner = next((o for o in others if kept_apart(player.code, [o], pairs)), None)
    if partner is not None:
        raise refuse(Code.KEPT_APART, rule="WL9", p=player.code, o=partner)


def first_free(state: selectors.TableState) -> int | None:
    return min(state.free_seats) if state.free_seats else None
