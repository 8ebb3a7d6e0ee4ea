"""Qualification of one booked hand: bad beats become pending hits (BB1–BB3), tabled
hands enter the hand-of-the-month standings (HM1, HM4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounting.models import Player
from accounting.services import retry_on_conflict
from cardroom.models import Hand, HandException, HandSeat, Room
from jackpots import selectors
from jackpots.domain.months import (
    month_of,
)
from jackpots.domain.qualification import (
    BadBeat,
    HandFacts,
    SeatFacts,
    Shown,
    bad_beat,
    month_hands,
)
from jackpots.domain.rules import (
    CardUse,
    CategoryRules,
)
from jackpots.domain.shares import percent_of
from jackpots.models import (
    Award,
    CategoryVersion,
    Hit,
    MonthHand,
    Pool,
    QualifiedHand,
)
from jackpots.services._shared import Members, _awards_new, _now, log


def hand_facts(
    hand: Hand, seats: Sequence[HandSeat], board: Sequence[str] | None = None
) -> HandFacts:
    """Return what the rules need of a booked hand: its record and ``seats``.

    ``board`` is one run's board of a hand run more than once (HS10); the first
    run's by default. A seat that mucked at the showdown tabled no hand (BB1): it
    counts as folded here.
    """
    record = hand.record
    mucked = {
        row.get("seat")
        for row in record.get("seats") or ()
        if isinstance(row, dict) and row.get("mucked") is True
    }
    return HandFacts(
        game=hand.game.code,
        streets=int(record.get("streets", 0)),
        board=tuple(record.get("board") or () if board is None else board),
        seats=tuple(
            SeatFacts(
                seat=s.seat,
                player=s.player.code,
                present=s.present,
                folded=s.folded or s.seat in mucked,
                cards=tuple(s.cards) if s.cards else None,
            )
            for s in seats
        ),
        pot_cents=hand.pot_cents,
    )


def hand_runs_facts(hand: Hand, seats: Sequence[HandSeat]) -> list[HandFacts]:
    """Return the facts of each run that counts for the jackpots (HS10).

    The first run only, unless the hand was run more than once and the policy it
    was settled with sets ``jackpots_first_run_only`` to false: then every run.
    """
    boards = hand.record.get("boards") or []
    # The policy is read only for a hand run more than once, which is rare.
    if len(boards) < 2 or hand.policy.document.get("jackpots_first_run_only", True):
        return [hand_facts(hand, seats)]
    return [hand_facts(hand, seats, board) for board in boards]


def _shown(s: Shown) -> dict[str, Any]:
    return {
        "seat": s.seat,
        "player": s.player,
        "hand": s.description,
        "cards": list(s.cards),
        "hole": list(s.hole),
    }


def _hit_details(beat: BadBeat, facts: HandFacts) -> dict[str, Any]:
    return {
        "losers": [_shown(s) for s in beat.losers],
        "winners": [_shown(s) for s in beat.winners],
        "other_losers": [_shown(s) for s in beat.other_losers],
        "table": list(beat.table),
        "participants": len(facts.participants),
        "pot": facts.pot_cents,
    }


def _recipients(
    beat: BadBeat, hand: Hand, players: dict[int, Player], version: CategoryVersion
) -> list[tuple[Award.Role, int, Members]]:
    """The roles in BB6's priority order, each with its part and its seats;
    ``players`` by seat."""

    def members(seats: Iterable[int]) -> Members:
        return [(hand, n, players[n]) for n in seats]

    return [
        (Award.Role.LOSER, version.loser_part, members(s.seat for s in beat.losers)),
        (Award.Role.WINNER, version.winner_part, members(s.seat for s in beat.winners)),
        (Award.Role.TABLE, version.table_part, members(beat.table)),
    ]


def _current_versions() -> list[CategoryVersion]:
    """The version in force of each category, retired ones left out."""
    latest = (
        CategoryVersion.objects.select_related("category")
        .order_by("category_id", "-version")
        .distinct("category_id")
    )
    return [v for v in latest if v.active]


@retry_on_conflict()
@transaction.atomic
def hand_qualify(*, hand_id: int, now: datetime | None = None) -> list[Hit]:
    """Look at a booked hand for the jackpots, once: bad beats and hand of the month.

    For each category in force (BB2) a bad beat (BB1, BB3) becomes a pending hit on
    the pool the category names, in the hand's room, with its awards computed from
    the pool's amount after the hand's drop (BB4), and a ``bad_beat_candidate``
    exception on the hand for the floor. Hands tabled at a showdown in a game a
    hand-of-the-month pool covers are entered in that month's standings (HM1,
    HM4). Runs after the booking commits (a Celery task); the hand's row lock and
    its :class:`QualifiedHand` record make a second run do nothing, and the
    database allows one hit per hand and category.
    """
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__room", "game")
        .filter(pk=hand_id)
        .first()
    )
    if hand is None:
        log.warning("jackpots.qualify.unknown_hand", hand=hand_id)
        return []
    if QualifiedHand.objects.filter(hand=hand).exists():
        return list(hand.jackpot_hits.all())
    now = _now(now)
    QualifiedHand.objects.create(hand=hand, qualified_at=now)
    if hand.status != Hand.Status.BOOKED:
        return []
    room = hand.table.room
    assert room is not None
    seats = list(hand.seats.select_related("player").order_by("seat"))
    runs = hand_runs_facts(hand, seats)
    players = {s.seat: s.player for s in seats}
    versions = _current_versions()
    hits = []
    for version in versions:
        rules = CategoryRules.from_config(version.config())
        # HS10: the first run that is a bad beat, of the runs that count.
        for facts in runs:
            verdict = bad_beat(rules, facts)
            if verdict.bad_beat is not None:
                hits += _bad_beat_record(
                    hand, facts, players, version, verdict.bad_beat, now
                )
                break
    _month_entries(hand, runs, players, versions, room)
    return hits


def _bad_beat_record(
    hand: Hand,
    facts: HandFacts,
    players: dict[int, Player],
    version: CategoryVersion,
    beat: BadBeat,
    now: datetime,
) -> list[Hit]:
    """Record a bad beat: a pending hit with its awards on the category's pool in
    the hand's room, and a ``bad_beat_candidate`` exception on the hand (BB1).
    Once per hand and category, even if the hand's qualification record is lost."""
    known = HandException.objects.filter(
        hand=hand,
        kind=HandException.Kind.BAD_BEAT_CANDIDATE,
        details__category=version.category.code,
    ).exists()
    if known:
        return list(Hit.objects.filter(hand=hand, category=version.category))
    pool = Pool.objects.filter(
        room=hand.table.room, code=version.pool_code, active=True
    ).first()
    hit = None
    if pool is not None:
        amount = selectors.pool_amount_at(pool=pool, at=hand.ended_at)
        hit = Hit.objects.create(
            hand=hand,
            hand_ended_at=hand.ended_at,
            category=version.category,
            category_version=version,
            pool=pool,
            details=_hit_details(beat, facts),
            pool_cents=amount,
            payout_cents=0,
            found_at=now,
        )
        awards = _awards_new(
            pool=pool,
            payout=percent_of(amount, version.payout_percent),
            roles=_recipients(beat, hand, players, version),
            hit=hit,
        )
        hit.payout_cents = sum(a.amount_cents for a in awards)
        hit.save(update_fields=["payout_cents"])
    HandException.objects.create(
        hand=hand,
        kind=HandException.Kind.BAD_BEAT_CANDIDATE,
        details={
            "code": "bad_beat_candidate",
            "rule": "BB1",
            "detail": _(
                "%(category)s: %(loser)s lost to %(winner)s. A floor person verifies "
                "the cards and the camera; a manager approves."
            )
            % {
                "category": version.category.name,
                "loser": beat.losers[0].description,
                "winner": beat.winners[0].description,
            },
            "category": version.category.code,
            "pool": version.pool_code if pool is not None else None,
            "hit": hit.pk if hit is not None else None,
            "losers": [s.seat for s in beat.losers],
            "winners": [s.seat for s in beat.winners],
        },
    )
    return [hit] if hit is not None else []


