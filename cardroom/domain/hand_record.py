"""The hand record and the policy of API.md, checked and turned into frozen values.

:func:`parse_hand` and :func:`parse_policy` take what a table terminal or a policy file
sends (decoded JSON) and either return immutable values the engine can settle or raise
:class:`~cardroom.domain.errors.HandError` saying what is wrong, with the rule of
RULES.md that refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import partial
from typing import Annotated, Any, Literal, NamedTuple, NoReturn

import msgspec
from msgspec import Meta, Struct

from cardroom.domain.cards import CARD_IDS, CARD_NAMES, card_name, parse_cards
from cardroom.domain.errors import Code, HandError, Phrase, refuse
from cardroom.domain.games import GAMES, Game
from core.errors import gettext_noop as _

MAX_SEATS = 12
"""HS1: at most 12 players at a table; seats are numbered 1 … 12."""

RakeScheme = Literal["pot_order", "percent", "time", "none"]


class Seat(NamedTuple):
    """One seat dealt in: ``cards`` are card ids as tabled, None when not shown.

    A named tuple rather than a frozen dataclass: as immutable, and four times
    cheaper to build, which counts at up to twelve seats a hand in a batch.
    """

    seat: int
    player: str
    stack: int
    present: bool
    put_in: int
    folded: bool
    cards: tuple[int, ...] | None
    dead: int = 0
    """The part of ``put_in`` that is dead money (HS2): antes, a big-blind ante, a
    dead blind, the dead part of a post. It is in the pot but matches no bet, so it
    is never returned as uncalled (RK5)."""
    straddle: int = 0
    """The part of ``put_in`` posted as a straddle, a live blind (HS11)."""
    mucked: bool = False
    """Reached the showdown and mucked: wins no pot, cards may be absent (HS3)."""

    @property
    def live(self) -> int:
        """Return what the seat put in that counts toward matching bets (HS2)."""
        return self.put_in - self.dead

    @property
    def out(self) -> bool:
        """Return whether the seat can win nothing: it folded or mucked (HS3)."""
        return self.folded or self.mucked


class HandRecord(Struct, frozen=True, gc=False):
    """A hand as the table reported it (API.md "Hand record"), already checked.

    A frozen msgspec struct rather than a frozen dataclass: as immutable, and
    built in C, where a frozen dataclass sets its 13 fields one
    ``object.__setattr__`` at a time (ten times the cost, once a hand).
    """

    table: str
    hand_no: int
    game: Game
    button: int | None
    streets: int
    board: tuple[int, ...]
    seats: tuple[Seat, ...]
    awarded: tuple[tuple[int, int], ...] | None
    started_at: str | None = None
    ended_at: str | None = None
    boards: tuple[tuple[int, ...], ...] = ()
    """Every run's board when the pot was run more than once (HS10); the first is
    ``board``. Empty for a hand run once."""
    bring_in: int = 0
    """Stud: the bring-in, a live bet (HS11); informative."""
    simple: bool = False
    """True when no seat has dead money or a muck, as :func:`parse_hand` finds:
    the engine then skips their bookkeeping. False is always safe."""

    @property
    def runs(self) -> tuple[tuple[int, ...], ...]:
        """Return the board of each run, the first run's first (HS10)."""
        return self.boards or (self.board,)


@dataclass(frozen=True, slots=True)
class RakePolicy:
    """How the house takes its share (RK1-RK3, RK6, RK7).

    Every pot-raking scheme is RK1's: ``units`` of ``unit`` cents for each full
    ``step`` of the pots, at most ``cap``. ``percent`` is RK1 with ``unit`` the
    smallest chip and ``step`` the (fractional) amount that earns one chip, so 5 %
    with 50-cent chips is a chip per €10 and rounds down to the chip as RK7 asks.
    ``time`` and ``none`` take no pot rake.
    """

    scheme: RakeScheme
    step: int | Fraction = 1
    unit: int = 0
    cap: int | None = None
    percent: Decimal | None = None
    caps_by_players: tuple[tuple[int, int], ...] = ()
    """RK7: ``(min_players, cap)`` by ascending ``min_players``: a hand dealt to at
    least ``min_players`` seats is capped at ``cap`` (the last such entry wins)."""
    min_pot: int = 0
    """No rake from a hand whose pots add up to less (RK7)."""

    @property
    def takes_pot_rake(self) -> bool:
        """Return whether the scheme rakes pots at all."""
        return self.unit > 0

    def cap_for(self, dealt_in: int) -> int | None:
        """Return the cap of a hand dealt to ``dealt_in`` seats (RK1, RK7).

        The cap of the last ``caps_by_players`` entry whose ``min_players`` the hand
        reaches; ``cap`` when it reaches none (None: no cap).
        """
        cap = self.cap
        for min_players, players_cap in self.caps_by_players:
            if dealt_in < min_players:
                break
            cap = players_cap
        return cap


