"""Chips counted, not booked: removals with their cause, disqualifications, chip
races and counts (TO3, TO6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.services import retry_on_conflict
from core.errors import SharedCode
from tournaments.domain.chips import (
    REMOVING,
    ChipsError,
    ColourUp,
    colour_up,
    race_draw,
)
from tournaments.domain.chips import race_order as chips_race_order
from tournaments.errors import Code, conflict, invalid, refuse, refused_as
from tournaments.models import (
    ChipCount,
    ChipMovement,
    ChipRace,
    Entry,
    Event,
    EventTable,
    PayoutSheet,
)
from tournaments.services._shared import event_locked, winner_record

REMOVAL_NEEDS_A_NOTE = ("hidden", "penalty", "disqualification")


@transaction.atomic
def chips_remove(
    *,
    event: Event,
    cause: str,
    chips: int,
    by: User,
    entry: Entry | None = None,
    note: str = "",
    at: datetime | None = None,
) -> ChipMovement:
    """Take ``chips`` out of play for a recorded cause (TO3): surrendered on
    re-entry, disqualification, absence, an unsold seat's stack (RR §15 #6), hidden
    chips after an all-in (TDA R64), a chip penalty.

    Raises :class:`Invalid` for an unknown cause or a count that isn't positive;
    :class:`Refusal` (TO3) without a note where the cause needs one.
    """
    if cause not in REMOVING or cause in ("race", "colour_up", "refund"):
        raise invalid(
            Code.UNKNOWN_CAUSE,
            allowed={
                "causes": [
                    c for c in REMOVING if c not in ("race", "colour_up", "refund")
                ]
            },
        )
    if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
        raise invalid(Code.INVALID_CHIPS)
    if cause in REMOVAL_NEEDS_A_NOTE and not note.strip():
        raise refuse(Code.NOTE_REQUIRED, rule="TO3", cause=cause)
    if entry is not None and entry.event_id != event.pk:
        raise invalid(Code.WRONG_EVENT)
    return ChipMovement.objects.create(
        event=event,
        entry=entry,
        cause=cause,
        chips=-chips,
        note=note,
        recorded_by=by,
        at=at or timezone.now(),
    )


@retry_on_conflict()
@transaction.atomic
def entry_disqualify(
    *,
    entry: Entry,
    by: User,
    reason: str,
    stack: int = 0,
    at: datetime | None = None,
) -> Entry:
    """Disqualify an entry (TO3, TO9). A playing entry's ``stack`` leaves play for
    that cause and he takes no place; an entry that already finished keeps his
    place, and his prize is held on the payout sheet (TDA RP-23).

    Raises :class:`Refusal` (TO3) without a reason; :class:`Conflict` when he is
    disqualified already or refunded.
    """
    at = at or timezone.now()
    event = event_locked(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, rule="TO3")
    if entry.status in (Entry.Status.DISQUALIFIED, Entry.Status.REFUNDED):
        raise conflict(
            Code.ENTRY_CLOSED, no=entry.number, status=entry.get_status_display()
        )
    if PayoutSheet.objects.filter(event=event, status="approved").exists():
        raise refuse(Code.SHEET_APPROVED, rule="TO9")
    playing = entry.status == Entry.Status.ACTIVE
    if playing and stack:
        chips_remove(
            event=event,
            entry=entry,
            cause=ChipMovement.Cause.DISQUALIFICATION,
            chips=stack,
            by=by,
            note=reason,
            at=at,
        )
    Entry.objects.filter(pk=entry.pk).update(
        status=Entry.Status.DISQUALIFIED,
        seat=None,
        finished_at=entry.finished_at or at,
    )
    left = list(Entry.objects.filter(event=event, status=Entry.Status.ACTIVE))
    if playing and len(left) == 1 and event.status == Event.Status.RUNNING:
        winner_record(event=event, winner=left[0], by=by, at=at)
    entry.refresh_from_db()
    return entry


@transaction.atomic
def chip_race_record(
    *,
    event: Event,
    table: str,
    denomination: int,
    new_denomination: int,
    stacks: Mapping[str, int],
    retired: Mapping[str, int],
    race_order: Sequence[str] | None = None,
    by: User,
    cards: Mapping[str, str] | None = None,
    seed: int | None = None,
    at: datetime | None = None,
) -> ChipRace:
    """Record a colour-up and its race at ``table`` (TO6, RR §15 #11): each player's
    stack after, who won a chip, who was given one so as not to be raced out (TDA
    R26-A), and the chips that leaves or brings into play (TO3, ``race`` or
    ``race_minimum``).

    ``stacks`` and ``retired`` are keyed by seat. The race's order is given as
    ``race_order`` (highest card first), as the ``cards`` each seat with odd chips
    drew, or drawn here from ``seed`` (:func:`tournaments.domain.chips.race_draw`,
    the seats in their order); the cards and the seed are recorded.

    Raises :class:`Invalid` for more or less than one way of ordering the race;
    :class:`Refusal` (TO3) for a table not of the event, (TO6) for a race the rule
    doesn't allow.
    """
    if sum(x is not None for x in (race_order, cards, seed)) != 1:
        raise invalid(Code.RACE_CARDS, text="way")
    if not EventTable.objects.filter(event=event, table=table).exists():
        raise refuse(Code.NOT_AN_EVENT_TABLE, rule="TO3", table=table, event=event.code)
    up, order, drawn = _race_colour_up(
        stacks,
        retired,
        denomination=denomination,
        new_denomination=new_denomination,
        race_order=race_order,
        cards=cards,
        seed=seed,
    )
    at = at or timezone.now()
    race = ChipRace.objects.create(
        event=event,
        table=table,
        denomination=denomination,
        new_denomination=new_denomination,
        result={
            "before": up.before,
            "after": up.after,
            "odd": up.odd,
            "winners": up.race_winners,
            "granted": up.granted,
            "order": order,
            "cards": drawn,
            "seed": seed,
        },
        removed_chips=up.removed,
        added_chips=up.added,
        recorded_by=by,
        at=at,
    )
    _race_chips_record(race, up, by=by)
    return race


def _race_colour_up(
    stacks: Mapping[str, int],
    retired: Mapping[str, int],
    *,
    denomination: int,
    new_denomination: int,
    race_order: Sequence[str] | None,
    cards: Mapping[str, str] | None,
    seed: int | None,
) -> tuple[ColourUp[str], list[str], dict[str, str]]:
    """The colour-up with the race in the order given, read from the cards or drawn
    from the seed, and that order and those cards to record; the domain's refusal
    becomes the service's (TO6)."""
    try:
        if seed is not None:
            cards = race_draw(
                _racing_seats(stacks, retired, denomination, new_denomination),
                seed=seed,
            )
        if cards is not None:
            race_order = chips_race_order(cards)
        order = list(race_order or [])
        up = colour_up(
            stacks,
            retired,
            denomination=denomination,
            new_denomination=new_denomination,
            race_order=order,
        )
    except ChipsError as error:
        raise refused_as(Code.RACE_REFUSED, error, rule="TO6") from error
    return up, order, dict(cards or {})


def _racing_seats(
    stacks: Mapping[str, int],
    retired: Mapping[str, int],
    denomination: int,
    new_denomination: int,
) -> list[str]:
    """The seats with odd chips, in the seats' order (``2`` before ``10``): the order
    a drawn race deals its cards in, so the seed recorded repeats the draw (TO6)."""
    return sorted(
        (k for k in stacks if retired.get(k, 0) * denomination % new_denomination),
        key=lambda k: (len(k), k),
    )


def _race_chips_record(race: ChipRace, up: ColourUp[str], *, by: User) -> None:
    """Record the chips the race took out of play or brought into it, so the
    reconciliation still balances (TO3 ``race``, ``race_minimum``; TDA R26-A)."""
    note = f"{race.table} race {race.denomination}→{race.new_denomination}"
    if up.removed:
        ChipMovement.objects.create(
            event=race.event,
            cause=ChipMovement.Cause.RACE,
            chips=-up.removed,
            note=note,
            recorded_by=by,
            at=race.at,
        )
    if up.added:
        ChipMovement.objects.create(
            event=race.event,
            cause=ChipMovement.Cause.RACE_MINIMUM,
            chips=up.added,
            note=f"{note}: {', '.join(map(str, up.granted))} (TDA R26-A)",
            recorded_by=by,
            at=race.at,
        )


def chip_count_record(
    *,
    event: Event,
    chips: int,
    table: str = "",
    by: User | None = None,
    source: str = "",
    at: datetime | None = None,
) -> ChipCount:
    """Record chips counted in play, at a table or (``table`` blank) the field (TO3)."""
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
        raise invalid(Code.INVALID_CHIPS, text="count")
    return ChipCount.objects.create(
        event=event,
        table=table,
        chips=chips,
        counted_by=by,
        source=source,
        at=at or timezone.now(),
    )


def chip_count_report(
    *, event: Event, table: str, chips: int, by: User | None, source: str = ""
) -> Any:
    """Record a table's chips counted at an open table of the event (TO3).

    Raises :class:`Refusal` (TO3) for a table that doesn't play in the event.
    """
    if not EventTable.objects.filter(
        event=event, table=table, status=EventTable.Status.OPEN
    ).exists():
        raise refuse(Code.NOT_AN_EVENT_TABLE, rule="TO3", table=table, event=event.code)
    return chip_count_record(
        event=event, chips=chips, table=table, by=by, source=source
    )
