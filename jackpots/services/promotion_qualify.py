"""Promotions' part of a booked hand's qualification, in the same pass as the bad
beat (PR2–PR4): tabled hands enter the high-hand period they were tabled in, and
bonuses found become pending prizes.

:func:`jackpots.services.hands_qualify_batch` reads the batch's promotions once
(:func:`promotions_read`: one statement for the rooms' promotions, one for their
versions, one for the periods closed already) and looks at each hand with
:func:`promotions_look`; the batch's high-hand entries are inserted with its
hand-of-the-month entries' statement. Only a bonus, rare, is recorded hand by hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accounting.models import Player
from cardroom.models import Hand, HandSeat
from jackpots import selectors
from jackpots.domain.promotions import (
    ACES_CRACKED,
    HIGH_HAND,
    BonusWin,
    Prize,
    PromotionHand,
    bonus_wins,
    high_hands,
    prize_amount,
)
from jackpots.domain.qualification import SeatFacts, Shown
from jackpots.models import (
    Award,
    Promotion,
    PromotionEntry,
    PromotionPrize,
    PromotionVersion,
)
from jackpots.selectors import Versions
from jackpots.services._shared import log


def promotion_hand(hand: Hand, seats: Sequence[HandSeat]) -> PromotionHand:
    """What the promotions need of a booked hand: its first run only (PR4), its
    big blind, whether it was a bomb pot (the record's ``bomb_pot``). A seat
    that mucked tabled no hand: it counts as folded."""
    record = hand.record
    mucked = {
        row.get("seat")
        for row in record.get("seats") or ()
        if isinstance(row, dict) and row.get("mucked") is True
    }
    return PromotionHand(
        game=hand.game.code,
        big_blind=hand.game.big_blind_cents,
        pot=hand.pot_cents,
        bomb_pot=record.get("bomb_pot") is True,
        streets=int(record.get("streets", 0)),
        board=tuple(record.get("board") or ()),
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
    )


def shown_json(s: Shown, **more: Any) -> dict[str, Any]:
    """A tabled hand as a prize's details keep it (drawn as cards on screens)."""
    return {
        "seat": s.seat,
        "player": s.player,
        "hand": s.description,
        "cards": list(s.cards),
        "hole": list(s.hole),
        **more,
    }


@dataclass
class PromotionBatch:
    """What a batch reads once of its rooms' promotions."""

    by_room: dict[int, list[Promotion]]
    versions: dict[int, Versions]
    closed: set[tuple[int, datetime]]

    @classmethod
    def read(cls, hands: Sequence[Hand]) -> PromotionBatch:
        by_room: dict[int, list[Promotion]] = defaultdict(list)
        # A promotion whose pool was retired (JD5) has ended.
        for promotion in Promotion.objects.filter(
            room__in={h.table.room_id for h in hands}, pool__active=True
        ).select_related("room", "pool"):
            by_room[promotion.room_id].append(promotion)
        versions: dict[int, list[PromotionVersion]] = defaultdict(list)
        closed: set[tuple[int, datetime]] = set()
        ids = [p.pk for room in by_room.values() for p in room]
        if ids:
            for v in PromotionVersion.objects.filter(promotion__in=ids):
                versions[v.promotion_id].append(v)
            first = min(h.ended_at for h in hands)
            closed = {
                (promotion, start)
                for promotion, start in PromotionPrize.objects.filter(
                    promotion__in=ids,
                    kind=PromotionPrize.Kind.PERIOD,
                    period_end__gt=first,
                )
                .exclude(status=PromotionPrize.Status.CANCELLED)
                .values_list("promotion_id", "period_start")
                if start is not None
            }
        return cls(
            by_room=by_room,
            versions={k: Versions(v) for k, v in versions.items()},
            closed=closed,
        )


def promotions_read(hands: Sequence[Hand]) -> PromotionBatch:
    """Read once what a batch of booked hands needs of its rooms' promotions."""
    return PromotionBatch.read(hands)


def promotions_look(
    batch: PromotionBatch,
    hand: Hand,
    seats: Sequence[HandSeat],
    now: datetime,
) -> list[PromotionEntry]:
    """Look at one booked hand of a batch for its room's promotions (PR2–PR4):
    record the bonuses it pays as pending prizes; return its tabled high hands
    for their periods, to be inserted with the batch's."""
    promotions = batch.by_room.get(hand.table.room_id or 0, [])
    if not promotions:
        return []
    facts = promotion_hand(hand, seats)
    players = {s.seat: s.player for s in seats}
    entries: list[PromotionEntry] = []
    for promotion in promotions:
        versions = batch.versions.get(promotion.pk)
        if versions is None:
            continue
        if promotion.kind == HIGH_HAND:
            entries += _high_hand_entries(
                promotion, versions, batch, hand, facts, players
            )
        else:
            _bonus_record(promotion, versions, hand, facts, players, now)
    return entries


def _high_hand_entries(
    promotion: Promotion,
    versions: Versions,
    batch: PromotionBatch,
    hand: Hand,
    facts: PromotionHand,
    players: dict[int, Player],
) -> list[PromotionEntry]:
    """The hand's tabled hands that count for its high-hand period (PR2)."""
    found = versions.for_period(promotion, hand.ended_at)
    if found is None:
        return []
    version, (start, _end) = found
    if not version.active:
        return []
    if (promotion.pk, start) in batch.closed:
        log.warning(
            "jackpots.promotion.late_hand", promotion=promotion.code, hand=hand.pk
        )
        return []
    return [
        PromotionEntry(
            promotion=promotion,
            period_start=start,
            hand=hand,
            ended_at=hand.ended_at,
            seat=s.seat,
            player=players[s.seat],
            key=s.key,
            description=s.description,
            cards=list(s.cards),
            hole=list(s.hole),
        )
        for s in high_hands(versions.rules(version), facts)
    ]


def _bonus_record(
    promotion: Promotion,
    versions: Versions,
    hand: Hand,
    facts: PromotionHand,
    players: dict[int, Player],
    now: datetime,
) -> list[PromotionPrize]:
    """Record the bonus a hand pays as one pending prize with an award a seat
    (PR3: each seat once), or nothing."""
    version = versions.at(hand.ended_at)
    if version is None or not version.active:
        return []
    rules = versions.rules(version)
    wins = bonus_wins(rules, facts)
    if not wins:
        return []
    if PromotionPrize.objects.filter(promotion=promotion, hand=hand).exists():
        return []
    free = selectors.promotion_pool_free(promotion=promotion, at=hand.ended_at)
    amounts = []
    for win in wins:
        amount = prize_amount(
            Prize(win.fixed, rules.prize.pool_percent, rules.prize.funding), free=free
        )
        free -= amount.pool
        amounts.append(amount)
    prize = PromotionPrize.objects.create(
        promotion=promotion,
        version=version,
        kind=PromotionPrize.Kind.BONUS,
        hand=hand,
        status=PromotionPrize.Status.PENDING,
        details=_bonus_details(wins, amounts, facts),
        house_cents=sum(a.house for a in amounts),
        pool_cents=sum(a.pool for a in amounts),
        found_at=now,
        closed_source="qualification",
    )
    role = Award.Role.ACES_CRACKED if rules.kind == ACES_CRACKED else Award.Role.BONUS
    Award.objects.bulk_create(
        Award(
            pool=promotion.pool,
            prize=prize,
            hand=hand,
            seat=win.shown.seat,
            player=players[win.shown.seat],
            role=role,
            part=100,
            sharing=1,
            position=i,
            amount_cents=amount.total,
        )
        for i, (win, amount) in enumerate(zip(wins, amounts, strict=True))
    )
    log.info(
        "jackpots.promotion.bonus",
        promotion=promotion.code,
        hand=hand.pk,
        seats=[w.shown.seat for w in wins],
    )
    return [prize]


def _bonus_details(
    wins: Sequence[BonusWin], amounts: Sequence[Any], facts: PromotionHand
) -> dict[str, Any]:
    return {
        "hands": [
            shown_json(w.shown, bonus=w.hand, amount=a.total)
            for w, a in zip(wins, amounts, strict=True)
        ],
        "board": list(facts.board),
        "pot": facts.pot,
        "dealt_in": len(facts.seats),
    }