@dataclass(frozen=True, slots=True)
class DropPolicy:
    """JD1: ``amount`` to the jackpot from hands with ``min_participants`` or more."""

    amount: int
    min_participants: int
    min_pot: int = 0
    """JD3: no drop from a hand whose pots add up to less."""


@dataclass(frozen=True, slots=True)
class Policy:
    """A game's policy (API.md "Policy"): chips, rake and jackpot drop.

    ``jackpots_first_run_only``: a hand run more than once qualifies for jackpots
    on its first run only (HS10's house default), or on every run.
    """

    currency: str
    smallest_chip: int
    rake: RakePolicy
    jackpot_drop: DropPolicy | None
    jackpots_first_run_only: bool = True


def _int(
    value: Any,
    field: str | Phrase,
    minimum: int = 0,
    code: Code = Code.MALFORMED_HAND,
    seat: int | None = None,
) -> int:
    """Return ``value``, a whole number of at least ``minimum``; else refuse it as
    ``code`` (``negative_amount`` below 0), naming ``field`` (of ``seat``)."""
    if type(value) is not int:  # bool is an int subclass and no amount
        if seat is not None:
            raise refuse(code, text="seat_whole", seat=seat, field=field, value=value)
        raise refuse(code, text="whole", field=field, value=value)
    if value < minimum:
        if minimum:
            refused, variant = code, "at_least"
        else:
            refused, variant = Code.NEGATIVE_AMOUNT, None
        if seat is not None:
            refused, variant = Code.NEGATIVE_AMOUNT, "seat"
        raise refuse(
            refused,
            text=variant,
            allowed={"min": minimum},
            field=field,
            minimum=minimum,
            value=value,
            **({} if seat is None else {"seat": seat}),
        )
    return value


# -- policy ----------------------------------------------------------------------


def parse_policy(data: Any) -> Policy:
    """Return the :class:`Policy` of a decoded policy file (API.md "Policy").

    Raises :class:`HandError` ``invalid_policy`` for a missing or wrong field, an
    unknown rake scheme or a percentage outside 0-100.
    """
    policy = Code.INVALID_POLICY
    if not isinstance(data, Mapping):
        raise refuse(policy)
    try:
        chip = _int(data["smallest_chip"], "smallest_chip", 1, policy)
        currency = data.get("currency", "")
        if not isinstance(currency, str):
            raise refuse(policy, text="currency")
        rake = _parse_rake(data["rake"], chip)
        drop_data = data.get("jackpot_drop")
        drop = None
        if drop_data is not None:
            if not isinstance(drop_data, Mapping):
                raise refuse(policy, text="drop")
            drop = DropPolicy(
                _int(drop_data["amount"], "jackpot_drop.amount", 0, policy),
                _int(
                    drop_data["min_participants"],
                    "jackpot_drop.min_participants",
                    0,
                    policy,
                ),
                _int(drop_data.get("min_pot", 0), "jackpot_drop.min_pot", 0, policy),
            )
        first_run_only = data.get("jackpots_first_run_only", True)
        if first_run_only is not True and first_run_only is not False:
            raise refuse(policy, text="first_run_only")
    except KeyError as missing:
        raise refuse(policy, text="missing", field=missing.args[0]) from None
    except HandError as error:
        if error.code == Code.NEGATIVE_AMOUNT:
            error.code = policy.value
        raise
    return Policy(currency, chip, rake, drop, first_run_only)


