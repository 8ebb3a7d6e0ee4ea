"""The entries of an event: who is left, the final standings, the bounty on a
player's head, and the seats (TO2, TO4, TO8, TO11)."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from tournaments.domain import places
from tournaments.domain import tables as table_rules
from tournaments.domain.places import Place
from tournaments.models import (
    BountyPayment,
    Bust,
    Entry,
    Event,
    EventTable,
    Purchase,
    Refund,
    SeatMove,
)


def entries_left(*, event: Event) -> int:
    """The entries still playing (TO4)."""
    return Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).count()


def entries_counted(*, event: Event) -> int:
    """The entries the payout table's field size counts: entries and re-entries
    not refunded (TO7)."""
    return (
        Entry.objects.filter(event=event).exclude(status=Entry.Status.REFUNDED).count()
    )


def event_standings(*, event: Event) -> dict[int, Place]:
    """Every finished entry's final place, entry id → places shared (TO4).

    The players left at the end (alone, or in a deal that ended the event) take the
    first places as recorded; then each hand's busts, the latest first, take the
    places below: the bigger stack at the start of the hand higher, equal stacks and
    hand-for-hand busts sharing. Counted over the whole field, so a bust during late
    registration finishes below every entry that came after it.
    """
    # The winners, and a winner disqualified afterwards (his prize held, TO9).
    winners = Entry.objects.filter(
        event=event,
        status__in=[Entry.Status.WON, Entry.Status.DISQUALIFIED],
        place__isnull=False,
        bust__isnull=True,
    )
    hands: dict[str, list[Bust]] = {}
    for bust in Bust.objects.filter(event=event).order_by("-at", "-id"):
        hands.setdefault(bust.hand, []).append(bust)
    return places.standings(
        {entry.pk: entry.place or 1 for entry in winners},
        [
            ({b.entry_id: b.stack_at_start for b in group}, group[0].hand_for_hand)
            for group in hands.values()
        ],
    )


def bounty_of(*, entry: Entry) -> int:
    """The bounty on ``entry``'s head while he plays: what he paid, plus the halves
    his progressive knockouts added to it, less what was taken when he busted (TO8).
    """
    paid_in = (
        Purchase.objects.filter(entry=entry).aggregate(total=Sum("bounty_cents"))[
            "total"
        ]
        or 0
    ) - (
        Refund.objects.filter(purchase__entry=entry).aggregate(
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


def tables_open(event: Event) -> list[EventTable]:
    """The event's open tables, in the order they break (TO11)."""
    return list(
        EventTable.objects.filter(event=event, status=EventTable.Status.OPEN).order_by(
            "break_order"
        )
    )


def table_map(event: Event) -> list[dict[str, Any]]:
    """Return the event's open tables with their seats, for the floor's map (TO11)."""
    tables = tables_open(event)
    live = (
        Entry.objects.select_related("player")
        .filter(event=event, status=Entry.Status.ACTIVE)
        .order_by("table", "seat")
    )
    seats: dict[str, dict[int, Entry]] = {t.table: {} for t in tables}
    unseated = []
    for entry in live:
        if entry.table in seats and entry.seat is not None:
            seats[entry.table][entry.seat] = entry
        else:
            unseated.append(entry)
    values = [
        table_rules.TableSeats(
            t.table, t.seats, {s: str(e.pk) for s, e in seats[t.table].items()}
        )
        for t in tables
    ]
    halted = set(table_rules.halted(values))
    return [
        {
            "table": t.table,
            "seats": t.seats,
            "break_order": t.break_order,
            "players": len(seats[t.table]),
            "halted": t.table in halted,
            "seated": [
                {
                    "seat": n,
                    "entry": seats[t.table][n].number,
                    "player": seats[t.table][n].player.code,
                }
                if n in seats[t.table]
                else {"seat": n, "entry": None, "player": None}
                for n in range(1, t.seats + 1)
            ],
        }
        for t in tables
    ]


def entry_seat_drawn(*, entry: Entry) -> SeatMove | None:
    """The seeded draw that gave ``entry`` its first seat (TO11), if it had one."""
    return (
        SeatMove.objects.filter(entry=entry, reason="draw").order_by("at", "pk").first()
    )
