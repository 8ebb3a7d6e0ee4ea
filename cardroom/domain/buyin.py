"""Buy-in decisions: how much a player may sit down with or add (RULES.md BI, WL6).

Pure functions over what the floor knows of a player's night: where he sits, what he
bought in for, and the stacks he left tables with. The services turn rows into these
values and book what is decided; every refusal names its rule and the amounts allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum

from cardroom.errors import BELOW_AS_LEFT, BELOW_BUT_SHORT, TEXTS, Code
from core.errors import Refusal

BI6_WINDOW = timedelta(minutes=60)


class Structure(StrEnum):
    NO_LIMIT = "NL"
    POT_LIMIT = "PL"
    LIMIT = "L"


STRUCTURE_OF_GAME: dict[str, Structure] = {
    "NLHE": Structure.NO_LIMIT,
    "PLHE": Structure.POT_LIMIT,
    "LHE": Structure.LIMIT,
    "PLO": Structure.POT_LIMIT,
    "PLO5": Structure.POT_LIMIT,
    "COURCHEVEL": Structure.POT_LIMIT,
    "PLO8": Structure.POT_LIMIT,
    "STUD": Structure.LIMIT,
    "PLSTUD": Structure.POT_LIMIT,
    "STUD8": Structure.LIMIT,
    "RAZZ": Structure.LIMIT,
    "SOKO": Structure.POT_LIMIT,
}


class Kind(StrEnum):
    """How a player came to his stack (API.md ``POST seats`` answer)."""

    BUY_IN = "buy_in"
    SHORT_BUY_IN = "short_buy_in"
    RETURN = "return"
    TRANSFER = "transfer"
    TOP_UP = "top_up"


class BuyInRefused(Refusal, ValueError):
    """A buy-in, seat or top-up a house rule refuses, with what was allowed (BI11)."""

    def __init__(
        self,
        code: str,
        rule: str,
        detail: str,
        allowed: dict[str, int | None],
        **params: object,
    ) -> None:
        super().__init__(
            code, detail, rule=rule, allowed=dict(allowed), params=params or None
        )


@dataclass(frozen=True, slots=True)
class Stakes:
    """A table's game and limits (BI1). ``max_buy_in`` None: no maximum."""

    game: str
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int | None

    @property
    def structure(self) -> Structure:
        return STRUCTURE_OF_GAME[self.game]

    def same_game(self, other: Stakes) -> bool:
        """Return whether both are the same game at the same stakes (BI6)."""
        return (self.game, self.small_blind, self.big_blind) == (
            other.game,
            other.small_blind,
            other.big_blind,
        )


def default_min_buy_in(structure: Structure, big_blind: int) -> int | None:
    """Return BI1's default minimum for limit games: ten maximum bets.

    The big bet of a limit game is two big blinds. Other structures have no default.
    """
    return 10 * 2 * big_blind if structure is Structure.LIMIT else None


@dataclass(frozen=True, slots=True)
class Departure:
    """A time the player left a table, and the stack he took with him."""

    table: str
    stakes: Stakes
    stack: int
    left_at: datetime
    gaming_day: date


@dataclass(frozen=True, slots=True)
class PlayerNight:
    """What the floor knows of a player on the gaming day of the request.

    ``departures`` are his departures of this gaming day and of the last 60 minutes
    before it (BI6 crosses the day boundary), latest last.
    """

    gaming_day: date
    seated_at: str | None = None
    buy_ins_today: int = 0
    short_buy_in_used: bool = False
    departures: tuple[Departure, ...] = field(default_factory=tuple)

    def departures_today(self) -> tuple[Departure, ...]:
        """Return the departures of this gaming day, latest last (BI5, BI8)."""
        today = [d for d in self.departures if d.gaming_day == self.gaming_day]
        return tuple(sorted(today, key=lambda d: d.left_at))

    def last_departure_today(self) -> Departure | None:
        today = self.departures_today()
        return today[-1] if today else None


@dataclass(frozen=True, slots=True)
class Allowance:
    """The amounts a player may sit with: ``[min, max]``, or a short buy-in."""

    kind: Kind
    min: int
    max: int | None
    min_rule: str
    max_rule: str
    short_min: int | None = None
    pot_limit: bool = False
    left: tuple[str, int] | None = None  # BI5: the table and stack that bind

    def as_allowed(self) -> dict[str, int | None]:
        allowed: dict[str, int | None] = {"min": self.min, "max": self.max}
        if self.short_min is not None:
            allowed["short_min"] = self.short_min
        return allowed


