"""The chips of an event (TO3): in play, and reconciled against what the tables
counted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, Sum

from tournaments.domain.chips import (
    Reconciliation,
    TableCount,
    counted_in_play,
    reconcile,
)
from tournaments.models import (
    ChipCount,
    ChipMovement,
    Entry,
    Event,
    EventTable,
    SeatMove,
)


def chips_in_play(event: Event) -> int:
    """Return the chips issued less the chips removed (TO3)."""
    total = ChipMovement.objects.filter(event=event).aggregate(s=Sum("chips"))["s"]
    return int(total or 0)


@dataclass(frozen=True, slots=True)
class ChipReport:
    """The reconciliation and the counts it read (TO3).

    ``counts`` are the counts summed (each open table's latest, or the whole
    field's), ``counted_at`` the oldest of them; ``uncounted`` the open tables
    never counted (no sum while there are any); ``moved_since`` the counted tables
    that players moved into or out of after their count (count them again).
    """

    reconciliation: Reconciliation
    counted_at: datetime | None
    counts: tuple[TableCount, ...] = ()
    uncounted: tuple[str, ...] = ()
    whole_field: bool = False
    moved_since: tuple[str, ...] = ()


def chip_reconciliation(*, event: Event, counted: int | None = None) -> ChipReport:
    """Chips issued, removed by cause and counted, at any moment (TO3).

    ``counted`` when given; otherwise what the tables counted: the latest count of
    every table in play (open, with players seated), summed, or the latest count
    of the whole field when it is newer than all of them
    (``domain.chips.counted_in_play``). A table broken since its count is not
    read, nor an open one its players have all left: their chips moved with the
    players. Once the event is won (outright or by a deal), the tables its
    winners sat at are the ones in play: the final reckoning reads their counts.
    """
    movements = list(
        ChipMovement.objects.filter(event=event).values_list("cause", "chips")
    )
    if counted is not None:
        return ChipReport(reconcile(movements, counted), None)
    seated = set(
        Entry.objects.filter(
            event=event, status__in=(Entry.Status.ACTIVE, Entry.Status.WON)
        )
        .exclude(seat__isnull=True)
        .values_list("table", flat=True)
    )
    open_tables = [
        table
        for table in EventTable.objects.filter(
            event=event, status=EventTable.Status.OPEN
        )
        .order_by("break_order", "table")
        .values_list("table", flat=True)
        if table in seated
    ]
    found = counted_in_play(
        (
            TableCount(table, int(chips), at)
            for table, chips, at in ChipCount.objects.filter(event=event)
            .order_by("at", "id")
            .values_list("table", "chips", "at")
        ),
        open_tables,
    )
    moved = tuple(
        c.table
        for c in found.counts
        if c.table
        and SeatMove.objects.filter(event=event, at__gt=c.at)
        .filter(Q(from_table=c.table) | Q(to_table=c.table))
        .exists()
    )
    return ChipReport(
        reconcile(movements, found.chips),
        found.as_of,
        counts=found.counts,
        uncounted=found.uncounted,
        whole_field=found.whole_field,
        moved_since=moved,
    )
