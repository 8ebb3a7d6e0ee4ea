"""Seats: an entrant's seat drawn at random from the floor's seeded draw (TO2, TO11)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User

from tournaments.models import (
    Entry,
    Event,
    SeatMove,
)


def seat_draw(
    *, event: Event, entry: Entry, by: User | None, at: datetime
) -> SeatMove | None:
    """Draw ``entry``'s seat at random among the event's empty seats (TO2, TO11),
    or ``None`` when every seat is taken (he is an alternate).

    The floor's seeded draw (``tournaments.floor.seats_draw``): the seed is
    recorded with the seat, so an auditor replays the draw from the record.
    """
    from tournaments import floor  # the floor's services build on these

    moves = floor.seats_draw(
        event_code=event.code, entries=[entry.pk], by=by, now=at, alternates=True
    )
    if not moves:
        return None
    entry.table, entry.seat = moves[0].to_table, moves[0].to_seat
    return moves[0]


def entry_seat_drawn(*, entry: Entry) -> SeatMove | None:
    """The seeded draw that gave ``entry`` its first seat (TO11), if it had one."""
    return (
        SeatMove.objects.filter(entry=entry, reason="draw").order_by("at", "pk").first()
    )
