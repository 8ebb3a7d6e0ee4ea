"""Helpers the tournament's use cases share: the event and the entry locked, the
checks every sale makes, bounties paid and the winner recorded (TO1, TO4, TO8).
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from accounting import chart as ledger
from accounting.cage import payable_create
from accounting.services import Leg, transaction_post
from core.errors import Invalid, Refusal
from tournaments import chart, selectors
from tournaments.models import (
    BountyPayment,
    Bust,
    Entry,
    Event,
)


def _event_locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _open_for_play(event: Event) -> None:
    if event.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING):
        raise Refusal(
            "event_closed",
            _("TO1: event %(code)s is %(status)s.")
            % {"code": event.code, "status": event.get_status_display()},
            rule="TO1",
        )


def _level_check(level: object) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise Invalid("invalid_level", _("A level is a whole number from 0."))
    return level


def _entry_locked(entry: Entry) -> Entry:
    locked = (
        Entry.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=entry.pk)
    )
    if locked.status != Entry.Status.ACTIVE:
        raise Refusal(
            "entry_not_playing",
            _("TO1: entry %(no)d is %(status)s.")
            % {"no": locked.number, "status": locked.get_status_display()},
            rule="TO1",
        )
    return locked


def _bounty_pay(
    *,
    event: Event,
    winner: Entry,
    amount: int,
    added: int,
    reason: str,
    by: User | None,
    bust: Bust | None,
    at: datetime,
) -> BountyPayment:
    """Book a bounty: paid part to awards payable for the cage (TO8, CA6)."""
    payable = None
    if amount:
        currency = event.currency
        posting = transaction_post(
            kind="tournament_bounty",
            legs=[
                Leg(chart.bounty_pool(event=event.code, currency=currency), amount),
                Leg(ledger.awards_payable(currency=currency), -amount),
            ],
            posted_by=by,
            source="" if by else "tournament",
            reference=f"{event.code} bounty",
            posted_at=at,
        )
        payable = payable_create(
            player=winner.player,
            amount_cents=amount,
            reference=f"{event.code} bounty #{winner.number}",
            approved_by=by,
            booking=posting,
            currency=currency,
        )
    return BountyPayment.objects.create(
        event=event,
        bust=bust,
        winner=winner,
        amount_cents=amount,
        added_to_bounty_cents=added,
        reason=reason,
        payable=payable,
        at=at,
    )


def _winner_record(
    *, event: Event, winner: Entry, by: User | None, at: datetime
) -> None:
    Entry.objects.filter(pk=winner.pk).update(
        status=Entry.Status.WON, place=1, finished_at=at
    )
    if event.bounty_kind != Event.Bounty.NONE:
        own = selectors.bounty_of(entry=winner)
        if own:
            _bounty_pay(
                event=event,
                winner=winner,
                amount=own,
                added=0,
                reason="own",
                by=by,
                bust=None,
                at=at,
            )
