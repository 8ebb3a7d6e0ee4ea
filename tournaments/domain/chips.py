"""Tournament chips: the reconciliation (TO3) and the colour-up with its race (TO6).

Chips are issued only by entries (the starting stack), rebuys and add-ons, and leave
play only for a recorded cause. At any moment chips issued − chips removed is what
must be in play; the count says what is. The reconciliation balances when they
agree.

A colour-up retires a denomination: each player's chips of it are exchanged at their
value for chips of the next denomination in whole chips; the odd chips left over are
raced, one new chip at most per player, as many chips as the odd chips together buy
in whole chips, and the rest is removed without compensation (TDA R26). No player is
raced out (TDA R26-A): one whose stack was only odd chips and who lost the race gets
one new chip all the same; that chip comes into play as a recorded cause of its own
(``race_minimum``), so the reconciliation still balances.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from core.errors import Refusal, variants_refuser
from tournaments.errors import TEXTS, Code

K = TypeVar("K", bound=Hashable)

ISSUING = ("entry", "rebuy", "addon", "race_minimum")
REMOVING = (
    "reentry_surrender",
    "disqualification",
    "absent",
    "unsold_seat",
    "colour_up",
    "race",
    "hidden",
    "penalty",
    "refund",
)


class ChipsError(Refusal):
    """Chips that can't be moved as asked (TO3, TO6)."""


_refuse = variants_refuser(TEXTS, ChipsError)


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """Chips issued by cause, removed by cause, expected in play, counted (TO3)."""

    issued: dict[str, int]
    removed: dict[str, int]
    counted: int | None

    @property
    def issued_total(self) -> int:
        return sum(self.issued.values())

    @property
    def removed_total(self) -> int:
        return sum(self.removed.values())

    @property
    def in_play(self) -> int:
        """What must be on the tables: issued − removed."""
        return self.issued_total - self.removed_total

    @property
    def difference(self) -> int | None:
        """Counted − expected; ``None`` before a count."""
        return None if self.counted is None else self.counted - self.in_play

    @property
    def balanced(self) -> bool:
        return self.difference == 0


def reconcile(
    movements: Sequence[tuple[str, int]], counted: int | None
) -> Reconciliation:
    """Sum chip movements ``(cause, chips)`` (issued positive, removed negative) by
    cause against the chips ``counted`` (TO3).

    >>> r = reconcile([("entry", 20_000), ("entry", 20_000), ("race", -75)], 39_925)
    >>> r.in_play, r.balanced
    (39925, True)
    """
    issued = dict.fromkeys(ISSUING, 0)
    removed = dict.fromkeys(REMOVING, 0)
    for cause, chips in movements:
        if cause in ISSUING:
            if chips <= 0:
                raise _refuse(
                    Code.CHIPS_REFUSED,
                    text="issues",
                    rule="TO3",
                    cause=cause,
                    chips=chips,
                )
            issued[cause] += chips
        elif cause in REMOVING:
            if chips >= 0:
                raise _refuse(
                    Code.CHIPS_REFUSED,
                    text="removes",
                    rule="TO3",
                    cause=cause,
                    chips=chips,
                )
            removed[cause] += -chips
        else:
            raise _refuse(
                Code.CHIPS_REFUSED, text="cause", rule="TO3", cause=repr(cause)
            )
    if counted is not None and counted < 0:
        raise _refuse(Code.CHIPS_REFUSED, text="count", rule="TO3")
    return Reconciliation(issued, removed, counted)


@dataclass(frozen=True, slots=True)
class TableCount:
    """Chips counted at a moment: at one table, or the whole field (``table`` "")."""

    table: str
    chips: int
    at: datetime


@dataclass(frozen=True, slots=True)
class Counted:
    """The chips counted in play, from the counts the reconciliation reads (TO3).

    ``chips`` is None when no count can be read: no count at all, or an open table
    not counted yet (its players' chips would be missing from the sum; ``uncounted``
    names those tables). ``counts`` are the counts summed; ``as_of`` the oldest.
    """

    chips: int | None
    counts: tuple[TableCount, ...]
    uncounted: tuple[str, ...]
    whole_field: bool

    @property
    def as_of(self) -> datetime | None:
        return min((c.at for c in self.counts), default=None)