def _parse_rake(data: Any, chip: int) -> RakePolicy:
    policy = Code.INVALID_POLICY
    if not isinstance(data, Mapping):
        raise refuse(policy, text="rake")
    scheme = data.get("scheme")
    cap = data.get("cap")
    if cap is not None:
        cap = _int(cap, "rake.cap", 0, policy)
    caps = _parse_caps(data.get("caps_by_players"))
    min_pot = _int(data.get("min_pot", 0), "rake.min_pot", 0, policy)
    if scheme == "pot_order":
        step = _int(data["step"], "rake.step", 1, policy)
        unit = _int(data["unit"], "rake.unit", 1, policy)
        if unit > step:
            # More than a step's worth per step could rake more than the pots.
            raise refuse(
                policy,
                text="unit_above_step",
                rule="RK1",
                allowed={"max": step},
                unit=unit,
                step=step,
            )
        return RakePolicy("pot_order", step, unit, cap, None, caps, min_pot)
    if scheme == "percent":
        raw = data["percent"]
        if isinstance(raw, bool) or not isinstance(raw, str | int):
            raise refuse(policy, text="percent_text")
        try:
            percent = Decimal(raw)
        except InvalidOperation:
            raise refuse(policy, text="percent_number", percent=raw) from None
        if not percent.is_finite() or not 0 <= percent <= 100:
            raise refuse(
                policy,
                text="percent_range",
                allowed={"min": 0, "max": 100},
                percent=raw,
            )
        if percent == 0:
            return RakePolicy("percent", percent=percent, cap=cap)
        chip_step = Fraction(chip * 100) / Fraction(percent)
        return RakePolicy("percent", chip_step, chip, cap, percent, caps, min_pot)
    if scheme in ("time", "none"):
        return RakePolicy(scheme)
    raise refuse(
        policy,
        text="scheme",
        rule="RK7",
        allowed={"schemes": ["pot_order", "percent", "time", "none"]},
        scheme=scheme,
    )


def _parse_caps(raw: Any) -> tuple[tuple[int, int], ...]:
    """Return RK7's caps by number of players, by ascending ``min_players``."""
    policy = Code.INVALID_POLICY
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise refuse(policy, text="caps")
    caps: dict[int, int] = {}
    for item in raw:
        if not isinstance(item, Mapping) or {"min_players", "cap"} - item.keys():
            raise refuse(policy, text="cap_entry")
        players = _int(
            item["min_players"], "rake.caps_by_players.min_players", 2, policy
        )
        if players > MAX_SEATS or players in caps:
            raise refuse(
                policy,
                text="cap_players",
                rule="RK7",
                allowed={"min": 2, "max": MAX_SEATS},
                players=players,
            )
        caps[players] = _int(item["cap"], "rake.caps_by_players.cap", 0, policy)
    return tuple(sorted(caps.items()))


# -- hand ------------------------------------------------------------------------


def parse_hand(data: Any) -> HandRecord:
    """Return the checked :class:`HandRecord` of a decoded hand record (API.md).

    Raises :class:`HandError`:

    * ``malformed_hand``: not an object, a missing field, a field of the wrong type;
    * ``unknown_game``: a game code API.md doesn't list;
    * ``invalid_streets``: ``streets`` outside 1 … the game's last street;
    * ``too_many_seats`` (HS1): more than 12 seats, or a seat number outside 1-12;
    * ``too_few_seats``: fewer than two seats dealt in;
    * ``duplicate_seat``: a seat number twice;
    * ``invalid_button``: a button that is no seat number 1-12;
    * ``negative_amount``: a negative stack, ``put_in`` or awarded amount;
    * ``put_in_above_stack`` (BI3): a seat putting in more than it started with;
    * ``malformed_card``: a card that isn't rank and suit, like ``"Ah"``;
    * ``wrong_card_count`` (HS9): too many or too few hole, seat or board cards
      for the game and street;
    * ``duplicate_card`` (RK8): one card twice in the hand, which voids it;
    * ``no_contender`` (HS3): every seat folded or mucked;
    * ``invalid_awarded``: ``awarded`` naming a seat twice or one not dealt in;
    * ``dead_above_put_in`` (HS2): a seat's ``dead`` and ``straddle`` adding up to
      more than its ``put_in``;
    * ``mucked_and_folded`` (HS3): a seat both folded and mucked;
    * ``invalid_boards`` (HS10): ``boards`` in a stud game, a run not dealt to the
      end, a first run other than ``board``, or a run repeating the first.
    """
    if type(data) is not dict and not isinstance(data, Mapping):
        raise refuse(Code.MALFORMED_HAND)
    table, hand_no, game, streets, seats_data = _parse_head(data)
    return _assemble(table, hand_no, game, streets, data.get, seats_data, _parse_seats)