def _short_allowed(stakes: Stakes, night: PlayerNight) -> int | None:
    """Return the short buy-in's minimum if BI4 allows one now, else None.

    BI4: pot-limit games only, once per gaming day, never the first buy-in of the
    day, at least half the minimum (rounded up to a whole cent).
    """
    if stakes.structure is not Structure.POT_LIMIT:
        return None
    if night.buy_ins_today == 0 or night.short_buy_in_used:
        return None
    return -(-stakes.min_buy_in // 2)


@dataclass(frozen=True, slots=True)
class OneStack:
    """What BI5 asks of a player sitting down: ``min`` and the departure behind it.

    ``kind`` is how he comes to his stack (``return``, ``transfer`` or ``buy_in``);
    ``rule`` is ``BI5`` when a departure of the night binds him, else ``BI1``.
    """

    kind: Kind
    min: int
    rule: str
    binding: Departure | None = None


def _game_key(stakes: Stakes) -> tuple[Structure, int, int]:
    """A game for BI5: its betting structure and its stakes."""
    return (stakes.structure, stakes.small_blind, stakes.big_blind)


def _bi5_minimum(dep: Departure, *, stakes: Stakes) -> int | None:
    """Return what ``dep`` asks of a buy-in at ``stakes`` (BI5 b–e), None for (d).

    (b) the same structure and stakes, and (e) moving up: the whole stack; (c)
    moving down: the whole stack, but not more than the new table's maximum; (d)
    another structure asks for nothing above the minimum.
    """
    if dep.stakes.structure is not stakes.structure:
        return None  # (d)
    if stakes.big_blind < dep.stakes.big_blind:
        top = stakes.max_buy_in
        return dep.stack if top is None else min(dep.stack, top)  # (c)
    return dep.stack  # (b), (e)


def one_night_one_stack(
    *, table: str, stakes: Stakes, departures: tuple[Departure, ...], gaming_day: date
) -> OneStack:
    """Decide the least a player may sit down with at ``table`` under BI5.

    Every departure of the gaming day counts, not only the last one: per game
    (betting structure and stakes) the stack he last left a table of that game with
    is the stack he has in it, and each game's stack binds him where he sits down
    again: (a) at the same table he continues with it, (b) at another table of the
    game he brings it whole, (c) moving down in the same structure he brings it,
    but not more than the new maximum, (e) moving up he brings it whole; (d) in
    another structure the minimum is enough. A later departure from the same game
    supersedes an earlier one: he brought that stack there and played it. Always
    at least the table minimum (BI1). Departures of other gaming days don't count
    (BI8; BI6 has its own hour across the cut-off).
    """
    tmin = stakes.min_buy_in
    latest: dict[tuple[Structure, int, int], Departure] = {}
    for dep in sorted(departures, key=lambda d: d.left_at):
        if dep.gaming_day == gaming_day:
            latest[_game_key(dep.stakes)] = dep
    here = _game_key(stakes)
    kind, least, rule, binding = Kind.BUY_IN, tmin, "BI1", None
    for key, dep in latest.items():
        if dep.stack <= 0:
            continue  # he ran out in that game: nothing carried from it
        if key == here and dep.table == table:
            kind = Kind.RETURN  # (a)
        elif kind is Kind.BUY_IN:
            kind = Kind.TRANSFER
        need = _bi5_minimum(dep, stakes=stakes)
        if need is None:
            continue
        if rule == "BI1" or max(need, tmin) > least:
            least, rule, binding = max(need, tmin), "BI5", dep
    return OneStack(kind, least, rule, binding)


def seat_allowance(
    *,
    table: str,
    stakes: Stakes,
    night: PlayerNight,
    now: datetime,
    house_move_stack: int | None = None,
) -> Allowance:
    """Decide what a player may sit down with at ``table``.

    Applies WL6 (one seat at a time), BI7 (a house move keeps the stack), BI5 a–e
    (one night, one stack), BI6 (back in the same game within 60 minutes), BI4 (the
    short buy-in) and BI1 (the table's minimum and maximum).

    Raises :class:`BuyInRefused` (WL6) when the player is seated elsewhere.
    """
    if night.seated_at is not None:
        raise BuyInRefused(
            Code.ALREADY_SEATED,
            "WL6",
            TEXTS[Code.ALREADY_SEATED],
            {"min": None, "max": None},
            table=night.seated_at,
        )
    tmin, tmax = stakes.min_buy_in, stakes.max_buy_in
    if house_move_stack is not None:
        # BI7: the house moved him; he keeps his stack even below the minimum.
        top = house_move_stack if tmax is None else max(house_move_stack, tmax)
        return Allowance(Kind.TRANSFER, house_move_stack, top, "BI7", "BI7")
    pot_limit = stakes.structure is Structure.POT_LIMIT

    bi5 = one_night_one_stack(
        table=table,
        stakes=stakes,
        departures=night.departures,
        gaming_day=night.gaming_day,
    )
    kind, lo, hi, lo_rule, hi_rule = bi5.kind, bi5.min, tmax, bi5.rule, "BI1"
    if hi is not None and lo > hi:
        hi, hi_rule = lo, lo_rule

    for dep in night.departures:
        if (
            dep.stakes.same_game(stakes)
            and now - dep.left_at <= BI6_WINDOW
            and dep.stack > lo
        ):
            lo, lo_rule = dep.stack, "BI6"
            if hi is not None and lo > hi:
                hi, hi_rule = lo, "BI6"

    last = night.last_departure_today()
    ran_out = last is not None and last.stack == 0
    short = _short_allowed(stakes, night) if ran_out and lo == tmin else None
    left = None
    if lo_rule == "BI5" and bi5.binding is not None:
        left = (bi5.binding.table, bi5.binding.stack)
    return Allowance(kind, lo, hi, lo_rule, hi_rule, short, pot_limit, left)


def top_up_allowance(*, stack: int, stakes: Stakes, night: PlayerNight) -> Allowance:
    """Decide what a seated player with ``stack`` may add between hands (BI2, BI4).

    With at least one big blind in front of him he may add any amount up to the
    maximum. With less (or nothing: he has run out) he buys as a new player: up to a
    stack of at least the minimum, or a short buy-in where BI4 allows it.
    """
    tmin, tmax = stakes.min_buy_in, stakes.max_buy_in
    pot_limit = stakes.structure is Structure.POT_LIMIT
    room = None if tmax is None else max(tmax - stack, 0)
    if stack >= stakes.big_blind:
        return Allowance(Kind.TOP_UP, 1, room, "BI2", "BI2", None, pot_limit)
    short = _short_allowed(stakes, night) if stack == 0 else None
    return Allowance(
        Kind.TOP_UP, max(tmin - stack, 1), room, "BI2", "BI2", short, pot_limit
    )


def decide(amount: int, allowance: Allowance) -> Kind:
    """Return the kind of ``amount`` under ``allowance``, or refuse it.

    Raises :class:`BuyInRefused` with the rule of the bound it breaks and the
    amounts allowed (BI11).
    """
    allowed = allowance.as_allowed()
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise BuyInRefused(
            Code.INVALID_AMOUNT, "BI1", TEXTS[Code.INVALID_AMOUNT], allowed
        )
    fits_max = allowance.max is None or amount <= allowance.max
    if allowance.min <= amount and fits_max:
        return allowance.kind
    short = allowance.short_min
    if short is not None and short <= amount < allowance.min and fits_max:
        return Kind.SHORT_BUY_IN
    if not fits_max:
        raise BuyInRefused(
            Code.ABOVE_MAXIMUM,
            allowance.max_rule,
            TEXTS[Code.ABOVE_MAXIMUM],
            allowed,
            amount=amount,
            maximum=allowance.max,
        )
    below = {"amount": amount, "minimum": allowance.min}
    if short is not None:
        raise BuyInRefused(
            Code.BELOW_MINIMUM, "BI4", BELOW_BUT_SHORT, allowed, short=short, **below
        )
    short_shaped = allowance.pot_limit and amount * 2 >= allowance.min
    if allowance.min_rule in ("BI1", "BI2") and short_shaped:
        raise BuyInRefused(
            Code.SHORT_BUY_IN_NOT_ALLOWED,
            "BI4",
            TEXTS[Code.SHORT_BUY_IN_NOT_ALLOWED],
            allowed,
            **below,
        )
    if allowance.left is not None:
        table, stack = allowance.left
        raise BuyInRefused(
            Code.BELOW_MINIMUM,
            allowance.min_rule,
            BELOW_AS_LEFT,
            allowed,
            table=table,
            stack=stack,
            **below,
        )
    raise BuyInRefused(
        Code.BELOW_MINIMUM,
        allowance.min_rule,
        TEXTS[Code.BELOW_MINIMUM],
        allowed,
        **below,
    )
