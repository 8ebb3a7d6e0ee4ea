"""A bad-beat category's configuration (RULES.md BB2), read and checked.

A category names the games it covers, the minimum losing hand, the card-use rules
for the losing and the winning hand, the minimum participants and pot, and its payout
table. Everything is configuration, versioned by the app; the defaults below are the
house defaults of BB2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.domain.cards import CARD_IDS, parse_cards
from cardroom.domain.games import GAMES
from cardroom.domain.ranking import HIGH_ANY, HIGH_OMAHA, high_five
from core.errors import Refusal
from jackpots.errors import TEXTS, Code

#: Games whose high hands share one ranking (phevaluator's 7,462 classes), so a
#: minimum hand and hands of different games compare by key. Razz ranks low and
#: Sökö has hands of its own: neither can be covered.
HIGH_GAMES: tuple[str, ...] = tuple(
    code for code, game in GAMES.items() if game.high in (HIGH_ANY, HIGH_OMAHA)
)
HOLDEM_GAMES = ("NLHE", "PLHE", "LHE")
OMAHA_GAMES = ("PLO", "PLO5", "COURCHEVEL")

ROLES = ("loser", "winner", "table")

PART_MAX = 32_767
"""The largest part of a jackpot a role takes (its column is a ``smallint``)."""


class ConfigError(Refusal):
    """A category or pool configuration that can't be used, with the field at fault.

    ``text`` names the table's variant of ``invalid_configuration``; ``params``
    fill it besides ``field``.
    """

    def __init__(self, field: str, text: str, /, **params: Any) -> None:
        super().__init__(
            Code.INVALID_CONFIGURATION,
            TEXTS[Code.INVALID_CONFIGURATION, text],
            allowed={"field": field},
            params={"field": field, **params},
        )
        self.field = field


@dataclass(frozen=True, slots=True)
class CardUse:
    """How a hand must use its hole cards to count (BB2).

    ``hole_cards``: how many hole cards must play in the best five (Hold'em: both).
    ``quads_pocket_pair``: four of a kind counts only when two of the four are a
    pocket pair. Omaha's own rule (exactly two hole cards and three board cards) is
    the game's ranking and needs no setting here.
    """

    hole_cards: int = 0
    quads_pocket_pair: bool = False

    def to_config(self) -> dict[str, Any]:
        return {
            "hole_cards": self.hole_cards,
            "quads_pocket_pair": self.quads_pocket_pair,
        }


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """What a hit pays: ``percent`` of the pool, split by the roles' parts (BB2).

    The parts are ratios, e.g. loser 50, winner 25, table 25; what stays in the pool
    is the next jackpot's seed.
    """

    percent: int
    loser: int
    winner: int
    table: int

    def parts(self) -> tuple[int, int, int]:
        """Return the parts in the order of :data:`ROLES` (the BB6 priority)."""
        return (self.loser, self.winner, self.table)


@dataclass(frozen=True, slots=True)
class CategoryRules:
    """One version of a bad-beat category (BB2), checked."""

    games: frozenset[str]
    min_losing_hand: tuple[str, ...]
    loser: CardUse
    winner: CardUse
    min_participants: int
    min_pot_cents: int
    payout: PayoutTable

    @property
    def min_losing_key(self) -> int:
        """The high key of the minimum losing hand: a loser needs at least this."""
        return high_five(parse_cards(self.min_losing_hand))

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CategoryRules:
        """Read a category's configuration (the shape of :data:`DEFAULT_CATEGORIES`).

        Raises :class:`ConfigError` naming the first field that is wrong.
        """
        games = config.get("games")
        if not isinstance(games, list | tuple) or not games:
            raise ConfigError("games", "no_game")
        for code in games:
            if code not in HIGH_GAMES:
                raise ConfigError(
                    "games", "not_high", code=repr(code), games=", ".join(HIGH_GAMES)
                )
        hand = config.get("min_losing_hand")
        if (
            not isinstance(hand, list | tuple)
            or len(hand) != 5
            or any(c not in CARD_IDS for c in hand)
            or len(set(hand)) != 5
        ):
            raise ConfigError("min_losing_hand", "hand")
        card_use = config.get("card_use") or {}
        if not isinstance(card_use, Mapping):
            raise ConfigError("card_use", "card_use")
        payout = config.get("payout")
        if not isinstance(payout, Mapping):
            raise ConfigError("payout", "payout")
        table = PayoutTable(
            percent=_int(payout, "percent", "payout.", low=0, high=100),
            loser=_int(payout, "loser", "payout.", low=0, high=PART_MAX),
            winner=_int(payout, "winner", "payout.", low=0, high=PART_MAX),
            table=_int(payout, "table", "payout.", low=0, high=PART_MAX),
        )
        if not any(table.parts()):
            raise ConfigError("payout", "part")
        return cls(
            games=frozenset(games),
            min_losing_hand=tuple(hand),
            loser=_card_use(card_use, "loser"),
            winner=_card_use(card_use, "winner"),
            min_participants=_int(config, "min_participants", low=2, high=12),
            min_pot_cents=_int(config, "min_pot", low=0),
            payout=table,
        )

    def to_config(self) -> dict[str, Any]:
        """Return the configuration this was read from, normalised."""
        return {
            "games": sorted(self.games),
            "min_losing_hand": list(self.min_losing_hand),
            "card_use": {
                "loser": self.loser.to_config(),
                "winner": self.winner.to_config(),
            },
            "min_participants": self.min_participants,
            "min_pot": self.min_pot_cents,
            "payout": {
                "percent": self.payout.percent,
                "loser": self.payout.loser,
                "winner": self.payout.winner,
                "table": self.payout.table,
            },
        }


def _int(
    data: Mapping[str, Any],
    key: str,
    prefix: str = "",
    *,
    low: int,
    high: int | None = None,
) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(prefix + key, "whole")
    if value < low or (high is not None and value > high):
        if high is None:
            raise ConfigError(prefix + key, "at_least", low=low)
        raise ConfigError(prefix + key, "range", low=low, high=high)
    return value


def _card_use(card_use: Mapping[str, Any], side: str) -> CardUse:
    rule = card_use.get(side, {})
    if not isinstance(rule, Mapping):
        raise ConfigError(f"card_use.{side}", "side")
    pocket_pair = rule.get("quads_pocket_pair", False)
    if not isinstance(pocket_pair, bool):
        raise ConfigError(f"card_use.{side}.quads_pocket_pair", "bool")
    return CardUse(
        hole_cards=_int(
            {"hole_cards": rule.get("hole_cards", 0)},
            "hole_cards",
            f"card_use.{side}.",
            low=0,
            high=2,
        ),
        quads_pocket_pair=pocket_pair,
    )


#: RULES.md BB2's house defaults, as the data migration writes them.
DEFAULT_CATEGORIES: dict[str, dict[str, Any]] = {
    "1": {
        "name": "Category 1 — Hold'em",
        "pool": "bad-beat",
        "games": list(HOLDEM_GAMES),
        # Aces full of tens or better.
        "min_losing_hand": ["As", "Ah", "Ad", "Ts", "Th"],
        "card_use": {
            "loser": {"hole_cards": 2, "quads_pocket_pair": True},
            "winner": {"hole_cards": 2, "quads_pocket_pair": True},
        },
        "min_participants": 4,
        "min_pot": 0,
        "payout": {"percent": 90, "loser": 50, "winner": 25, "table": 25},
    },
    "2": {
        "name": "Category 2 — Omaha",
        "pool": "bad-beat",
        "games": list(OMAHA_GAMES),
        # Four of a kind or better: the lowest four of a kind.
        "min_losing_hand": ["2c", "2d", "2h", "2s", "3c"],
        "card_use": {
            "loser": {"hole_cards": 2, "quads_pocket_pair": False},
            "winner": {"hole_cards": 2, "quads_pocket_pair": False},
        },
        "min_participants": 4,
        "min_pot": 0,
        "payout": {"percent": 50, "loser": 50, "winner": 25, "table": 25},
    },
}
