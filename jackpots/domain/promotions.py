"""A promotion's rules (RULES.md PR1–PR4), read and checked, and which hands of a
booked hand they pay.

Three kinds: a high hand per period (PR2), fixed bonuses for a hand made
(PR3: a royal flush, a straight flush, four of a kind) and aces cracked (PR3:
pocket aces beaten at a showdown pay the loser). A promotion's hand rules are the
bad-beat categories' own (:class:`jackpots.domain.rules.CardUse`, the showdown of
:func:`jackpots.domain.qualification.showdown`), reused; what is its own is the
board it must be made on ("made on the flop"), the pot in big blinds, the players
dealt in, the stakes, and bomb pots left out.

Worked example: an hourly high hand, both hole cards playing, a pot of ten big
blinds and four players dealt in; four nines tabled at the showdown lead.

>>> rules = PromotionRules.from_config({
...     "kind": "high_hand", "games": ["NLHE"],
...     "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
...     "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
...     "min_pot_big_blinds": 10, "min_dealt_in": 4, "period_minutes": 60,
...     "prize": {"fixed": 20_000, "funding": "house"}})
>>> hand = PromotionHand(
...     game="NLHE", big_blind=200, pot=5_000, bomb_pot=False, streets=4,
...     board=("9c", "9d", "2h", "Ks", "3c"),
...     seats=(SeatFacts(1, "P-1", True, False, ("9s", "9h")),
...            SeatFacts(2, "P-2", True, False, ("As", "Kd")),
...            SeatFacts(3, "P-3", True, True, None),
...            SeatFacts(4, "P-4", True, True, None)))
>>> [(s.seat, s.description) for s in high_hands(rules, hand)]
[(1, 'four of a kind, nines')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.domain.cards import CARD_IDS, parse_cards
from cardroom.domain.games import GAMES
from cardroom.domain.ranking import high_five
from jackpots.domain.periods import DAY_MINUTES, PERIOD_MINUTES
from jackpots.domain.qualification import (
    HandFacts,
    SeatFacts,
    Shown,
    card_use_breach,
    showdown,
)
from jackpots.domain.rules import HIGH_GAMES, CardUse, ConfigError

HIGH_HAND = "high_hand"
FIXED_BONUS = "fixed_bonus"
ACES_CRACKED = "aces_cracked"
KINDS = (HIGH_HAND, FIXED_BONUS, ACES_CRACKED)

#: Where the money of a prize comes from (PR1): the promotion's pool, which takes
#: a share of the drop (JD4); the house, booked as an expense; or both, the fixed
#: amount from the house and the percent of the pool from the drop.
DROP, HOUSE, BOTH = "drop", "house", "both"
FUNDINGS = (DROP, HOUSE, BOTH)

#: The hands a fixed bonus can name, the least hand that is one of them: a hand
#: pays the best entry of the table it reaches (a royal flush is a straight flush
#: too, PR3).
BONUS_HANDS: dict[str, tuple[str, ...]] = {
    "royal_flush": ("As", "Ks", "Qs", "Js", "Ts"),
    "straight_flush": ("5s", "4s", "3s", "2s", "As"),
    "four_of_a_kind": ("2c", "2d", "2h", "2s", "3c"),
    "full_house": ("2c", "2d", "2h", "3s", "3c"),
}

BOARDS = ("any", "flop")
"""``flop``: the hand counts as it was made on the flop (Omaha rooms' "made on the
flop"): the hole cards with the first three board cards."""

MAX_CENTS = 10**12


@dataclass(frozen=True, slots=True)
class Prize:
    """What a period or a bonus pays (PR1): ``fixed`` cents and ``pool_percent``
    of what the promotion's pool holds free; ``funding`` says who pays the fixed
    part (the pool under ``drop``, the house otherwise)."""

    fixed: int
    pool_percent: int
    funding: str

    @property
    def house_fixed(self) -> int:
        """The part the house pays, booked as an expense (PR1)."""
        return self.fixed if self.funding in (HOUSE, BOTH) else 0


@dataclass(frozen=True, slots=True)
class Bonus:
    """One line of a fixed-bonus table: a hand and what it pays (PR3)."""

    hand: str
    fixed: int

    @property
    def least_key(self) -> int:
        return high_five(parse_cards(BONUS_HANDS[self.hand]))


@dataclass(frozen=True, slots=True)
class PromotionRules:
    """One version of a promotion's rules, checked (PR1–PR4)."""

    kind: str
    games: frozenset[str]
    big_blinds: frozenset[int]
    min_hand: tuple[str, ...] | None
    card_use: CardUse
    board: str
    min_pot_cents: int
    min_pot_big_blinds: int
    min_dealt_in: int
    exclude_bomb_pots: bool
    period_minutes: int
    anchor_minutes: int | None
    time_zone: str | None
    carry_over: bool
    prize: Prize
    bonuses: tuple[Bonus, ...]

    @property
    def min_key(self) -> int:
        """The key a hand reaches to count; 0 (anything) without a minimum."""
        return high_five(parse_cards(self.min_hand)) if self.min_hand else 0

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> PromotionRules:
        """Read a promotion's configuration (the shape of :data:`EXAMPLES`).

        Raises :class:`ConfigError` naming the first field that is wrong.
        """
        if not isinstance(config, Mapping):
            raise ConfigError("rules", "object")
        kind = config.get("kind")
        if kind not in KINDS:
            raise ConfigError("kind", "one_of", choices=", ".join(KINDS))
        games = config.get("games")
        if not isinstance(games, list | tuple) or not games:
            raise ConfigError("games", "no_game")
        for code in games:
            if code not in HIGH_GAMES:
                raise ConfigError(
                    "games", "not_high", code=repr(code), games=", ".join(HIGH_GAMES)
                )
        big_blinds = config.get("big_blinds", [])
        if not isinstance(big_blinds, list | tuple) or any(
            isinstance(b, bool) or not isinstance(b, int) or b <= 0 for b in big_blinds
        ):
            raise ConfigError("big_blinds", "stakes")
        min_hand = config.get("min_hand")
        if min_hand is not None and (
            not isinstance(min_hand, list | tuple)
            or len(min_hand) != 5
            or any(c not in CARD_IDS for c in min_hand)
            or len(set(min_hand)) != 5
        ):
            raise ConfigError("min_hand", "hand")
        board = config.get("board", "any")
        if board not in BOARDS:
            raise ConfigError("board", "one_of", choices=", ".join(BOARDS))
        if config.get("first_run_only", True) is not True:
            raise ConfigError("first_run_only", "first_run")
        bomb = config.get("exclude_bomb_pots", True)
        if not isinstance(bomb, bool):
            raise ConfigError("exclude_bomb_pots", "bool")
        carry = config.get("carry_over", True)
        if not isinstance(carry, bool):
            raise ConfigError("carry_over", "bool")
        period = _int(config, "period_minutes", default=60, low=15, high=DAY_MINUTES)
        if period not in PERIOD_MINUTES:
            raise ConfigError(
                "period_minutes", "period", lengths=", ".join(map(str, PERIOD_MINUTES))
            )
        anchor = config.get("anchor_minutes")
        if anchor is not None:
            anchor = _int(config, "anchor_minutes", low=0, high=DAY_MINUTES - 1)
        zone = config.get("time_zone")
        if zone is not None and not _known_zone(zone):
            raise ConfigError("time_zone", "zone")
        prize = _prize(config.get("prize"), kind)
        bonuses = _bonuses(config.get("bonuses"), kind)
        return cls(
            kind=kind,
            games=frozenset(games),
            big_blinds=frozenset(big_blinds),
            min_hand=tuple(min_hand) if min_hand else None,
            card_use=_card_use(config.get("card_use", {})),
            board=board,
            min_pot_cents=_int(config, "min_pot", default=0, low=0, high=MAX_CENTS),
            min_pot_big_blinds=_int(
                config, "min_pot_big_blinds", default=0, low=0, high=10_000
            ),
            min_dealt_in=_int(config, "min_dealt_in", default=2, low=2, high=12),
            exclude_bomb_pots=bomb,
            period_minutes=period,
            anchor_minutes=anchor,
            time_zone=zone,
            carry_over=carry,
            prize=prize,
            bonuses=bonuses,
        )

    def to_config(self) -> dict[str, Any]:
        """Return the configuration this was read from, normalised."""
        return {
            "kind": self.kind,
            "games": sorted(self.games),
            "big_blinds": sorted(self.big_blinds),
            "min_hand": list(self.min_hand) if self.min_hand else None,
            "card_use": self.card_use.to_config(),
            "board": self.board,
            "min_pot": self.min_pot_cents,
            "min_pot_big_blinds": self.min_pot_big_blinds,
            "min_dealt_in": self.min_dealt_in,
            "first_run_only": True,
            "exclude_bomb_pots": self.exclude_bomb_pots,
            "period_minutes": self.period_minutes,
            "anchor_minutes": self.anchor_minutes,
            "time_zone": self.time_zone,
            "carry_over": self.carry_over,
            "prize": {
                "fixed": self.prize.fixed,
                "pool_percent": self.prize.pool_percent,
                "funding": self.prize.funding,
            },
            "bonuses": [{"hand": b.hand, "fixed": b.fixed} for b in self.bonuses],
        }


def _known_zone(name: object) -> bool:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not isinstance(name, str) or not name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _int(
    data: Mapping[str, Any],
    key: str,
    *,
    default: int | None = None,
    low: int,
    high: int,
    prefix: str = "",
) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(prefix + key, "whole")
    if not low <= value <= high:
        raise ConfigError(prefix + key, "range", low=low, high=high)
    return value


def _card_use(rule: object) -> CardUse:
    if not isinstance(rule, Mapping):
        raise ConfigError("card_use", "side")
    pocket_pair = rule.get("quads_pocket_pair", False)
    if not isinstance(pocket_pair, bool):
        raise ConfigError("card_use.quads_pocket_pair", "bool")
    return CardUse(
        hole_cards=_int(
            rule, "hole_cards", default=0, low=0, high=2, prefix="card_use."
        ),
        quads_pocket_pair=pocket_pair,
    )


def _prize(data: object, kind: str) -> Prize:
    if not isinstance(data, Mapping):
        raise ConfigError("prize", "prize")
    funding = data.get("funding", DROP)
    if funding not in FUNDINGS:
        raise ConfigError("prize.funding", "one_of", choices=", ".join(FUNDINGS))
    prize = Prize(
        fixed=_int(data, "fixed", default=0, low=0, high=MAX_CENTS, prefix="prize."),
        pool_percent=_int(
            data, "pool_percent", default=0, low=0, high=100, prefix="prize."
        ),
        funding=funding,
    )
    if funding == HOUSE and prize.pool_percent:
        raise ConfigError("prize.pool_percent", "house_only")
    if kind == FIXED_BONUS:
        # The table's lines say what each hand pays.
        if prize.fixed:
            raise ConfigError("prize.fixed", "bonus_fixed")
        if funding == BOTH and not prize.pool_percent:
            raise ConfigError("prize", "both")
        return prize
    if funding == BOTH and not (prize.fixed and prize.pool_percent):
        raise ConfigError("prize", "both")
    if not (prize.fixed or prize.pool_percent):
        raise ConfigError("prize", "nothing")
    return prize


def _bonuses(data: object, kind: str) -> tuple[Bonus, ...]:
    if kind != FIXED_BONUS:
        if data:
            raise ConfigError("bonuses", "bonus_kind")
        return ()
    if not isinstance(data, list | tuple) or not data:
        raise ConfigError("bonuses", "bonuses", hands=", ".join(BONUS_HANDS))
    table = []
    for i, line in enumerate(data):
        if not isinstance(line, Mapping) or line.get("hand") not in BONUS_HANDS:
            raise ConfigError(f"bonuses.{i}", "bonuses", hands=", ".join(BONUS_HANDS))
        fixed = _int(line, "fixed", low=1, high=MAX_CENTS, prefix=f"bonuses.{i}.")
        table.append(Bonus(line["hand"], fixed))
    if len({b.hand for b in table}) != len(table):
        raise ConfigError("bonuses", "bonus_twice")
    return tuple(sorted(table, key=lambda b: -b.least_key))


@dataclass(frozen=True, slots=True)
class PromotionHand:
    """What a promotion needs to know of a booked hand: its first run (PR4)."""

    game: str
    big_blind: int
    pot: int
    bomb_pot: bool
    streets: int
    board: tuple[str, ...]
    seats: tuple[SeatFacts, ...]


# Why a hand counts for nothing (the first check it fails).
GAME_NOT_COVERED = "game_not_covered"
STAKES_NOT_COVERED = "stakes_not_covered"
BOMB_POT = "bomb_pot"
TOO_FEW_DEALT_IN = "too_few_dealt_in"
POT_TOO_SMALL = "pot_too_small"


def hand_miss(rules: PromotionRules, hand: PromotionHand) -> str | None:
    """Return why ``hand`` can't count for the promotion at all, or None (PR2–PR4)."""
    if hand.game not in rules.games:
        return GAME_NOT_COVERED
    if rules.big_blinds and hand.big_blind not in rules.big_blinds:
        return STAKES_NOT_COVERED
    if rules.exclude_bomb_pots and hand.bomb_pot:
        return BOMB_POT
    if len(hand.seats) < rules.min_dealt_in:
        return TOO_FEW_DEALT_IN
    if hand.pot < max(rules.min_pot_cents, rules.min_pot_big_blinds * hand.big_blind):
        return POT_TOO_SMALL
    return None


def _as_facts(rules: PromotionRules, hand: PromotionHand) -> HandFacts:
    board = hand.board
    if rules.board == "flop" and not GAMES[hand.game].is_stud:
        board = board[:3]
    return HandFacts(
        game=hand.game,
        streets=hand.streets,
        board=board,
        seats=hand.seats,
        pot_cents=hand.pot,
    )


def _tabled(rules: PromotionRules, hand: PromotionHand) -> list[Shown]:
    """The hands tabled at the showdown, ranked on the board the rules say."""
    shown, _why = showdown(_as_facts(rules, hand))
    if shown is None and rules.board == "flop":
        return []
    return shown or []


def high_hands(rules: PromotionRules, hand: PromotionHand) -> list[Shown]:
    """Return the hands of ``hand`` that count for a high-hand period (PR2): tabled
    at a showdown, at least the minimum hand, with the card use the rules say; in
    seat order. A hand the rules leave out counts nothing (:func:`hand_miss`)."""
    if hand_miss(rules, hand) is not None:
        return []
    least = rules.min_key
    return [
        s
        for s in _tabled(rules, hand)
        if s.key >= least and card_use_breach(s, rules.card_use) is None
    ]


@dataclass(frozen=True, slots=True)
class BonusWin:
    """A seat a bonus pays in a hand (PR3): once, whatever else it made."""

    shown: Shown
    hand: str
    fixed: int


def bonus_wins(rules: PromotionRules, hand: PromotionHand) -> list[BonusWin]:
    """Return who a fixed-bonus or aces-cracked promotion pays in ``hand`` (PR3),
    each seat at most once, in seat order.

    Fixed bonus: a hand tabled at the showdown, with the card use the rules say,
    reaching a hand of the table pays the best line it reaches. Aces cracked: a
    seat whose hole cards are a pair of aces, present, loses at the showdown to a
    better hand (the best hand tabled beats it); pocket aces are pocket aces, so
    the card-use rule doesn't apply.
    """
    if hand_miss(rules, hand) is not None:
        return []
    tabled = _tabled(rules, hand)
    if rules.kind == ACES_CRACKED:
        if not tabled:
            return []
        top = max(s.key for s in tabled)
        return [
            BonusWin(s, ACES_CRACKED, rules.prize.fixed)
            for s in tabled
            if s.present and s.key < top and _pocket_aces(s.hole)
        ]
    wins = []
    for s in tabled:
        if not s.present or card_use_breach(s, rules.card_use) is not None:
            continue
        line = next((b for b in rules.bonuses if s.key >= b.least_key), None)
        if line is not None:
            wins.append(BonusWin(s, line.hand, line.fixed))
    return wins


def _pocket_aces(hole: Sequence[str]) -> bool:
    """Two aces among the hole cards (Hold'em's pocket aces; in Omaha, aces among
    the four)."""
    return sum(1 for card in hole if card[0] == "A") >= 2


#: Configurations of the three kinds, as rooms post them (docs/promotions.md).
EXAMPLES: dict[str, dict[str, Any]] = {
    "hourly-high-hand": {
        "kind": HIGH_HAND,
        "games": ["NLHE", "PLHE", "LHE", "PLO", "PLO5"],
        "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
        "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
        "min_pot_big_blinds": 10,
        "min_dealt_in": 4,
        "period_minutes": 60,
        "carry_over": True,
        "prize": {"fixed": 10_000, "funding": DROP},
    },
    "royal-flush": {
        "kind": FIXED_BONUS,
        "games": ["NLHE", "PLO"],
        "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
        "min_dealt_in": 4,
        "prize": {"funding": HOUSE},
        "bonuses": [
            {"hand": "royal_flush", "fixed": 50_000},
            {"hand": "straight_flush", "fixed": 20_000},
            {"hand": "four_of_a_kind", "fixed": 10_000},
        ],
    },
    "aces-cracked": {
        "kind": ACES_CRACKED,
        "games": ["NLHE"],
        "min_dealt_in": 4,
        "min_pot_big_blinds": 10,
        "prize": {"fixed": 5_000, "funding": HOUSE},
    },
}


@dataclass(frozen=True, slots=True)
class Amount:
    """What one prize pays, and from where (PR1): ``house`` booked as an expense,
    ``pool`` from the promotion's pool (the drop's money held in trust)."""

    house: int
    pool: int

    @property
    def total(self) -> int:
        return self.house + self.pool


def prize_amount(prize: Prize, *, free: int, carried_in: int = 0) -> Amount:
    """Return what a prize pays when the pool holds ``free`` cents not promised
    to another prize, and ``carried_in`` cents (in the pool already) came from
    the periods before that paid nothing (PR1, PR2).

    The percent is of what is free; a fixed amount the drop funds is paid as far
    as the pool holds it (JD5: a pool never goes below zero).

    >>> prize_amount(Prize(10_000, 0, DROP), free=6_000)
    Amount(house=0, pool=6000)
    >>> prize_amount(Prize(10_000, 50, BOTH), free=6_001, carried_in=2_000)
    Amount(house=10000, pool=5000)
    """
    free = max(free, 0)
    from_pool = free * prize.pool_percent // 100
    if prize.funding == DROP:
        from_pool = min(from_pool + prize.fixed, free)
    return Amount(house=prize.house_fixed, pool=from_pool + carried_in)
