"""What a sale and a satellite's seat share: the cage's currency checked, an entry
opened with its seat drawn, a purchase recorded with the chips it gives (TO1, TO2,
TO3, TO7, CA2). Private to ``tournaments.services``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from accounting.models import Player, Receipt, Shift
from accounting.services.cage import Door, door_check
from core.errors import SharedCode
from tournaments.domain.postings import Price
from tournaments.errors import Code, refuse
from tournaments.models import ChipMovement, Entry, Event, Purchase
from tournaments.services._shared import event_open_check
from tournaments.services.seating import entry_seat_draw


def currency_check(event: Event) -> Any:
    def check(shift: Shift, player: Player) -> None:
        if shift.cage.currency != event.currency:
            raise refuse(
                SharedCode.WRONG_CURRENCY,
                rule="TO1",
                code=event.code,
                currency=event.currency,
            )

    return check


def entry_open(
    *,
    event: Event,
    player: str,
    level: int,
    at: datetime,
    by: User | None,
    at_door: bool = True,
) -> Entry:
    """Open ``player``'s next life in the locked ``event`` and draw his seat: the
    checks of :func:`entry_register` (TO1, TO2, CA2), nothing paid yet.

    He asks at the tournaments' door (PP2–PP4) once he is known, unless
    ``at_door`` is false: a satellite's seat is a prize, asked for as one (PP6).
    """
    event_open_check(event)
    if level > event.late_registration_level:
        raise refuse(
            Code.REGISTRATION_CLOSED,
            rule="TO1",
            allowed={"until_level": event.late_registration_level},
            level=event.late_registration_level,
        )
    lives = Entry.objects.filter(event=event, player__code=player)
    if lives.filter(status=Entry.Status.ACTIVE).exists():
        raise refuse(Code.ALREADY_PLAYING, rule="TO1", player=player)
    earlier = lives.exclude(status=Entry.Status.REFUNDED).count()
    if lives.filter(status=Entry.Status.DISQUALIFIED).exists():
        raise refuse(Code.DISQUALIFIED, rule="TO1", player=player)
    if earlier and earlier > event.reentry_max:
        raise refuse(
            Code.NO_REENTRY_LEFT,
            rule="TO1",
            allowed={"reentries": event.reentry_max},
            max=event.reentry_max,
        )
    number = (
        Entry.objects.filter(event=event)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    entrant = Player.objects.filter(code=player).first()
    if entrant is None:
        raise refuse(Code.PLAYER_UNKNOWN, rule="CA2", code=player)
    if at_door:
        door_check(player=entrant, door=Door.TOURNAMENT, at=at)
    entry = Entry.objects.create(
        event=event,
        player=entrant,
        number=number,
        kind=Entry.Kind.REENTRY if earlier else Entry.Kind.ENTRY,
        entered_at=at,
        entered_level=level,
    )
    entry_seat_draw(event=event, entry=entry, by=by, at=at)
    return entry


def purchase_record(
    *,
    event: Event,
    entry: Entry,
    kind: str,
    price: Price,
    posting: Any,
    receipt: Receipt | None,
    by: User,
    note: str,
    at: datetime,
) -> Purchase:
    """The purchase's record and the chips it gives (TO1, TO3)."""
    purchase = Purchase.objects.create(
        entry=entry,
        kind=kind,
        prize_pool_cents=price.prize_pool_cents,
        fee_cents=price.fee_cents,
        staff_fee_cents=price.staff_fee_cents,
        bounty_cents=price.bounty_cents,
        chips=price.chips,
        transaction=posting,
        receipt=receipt,
        sold_by=by,
        at=at,
    )
    cause = {
        Purchase.Kind.BUY_IN: ChipMovement.Cause.ENTRY,
        Purchase.Kind.REBUY: ChipMovement.Cause.REBUY,
        Purchase.Kind.ADDON: ChipMovement.Cause.ADDON,
    }[Purchase.Kind(kind)]
    ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=cause,
        chips=price.chips,
        note=note,
        recorded_by=by,
        at=at,
    )
    return purchase
