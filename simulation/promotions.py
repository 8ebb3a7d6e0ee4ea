"""The night's promotions: an hourly high hand and an aces-cracked bonus (PR1–PR3),
and a stacked deck for a hand that counts for both.

Pocket aces cracked at a showdown with ten big blinds in the pot, or four of a
kind with a pocket pair, come a few times in a thousand hands; a simulated night
deals a few hundred. So, as for the bad beat (:mod:`simulation.bad_beat`), the
night stacks the deck for one hand: a player holds pocket aces, another a pocket
pair that the board makes four of a kind, every other card from the shuffled
deck, the betting played as usual with the two never folding. Before the hand is
posted, :func:`promotions_pay` asks the promotions' own rules
(:mod:`jackpots.domain.promotions`) whether it counts, so a night posts only a
hand its promotions will find.

Pure Python, no Django.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardroom.domain.cards import RANKS, SUITS
from jackpots.domain.promotions import (
    EXAMPLES,
    HIGH_HAND,
    PromotionHand,
    PromotionRules,
    bonus_wins,
    high_hands,
)
from jackpots.domain.qualification import SeatFacts
from simulation.dealer import Preset

NIGHT_PROMOTIONS: tuple[tuple[str, str, str, int], ...] = (
    ("high-hand", "Hourly high hand", "hourly-high-hand", 1),
    ("aces-cracked", "Aces cracked", "aces-cracked", 0),
)
"""The promotions a night runs when the room has none of their kind: code, name,
the rules (``EXAMPLES``, as rooms post them, and as ``demo_jackpots`` starts
them) and the pool's share of the drop (JD4; the high hand's prize is the drop's,
the aces-cracked bonus the house's, PR1)."""


def night_rules(example: str) -> dict[str, Any]:
    """A copy of the rules of one of the night's promotions."""
    return copy.deepcopy(EXAMPLES[example])


def aces_cracked_preset(rng: random.Random, *, loser: int, winner: int) -> Preset:
    """Return a stacked Hold'em deck where ``loser``'s pocket aces lose to
    ``winner``'s pocket pair made four of a kind on the board (PR2, PR3).

    The board holds the other two cards of the pair's rank and three cards of
    other ranks, none an ace: both hole cards play in the four of a kind.
    """
    x = rng.choice([r for r in RANKS if r != "A"])
    suits = list(SUITS)
    rng.shuffle(suits)
    others = rng.sample([r for r in RANKS if r not in ("A", x)], 3)
    board = [x + suits[2], x + suits[3]] + [r + rng.choice(SUITS) for r in others]
    rng.shuffle(board)
    return Preset(
        cards={
            loser: ["A" + suits[0], "A" + suits[1]],
            winner: [x + suits[0], x + suits[1]],
        },
        board=board,
        stay_in=frozenset({loser, winner}),
    )


def promotion_hand(
    record: Mapping[str, Any], *, big_blind: int, pot_cents: int
) -> PromotionHand:
    """What the promotions see of a hand record (its first run, PR4)."""
    mucked = {s["seat"] for s in record["seats"] if s.get("mucked") is True}
    return PromotionHand(
        game=record["game"],
        big_blind=big_blind,
        pot=pot_cents,
        bomb_pot=record.get("bomb_pot") is True,
        streets=record["streets"],
        board=tuple(record.get("board") or ()),
        seats=tuple(
            SeatFacts(
                seat=s["seat"],
                player=s["player"],
                present=s["present"],
                folded=s["folded"] or s["seat"] in mucked,
                cards=tuple(s["cards"]) if s.get("cards") else None,
            )
            for s in record["seats"]
        ),
    )


def promotions_pay(
    record: Mapping[str, Any],
    rules: Sequence[Mapping[str, Any]],
    *,
    big_blind: int,
    pot_cents: int,
) -> bool:
    """Return whether the hand counts for every promotion of ``rules``: a high
    hand tabled for a high-hand period (PR2), a bonus paid for an aces-cracked or
    fixed bonus (PR3)."""
    hand = promotion_hand(record, big_blind=big_blind, pot_cents=pot_cents)
    for config in rules:
        checked = PromotionRules.from_config(dict(config))
        if checked.kind == HIGH_HAND:
            if not high_hands(checked, hand):
                return False
        elif not bonus_wins(checked, hand):
            return False
    return True
