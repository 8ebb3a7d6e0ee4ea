"""Busts: places fixed, bounties paid, the last player standing recorded (TO4, TO8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.services import retry_on_conflict
from tournaments import selectors
from tournaments.domain import bounties, places
from tournaments.domain.places import Place, PlacesError
from tournaments.errors import Code, conflict, invalid, refuse, refused_as
from tournaments.models import (
    Bust,
    Entry,
    Event,
)
from tournaments.services._shared import (
    bounty_pay,
    event_get,
    event_locked,
    winner_record,
)


@dataclass(frozen=True, slots=True)
class BustIn:
    """One player out in a hand: his entry, his stack at the start of the hand (after
    posting in big-blind-ante games), who won his chips (TO4, TO8)."""

    entry: Entry
    stack_at_start: int
    busted_by: Sequence[Entry] = ()


def _busts_check(
    *, event: Event, hand: str, busts: Sequence[BustIn], by: User | None, source: str
) -> dict[int, Entry]:
    """The event's playing entries (locked) by id, once ``busts`` may be recorded
    (TO4, TO8)."""
    if event.status != Event.Status.RUNNING:
        raise refuse(Code.EVENT_NOT_RUNNING, rule="TO4")
    if not hand.strip():
        raise invalid(Code.HAND_REQUIRED)
    if by is None and not source.strip():
        raise invalid(Code.SOURCE_REQUIRED)
    if by is None and event.bounty_kind != Event.Bounty.NONE:
        raise refuse(Code.BOUNTY_NEEDS_STAFF, rule="TO8")
    if Bust.objects.filter(event=event, hand=hand).exists():
        raise conflict(Code.HAND_RECORDED, hand=hand)
    entries = {b.entry.pk: b for b in busts}
    if len(entries) != len(busts):
        raise invalid(Code.DUPLICATE_BUST)
    playing = {
        e.pk: e
        for e in Entry.objects.select_for_update()
        .select_related("player")
        .filter(event=event, status=Entry.Status.ACTIVE)
    }
    for b in busts:
        if event.bounty_kind != Event.Bounty.NONE and not b.busted_by:
            raise refuse(Code.BOUNTY_WINNER_REQUIRED, rule="TO8")
        if b.entry.pk not in playing:
            raise refuse(
                Code.ENTRY_NOT_PLAYING, text="bust", rule="TO4", no=b.entry.number
            )
        for winner in b.busted_by:
            if winner.pk not in playing or winner.pk in entries:
                raise refuse(Code.WINNER_NOT_PLAYING, rule="TO8")
    return playing


def _bust_book(
    *,
    event: Event,
    bust: BustIn,
    place: Place,
    playing: dict[int, Entry],
    hand: str,
    hand_for_hand: bool,
    by: User | None,
    source: str,
    at: datetime,
) -> Bust:
    """Record one player out at ``place`` and pay his bounty to who busted him
    (TO4, TO8)."""
    b = bust
    entry = playing[b.entry.pk]
    bust_row = Bust.objects.create(
        event=event,
        entry=entry,
        hand=hand,
        stack_at_start=b.stack_at_start,
        hand_for_hand=hand_for_hand,
        busted_by=playing[b.busted_by[0].pk] if b.busted_by else None,
        place_high=place.high,
        place_low=place.low,
        recorded_by=by,
        source=source[:64],
        at=at,
    )
    Entry.objects.filter(pk=entry.pk).update(
        status=Entry.Status.BUSTED, place=place.high, finished_at=at, seat=None
    )
    if event.bounty_kind == Event.Bounty.NONE or not b.busted_by:
        return bust_row
    shares = bounties.knockout(
        selectors.bounty_of(entry=entry),
        [w.pk for w in b.busted_by],
        progressive=event.bounty_kind == Event.Bounty.PROGRESSIVE,
        unit=1,
    )
    for winner_pk, share in shares.items():
        if share.paid or share.added:
            bounty_pay(
                event=event,
                winner=playing[winner_pk],
                amount=share.paid,
                added=share.added,
                reason="bust",
                by=by,
                bust=bust_row,
                at=at,
            )
    return bust_row


@retry_on_conflict()
@transaction.atomic
def busts_record(
    *,
    event: Event,
    hand: str,
    busts: Sequence[BustIn],
    by: User | None,
    source: str = "",
    hand_for_hand: bool = False,
    at: datetime | None = None,
) -> list[Bust]:
    """Record the players out in one hand and their places (TO4), and pay their
    bounties to who busted them (TO8).

    ``by`` is the staff member who records them; a table's terminal records them
    with ``by=None`` and its ``source`` (``terminal:T01``). A bounty is an award a
    person approves (CA6), so in a bounty event the floor records the busts.

    The bigger stack at the start of the hand finishes higher; equal stacks share
    their places; during hand-for-hand the players out share every place of the hand
    (TDA RP-8-A). When one entry is left he has won: first place, and his own bounty.

    Raises :class:`Refusal` (TO4) for an entry not playing, a winner out in the same
    hand, every player out; :class:`Conflict` for a hand recorded already.
    """
    at = at or timezone.now()
    event = event_locked(event)
    playing = _busts_check(event=event, hand=hand, busts=busts, by=by, source=source)
    try:
        placed = places.places_of(
            len(playing),
            {b.entry.pk: b.stack_at_start for b in busts},
            hand_for_hand=hand_for_hand,
        )
    except PlacesError as error:
        raise refused_as(Code.BUST_REFUSED, error, rule="TO4") from error
    recorded = [
        _bust_book(
            event=event,
            bust=b,
            place=placed[b.entry.pk],
            playing=playing,
            hand=hand,
            hand_for_hand=hand_for_hand,
            by=by,
            source=source,
            at=at,
        )
        for b in sorted(busts, key=lambda b: placed[b.entry.pk].high)
    ]
    entries = {b.entry.pk for b in busts}
    left = [e for pk, e in playing.items() if pk not in entries]
    if len(left) == 1:
        winner_record(event=event, winner=left[0], by=by, at=at)
    return recorded


# --- What the terminals report (TO4) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class BustReport:
    """A player out, as a terminal reports him: his player code, his stack at the
    start of the hand (after posting in big-blind-ante games) and who won it."""

    player: str
    stack: int
    busted_by: tuple[str, ...] = ()


def _hand_key(table: str | None, hand: str) -> str:
    return f"{table}:{hand}" if table else hand


def _same_busts(recorded: Sequence[Any], reports: Sequence[BustReport]) -> bool:
    mine = sorted((r.player, r.stack) for r in reports)
    theirs = sorted((b.entry.player.code, int(b.stack_at_start)) for b in recorded)
    return mine == theirs


@transaction.atomic
def busts_report(
    *,
    event_code: str,
    hand: str,
    busts: Sequence[BustReport],
    table: str | None = None,
    hand_for_hand: bool = False,
    by: User | None,
    source: str = "",
    now: datetime | None = None,
) -> tuple[list[Any], bool]:
    """Record the players out in one hand and their places (TO4), as a table's
    terminal or the floor reports them; return the busts and whether they are new.

    A table's hand is keyed ``table:hand``; during hand-for-hand the floor reports
    the busts of every table in one call, keyed by the hand alone, so they share
    the places of that hand (TDA RP-8-A). The same report again answers the busts
    recorded (not new); another report for a recorded hand is a :class:`Conflict`.
    The places and bounties are the tournament services' (TO4, TO8).

    Raises :class:`NotFound` for an unknown event, :class:`Refusal` (TO4) for a
    player not playing in it or, for a table's report, not seated at that table,
    and what :func:`busts_record` raises.
    """
    event = event_get(code=event_code, lock=True)
    key = _hand_key(table, hand)
    recorded = list(
        Bust.objects.select_related("entry__player").filter(event=event, hand=key)
    )
    if recorded:
        if _same_busts(recorded, busts):
            return recorded, False
        raise conflict(Code.HAND_RECORDED, text="other", hand=key)
    codes = {r.player for r in busts} | {w for r in busts for w in r.busted_by}
    live = {
        e.player.code: e
        for e in Entry.objects.select_related("player").filter(
            event=event, status=Entry.Status.ACTIVE, player__code__in=codes
        )
    }
    for code in sorted(codes):
        if code not in live:
            raise refuse(
                Code.ENTRY_NOT_PLAYING,
                text="report",
                rule="TO4",
                player=code,
                event=event.code,
            )
    if table is not None:
        for report in busts:
            if live[report.player].table != table:
                raise refuse(
                    Code.NOT_AT_THIS_TABLE,
                    rule="TO4",
                    player=report.player,
                    table=table,
                )
    reports = [
        BustIn(
            entry=live[r.player],
            stack_at_start=r.stack,
            busted_by=tuple(live[w] for w in r.busted_by),
        )
        for r in busts
    ]
    done = busts_record(
        event=event,
        hand=key,
        busts=reports,
        by=by,
        source=source,
        hand_for_hand=hand_for_hand,
        at=now or timezone.now(),
    )
    return list(done), True
