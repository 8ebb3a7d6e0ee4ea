"""The clock applied to the lists: calls run out (WL2), lockups end (WL8)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Exists, Q
from django.utils import timezone

from cardroom.models import Game, Table
from waitlist.domain.seating import (
    NEW_GAME_LOCKUP,
)
from waitlist.models import (
    Entry,
    Lockup,
    WaitingList,
)
from waitlist.services._shared import (
    list_for_game,
    lock_lists,
)
from waitlist.services._steps import (
    refresh,
    sitting_there,
)


@transaction.atomic
def list_refresh(*, waiting_list: WaitingList, now: datetime | None = None) -> None:
    """Apply the WL2 and WL8 timers to one list, under its lock."""
    now = now or timezone.now()
    for wl in lock_lists([waiting_list.pk]):
        refresh(wl, now)


def timers_sweep(*, now: datetime | None = None) -> int:
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
        .annotate(taken=Exists(sitting_there()))
        .filter(Q(taken=True) | Q(locked_at__lte=now - NEW_GAME_LOCKUP))
        .values_list("table__game", flat=True)
    )
    for game in Game.objects.filter(pk__in=games):
        due.add(list_for_game(game).pk)
    for pk in sorted(due):
        list_refresh(waiting_list=WaitingList(pk=pk), now=now)
    return len(due)
