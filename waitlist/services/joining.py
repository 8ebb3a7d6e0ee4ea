"""Joining a game's waiting list (WL1, WL7, WL10)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check
from cardroom import services as cardroom_services
from waitlist import selectors
from waitlist.domain.seating import (
    Kind,
)
from waitlist.errors import Code, refuse
from waitlist.models import (
    ACTIVE,
    Entry,
    Event,
    WaitingList,
)
from waitlist.services._shared import (
    lock_lists,
    record_event,
    refuse_if_barred,
)
from waitlist.services._steps import (
    refresh,
)


@retry_on_conflict()
@transaction.atomic
def entry_join(
    *,
    waiting_list: WaitingList,
    player_code: str,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Entry:
    """Put a player on a game's list (WL1).

    He may be on several lists and may list while seated in another game. Raises
    :class:`Refusal`: WL1 when he is on this list already, WL10 when he plays
    this game already (he asks the floor for a seat change), WL7 while a refused
    must-move bars him from the game, BI10 for an unregistered player; at the
    waiting list's door, PP2 (``under_age``) for a player under age or without a
    date of birth, PP3 (``player_barred``) or PP4 (``player_self_excluded``) for a
    restricted one.
    """
    now = now or timezone.now()
    (wl,) = lock_lists([waiting_list.pk])
    refresh(wl, now)
    player = cardroom_services.player_require(player_code)
    door_check(player=player, door=Door.WAITLIST, at=now)
    refuse_if_barred(player, wl.game, now)
    if wl.entries.filter(player=player, status__in=ACTIVE).exists():
        raise refuse(Code.ALREADY_LISTED, rule="WL1", p=player.code)
    session = selectors.open_session(player)
    if session is not None and session.game_id == wl.game_id:
        raise refuse(
            Code.ALREADY_IN_GAME, rule="WL10", p=player.code, t=session.table.code
        )
    entry = Entry.objects.create(
        waiting_list=wl,
        player=player,
        kind=Kind.LIST,
        joined_at=now,
        joined_by=by,
    )
    record_event(
        Event.Kind.JOINED,
        now=now,
        by=by,
        source=source,
        rule="WL1",
        reason=_("Joined the list."),
        details={"seated_at": session.table.code if session else None},
        entry=entry,
    )
    return entry
