"""Purchases at the cage: entries and re-entries, rebuys and the add-on, each one
receipt and one balanced posting (TO1, TO2, TO8, CA2); the event's start.

Whether late registration, the rebuy period or the add-on is open is read from the
event's clock on the server at the moment of the sale (TO1, TO12): a caller may
say the level it believes the clock is at, and is refused (``level_mismatch``) when
it is wrong, never obeyed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.models import Receipt
from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check, receipt_issue
from tournaments import selectors
from tournaments.domain import clock as clock_rules
from tournaments.domain import postings
from tournaments.domain.postings import Price
from tournaments.errors import Code, conflict, invalid, refuse
from tournaments.models import (
    Entry,
    Event,
    Purchase,
)
from tournaments.services._entries import currency_check, entry_open, purchase_record
from tournaments.services._shared import (
    cage_windows_check,
    entry_locked,
    event_locked,
    event_open_check,
    receipt_legs,
)


def _purchase_legs(event: Event, price: Price) -> Any:
    """The legs of a purchase paid into the cashier's drawer (TO1, TO8)."""
    return receipt_legs(
        lambda cash: postings.purchase(event=event.code, cash=cash, price=price),
        currency=event.currency,
    )


def _sell(
    *,
    event: Event,
    entry: Entry,
    kind: str,
    cage: str,
    cashier: User,
    at: datetime,
) -> Purchase:
    price = selectors.price_of(event=event, kind=kind)
    receipt = receipt_issue(
        kind=Receipt.Kind.TOURNAMENT_ENTRY,
        cage=cage,
        cashier=cashier,
        player=entry.player.code,
        amount_cents=price.total_cents,
        legs_for=_purchase_legs(event, price),
        check=currency_check(event),
        at=at,
    )
    return purchase_record(
        event=event,
        entry=entry,
        kind=kind,
        price=price,
        posting=receipt.transaction,
        receipt=receipt,
        by=cashier,
        note=receipt.no,
        at=at,
    )


@retry_on_conflict()
@transaction.atomic
def entry_register(
    *,
    event: Event,
    player: str,
    cage: str,
    cashier: User,
    level: int | None = None,
    at: datetime | None = None,
) -> Entry:
    """Register ``player`` in ``event`` at the cage and draw his seat (TO1, TO2).

    A player who busted comes back as a re-entry while the event allows one (TO1).
    Registration is open before the clock starts and closes after the event's
    late-registration level, by the event's clock on the server at ``at`` (TO1,
    TO12, TDA "MLR"): closed from the first second of the break that follows that
    level, and once the clock is stopped. ``level`` is only what the caller
    believes the clock is at (the structure's number, breaks counted, 0 before the
    start). The entrant gets the full starting stack and a random seat from a
    seeded draw whose seat moves are recorded (TO11), or waits as an alternate when
    every seat is taken (TO2). The buy-in, fees and bounty are one receipt and one
    posting (TO1, TO8, CA2); the identity rules are the cage's (CA2, CA5).

    Raises :class:`Conflict` (TO12) when ``level`` isn't the server's;
    :class:`Refusal` (TO1) for a closed event or registration, a player already
    playing, no re-entry left; at the tournaments' door, PP2 (``under_age``) for a
    player under age or without a date of birth, PP3 (``player_barred``) or PP4
    (``player_self_excluded``) for a restricted one; the cage's refusals (CA1,
    CA2, CA5).
    """
    at = at or timezone.now()
    event = event_locked(event)
    event_open_check(event)
    clock = cage_windows_check(event, at=at, believed=level)
    if not clock.registration:
        raise refuse(
            Code.REGISTRATION_CLOSED,
            text="stopped" if clock.status is clock_rules.Status.STOPPED else None,
            rule="TO1",
            allowed={"until_level": event.late_registration_level},
            level=event.late_registration_level,
        )
    entry = entry_open(
        event=event, player=player, level=clock.number, at=at, by=cashier
    )
    _sell(
        event=event,
        entry=entry,
        kind=Purchase.Kind.BUY_IN,
        cage=cage,
        cashier=cashier,
        at=at,
    )
    return entry


