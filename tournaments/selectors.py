"""Reads of a tournament: its clock, its level by the schedule, who is left, the
final standings, pools, bounties and the chip reconciliation (TO3, TO4, TO12)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, Sum
from django.utils import timezone

from tournaments import chart
from tournaments.domain import clock as clock_rules
from tournaments.domain import payouts, places
from tournaments.domain.chips import (
    Reconciliation,
    TableCount,
    counted_in_play,
    reconcile,
)
from tournaments.domain.places import Place
from tournaments.errors import Code, refuse
from tournaments.models import (
    BountyPayment,
    Bust,
    ChipCount,
    ChipMovement,
    ClockChange,
    Entry,
    Event,
    EventTable,
    Level,
    Purchase,
    Refund,
    SeatMove,
)

# --- The event's clock, as the server keeps it (TO12) -------------------------------


def structure_of(event: Event) -> tuple[list[Level], clock_rules.Structure]:
    """Return the event's level rows in order and the clock's structure from them."""
    rows = list(Level.objects.filter(structure=event.structure_id).order_by("number"))
    periods: list[clock_rules.Period] = [
        clock_rules.Break(row.minutes)
        if row.is_break
        else clock_rules.Level(
            small_blind=int(row.small_blind),
            big_blind=int(row.big_blind),
            ante=int(row.ante),
            minutes=row.minutes,
            big_blind_ante=row.big_blind_ante,
        )
        for row in rows
    ]
    return rows, tuple(periods)


def clock_log(event: Event, rows: Sequence[Level]) -> list[clock_rules.ClockEvent]:
    """The event's clock log, its levels as indexes into ``rows``."""
    index = {row.number: i for i, row in enumerate(rows)}
    return [
        clock_rules.ClockEvent(
            clock_rules.Action(change.action),
            change.at,
            period=None if change.level is None else index.get(change.level, -1),
            seconds=change.seconds,
        )
        for change in ClockChange.objects.filter(event=event).order_by("at", "pk")
    ]


@dataclass(frozen=True, slots=True)
class Clock:
    """The clock at a moment, with the level row it is at."""

    state: clock_rules.ClockState
    level: Level

    @property
    def number(self) -> int:
        """The structure's number of the period on the clock (breaks counted), 0
        before the start: what the event's late-registration, rebuy and add-on
        levels name (TO1)."""
        if self.state.status is clock_rules.Status.NOT_STARTED:
            return 0
        return int(self.level.number)


def clock_of(event: Event, *, now: datetime | None = None) -> Clock:
    """Return the event's clock at ``now`` (TO12), replayed from its log.

    Raises :class:`Refusal` (TO12) if the event's structure has no levels.
    """
    rows, structure = structure_of(event)
    if not rows:
        raise refuse(Code.NO_STRUCTURE, rule="TO12")
    state = clock_rules.clock_state(
        structure, clock_log(event, rows), now or timezone.now()
    )
    return Clock(state=state, level=rows[state.period])


@dataclass(frozen=True, slots=True)
class CageWindows:
    """What the server's clock opens at the cage at a moment (TO1, TO12)."""

    status: clock_rules.Status
    number: int
    on_break: bool
    registration: bool
    rebuys: bool
    addon: bool


def cage_windows(*, event: Event, at: datetime) -> CageWindows:
    """Whether late registration, the rebuy period and the add-on are open at
    ``at``, by the event's clock on the server, never by a client (TO1, TO12).

    ``number`` is the structure's level number on the clock (breaks counted, 0
    before the start). A structure without levels has a clock that never starts:
    registration is open until the event's level 0 closes it, nothing else.
    """
    rows, structure = structure_of(event)
    if rows:
        state = clock_rules.clock_state(structure, clock_log(event, rows), at)
        status, number = state.status, Clock(state, rows[state.period]).number
        on_break = status is not clock_rules.Status.NOT_STARTED and state.on_break
    else:
        status, number, on_break = clock_rules.Status.NOT_STARTED, 0, False
    return CageWindows(
        status=status,
        number=number,
        on_break=on_break,
        registration=clock_rules.registration_open(
            status, number, until=event.late_registration_level
        ),
        rebuys=bool(event.rebuy_max)
        and clock_rules.rebuys_open(status, number, until=event.rebuy_until_level),
        addon=bool(event.addon_chips)
        and clock_rules.addon_open(status, number, at=event.addon_level),
    )


def scheduled_level(*, event: Event, at: datetime | None = None) -> int:
    """The level the event's schedule gives at ``at`` (now by default), counting
    from its start without pauses; 0 before the start. The event's clock
    (:func:`clock_of`), which knows of pauses and moves (TO12), is the one the room
    reads."""
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
    """What the purchases put in the prize pool, less refunds, whole or in part
    (TO7, TO10)."""
    sold = Purchase.objects.filter(entry__event=event).aggregate(
        total=Sum("prize_pool_cents")
    )["total"]
    given_back = Refund.objects.filter(purchase__entry__event=event).aggregate(
        total=Sum("prize_pool_cents")
    )["total"]
    return (sold or 0) - (given_back or 0)


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