def counted_in_play(
    counts: Iterable[TableCount], open_tables: Sequence[str]
) -> Counted:
    """Return the chips counted in play: the latest count of every open table,
    summed; or the latest whole-field count when it is newer than all of them (TO3).

    A table broken since its last count doesn't count: its chips went with its
    players to the tables still open, and are in their counts once those are
    counted after the move. A count of an open table taken before players moved in
    or out of it is read as it is: the difference shows until the table is counted
    again. Every open table must have been counted for the sum to stand; when one
    hasn't, the sum is not given.

    >>> from datetime import UTC, datetime
    >>> t = [datetime(2026, 11, 29, 20, m, tzinfo=UTC) for m in range(4)]
    >>> counts = [TableCount("", 99, t[0]), TableCount("TT1", 40, t[1]),
    ...           TableCount("TT2", 35, t[2]), TableCount("TT1", 45, t[3]),
    ...           TableCount("TT3", 20, t[3])]
    >>> counted_in_play(counts, ["TT1", "TT2"]).chips  # TT3 broke: not read
    80
    >>> counted_in_play(counts, ["TT1", "TT2", "TT4"]).uncounted
    ('TT4',)
    >>> later = [*counts, TableCount("", 81, datetime(2026, 11, 29, 21, tzinfo=UTC))]
    >>> counted_in_play(later, ["TT1", "TT2"]).whole_field
    True
    """
    latest: dict[str, TableCount] = {}
    for count in sorted(counts, key=lambda c: c.at):
        latest[count.table] = count
    field_count = latest.get("")
    tables = tuple(latest[t] for t in open_tables if t in latest)
    uncounted = tuple(t for t in open_tables if t not in latest)
    if field_count is not None and all(field_count.at > c.at for c in tables):
        return Counted(field_count.chips, (field_count,), (), whole_field=True)
    if not tables or uncounted:
        return Counted(None, tables, uncounted, whole_field=False)
    return Counted(sum(c.chips for c in tables), tables, (), whole_field=False)


@dataclass(frozen=True, slots=True)
class ColourUp(Generic[K]):
    """A colour-up's outcome, per player: chips before and after, and the race.

    ``removed`` is the value of the odd chips nobody won (TO3 ``race``); ``added``
    the value of the chips given to players the race left with nothing (TDA R26-A,
    TO3 ``race_minimum``); at most one of them is not zero.
    """

    before: dict[K, int]
    after: dict[K, int]
    exchanged: dict[K, int]
    odd: dict[K, int]
    race_winners: list[K] = field(default_factory=list)
    removed: int = 0
    granted: list[K] = field(default_factory=list)
    added: int = 0

    @property
    def conserved(self) -> bool:
        """Chips after + removed == chips before + added (TO3, TO6)."""
        return sum(self.after.values()) + self.removed == (
            sum(self.before.values()) + self.added
        )


def colour_up(
    stacks: Mapping[K, int],
    retired: Mapping[K, int],
    *,
    denomination: int,
    new_denomination: int,
    race_order: Sequence[K],
) -> ColourUp[K]:
    """Colour up ``denomination`` into ``new_denomination`` at one table (TO6).

    ``stacks`` are the players' whole stacks (in chips' value), ``retired`` how many
    chips of the retired denomination each holds, ``race_order`` the order the race's
    cards give (highest card first; every player with odd chips in it). Returns each
    player's stack after, the race's winners and the value removed.

    The race follows the cards: the odd chips together buy ``n`` new chips, and the
    first ``n`` players of ``race_order`` win one each; the rest of the odd chips is
    removed (TDA R26). No player is raced out (TDA R26-A): one whose stack was only
    odd chips and who won nothing is given one new chip all the same, the value of
    chips that adds is ``added`` (and nothing is then removed).

    >>> stacks, retired = {"a": 1_100, "b": 2_050, "c": 75}, {"a": 3, "b": 2, "c": 3}
    >>> up = colour_up(stacks, retired, denomination=25, new_denomination=100,
    ...                race_order=["b", "a", "c"])
    >>> up.after, up.race_winners, up.granted, up.removed, up.added
    ({'a': 1125, 'b': 2100, 'c': 100}, ['b', 'a'], ['c'], 0, 100)
    >>> up = colour_up({"a": 1_075, "b": 50}, {"a": 3, "b": 2}, denomination=25,
    ...                new_denomination=100, race_order=["a", "b"])
    >>> up.after, up.race_winners, up.granted, up.removed, up.added
    ({'a': 1100, 'b': 100}, ['a'], ['b'], 0, 75)
    """
    _colour_up_check(
        stacks, retired, denomination=denomination, new_denomination=new_denomination
    )
    exchanged, odd = _exchange(
        stacks, retired, denomination=denomination, new_denomination=new_denomination
    )
    winners, granted = _race(stacks, odd, new_denomination, race_order)
    after = {
        k: stacks[k]
        - odd[k]
        + (new_denomination if k in winners or k in granted else 0)
        for k in stacks
    }
    net = sum(odd.values()) - (len(winners) + len(granted)) * new_denomination
    return ColourUp(
        before=dict(stacks),
        after=after,
        exchanged=exchanged,
        odd=odd,
        race_winners=winners,
        removed=max(net, 0),
        granted=granted,
        added=max(-net, 0),
    )


