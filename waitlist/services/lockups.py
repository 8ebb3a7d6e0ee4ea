"""Seats held for players on their way (WL8)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check
from cardroom import services as cardroom_services
from core.errors import SharedCode
from waitlist import selectors
from waitlist.errors import NO_SUCH_LOCKUP, Code, conflict, missing
from waitlist.models import (
    Event,
    Lockup,
)
from waitlist.services._shared import (
    list_for_game,
    lock_lists,
    record_event,
    seat_exists,
)
from waitlist.services._steps import (
    refresh,
    release,
)


@retry_on_conflict()
@transaction.atomic
def lockup_take(
    *,
    table_code: str,
    seat: int,
    kind: str = Lockup.Kind.SEAT,
    player_code: str | None = None,
    note: str = "",
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Lockup:
    """Hold a free seat for a player on his way (WL8).

    While players wait on the game's list a new game's lockup is released after 5
    minutes and any other after 10. A seat held for a named player is a seat: he
    asks at its door (PP2–PP4). Raises :class:`Conflict` when the seat is taken,
    called or held; :class:`Refusal` PP2 (``under_age``), PP3
    (``player_barred``) or PP4 (``player_self_excluded``) for the player named.
    """
    now = now or timezone.now()
    table = cardroom_services.table_get_open(table_code, lock=False)
    (wl,) = lock_lists([list_for_game(table.game).pk])
    refresh(wl, now)
    player = cardroom_services.player_require(player_code) if player_code else None
    if player is not None:
        door_check(player=player, door=Door.SEAT, at=now)
    seat_exists(table, seat)
    if seat not in selectors.table_state(table).free_seats:
        raise conflict(SharedCode.SEAT_TAKEN, s=seat)
    lockup = Lockup.objects.create(
        table=table,
        seat=seat,
        player=player,
        kind=kind,
        note=note,
        locked_at=now,
        locked_by=by,
    )
    record_event(
        Event.Kind.LOCKUP_TAKEN,
        now=now,
        by=by,
        source=source,
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
    *,
    lockup_id: int,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Lockup:
    """Release a held seat. Raises :class:`Conflict` when it was released already."""
    now = now or timezone.now()
    lockup = Lockup.objects.select_related("table__game").filter(pk=lockup_id).first()
    if lockup is None:
        raise missing(SharedCode.NOT_FOUND, text=NO_SUCH_LOCKUP)
    if lockup.table.game is not None:
        (wl,) = lock_lists([list_for_game(lockup.table.game).pk])
        refresh(wl, now)
    lockup = (
        Lockup.objects.select_for_update(of=("self",))
        .select_related("table", "player")
        .get(pk=lockup_id)
    )
    if lockup.released_at is not None:
        raise conflict(Code.RELEASED)
    release(lockup, Lockup.Release.FLOOR, now, by, source)
    return lockup