def _month_entries(
    hand: Hand,
    runs: Sequence[HandFacts],
    players: dict[int, Player],
    versions: Sequence[CategoryVersion],
    room: Room,
) -> None:
    """Enter the hand's showdown hands in the standings of the room's
    hand-of-the-month pools that cover its game (HM1, HM4), unless that month of
    the pool is closed already. Of several runs that count (HS10), each seat's
    best hand on any of them."""
    facts = runs[0]
    month = month_of(hand.ended_at, room.tz)
    pools = [
        p
        for p in Pool.objects.filter(
            room=room, kind=Pool.Kind.HAND_OF_THE_MONTH, active=True
        ).exclude(months__month=month)
        if facts.game in p.games and month >= p.starts_on.replace(day=1)
    ]
    if not pools:
        return
    # Card use as in BB2 for the game: the rule of the category that covers it.
    card_use = next(
        (
            CategoryRules.from_config(v.config()).loser
            for v in versions
            if facts.game in v.games
        ),
        CardUse(),
    )
    MonthHand.objects.bulk_create(
        [
            MonthHand(
                pool=pool,
                month=month,
                hand=hand,
                ended_at=hand.ended_at,
                seat=s.seat,
                player=players[s.seat],
                key=s.key,
                description=s.description,
                cards=list(s.cards),
            )
            for s in _best_month_hands(runs, card_use)
            for pool in pools
        ],
        ignore_conflicts=True,
    )


def _best_month_hands(runs: Sequence[HandFacts], card_use: CardUse) -> list[Shown]:
    """Return each seat's best month hand over the runs, in seat order (HM1)."""
    best: dict[int, Shown] = {}
    for facts in runs:
        for shown in month_hands(facts, {facts.game: card_use}):
            if shown.seat not in best or shown.key > best[shown.seat].key:
                best[shown.seat] = shown
    return [best[seat] for seat in sorted(best)]