@retry_on_conflict()
@transaction.atomic
def rebuy_buy(
    *,
    entry: Entry,
    cage: str,
    cashier: User,
    stack: int,
    level: int | None = None,
    at: datetime | None = None,
) -> Purchase:
    """Sell a rebuy to a playing entry (TO1): during the rebuy period, with his stack
    at or below the limit, within the count. Once sold it stands (TDA R29).

    The rebuy period runs from the clock's start through the event's rebuy level,
    by the event's clock on the server at ``at`` (TO1, TO12): closed before the
    start, from the first second of the break after that level, and once the clock
    is stopped. ``level`` is only what the caller believes the clock is at.

    Raises :class:`Conflict` (TO12) when ``level`` isn't the server's;
    :class:`Refusal` (TO1) outside those, with what was allowed; at the
    tournaments' door, PP2 (``under_age``), PP3 (``player_barred``) or PP4
    (``player_self_excluded``): a restriction set while he plays refuses his
    next rebuy.
    """
    at = at or timezone.now()
    event_locked(entry.event)
    entry = entry_locked(entry)
    event = entry.event
    event_open_check(event)
    door_check(player=entry.player, door=Door.TOURNAMENT, at=at)
    if not event.rebuy_max:
        raise refuse(Code.NO_REBUYS, rule="TO1")
    clock = cage_windows_check(event, at=at, believed=level)
    if not clock.rebuys:
        not_yet = clock.status is clock_rules.Status.NOT_STARTED
        raise refuse(
            Code.REBUY_PERIOD_NOT_STARTED if not_yet else Code.REBUY_PERIOD_OVER,
            text="stopped" if clock.status is clock_rules.Status.STOPPED else None,
            rule="TO1",
            allowed={"until_level": event.rebuy_until_level},
            level=event.rebuy_until_level,
        )
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise invalid(Code.INVALID_STACK)
    if stack > event.rebuy_stack_limit:
        raise refuse(
            Code.STACK_ABOVE_REBUY_LIMIT,
            rule="TO1",
            allowed={"max_stack": event.rebuy_stack_limit},
            limit=event.rebuy_stack_limit,
        )
    done = entry.purchases.filter(kind=Purchase.Kind.REBUY).count()
    if done >= event.rebuy_max:
        raise refuse(
            Code.NO_REBUYS_LEFT,
            rule="TO1",
            allowed={"rebuys": event.rebuy_max},
            max=event.rebuy_max,
        )
    return _sell(
        event=event,
        entry=entry,
        kind=Purchase.Kind.REBUY,
        cage=cage,
        cashier=cashier,
        at=at,
    )


@retry_on_conflict()
@transaction.atomic
def addon_buy(
    *,
    entry: Entry,
    cage: str,
    cashier: User,
    level: int | None = None,
    at: datetime | None = None,
) -> Purchase:
    """Sell the add-on to a playing entry at its level, once (TO1).

    The add-on is sold while the event's clock on the server is at the add-on's
    level at ``at`` (a break, usually: open through the break, running or paused;
    TO1, TO12). ``level`` is only what the caller believes the clock is at.

    Raises :class:`Conflict` (TO12) when ``level`` isn't the server's;
    :class:`Refusal` (TO1) for an event without one, another level, a second
    add-on; at the tournaments' door, PP2 (``under_age``), PP3
    (``player_barred``) or PP4 (``player_self_excluded``).
    """
    at = at or timezone.now()
    event_locked(entry.event)
    entry = entry_locked(entry)
    event = entry.event
    event_open_check(event)
    door_check(player=entry.player, door=Door.TOURNAMENT, at=at)
    if event.addon_level is None or not event.addon_chips:
        raise refuse(Code.NO_ADDON, rule="TO1")
    clock = cage_windows_check(event, at=at, believed=level)
    if not clock.addon:
        raise refuse(
            Code.NOT_ADDON_TIME,
            text="stopped" if clock.status is clock_rules.Status.STOPPED else None,
            rule="TO1",
            allowed={"level": event.addon_level},
            level=event.addon_level,
        )
    if entry.purchases.filter(kind=Purchase.Kind.ADDON).exists():
        raise refuse(Code.ADDON_TAKEN, rule="TO1")
    return _sell(
        event=event,
        entry=entry,
        kind=Purchase.Kind.ADDON,
        cage=cage,
        cashier=cashier,
        at=at,
    )


@transaction.atomic
def event_start(*, event: Event) -> Event:
    """Start the event: scheduled → running."""
    event = event_locked(event)
    if event.status != Event.Status.SCHEDULED:
        raise conflict(Code.EVENT_NOT_SCHEDULED, code=event.code)
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    return event
