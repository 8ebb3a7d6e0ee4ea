"""Time collection from a time-raked table's seats (RK6)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from cardroom import services as cardroom_services
from cardroom.domain.games import GAMES
from cardroom.models import Hand, HandSeat, Policy, SeatSession, Table
from waitlist.domain.seating import (
    Kind,
)
from waitlist.domain.time import (
    Collection,
    SeatFacts,
    blind_seats,
    time_charges,
    time_policy,
)
from waitlist.models import (
    ACTIVE,
    Event,
    TimeCollection,
    WaitingList,
)
from waitlist.services._shared import (
    list_for_game,
    lock_lists,
    record_event,
)
from waitlist.services._steps import (
    refresh,
)


def _new_since(table: Table, before: datetime) -> datetime | None:
    """When players who sit down count as new: the previous collection, else the
    table's first hand since it opened; None while no hand was dealt (RK6)."""
    previous = (
        TimeCollection.objects.filter(table=table, period_start__lt=before)
        .order_by("-collected_at")
        .values_list("collected_at", flat=True)
        .first()
    )
    if previous is not None:
        return previous
    first = (
        Hand.objects.filter(table=table, ended_at__gte=table.opened_at)
        .order_by("ended_at")
        .first()
    )
    if first is None:
        return None
    return first.started_at or first.ended_at


def _reached_blind(sessions: list[SeatSession], button_game: bool) -> set[int]:
    """Return the sessions that had their blind (stud: their first hand) (RK6)."""
    reached: set[int] = set()
    rows = HandSeat.objects.filter(
        session__in=sessions, hand__status=Hand.Status.BOOKED
    ).select_related("hand")
    for row in rows:
        if not button_game:
            reached.add(row.session_id)
            continue
        record = row.hand.record
        dealt = [s["seat"] for s in record.get("seats", [])]
        if row.seat in blind_seats(record.get("button"), dealt):
            reached.add(row.session_id)
    return reached


@retry_on_conflict()
@transaction.atomic
def time_collect(
    *,
    table_code: str,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> tuple[TimeCollection, bool]:
    """Collect the period's time from the table's seats; return it and whether new.

    The period and amount come from the game's policy (``time`` section); the
    exemption from the game's waiting list at this moment: two or more waiting,
    everyone pays; otherwise a new player skips it until his blind, or his first
    hand in stud games (RK6). Booked once per period through the cash games'
    ``seat_time_charge``; asking again in the same period returns the first
    collection. Raises :class:`TimeRefused` (RK6) when the game isn't raked by
    time or its policy has no usable ``time`` section.
    """
    now = now or timezone.now()
    table = cardroom_services.table_get_open(table_code, lock=False)
    game = table.game
    assert game is not None and table.room is not None
    (wl,) = lock_lists([list_for_game(game).pk])
    refresh(wl, now)
    policy = game.current_policy()
    terms = time_policy(policy.document)
    start, end = terms.period(now.astimezone(table.room.tz))
    done = TimeCollection.objects.filter(table=table, period_start=start).first()
    if done is not None:
        return done, False
    waiting = wl.entries.filter(
        status__in=ACTIVE, kind__in=[Kind.LIST, Kind.CLOSED_TABLE]
    ).count()
    decided, players = _decide(table, start, waiting=waiting, amount=terms.amount)
    if decided.charges:
        cardroom_services.seat_time_charge(
            table_code=table.code,
            charges=decided.charges,
            reference=start.isoformat(),
            source=source,
            by=by,
            now=now,
        )
    collection = _record(
        table,
        wl,
        policy=policy,
        period=(start, end),
        decided=decided,
        players=players,
        waiting=waiting,
        amount=terms.amount,
        by=by,
        source=source,
        now=now,
    )
    return collection, True


def _decide(
    table: Table, start: datetime, *, waiting: int, amount: int
) -> tuple[Collection, dict[int, str]]:
    """Decide who pays the period starting at ``start`` (RK6); return the decision
    and who sits in each seat."""
    game = table.game
    assert game is not None
    since = _new_since(table, start)
    sessions = list(
        SeatSession.objects.select_related("player").filter(
            table=table, ended_at__isnull=True
        )
    )
    new = [s for s in sessions if since is not None and s.started_at > since]
    reached = _reached_blind(new, button_game=not GAMES[game.code].is_stud)
    decided = time_charges(
        [
            SeatFacts(
                s.seat,
                s.player.code,
                s.stack_cents,
                new=s in new,
                reached_blind=s.pk in reached,
            )
            for s in sessions
        ],
        waiting=waiting,
        amount=amount,
    )
    return decided, {s.seat: s.player.code for s in sessions}


def _record(
    table: Table,
    wl: WaitingList,
    *,
    policy: Policy,
    period: tuple[datetime, datetime],
    decided: Collection,
    players: dict[int, str],
    waiting: int,
    amount: int,
    by: User | None,
    source: str,
    now: datetime,
) -> TimeCollection:
    """Store the period's collection and record it as an event (RK6)."""
    assert table.game is not None
    start, end = period
    collection = TimeCollection.objects.create(
        table=table,
        game=table.game,
        policy=policy,
        period_start=start,
        period_end=end,
        collected_at=now,
        amount_cents=amount,
        waiting=waiting,
        everyone_pays=decided.everyone_pays,
        charged=[
            {"seat": seat, "player": players[seat], "amount": amount}
            for seat, amount in decided.charges.items()
        ],
        exempt=[
            {"seat": seat, "player": players[seat], "reason": str(why)}
            for seat, why in decided.exempt.items()
        ],
        total_cents=sum(decided.charges.values()),
        by=by,
        source=source if by is None else "",
    )
    record_event(
        Event.Kind.TIME_COLLECTED,
        now=now,
        by=by,
        source=source,
        rule="RK6",
        reason=(
            _("Two or more waiting: everyone pays.")
            if decided.everyone_pays
            else _("Fewer than two waiting: new players skip until their blind.")
        ),
        details={
            "period_start": start.isoformat(),
            "waiting": waiting,
            "charged": collection.charged,
            "exempt": collection.exempt,
        },
        waiting_list=wl,
        table=table,
    )
    return collection