def _colour_up_check(
    stacks: Mapping[K, int],
    retired: Mapping[K, int],
    *,
    denomination: int,
    new_denomination: int,
) -> None:
    """Refuse (TO6) a colour-up that can't be made before anything is computed: a
    new denomination not larger than the retired one or not a multiple of it, or
    retired chips a player doesn't hold."""
    if denomination < 1 or new_denomination <= denomination:
        raise _refuse(Code.CHIPS_REFUSED, text="larger", rule="TO6")
    if new_denomination % denomination:
        raise _refuse(Code.CHIPS_REFUSED, text="multiple", rule="TO6")
    for key, count in retired.items():
        if key not in stacks:
            raise _refuse(
                Code.CHIPS_REFUSED, text="no_stack", rule="TO6", key=repr(key)
            )
        if count < 0 or count * denomination > stacks[key]:
            raise _refuse(
                Code.CHIPS_REFUSED,
                text="hold",
                rule="TO6",
                key=repr(key),
                count=count,
                denomination=denomination,
            )


def _exchange(
    stacks: Mapping[K, int],
    retired: Mapping[K, int],
    *,
    denomination: int,
    new_denomination: int,
) -> tuple[dict[K, int], dict[K, int]]:
    """Each player's retired chips split into the value exchanged in whole new
    chips and the odd value left over for the race (TDA R26)."""
    exchanged: dict[K, int] = {}
    odd: dict[K, int] = {}
    for key in stacks:
        value = retired.get(key, 0) * denomination
        exchanged[key] = value - value % new_denomination
        odd[key] = value % new_denomination
    return exchanged, odd


def _race(
    stacks: Mapping[K, int],
    odd: Mapping[K, int],
    new_denomination: int,
    race_order: Sequence[K],
) -> tuple[list[K], list[K]]:
    """The race's winners and the players given a chip so as not to be raced out
    (TDA R26, R26-A); refuses (TO6) an order that isn't exactly the players with
    odd chips."""
    racing = [k for k in stacks if odd[k]]
    if sorted(map(repr, racing)) != sorted(map(repr, set(race_order))) or len(
        race_order
    ) != len(racing):
        raise _refuse(Code.CHIPS_REFUSED, text="race", rule="TO6")
    to_race = min(sum(odd.values()) // new_denomination, len(racing))
    winners = list(race_order[:to_race])
    # TDA R26-A: a player left with nothing by the race gets one chip anyway.
    granted = [k for k in race_order[to_race:] if stacks[k] == odd[k]]
    return winners, granted


RANKS = "23456789TJQKA"
SUITS = "cdhs"
"""In a chip race a tie of ranks goes by suit: spades, hearts, diamonds, clubs
(TDA R26, reverse alphabetical order)."""


def race_order(cards: Mapping[K, str]) -> list[K]:
    """The race's order from the card each player drew (TO6, TDA R26): the highest
    card first, a tie of ranks broken by suit (spades, hearts, diamonds, clubs).

    >>> race_order({"1": "Kd", "4": "As", "6": "Ks"})
    ['4', '6', '1']

    Raises :class:`ChipsError` (TO6) for a card that isn't one, or a card drawn
    twice.
    """
    if any(
        not isinstance(c, str) or len(c) != 2 or c[0] not in RANKS or c[1] not in SUITS
        for c in cards.values()
    ) or len(set(cards.values())) != len(cards):
        raise _refuse(Code.RACE_CARDS, rule="TO6")
    return sorted(
        cards,
        key=lambda k: (-RANKS.index(cards[k][0]), -SUITS.index(cards[k][1])),
    )


def race_draw(players: Sequence[K], *, seed: int) -> dict[K, str]:
    """One card for each of ``players`` from a deck shuffled by ``seed``, dealt in
    their order (TO6): a draw anyone can repeat from the seed recorded.

    >>> race_draw(["a", "b"], seed=7) == race_draw(["a", "b"], seed=7)
    True
    """
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    random.Random(seed).shuffle(deck)
    if len(players) > len(deck):
        raise _refuse(Code.RACE_CARDS, rule="TO6")
    return dict(zip(players, deck, strict=False))
