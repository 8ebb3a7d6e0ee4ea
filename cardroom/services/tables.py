"""Rooms, games and tables: opened for a gaming day, closed when empty (RK7, WL3)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.domain.hand_record import parse_policy
from cardroom.errors import Code, conflict, missing, refuse
from cardroom.models import Game, Policy, Room, Table
from core.errors import Conflict, NotFound, gettext_noop


def table_get_open(code: str, *, lock: bool = True) -> Table:
    """Return the open table ``code`` (row locked when ``lock``).

    Raises :class:`NotFound` for an unknown table and :class:`Refusal` (BI8) for a
    closed one.
    """
    qs = Table.objects.select_related("room", "game")
    if lock:
        qs = qs.select_for_update(of=("self",))
    return table_check_open(code, qs.filter(code=code).first())


def table_not_found(code: str) -> NotFound:
    """The refusal of an unknown table ``code`` (404)."""
    return missing(Code.NOT_FOUND, t=code)


def table_check_open(code: str, table: Table | None) -> Table:
    """Return ``table`` if it exists and is open; refuse otherwise (404, BI8)."""
    if table is None:
        raise table_not_found(code)
    if table.status != Table.Status.OPEN or table.game is None:
        raise refuse(Code.TABLE_CLOSED, rule="BI8", t=code)
    return table


def room_default() -> Room:
    """Return the room, creating it from the settings' defaults on first use."""
    room = Room.objects.order_by("pk").first()
    if room is None:
        room = Room.objects.create(
            code="main",
            name=_("Card room"),
            time_zone=settings.TIME_ZONE,
            currency=settings.CARDROOM_CURRENCY,
            gaming_day_cutoff_hour=settings.CARDROOM_GAMING_DAY_CUTOFF_HOUR,
        )
    return room


def policy_publish(*, game: Game, document: dict[str, Any], by: User | None) -> Policy:
    """Add a policy version for ``game``; it applies from the next hand (RK7).

    Raises the engine's refusal (400) when it can't read the policy.
    """
    parse_policy(document)
    latest = game.policies.aggregate(v=Max("version"))["v"] or 0
    return Policy.objects.create(
        game=game, version=latest + 1, document=document, created_by=by
    )


@transaction.atomic
def table_open(
    *,
    code: str,
    game_code: str,
    small_blind: int,
    big_blind: int,
    min_buy_in: int,
    max_buy_in: int | None,
    seats: int,
    policy: dict[str, Any],
    by: User | None,
    now: datetime | None = None,
) -> Table:
    """Open table ``code`` for the current gaming day with its game and policy.

    The game (code and stakes) is the room's; a policy different from the game's
    current one becomes its next version (RK7). Raises :class:`Conflict` when the
    table is already open.
    """
    now = now or timezone.now()
    room = room_default()
    game, _created = Game.objects.get_or_create(
        room=room,
        code=game_code,
        small_blind_cents=small_blind,
        big_blind_cents=big_blind,
        defaults={"min_buy_in_cents": min_buy_in, "max_buy_in_cents": max_buy_in},
    )
    if (game.min_buy_in_cents, game.max_buy_in_cents) != (min_buy_in, max_buy_in):
        game.min_buy_in_cents, game.max_buy_in_cents = min_buy_in, max_buy_in
        game.save(update_fields=["min_buy_in_cents", "max_buy_in_cents"])
    current = game.policies.order_by("-version").first()
    if current is None or current.document != policy:
        policy_publish(game=game, document=policy, by=by)
    table, _created = Table.objects.select_for_update().get_or_create(
        code=code, defaults={"seats": seats, "room": room}
    )
    if table.status == Table.Status.OPEN:
        raise conflict(Code.TABLE_OPEN, t=code)
    table.room, table.game, table.seats = room, game, seats
    table.status, table.opened_at, table.closed_at = Table.Status.OPEN, now, None
    table.gaming_day = room.gaming_day(now)
    table.save()
    return table


@transaction.atomic
def table_close(*, table: Table, now: datetime | None = None) -> Table:
    """Close an open table. Raises :class:`Refusal` (WL3) while players sit there."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status != Table.Status.OPEN:
        raise Conflict(Code.TABLE_CLOSED, gettext_noop("The table is not open."))
    seated = table.sessions.filter(ended_at__isnull=True).count()
    if seated:
        raise refuse(Code.TABLE_HAS_PLAYERS, rule="WL3", n=seated)
    table.status, table.closed_at = Table.Status.CLOSED, now or timezone.now()
    table.save(update_fields=["status", "closed_at"])
    return table


def table_open_for_cage(*, table: str) -> bool | None:
    """Whether table ``table`` is open, for the cage's fills (CA3; the setting
    ``CAGE_TABLE_OPEN``); None for a table the floor doesn't know.

    The row is held (``FOR KEY SHARE``) until the caller's transaction ends: a
    close (``table_close`` locks it for update) waits for the fill being booked,
    and a fill waits for a close being committed; hands are not held up.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT status FROM {Table._meta.db_table} WHERE code = %s"  # noqa: S608
            " FOR KEY SHARE",
            [table],
        )
        row = cursor.fetchone()
    return None if row is None else row[0] == Table.Status.OPEN
