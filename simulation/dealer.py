"""Deal a poker hand as a table plays it, and write its hand record (API.md).

Pure Python, no Django: a shuffled deck, the blinds, a betting round per street
with folds, checks, bets, calls and raises within each seat's stack under the
game's betting structure (no limit, pot limit, fixed limit), all-ins with the rest
of the board run out, and a showdown where the players still in table their cards.
The engine (:mod:`cardroom.domain.settlement`) settles what it deals.

>>> import random
>>> hand = deal_hand(
...     random.Random(1), table="T01", hand_no=1, game="NLHE",
...     seats={1: ("P-1", 20_000), 2: ("P-2", 20_000), 3: ("P-3", 20_000)},
...     button=1, small_blind=100, big_blind=200,
... )
>>> sorted(hand) == ["board", "button", "game", "hand_no", "seats", "streets", "table"]
True
>>> sum(s["put_in"] for s in hand["seats"]) >= 300  # the blinds at least
True

:class:`Extras` makes it deal what real tables deal now and then: antes (each
seat's, or a big-blind ante), a straddle, and a pot run twice when the players are
all in before the river. Their chips are recorded in the seats' ``dead`` and
``straddle`` and the runs in ``boards`` (RULES.md HS2, HS10, HS11).

A :class:`Preset` stacks the deck: the cards it names are dealt to those seats and
the board, the rest come from the shuffled deck, and its ``stay_in`` seats never
fold (a player holding a monster). That is how a simulated night deals a bad beat
it can count on (RULES.md BB1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from cardroom.domain.cards import CARD_NAMES
from cardroom.domain.games import GAMES, Game

DECK: tuple[str, ...] = CARD_NAMES
"""The 52 cards, two characters each (``"Ah"``), by rank then suit."""

Structure = Literal["no_limit", "pot_limit", "limit"]

NO_LIMIT_GAMES = frozenset({"NLHE"})
LIMIT_GAMES = frozenset({"LHE", "STUD", "STUD8", "RAZZ"})
MAX_RAISES = 4
"""Bets and raises a betting round allows (fixed limit's cap; here in every game so
that a round always ends)."""


def structure_of(game: str) -> Structure:
    """Return the betting structure of a game code (API.md "Game codes")."""
    if game in NO_LIMIT_GAMES:
        return "no_limit"
    if game in LIMIT_GAMES:
        return "limit"
    return "pot_limit"


@dataclass(frozen=True, slots=True)
class Style:
    """How the players at a table play: the chance of each choice at a decision.

    ``fold`` is the chance to fold when facing a bet, growing with the price of
    the call; ``bet`` to bet when nobody has; ``raise_`` to raise a bet; ``all_in``
    to move every chip in (in pot limit: to raise the pot; in limit: to raise).
    The defaults give, seven-handed at €1/€2 with €200 stacks, about a third of
    the hands at a showdown, a median pot of eight big blinds and a player broke
    every 25 hands or so.
    """

    fold: float = 0.3
    bet: float = 0.3
    raise_: float = 0.06
    all_in: float = 0.004


@dataclass(frozen=True, slots=True)
class Extras:
    """How often a hand is dealt with what the plain deal leaves out.

    ``ante``: the chance the hand has antes; of those, ``big_blind_ante`` are a
    big-blind ante (the big blind antes one big blind for the table), the others
    every seat's ante of a quarter of the big blind. ``straddle``: the chance the
    seat left of the big blind straddles two big blinds (board games with a
    big bet, three or more seats). ``run_twice``: the chance an all-in before the
    river is run twice (board games).
    """

    ante: float = 0.0
    big_blind_ante: float = 0.5
    straddle: float = 0.0
    run_twice: float = 0.0


NIGHT_EXTRAS = Extras(ante=0.1, straddle=0.05, run_twice=0.5)
"""What a simulated night deals: a hand in ten with antes, one in twenty
straddled, half of the all-ins before the river run twice."""


@dataclass(frozen=True, slots=True)
class Preset:
    """Cards dealt to order, and seats that never fold.

    ``cards`` maps a seat to all the cards it is dealt (every hole card, or all
    of a stud seat's cards); ``board`` is the whole board if given.
    """

    cards: Mapping[int, Sequence[str]] = field(default_factory=dict)
    board: Sequence[str] = ()
    stay_in: frozenset[int] = frozenset()


@dataclass(slots=True)
class _Seat:
    seat: int
    player: str
    stack: int
    cards: list[str]
    put_in: int = 0
    round_bet: int = 0
    folded: bool = False
    dead: int = 0
    straddle: int = 0

    @property
    def left(self) -> int:
        return self.stack - self.put_in

    @property
    def can_act(self) -> bool:
        return not self.folded and self.left > 0


def deal_hand(
    rng: random.Random,
    *,
    table: str,
    hand_no: int,
    game: str,
    seats: Mapping[int, tuple[str, int]],
    button: int | None,
    small_blind: int,
    big_blind: int,
    chip: int = 50,
    style: Style | None = None,
    preset: Preset | None = None,
    extras: Extras | None = None,
) -> dict[str, Any]:
    """Deal and play one hand; return its hand record (API.md "Hand record").

    ``seats`` maps a seat number to its player and stack; every seat with chips is
    dealt in. The blinds are posted left of ``button`` (the last seat dealt in when
    None); the button moves is the caller's business. Amounts are multiples of
    ``chip`` unless a stack isn't. ``extras`` (none by default) adds antes,
    straddles and runs now and then. Raises :class:`ValueError` with fewer than two
    seats holding chips, more seats than the deck can deal the game to (stud: seven),
    or a preset dealing a card twice.
    """
    style = style or Style()
    preset = preset or Preset()
    rules = GAMES[game]
    structure = structure_of(game)
    dealt = sorted(n for n, (_p, stack) in seats.items() if stack > 0)
    if len(dealt) < 2:
        raise ValueError("A hand needs two seats with chips.")
    per_seat = rules.hole_cards or rules.seat_cards[-1]
    if len(dealt) * per_seat + rules.board_cards[-1] > len(DECK):
        # Seven-card stud eight-handed may need a community card on seventh
        # street, which the hand record can't say.
        raise ValueError(f"{game} can't be dealt to {len(dealt)} seats from a deck.")
    if button is None or button not in seats:
        button = dealt[-1]
    # Clockwise from the seat left of the button; the button acts last.
    after = [n for n in dealt if n > button] + [n for n in dealt if n <= button]

    players, board, deck = _deal_cards(rng, rules, after, seats, preset, per_seat)
    extras = extras or Extras()
    ante, big_blind_ante, straddle = _draw_extras(
        rng, extras, rules, structure, big_blind, chip, len(after)
    )
    table_play = _Betting(
        rng, players, after, structure, small_blind, big_blind, chip, style, preset
    )
    streets = table_play.play(
        rules.streets, ante=ante, big_blind_ante=big_blind_ante, straddle=straddle
    )
    boards = _second_run(rng, extras, rules, table_play.all_in_at, board, deck, preset)
    shown = rules.hole_cards or rules.seat_cards[streets - 1]
    showdown = sum(1 for p in players.values() if not p.folded) > 1
    record = {
        "table": table,
        "hand_no": hand_no,
        "game": game,
        "button": button,
        "streets": streets,
        "board": board[: rules.board_cards[streets - 1]],
        "seats": [_seat_row(players[n], shown, showdown) for n in dealt],
    }
    if boards is not None and showdown:
        record["boards"] = boards
    return record


def _deal_cards(
    rng: random.Random,
    rules: Game,
    after: list[int],
    seats: Mapping[int, tuple[str, int]],
    preset: Preset,
    per_seat: int,
) -> tuple[dict[int, _Seat], list[str], list[str]]:
    """Return the seats dealt their cards, the whole board and the deck left."""
    deck = list(DECK)
    rng.shuffle(deck)
    stacked = [c for cards in preset.cards.values() for c in cards] + list(preset.board)
    if len(set(stacked)) != len(stacked) or not set(stacked) <= set(DECK):
        raise ValueError("A preset deals each card once, from the deck.")
    taken = set(stacked)
    deck = [c for c in deck if c not in taken]
    players = {}
    for n in after:
        cards = list(preset.cards.get(n, ()))
        cards += [deck.pop() for _ in range(per_seat - len(cards))]
        players[n] = _Seat(n, seats[n][0], seats[n][1], cards)
    board = list(preset.board)
    board += [deck.pop() for _ in range(rules.board_cards[-1] - len(board))]
    return players, board, deck


def _draw_extras(
    rng: random.Random,
    extras: Extras,
    rules: Game,
    structure: Structure,
    big_blind: int,
    chip: int,
    dealt_in: int,
) -> tuple[int, bool, bool]:
    """Return the hand's ante, whether it is a big-blind ante, and a straddle.

    The draws for the extras come only when there are extras, so that a plain
    deal stays the same deal for the same seed.
    """
    ante = 0
    big_blind_ante = False
    if extras.ante and rng.random() < extras.ante:
        big_blind_ante = not rules.is_stud and rng.random() < extras.big_blind_ante
        ante = big_blind if big_blind_ante else max(chip, big_blind // 4 // chip * chip)
    straddle = (
        extras.straddle > 0
        and not rules.is_stud
        and structure != "limit"
        and dealt_in >= 3
        and rng.random() < extras.straddle
    )
    return ante, big_blind_ante, straddle


def _second_run(
    rng: random.Random,
    extras: Extras,
    rules: Game,
    run_from: int | None,
    board: list[str],
    deck: list[str],
    preset: Preset,
) -> list[list[str]] | None:
    """Return both runs' boards when an all-in before the river is run twice."""
    if (
        extras.run_twice
        and run_from is not None
        and run_from < rules.streets
        and rules.board_cards[-1]
        and not preset.board
        and len(deck) >= rules.board_cards[-1] - rules.board_cards[run_from - 1]
        and rng.random() < extras.run_twice
    ):
        # HS10: the cards dealt before the all-in are common to both runs.
        common = rules.board_cards[run_from - 1]
        second = board[:common] + [deck.pop() for _ in board[common:]]
        return [board, second]
    return None


def _seat_row(p: _Seat, shown: int, showdown: bool) -> dict[str, Any]:
    """Return a seat of the hand record, its cards when it shows them down."""
    row: dict[str, Any] = {
        "seat": p.seat,
        "player": p.player,
        "stack": p.stack,
        "present": True,
        "put_in": p.put_in,
        "folded": p.folded,
    }
    if p.dead:
        row["dead"] = p.dead
    if p.straddle:
        row["straddle"] = p.straddle
    if showdown and not p.folded:
        row["cards"] = p.cards[:shown]
    return row


class _Betting:
    """The betting of one hand, street by street."""

    def __init__(
        self,
        rng: random.Random,
        players: dict[int, _Seat],
        order: list[int],
        structure: Structure,
        small_blind: int,
        big_blind: int,
        chip: int,
        style: Style,
        preset: Preset,
    ) -> None:
        self.rng, self.players, self.order = rng, players, order
        self.structure, self.chip, self.style = structure, chip, style
        self.small_blind, self.big_blind = small_blind, big_blind
        self.stay_in = preset.stay_in
        self.all_in_at: int | None = None
        """The street after which everyone but one was all in, if that happened."""

    @property
    def pot(self) -> int:
        return sum(p.put_in for p in self.players.values())

    def _in(self) -> list[_Seat]:
        return [p for p in self.players.values() if not p.folded]

    def _put(self, p: _Seat, amount: int) -> None:
        amount = min(amount, p.left)
        p.put_in += amount
        p.round_bet += amount

    def _ante(self, p: _Seat, amount: int) -> None:
        # Dead money (HS2): in the pot, but no part of the seat's bet this round.
        amount = min(amount, p.left)
        p.put_in += amount
        p.dead += amount

    def play(
        self,
        streets: int,
        *,
        ante: int = 0,
        big_blind_ante: bool = False,
        straddle: bool = False,
    ) -> int:
        """Play the streets; return how many were dealt (API.md ``streets``).

        ``ante`` is every seat's ante, or with ``big_blind_ante`` the big blind's
        alone, posted before the blinds (TDA: the ante first). ``straddle``: the
        seat left of the big blind posts two big blinds, a live blind (HS11).
        """
        heads_up = len(self.order) == 2
        # Heads-up the button posts the small blind and acts first before the flop.
        sb = self.order[1] if heads_up else self.order[0]
        bb = self.order[0] if heads_up else self.order[1]
        if ante:
            for n in [bb] if big_blind_ante else self.order:
                self._ante(self.players[n], ante)
        self._put(self.players[sb], self.small_blind)
        self._put(self.players[bb], self.big_blind)
        first = self.order[(self.order.index(bb) + 1) % len(self.order)]
        straddler = self.players[first]
        if straddle and straddler.left > 2 * self.big_blind:
            self._put(straddler, 2 * self.big_blind)
            straddler.straddle = straddler.put_in - straddler.dead
            first = self.order[(self.order.index(first) + 1) % len(self.order)]
        for street in range(1, streets + 1):
            if street > 1:
                for p in self.players.values():
                    p.round_bet = 0
                first = self.order[0]
            self._round(street, streets, first)
            contenders = self._in()
            if len(contenders) == 1:
                return street
            if sum(1 for p in contenders if p.left > 0) <= 1:
                # Everyone but one is all in: the rest of the cards are dealt.
                self.all_in_at = street
                return streets
        return streets

    def _unit(self, street: int, streets: int) -> int:
        """Fixed limit's bet: the small bet early, the big bet on later streets."""
        return self.big_blind if street <= streets // 2 else 2 * self.big_blind

    def _chips(self, amount: int) -> int:
        return max(self.chip, amount - amount % self.chip)

    def _round(self, street: int, streets: int, first: int) -> None:
        start = self.order.index(first)
        queue = [
            self.order[(start + i) % len(self.order)] for i in range(len(self.order))
        ]
        current = max(p.round_bet for p in self.players.values())
        min_raise = self.big_blind
        raises = 1 if street == 1 else 0  # the big blind counts as the first bet
        pending = [n for n in queue if self.players[n].can_act]
        while pending:
            if len(self._in()) == 1:
                return
            n = pending.pop(0)
            p = self.players[n]
            if not p.can_act:
                continue
            others = [q for q in self._in() if q is not p]
            rivals = any(q.can_act for q in others)
            if not rivals and current == p.round_bet:
                continue  # everyone else is all in for no more than him
            target = self._decide(
                p, current, min_raise, raises if rivals else MAX_RAISES, street, streets
            )
            if target is None:
                p.folded = True
                continue
            self._put(p, target - p.round_bet)
            if p.round_bet > current:
                min_raise = max(min_raise, p.round_bet - current)
                current = p.round_bet
                raises += 1
                at = self.order.index(n)
                pending = [
                    m
                    for m in (
                        self.order[(at + i) % len(self.order)]
                        for i in range(1, len(self.order))
                    )
                    if self.players[m].can_act
                ]

    def _decide(
        self,
        p: _Seat,
        current: int,
        min_raise: int,
        raises: int,
        street: int,
        streets: int,
    ) -> int | None:
        """Return what the seat's bet this round becomes, or None to fold."""
        rng, style = self.rng, self.style
        to_call = current - p.round_bet
        all_in_to = p.round_bet + p.left
        can_raise = raises < MAX_RAISES and all_in_to > current
        if to_call > 0:
            price = to_call / (self.pot + to_call)
            # At most 95 % unless the style always folds: some call any price.
            most = max(0.95, style.fold)
            if p.seat not in self.stay_in and rng.random() < min(
                most, style.fold + price
            ):
                return None
        roll = rng.random()
        if can_raise and roll < style.all_in:
            return self._raise_to(p, current, min_raise, street, streets, 1.0, True)
        wants = style.raise_ if to_call > 0 else style.bet
        if can_raise and roll < style.all_in + wants:
            size = rng.choice((0.5, 0.75, 1.0))
            return self._raise_to(p, current, min_raise, street, streets, size, False)
        return min(current, all_in_to)  # check or call

    def _raise_to(
        self,
        p: _Seat,
        current: int,
        min_raise: int,
        street: int,
        streets: int,
        size: float,
        shove: bool,
    ) -> int:
        """Return a legal bet or raise of ``size`` times the pot (or all in)."""
        all_in_to = p.round_bet + p.left
        to_call = current - p.round_bet
        if self.structure == "limit":
            target = current + self._unit(street, streets)
        elif self.structure == "no_limit":
            if shove:
                return all_in_to
            target = current + max(
                min_raise, self._chips(int(size * (self.pot + to_call)))
            )
        else:
            # Pot limit: at most the pot after his call (RULES.md, API.md "PL").
            most = current + self.pot + to_call
            wanted = current + self._chips(int(size * (self.pot + to_call)))
            target = most if shove else max(current + min_raise, min(wanted, most))
            target = min(target, most)
        return min(target, all_in_to)
