"""Reads of a tournament: its level by the schedule, who is left, pools, bounties and
the chip reconciliation (TO3)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Sum
from django.utils import timezone

from tournaments import chart
from tournaments.domain import payouts
from tournaments.domain.chips import Reconciliation, reconcile
from tournaments.models import (
    BountyPayment,
    ChipCount,
    ChipMovement,
    Entry,
    Event,
    Level,
    Purchase,
)


def scheduled_level(*, event: Event, at: datetime | None = None) -> int:
    """The level the event's schedule gives at ``at`` (now by default), counting
    from its start without pauses; 0 before the start. The floor's clock, which
    knows of pauses and moves (TO12), is the one the room reads."""
    at = at or timezone.now()
    if at < event.starts_at:
        return 0
    elapsed = at - event.starts_at
    number = 0
    for level in Level.objects.filter(structure=event.structure_id).order_by("number"):
        number = level.number
        length = timedelta(minutes=level.minutes)
        if elapsed < length:
            return number
        elapsed -= length
    return number


def entries_left(*, event: Event) -> int:
    """The entries still playing (TO4)."""
    return Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).count()


def entries_counted(*, event: Event) -> int:
    """The entries the payout table's field size counts: entries and re-entries
    not refunded (TO7)."""
    return (
        Entry.objects.filter(event=event).exclude(status=Entry.Status.REFUNDED).count()
    )


def buy_ins_cents(*, event: Event) -> int:
    """What the purchases put in the prize pool, less refunds (TO7)."""
    purchases = Purchase.objects.filter(entry__event=event, refund__isnull=True)
    return purchases.aggregate(total=Sum("prize_pool_cents"))["total"] or 0


def prize_pool_cents(*, event: Event) -> int:
    """The prize pool's balance in the ledger (TO1)."""
    return chart.prize_pool(event=event.code, currency=event.currency).balance_cents


def pool_and_overlay(*, event: Event) -> tuple[int, int]:
    """The pool the payouts share and the house's overlay (TO7)."""
    return payouts.pool_of(buy_ins_cents(event=event), event.guarantee_cents)


def payout_table(*, event: Event) -> list[tuple[int, list[int]]] | None:
    """The event's payout table, or ``None`` for the default (TO7)."""
    if not event.payout_table:
        return None
    return [
        (int(row["min_entries"]), list(row["shares"])) for row in event.payout_table
    ]


def place_prizes(*, event: Event) -> list[int]:
    """The prize of each place paid, first place first, adding up to the pool (TO7)."""
    pool, _overlay = pool_and_overlay(event=event)
    shares = payouts.shares_for(
        max(entries_counted(event=event), 1), payout_table(event=event)
    )
    return payouts.prizes(
        pool, shares, unit=event.payout_unit_cents, remainder=event.payout_remainder
    )


def bounty_of(*, entry: Entry) -> int:
    """The bounty on ``entry``'s head while he plays: what he paid, plus the halves
    his progressive knockouts added to it, less what was taken when he busted (TO8).
    """
    paid_in = (
        Purchase.objects.filter(entry=entry, refund__isnull=True).aggregate(
            total=Sum("bounty_cents")
        )["total"]
        or 0
    )
    added = (
        BountyPayment.objects.filter(winner=entry).aggregate(
            total=Sum("added_to_bounty_cents")
        )["total"]
        or 0
    )
    taken = BountyPayment.objects.filter(bust__entry=entry).aggregate(
        paid=Sum("amount_cents"), added=Sum("added_to_bounty_cents")
    )
    return paid_in + added - (taken["paid"] or 0) - (taken["added"] or 0)


@dataclass(frozen=True, slots=True)
class ChipReport:
    """The reconciliation and the count it used (TO3)."""

    reconciliation: Reconciliation
    counted_at: datetime | None


def chip_reconciliation(*, event: Event, counted: int | None = None) -> ChipReport:
    """Chips issued, removed by cause and counted (TO3).

    ``counted`` when given; otherwise the latest count of the whole field.
    """
    movements = list(
        ChipMovement.objects.filter(event=event).values_list("cause", "chips")
    )
    counted_at = None
    if counted is None:
        latest = (
            ChipCount.objects.filter(event=event, table="")
            .order_by("-at", "-id")
            .first()
        )
        if latest is not None:
            counted, counted_at = latest.chips, latest.at
    return ChipReport(reconcile(movements, counted), counted_at)