SeatsParser = Callable[
    [Any, Game, int, list[int]], tuple[tuple[Seat, ...], set[int], bool, bool]
]
"""Checks a record's seats: :func:`_parse_seats` and :func:`_parse_typed_seats`."""


def _assemble(
    table: str,
    hand_no: int,
    game: Game,
    streets: int,
    get: Callable[[str], Any],
    seats_data: Any,
    parse_seats: SeatsParser,
) -> HandRecord:
    """Return the record of a checked head: check the fields ``get`` reads, and the
    seats by ``parse_seats``; raise :class:`HandError` as :func:`parse_hand` says."""
    button = _parse_button(get("button"), game)
    board, boards = _parse_runs(get("board"), get("boards"), game, streets)
    bomb_pot = get("bomb_pot")
    if bomb_pot is not None and type(bomb_pot) is not bool:
        raise refuse(Code.MALFORMED_HAND, text="bomb_pot", value=bomb_pot)
    bring_in = get("bring_in") or 0
    if bring_in:
        bring_in = _int(bring_in, "bring_in")
        if not game.is_stud:
            raise refuse(Code.MALFORMED_HAND, text="bring_in", game=game.code)
    _check_seat_count(seats_data)
    seen: list[int] = list(board)  # every card dealt, for RK8
    if boards:
        for run in boards[1:]:
            seen.extend(run[_common_prefix(run, board) :])
    seats, numbers, simple, anyone_in = parse_seats(seats_data, game, streets, seen)
    if len(set(seen)) != len(seen):
        _refuse_duplicates(seen)
    if not anyone_in:
        raise refuse(Code.NO_CONTENDER, rule="HS3")
    awarded = _parse_awarded(get("awarded"), numbers)
    started_at = get("started_at")
    ended_at = get("ended_at")
    if (started_at is not None and type(started_at) is not str) or (
        ended_at is not None and type(ended_at) is not str
    ):
        for name, value in (("started_at", started_at), ("ended_at", ended_at)):
            if value is not None and type(value) is not str:
                raise refuse(Code.MALFORMED_HAND, text="time", field=name, value=value)
    return HandRecord(
        table,
        hand_no,
        game,
        button,
        streets,
        board,
        seats,
        awarded,
        started_at,
        ended_at,
        boards,
        bring_in,
        simple,
    )


def _parse_head(data: Mapping[str, Any]) -> tuple[str, int, Game, int, Any]:
    """Return the table, hand number, game, streets and seats (unchecked) of a
    record; raise :class:`HandError` for one missing or of the wrong type."""
    try:
        table = data["table"]
        hand_no = data["hand_no"]
        code = data["game"]
        streets = data["streets"]
        seats_data = data["seats"]
    except KeyError as missing:
        raise refuse(
            Code.MALFORMED_HAND, text="missing", field=missing.args[0]
        ) from None
    if type(table) is not str or not table:
        raise refuse(Code.MALFORMED_HAND, text="table", table=table)
    if type(hand_no) is not int or hand_no < 0:
        raise refuse(Code.MALFORMED_HAND, text="hand_no", hand_no=hand_no)
    game = GAMES.get(code) if type(code) is str else None
    if game is None:
        raise refuse(
            Code.UNKNOWN_GAME, rule="HS9", allowed={"games": list(GAMES)}, game=code
        )
    if type(streets) is not int or not 1 <= streets <= game.streets:
        raise refuse(
            Code.INVALID_STREETS,
            allowed={"min": 1, "max": game.streets},
            last=game.streets,
            game=game.code,
            streets=streets,
        )
    return table, hand_no, game, streets, seats_data


