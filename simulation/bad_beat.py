"""A stacked deck for a bad beat, and the check that a dealt hand is one (BB1, BB2).

Bad beats are rare (a hand of aces full or better losing at a showdown with four
players dealt in comes once in tens of thousands of hands), so a simulated night
stacks the deck for one hand: the losing and winning hole cards and the board are
set, every other card comes from the shuffled deck, and the betting is played as
usual with the two players never folding. :func:`is_bad_beat` asks the jackpots'
own rules (:func:`jackpots.domain.qualification.bad_beat`) whether the hand dealt
qualifies, so a night posts only a hand its categories will find.

Pure Python, no Django.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardroom.domain.cards import RANKS, SUITS
from cardroom.domain.games import GAMES
from jackpots.domain.qualification import HandFacts, SeatFacts, bad_beat
from jackpots.domain.rules import CategoryRules
from simulation.dealer import Preset

PATTERNS = ("full_house_to_quads", "quads_to_quads", "quads_to_straight_flush")


def bad_beat_preset(
    rng: random.Random, *, game: str, loser: int, winner: int
) -> Preset:
    """Return a stacked deck where ``loser`` holds a monster that ``winner`` beats.

    One of three patterns, at random: aces full losing to four of a kind
    (Hold'em only: in Omaha it takes two hole cards and three board cards), four
    of a kind losing to a bigger four, four of a kind losing to a straight flush.
    In every one both players use both of their hole cards (BB2's card use).
    """
    holdem = GAMES[game].selection != "omaha"
    pattern = rng.choice(PATTERNS if holdem else PATTERNS[1:])
    suits = list(SUITS)
    rng.shuffle(suits)
    if pattern == "full_house_to_quads":
        # Board A X X + two more; the loser's aces make aces full, the winner's
        # pocket pair of X makes four of a kind.
        x = rng.choice("TJQK")
        other = [r for r in RANKS if r not in ("A", x)]
        board = ["A" + suits[0], x + suits[0], x + suits[1]]
        board += [r + rng.choice(SUITS) for r in rng.sample(other, 2)]
        loser_cards = ["A" + suits[1], "A" + suits[2]]
        winner_cards = [x + suits[2], x + suits[3]]
    elif pattern == "quads_to_quads":
        low, high = sorted(rng.sample(range(len(RANKS)), 2))
        y, z = RANKS[low], RANKS[high]
        filler = rng.choice([r for r in RANKS if r not in (y, z)])
        board = [y + suits[0], y + suits[1], z + suits[2], z + suits[3]]
        board.append(filler + rng.choice(SUITS))
        loser_cards = [y + suits[2], y + suits[3]]
        winner_cards = [z + suits[0], z + suits[1]]
    else:
        # Board Y Y and three cards of a straight flush the winner's two complete.
        y = rng.choice(RANKS)
        starts = [i for i in range(len(RANKS) - 4) if y not in RANKS[i : i + 5]]
        start = rng.choice(starts)
        flush = [r + suits[0] for r in RANKS[start : start + 5]]
        rng.shuffle(flush)
        board = [y + suits[1], y + suits[2], *flush[:3]]
        loser_cards = [y + suits[0], y + suits[3]]
        winner_cards = flush[3:]
    rng.shuffle(board)
    return Preset(
        cards={loser: loser_cards, winner: winner_cards},
        board=board,
        stay_in=frozenset({loser, winner}),
    )


def is_bad_beat(
    record: Mapping[str, Any], config: Mapping[str, Any], pot_cents: int
) -> bool:
    """Return whether a hand record qualifies under a category's configuration.

    ``config`` is a category version's rules (the shape of
    :data:`jackpots.domain.rules.DEFAULT_CATEGORIES`), ``pot_cents`` the hand's
    pots before rake, as the booking records them.
    """
    facts = HandFacts(
        game=record["game"],
        streets=record["streets"],
        board=tuple(record["board"]),
        seats=tuple(
            SeatFacts(
                seat=s["seat"],
                player=s["player"],
                present=s["present"],
                folded=s["folded"],
                cards=tuple(s["cards"]) if s.get("cards") else None,
            )
            for s in record["seats"]
        ),
        pot_cents=pot_cents,
    )
    return bad_beat(CategoryRules.from_config(dict(config)), facts).hit
