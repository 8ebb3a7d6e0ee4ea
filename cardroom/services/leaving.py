"""Leaving a seat, breaks, chips picked up into custody and given back (BI3, BI9)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting import chart
from accounting.models import Account
from accounting.services import plan_post
from accounting.services.cage import Door, door_check
from cardroom.domain import postings
from cardroom.errors import Code, conflict, refuse
from cardroom.models import Absence, SeatSession, StackMovement
from cardroom.services.sessions import movement_record, player_require, session_get_open
from cardroom.services.tables import table_get_open


@transaction.atomic
def seat_leave(
    *,
    table_code: str,
    seat: int,
    stack: int,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> SeatSession:
    """End a seat session; the player takes his stack with him (BI3, API.md).

    His chips move from his stack at the table to the chips he carries, to cash out
    at the cage or to play on under BI5. A reported stack other than the one the
    floor knows is refused (HS6): the terminal must report what the hands left.
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = session_get_open(table, seat)
    plan = postings.leave(
        table=table.code,
        player=session.player.code,
        stack=stack,
        recorded=session.stack_cents,
    )
    if stack:
        movement_record(
            session=session,
            kind=StackMovement.Kind.LEAVE,
            method=StackMovement.Method.CHIPS,
            amount=stack,
            plan=plan,
            now=now,
            source=source,
            by=by,
        )
    session.ended_at, session.left_with_cents = now, stack
    session.stack_cents = 0
    session.save(update_fields=["ended_at", "left_with_cents", "stack_cents"])
    return session


LONG_BREAK = timedelta(minutes=30)


@transaction.atomic
def seat_away(
    *,
    table_code: str,
    seat: int,
    long_break: bool = False,
    now: datetime | None = None,
) -> Absence:
    """Mark a seated player away; a long break is once per gaming day (BI9).

    Raises :class:`Refusal` (BI9) for a second long break the same night and
    :class:`Conflict` when he is already away.
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = session_get_open(table, seat)
    if session.absences.filter(ended_at__isnull=True).exists():
        raise conflict(Code.ALREADY_AWAY)
    assert table.room is not None
    day = table.room.gaming_day(now)
    if (
        long_break
        and Absence.objects.filter(
            player=session.player, gaming_day=day, long_break=True
        ).exists()
    ):
        raise refuse(Code.LONG_BREAK_USED, rule="BI9")
    session.away_since = now
    session.save(update_fields=["away_since"])
    return Absence.objects.create(
        session=session,
        player=session.player,
        gaming_day=day,
        long_break=long_break,
        started_at=now,
    )


@transaction.atomic
def seat_back(*, table_code: str, seat: int, now: datetime | None = None) -> Absence:
    """The player is back at his seat (BI9), asking at the seat's door again.

    Raises :class:`Conflict` when he isn't away; :class:`Refusal` PP2
    (``under_age``), PP3 (``player_barred``) or PP4 (``player_self_excluded``)
    when a restriction began while he was away: he stays away, his chips are his
    to take (PP5).
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = session_get_open(table, seat)
    absence = session.absences.filter(ended_at__isnull=True).first()
    if absence is None:
        raise conflict(Code.NOT_AWAY)
    door_check(player=session.player, door=Door.SEAT, at=now)
    absence.ended_at = now
    absence.save(update_fields=["ended_at"])
    session.away_since = None
    session.save(update_fields=["away_since"])
    return absence


@transaction.atomic
def seat_pick_up(
    *,
    table_code: str,
    seat: int,
    by: User,
    now: datetime | None = None,
) -> SeatSession:
    """Pick up an absent player's chips into cage custody and free the seat (BI9).

    Allowed after more than 30 minutes away; the ledger transaction names the floor
    person. Raises :class:`Refusal` (BI9) earlier or when he isn't away.
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = session_get_open(table, seat)
    absence = session.absences.select_for_update().filter(ended_at__isnull=True).first()
    if absence is None or now - absence.started_at <= LONG_BREAK:
        away = 0 if absence is None else int((now - absence.started_at).total_seconds())
        raise refuse(
            Code.NOT_AWAY_LONG_ENOUGH,
            rule="BI9",
            allowed={
                "away_seconds_min": int(LONG_BREAK.total_seconds()) + 1,
                "away_seconds": away,
            },
        )
    stack = session.stack_cents
    player = session.player
    if stack:
        movement_record(
            session=session,
            kind=StackMovement.Kind.PICK_UP,
            method=StackMovement.Method.CHIPS,
            amount=stack,
            plan=postings.pick_up(table=table.code, player=player.code, stack=stack),
            now=now,
            source="",
            by=by,
        )
    absence.ended_at, absence.picked_up_by = now, by
    absence.save(update_fields=["ended_at", "picked_up_by"])
    session.ended_at, session.left_with_cents, session.stack_cents = now, stack, 0
    session.away_since = None
    session.save(
        update_fields=["ended_at", "left_with_cents", "stack_cents", "away_since"]
    )
    return session


@transaction.atomic
def custody_return(*, player_code: str, by: User, now: datetime | None = None) -> int:
    """Give a player the chips held in custody for him (BI9); return how many.

    They become chips he carries: to sit down with (BI5 applies) or to cash out.
    Raises :class:`Refusal` (BI9) when nothing is held for him.
    """
    player = player_require(player_code)
    account = chart.custody(player=player.code)
    held = Account.objects.select_for_update().get(pk=account.pk).balance_cents
    plan_post(
        postings.custody_return(player=player.code, held=held),
        posted_by=by,
        reference=f"custody {player.code}",
        posted_at=now or timezone.now(),
    )
    return held