def _parse_runs(
    raw_board: Any, raw_boards: Any, game: Game, streets: int
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Return the board and, for a pot run more than once, every run's (HS10)."""
    if raw_board is None:
        raw_board = raw_boards[0] if type(raw_boards) is list and raw_boards else ()
    board = _parse_board(raw_board, game, streets)
    if raw_boards is None:
        return board, ()
    return board, _parse_boards(raw_boards, board, game, streets)


def _check_seat_count(seats_data: Any) -> None:
    """Refuse seats that are no list, more than a table seats (HS1) or fewer than 2."""
    if type(seats_data) is not list:
        raise refuse(Code.MALFORMED_HAND, text="seats")
    if len(seats_data) > MAX_SEATS:
        raise refuse(
            Code.TOO_MANY_SEATS,
            rule="HS1",
            allowed={"max": MAX_SEATS},
            count=len(seats_data),
            max=MAX_SEATS,
        )
    if len(seats_data) < 2:
        raise refuse(Code.TOO_FEW_SEATS, allowed={"min": 2})


def _parse_seats(
    seats_data: list[Any], game: Game, streets: int, seen: list[int]
) -> tuple[tuple[Seat, ...], set[int], bool, bool]:
    """Return the checked seats, their numbers, whether the hand is simple (no
    dead money, no muck) and whether a seat is still in; add their cards to ``seen``.

    This runs for every seat of every hand a batch settles: it checks everything in
    one pass and only on a failure asks :func:`_seat_error` what was wrong.
    """
    cards_in_play = game.hole_cards or game.seat_cards[streets - 1]
    card_ids = CARD_IDS
    numbers: set[int] = set()
    seats = []
    # tuple.__new__ builds a Seat without the named tuple's own __new__, a Python
    # function call per seat; the values are the fields in order, defaults included.
    new_seat = tuple.__new__
    anyone_in = False
    simple = True
    for row in seats_data:
        try:
            number, player, stack = row["seat"], row["player"], row["stack"]
            present, put_in, folded = row["present"], row["put_in"], row["folded"]
            raw = row.get("cards")
        except (KeyError, TypeError, AttributeError):
            raise _seat_error(row, game, streets) from None
        if not (
            type(number) is int
            and 0 < number <= MAX_SEATS
            and type(player) is str
            and player
            and type(stack) is int
            and type(put_in) is int
            and 0 <= put_in <= stack
            and (present is True or present is False)
            and (folded is True or folded is False)
        ):
            raise _seat_error(row, game, streets)
        # The added fields are looked up only in a seat with more fields than the
        # six API.md requires and its cards: most seats have none.
        if len(row) > (6 if raw is None else 7):
            dead, straddle, mucked = _seat_extras(row, put_in, folded, game, streets)
            if dead or mucked:
                simple = False
        else:
            dead = straddle = 0
            mucked = False
        if number in numbers:
            raise refuse(Code.DUPLICATE_SEAT, seat=number)
        numbers.add(number)
        cards = None
        if raw is not None:
            if type(raw) is not list:
                raise refuse(Code.MALFORMED_HAND, text="seat_cards", seat=number)
            try:
                cards = tuple(map(card_ids.__getitem__, raw))
            except (KeyError, TypeError):
                cards = parse_cards(raw)  # raises the error that names the card
            if len(cards) != cards_in_play:
                _check_seat_cards(number, cards, folded, game, streets)
            seen += cards
        if not folded and not mucked:
            anyone_in = True
        seats.append(
            new_seat(
                Seat,
                (
                    number,
                    player,
                    stack,
                    present,
                    put_in,
                    folded,
                    cards,
                    dead,
                    straddle,
                    mucked,
                ),
            )
        )
    return tuple(seats), numbers, simple, anyone_in


def _refuse_duplicates(seen: list[int]) -> NoReturn:
    """Refuse a hand that deals a card twice, which voids it (RK8)."""
    twice = sorted({card_name(c) for c in seen if seen.count(c) > 1})
    raise refuse(Code.DUPLICATE_CARD, rule="RK8", cards=", ".join(twice))


def _seat_extras(
    row: Mapping[str, Any], put_in: int, folded: bool, game: Game, streets: int
) -> tuple[int, int, bool]:
    """Return a seat's ``dead``, ``straddle`` and ``mucked`` (HS2, HS3, HS11)."""
    dead = row.get("dead", 0)
    straddle = row.get("straddle", 0)
    mucked = row.get("mucked", False)
    if not (
        type(dead) is int
        and type(straddle) is int
        and dead >= 0
        and straddle >= 0
        and dead + straddle <= put_in
        and (mucked is False or (mucked is True and folded is False))
    ):
        raise _seat_error(row, game, streets)
    return dead, straddle, mucked


def _common_prefix(run: tuple[int, ...], first: tuple[int, ...]) -> int:
    """Return how many cards a run shares with the first run's board, from the start."""
    n = 0
    for a, b in zip(run, first, strict=False):
        if a != b:
            break
        n += 1
    return n


def _parse_boards(
    raw: Any, board: tuple[int, ...], game: Game, streets: int
) -> tuple[tuple[int, ...], ...]:
    """Return each run's board (HS10), checked against the first run's ``board``.

    Every run is a whole board of the last street; it shares the cards dealt before
    the players agreed to run it more than once and then deals its own, which
    :func:`parse_hand` checks against every other card for duplicates.
    """
    if not isinstance(raw, list) or not raw:
        raise refuse(Code.MALFORMED_HAND, text="boards")
    if game.is_stud:
        raise refuse(Code.INVALID_BOARDS, text="stud", rule="HS10", game=game.code)
    if len(raw) > 1 and streets != game.streets:
        raise refuse(
            Code.INVALID_BOARDS,
            text="to_the_end",
            rule="HS10",
            allowed={"board": game.board_cards[-1]},
            cards=game.board_cards[-1],
        )
    runs = [_parse_board(run, game, streets) for run in raw]
    if runs[0] != board:
        raise refuse(Code.INVALID_BOARDS, rule="HS10")
    for index, run in enumerate(runs[1:], start=2):
        if run == board:
            raise refuse(Code.INVALID_BOARDS, text="same_run", rule="HS10", run=index)
    return tuple(runs) if len(runs) > 1 else ()


def _parse_button(button: Any, game: Game) -> int | None:
    # Stud games have no button (HS5 gives their odd chip by the cards), so a
    # terminal may leave it out; a board game can't be settled without it.
    if button is None and game.is_stud:
        return None
    if type(button) is not int or not 1 <= button <= MAX_SEATS:
        raise refuse(
            Code.INVALID_BUTTON,
            rule="HS5",
            allowed={"min": 1, "max": MAX_SEATS},
            max=MAX_SEATS,
            button=button,
        )
    return button


def _parse_board(raw: Any, game: Game, streets: int) -> tuple[int, ...]:
    if not isinstance(raw, list) and not isinstance(raw, tuple):
        raise refuse(Code.MALFORMED_HAND, text="board", board=raw)
    board = parse_cards(raw)
    expected = game.board_cards[streets - 1]
    if len(board) != expected:
        raise refuse(
            Code.WRONG_CARD_COUNT,
            rule="HS9",
            allowed={"board": expected},
            game=game.code,
            streets=streets,
            expected=expected,
            count=len(board),
        )
    return board


def _seat_error(data: Any, game: Game, streets: int) -> HandError:
    """Return the error that says what is wrong with a seat the fast check refused."""
    malformed = Code.MALFORMED_HAND
    if not isinstance(data, Mapping):
        return refuse(malformed, text="seat", seat=data)
    for field in ("seat", "player", "stack", "present", "put_in", "folded"):
        if field not in data:
            return refuse(malformed, text="seat_missing", field=field)
    number, player = data["seat"], data["player"]
    stack, put_in = data["stack"], data["put_in"]
    if type(number) is not int or not 1 <= number <= MAX_SEATS:
        return refuse(
            Code.TOO_MANY_SEATS,
            text="number",
            rule="HS1",
            allowed={"min": 1, "max": MAX_SEATS},
            max=MAX_SEATS,
            seat=number,
        )
    if type(player) is not str or not player:
        return refuse(malformed, text="player", seat=number, player=player)
    try:
        _int(stack, "stack", seat=number)
        _int(put_in, "put_in", seat=number)
    except HandError as error:
        return error
    if put_in > stack:
        return refuse(
            Code.PUT_IN_ABOVE_STACK,
            rule="BI3",
            allowed={"max": stack},
            seat=number,
            put_in=put_in,
            stack=stack,
        )
    for field in ("present", "folded"):
        if data[field] is not True and data[field] is not False:
            return refuse(malformed, text="true_or_false", seat=number, field=field)
    for field in ("dead", "straddle"):
        try:
            _int(data.get(field, 0), field, seat=number)
        except HandError as error:
            return error
    dead, straddle = data.get("dead", 0), data.get("straddle", 0)
    if dead + straddle > put_in:
        return refuse(
            Code.DEAD_ABOVE_PUT_IN,
            rule="HS2",
            allowed={"max": put_in},
            seat=number,
            dead=dead,
            straddle=straddle,
            put_in=put_in,
        )
    mucked = data.get("mucked", False)
    if mucked is not True and mucked is not False:
        return refuse(malformed, text="true_or_false", seat=number, field="mucked")
    if mucked and data["folded"]:
        return refuse(Code.MUCKED_AND_FOLDED, rule="HS3", seat=number)
    return refuse(malformed, text="invalid_seat", seat=number)  # pragma: no cover


def _check_seat_cards(
    number: int, cards: tuple[int, ...], folded: bool, game: Game, streets: int
) -> None:
    """Refuse a seat's tabled cards that the game and street can't have dealt (HS9).

    Board games deal every hole card at once. In stud a seat still in holds the
    street's count (all seven at a stud showdown); one that folded holds what he had
    been dealt when he folded.
    """
    n = len(cards)
    if game.hole_cards is not None:
        low = high = game.hole_cards
    else:
        high = game.seat_cards[streets - 1]
        low = game.seat_cards[0] if folded else high
    if not low <= n <= high:
        raise refuse(
            Code.WRONG_CARD_COUNT,
            text="seat",
            rule="HS9",
            allowed={"min": low, "max": high},
            seat=number,
            count=n,
            game=game.code,
            streets=streets,
            expected=str(high) if low == high else f"{low} … {high}",
        )


def _parse_awarded(raw: Any, seats: set[int]) -> tuple[tuple[int, int], ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise refuse(Code.MALFORMED_HAND, text="awarded")
    pushes: dict[int, int] = {}
    for item in raw:
        if not isinstance(item, Mapping) or "seat" not in item or "amount" not in item:
            raise refuse(Code.MALFORMED_HAND, text="awarded_entry")
        seat = item["seat"]
        amount = _int(item["amount"], Phrase(_("awarded amount")))
        if type(seat) is not int or seat not in seats or seat in pushes:
            raise refuse(
                Code.INVALID_AWARDED, allowed={"seats": sorted(seats)}, seat=seat
            )
        pushes[seat] = amount
    return tuple(pushes.items())


# -- hand records decoded straight into typed values (the batch command) ---------

Big = Annotated[int, Meta(le=2**63 - 1)]
"""An integer that nothing but its field's own rules bound. orjson decodes one
above 2**64 - 1 as a float, which :func:`parse_hand` refuses; the typed decoder
refuses any above 2**63 - 1 (the most it bounds), leaving those to parse_hand."""


CardName = Literal[CARD_NAMES]  # type: ignore[valid-type]
"""A card as API.md spells it (``"Ah"``): the decoder checks it in C and gives
the one string object of each card, allocating none."""


class SeatJSON(Struct, gc=False):
    """A seat as the JSON gives it, its types checked by the decoder."""

    seat: int
    player: str
    stack: Big
    present: bool
    put_in: int
    folded: bool
    cards: list[CardName] | None = None
    dead: int = 0
    straddle: int = 0
    mucked: bool = False


class HandJSON(Struct, gc=False):
    """A hand record as the JSON gives it; the fields that :func:`_assemble` checks
    as :func:`parse_hand` does stay as decoded, but for the board's cards, which
    the decoder checks (as it does the seats')."""

    table: str
    hand_no: Big
    game: str
    streets: int
    seats: list[SeatJSON]
    button: Any = None
    board: list[CardName] | None = None
    boards: Any = None
    bring_in: Big | None = None
    bomb_pot: bool | None = None
    awarded: list[dict[str, Big]] | None = None
    started_at: Any = None
    ended_at: Any = None


decode_hands = msgspec.json.Decoder(list[HandJSON] | HandJSON).decode
"""Return a JSON hand record or array of them as :class:`HandJSON` values, their
types checked; raise ``msgspec.DecodeError``. :func:`typed_record` checks the rest."""


def read_hands(text: bytes | str) -> list[HandRecord] | HandRecord | None:
    """Return the records of a JSON hand record or array of them, or None.

    The JSON is decoded straight into typed values, without the dictionaries that
    :func:`parse_hand` checks field by field; the records are the ones it returns.
    None when the text isn't JSON or a record is anything but plainly valid:
    :func:`parse_hand` of the decoded JSON then says what is wrong, and where.
    """
    try:
        decoded = decode_hands(text)
        if type(decoded) is list:
            return [typed_record(hand) for hand in decoded]
        assert isinstance(decoded, HandJSON)
        return typed_record(decoded)
    except (msgspec.DecodeError, HandError, KeyError):
        return None


def typed_record(hand: HandJSON) -> HandRecord:
    """Return the record of a decoded hand; raise :class:`HandError` if it is not
    plainly valid (without saying why: :func:`parse_hand` does)."""
    game = GAMES.get(hand.game)
    streets = hand.streets
    if (
        game is None
        or not hand.table
        or hand.hand_no < 0
        or not 1 <= streets <= game.streets
    ):
        raise refuse(Code.MALFORMED_HAND, text="not_plain")
    return _assemble(
        hand.table,
        hand.hand_no,
        game,
        streets,
        partial(getattr, hand),
        hand.seats,
        _parse_typed_seats,
    )


def _parse_typed_seats(
    seats_data: list[SeatJSON], game: Game, streets: int, seen: list[int]
) -> tuple[tuple[Seat, ...], set[int], bool, bool]:
    """Do :func:`_parse_seats`'s work on seats whose types the decoder checked;
    raise :class:`HandError` (or KeyError for a card) for one not plainly valid."""
    cards_in_play = game.hole_cards or game.seat_cards[streets - 1]
    card_ids = CARD_IDS
    numbers: set[int] = set()
    seats = []
    new_seat = tuple.__new__
    anyone_in = False
    simple = True
    for row in seats_data:
        number, stack, put_in, folded = row.seat, row.stack, row.put_in, row.folded
        dead, straddle, mucked = row.dead, row.straddle, row.mucked
        if (
            not (
                0 < number <= MAX_SEATS
                and row.player
                and 0 <= put_in <= stack
                and dead >= 0
                and straddle >= 0
                and dead + straddle <= put_in
                and not (mucked and folded)
            )
            or number in numbers
        ):
            raise refuse(Code.MALFORMED_HAND, text="not_plain_seat")
        numbers.add(number)
        if dead or mucked:
            simple = False
        cards = None
        raw = row.cards
        if raw is not None:
            cards = tuple(map(card_ids.__getitem__, raw))
            if len(cards) != cards_in_play:
                _check_seat_cards(number, cards, folded, game, streets)
            seen += cards
        if not folded and not mucked:
            anyone_in = True
        seats.append(
            new_seat(
                Seat,
                (
                    number,
                    row.player,
                    stack,
                    row.present,
                    put_in,
                    folded,
                    cards,
                    dead,
                    straddle,
                    mucked,
                ),
            )
        )
    return tuple(seats), numbers, simple, anyone_in
