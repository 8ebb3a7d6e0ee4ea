"""A seated player's request for another seat or table of his game (WL10)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check
from cardroom import services as cardroom_services
from core.errors import SharedCode
from waitlist import selectors
from waitlist.domain.seating import (
    Kind,
)
from waitlist.errors import ALREADY_WAITS, NO_OTHER_SEAT, Code, refuse
from waitlist.models import (
    ACTIVE,
    Entry,
    Event,
)
from waitlist.services._shared import (
    list_for_game,
    lock_lists,
    record_event,
    refuse_if_kept_apart,
)
from waitlist.services._steps import (
    refresh,
)


@retry_on_conflict()
@transaction.atomic
def seat_change_request(
    *,
    player_code: str,
    table_code: str,
    seat: int | None = None,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Entry:
    """Record a seated player's request for another seat or table of his game (WL10).

    When a seat opens there, he is called before new players from the list; the
    floor grants the change as a house move, so he keeps his stack. Raises
    :class:`Refusal`: WL10 when he doesn't play this game (new players join the
    list), WL9 when a player kept apart from him sits there, WL1 when he already
    waits in this game; at the waiting list's door, PP2 (``under_age``), PP3
    (``player_barred``) or PP4 (``player_self_excluded``).
    """
    now = now or timezone.now()
    table = cardroom_services.table_get_open(table_code, lock=False)
    (wl,) = lock_lists([list_for_game(table.game).pk])
    refresh(wl, now)
    player = cardroom_services.player_require(player_code)
    door_check(player=player, door=Door.WAITLIST, at=now)
    session = selectors.open_session(player)
    if session is None or session.game_id != table.game_id:
        raise refuse(Code.NOT_IN_GAME, rule="WL10", p=player.code)
    if seat is not None and (
        not 1 <= seat <= table.seats
        or (session.table_id == table.pk and session.seat == seat)
    ):
        raise refuse(
            SharedCode.NO_SUCH_SEAT,
            rule="WL10",
            allowed={"min": 1, "max": table.seats},
            text=NO_OTHER_SEAT,
            s=seat,
        )
    if selectors.is_broken(table):
        raise refuse(Code.TABLE_BREAKING, rule="WL3", t=table.code)
    state = selectors.table_state(table)
    refuse_if_kept_apart(player, [p for p in state.seated.values() if p != player.code])
    if wl.entries.filter(player=player, status__in=ACTIVE).exists():
        raise refuse(Code.ALREADY_LISTED, rule="WL1", text=ALREADY_WAITS, p=player.code)
    entry = Entry.objects.create(
        waiting_list=wl,
        player=player,
        kind=Kind.SEAT_CHANGE,
        joined_at=now,
        joined_by=by,
        table=table,
        seat=seat,
        from_session=session,
    )
    record_event(
        Event.Kind.SEAT_CHANGE_REQUESTED,
        now=now,
        by=by,
        source=source,
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
