"""Qualification of booked hands, one or a batch: bad beats become pending hits
(BB1–BB3), tabled hands enter the hand-of-the-month standings (HM1, HM4).

A batch reads and writes in a fixed number of statements (issue 16); one hand is a
batch of one, so there is one way to qualify a hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import OperationalError, transaction
from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from accounting.models import Player
from accounting.services import retry_on_conflict
from cardroom.models import Hand, HandException, HandSeat
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
    Month,
    MonthHand,
    Pool,
    PromotionEntry,
    QualifiedHand,
)
from jackpots.services._shared import Members, awards_new, log, now_or_current
from jackpots.services.promotion_qualify import (
    PromotionBatch,
    promotions_look,
    promotions_read,
)


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


class HandFailed(Exception):
    """One hand of a batch could not be qualified: ``hand_id``, the error as the
    cause. Nothing of the batch is kept (its savepoint is rolled back)."""

    def __init__(self, hand_id: int) -> None:
        super().__init__(hand_id)
        self.hand_id = hand_id


@dataclass(frozen=True, slots=True)
class _Batch:
    """What a batch of booked hands reads once for all of them: their seats by
    hand, the category versions in force with their rules (BB2), and the rooms'
    active hand-of-the-month pools with the months of them closed already (HM3)."""

    seats: dict[int, list[HandSeat]]
    categories: list[tuple[CategoryVersion, CategoryRules]]
    month_pools: dict[int | None, list[Pool]]
    closed: set[tuple[int, date]]
    promotions: PromotionBatch

    @classmethod
    def read(cls, hands: Sequence[Hand]) -> _Batch:
        """Read the batch of ``hands`` (booked, with their tables' rooms): one
        statement each for the seats, the versions, the pools and their closed
        months, and one for the policies of the hands run more than once (HS10)."""
        seats: dict[int, list[HandSeat]] = defaultdict(list)
        for seat in (
            HandSeat.objects.filter(hand__in=hands)
            .select_related("player")
            .order_by("hand_id", "seat")
        ):
            seats[seat.hand_id].append(seat)
        prefetch_related_objects(
            [h for h in hands if len(h.record.get("boards") or []) > 1], "policy"
        )
        month_pools: dict[int | None, list[Pool]] = defaultdict(list)
        for pool in Pool.objects.filter(
            room__in={h.table.room_id for h in hands},
            kind=Pool.Kind.HAND_OF_THE_MONTH,
            active=True,
        ):
            month_pools[pool.room_id].append(pool)
        closed: set[tuple[int, date]] = set()
        if month_pools:
            closed = set(
                Month.objects.filter(
                    pool__in=[p for room in month_pools.values() for p in room],
                    month__in={_month(h) for h in hands},
                )
                .order_by()
                .values_list("pool_id", "month")
            )
        return cls(
            seats=seats,
            categories=[
                (v, CategoryRules.from_config(v.config())) for v in _current_versions()
            ],
            month_pools=month_pools,
            closed=closed,
            promotions=promotions_read(hands),
        )


def _month(hand: Hand) -> date:
    """The month of the hand's end in its room's time zone (HM1)."""
    room = hand.table.room
    assert room is not None
    return month_of(hand.ended_at, room.tz)


@transaction.atomic
def hands_qualify_batch(
    *, hand_ids: Sequence[int], now: datetime | None = None
) -> dict[int, list[Hit]]:
    """Look at a batch of hands for the jackpots, once each, as :func:`hand_qualify`
    on each id in turn would; return each hand's hits (BB1–BB4, HM1, HM4, HS10).

    Reads and writes the batch in a fixed number of statements, however many hands
    (issue 16): the hands locked in one (primary-key order, so two batches never
    wait on each other in a circle), the ones qualified already, the seats, the
    categories in force, the month pools and their closed months once each; one
    insert of the :class:`QualifiedHand` rows and one of the :class:`MonthHand`
    rows. Only a bad beat, rare, is recorded hand by hand. Unknown ids are logged
    and left out; a hand qualified already keeps its hits; a hand not booked is
    only marked qualified.

    A savepoint of its own (a nested atomic block): an error leaves nothing of the
    batch. Raises :class:`HandFailed` when one hand's own part fails (its facts,
    its verdicts, its bad-beat record), so the caller can put that hand aside and
    run the others again; :class:`OperationalError` as it comes (a deadlock is the
    whole transaction's to retry), and any other error of the batch's shared
    reads and writes as it comes.
    """
    now = now_or_current(now)
    ids = list(dict.fromkeys(hand_ids))
    hands = {
        h.pk: h
        for h in Hand.objects.select_for_update(of=("self",))
        .select_related("table__room", "game")
        .filter(pk__in=ids)
        .order_by("pk")
    }
    for hand_id in ids:
        if hand_id not in hands:
            log.warning("jackpots.qualify.unknown_hand", hand=hand_id)
    done = set(
        QualifiedHand.objects.filter(hand__in=list(hands)).values_list(
            "hand_id", flat=True
        )
    )
    found = _hits_of(done)
    todo = [hands[i] for i in ids if i in hands and i not in done]
    QualifiedHand.objects.bulk_create(
        [QualifiedHand(hand=h, qualified_at=now) for h in todo]
    )
    booked = [h for h in todo if h.status == Hand.Status.BOOKED]
    batch = _Batch.read(booked) if booked else None
    entries: list[MonthHand | PromotionEntry] = []
    for hand in todo:
        found[hand.pk] = []
        if batch is None or hand.status != Hand.Status.BOOKED:
            continue
        try:
            found[hand.pk], rows = _hand_look(hand, batch, now)
        except OperationalError:
            raise
        except Exception as error:
            raise HandFailed(hand.pk) from error
        entries += rows
    MonthHand.objects.bulk_create(
        [e for e in entries if isinstance(e, MonthHand)], ignore_conflicts=True
    )
    PromotionEntry.objects.bulk_create(
        [e for e in entries if isinstance(e, PromotionEntry)], ignore_conflicts=True
    )
    return {i: found[i] for i in ids if i in found}


def _hits_of(hand_ids: set[int]) -> dict[int, list[Hit]]:
    """The hits of hands qualified already, each hand's as ``hand.jackpot_hits``
    lists them; no statement for none."""
    found: dict[int, list[Hit]] = {i: [] for i in hand_ids}
    if hand_ids:
        for hit in Hit.objects.filter(hand__in=hand_ids):
            found[hit.hand_id].append(hit)
    return found


def _hand_look(
    hand: Hand, batch: _Batch, now: datetime
) -> tuple[list[Hit], list[MonthHand | PromotionEntry]]:
    """Look at one booked hand of a batch: record its bad beats, one per category
    in force, on the first run of the ones that count that is one (BB1, BB2,
    HS10), and the bonuses its room's promotions pay (PR3); return its hits, and
    its month and high-hand entries, to be inserted with the batch's (HM1, HM4,
    PR2)."""
    seats = batch.seats.get(hand.pk, [])
    runs = hand_runs_facts(hand, seats)
    players = {s.seat: s.player for s in seats}
    hits = []
    for version, rules in batch.categories:
        for facts in runs:
            verdict = bad_beat(rules, facts)
            if verdict.bad_beat is not None:
                hits += _bad_beat_record(
                    hand, facts, players, version, verdict.bad_beat, now
                )
                break
    rows: list[MonthHand | PromotionEntry] = []
    rows += _month_entries(hand, runs, players, batch)
    rows += promotions_look(batch.promotions, hand, seats, now)
    return hits, rows


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

    A batch of one (:func:`hands_qualify_batch`): one way to qualify a hand. Raises
    what its qualification raised.
    """
    try:
        return hands_qualify_batch(hand_ids=[hand_id], now=now).get(hand_id, [])
    except HandFailed as failed:
        raise failed.__cause__ or failed from None


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
        awards = awards_new(
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
    batch: _Batch,
) -> list[MonthHand]:
    """Return the hand's showdown hands for the standings of the room's
    hand-of-the-month pools that cover its game (HM1, HM4), unless that month of
    the pool is closed already. Of several runs that count (HS10), each seat's
    best hand on any of them."""
    facts = runs[0]
    month = _month(hand)
    pools = [
        p
        for p in batch.month_pools.get(hand.table.room_id, [])
        if (p.pk, month) not in batch.closed
        and facts.game in p.games
        and month >= p.starts_on.replace(day=1)
    ]
    if not pools:
        return []
    # Card use as in BB2 for the game: the rule of the category that covers it.
    card_use = next(
        (rules.loser for v, rules in batch.categories if facts.game in v.games),
        CardUse(),
    )
    return [
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
    ]


def _best_month_hands(runs: Sequence[HandFacts], card_use: CardUse) -> list[Shown]:
    """Return each seat's best month hand over the runs, in seat order (HM1)."""
    best: dict[int, Shown] = {}
    for facts in runs:
        for shown in month_hands(facts, {facts.game: card_use}):
            if shown.seat not in best or shown.key > best[shown.seat].key:
                best[shown.seat] = shown
    return [best[seat] for seat in sorted(best)]
