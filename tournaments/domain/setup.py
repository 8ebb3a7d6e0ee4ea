"""Setting an event up: a blind structure, an event's money and rule settings and
its payout table, checked before anything is stored (TO1, TO7, TO8, TO12).

Pure: the services read the rows, these functions say whether they can be played
and paid, naming the row or the setting at fault.

A payout table is rows ``{"min_entries": n, "shares": [s1, s2, …]}``: from ``n``
entries on, places 1, 2, … are paid ``s1``, ``s2``, … basis points (1/100 of a
percent) of the pool (``tournaments.domain.payouts``). A table can be paid when
(TO7):

- it has a row, and the first row starts at one entry (every field size has a row);
- ``min_entries`` goes strictly up from row to row;
- each row's shares are positive, add up to exactly 10,000 and never go up from
  one place to the next (a lower place never pays more than a higher one);
- a row pays no more places than its ``min_entries``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from core.errors import Refusal, variants_refuser
from tournaments.domain.payouts import BASIS
from tournaments.errors import TEXTS, Code

MAX_LEVELS = 200
"""The most levels (breaks included) a structure holds."""

MAX_ROWS = 100
"""The most rows a payout table holds."""

MAX_PLACES = 2_000
"""The most places one row of a payout table pays."""

RESERVED_EVENT_CODES = frozenset({"structures", "events"})
"""Codes an event can't take: ``/api/v1/tournaments/structures`` and
``/api/v1/tournaments/events`` are the set-up's lists, not events."""


class SetupError(Refusal):
    """A structure, a payout table or an event's settings that can't be played."""


_refuse = variants_refuser(TEXTS, SetupError)


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """One level of a structure as a director writes it: blinds and ante for
    ``minutes``, or a break (``is_break``) that may colour up a denomination."""

    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: bool = False
    is_break: bool = False
    retire_denomination: int | None = None


def structure_check(levels: Sequence[LevelSpec]) -> None:
    """Refuse a structure the clock can't run (TO12): no level, more than
    :data:`MAX_LEVELS`, a break first, a level without a big blind or with the small
    blind above it, a break with blinds or an ante, a colour-up outside a break
    (TO6), a level of no time. Level ``n`` in the errors is the ``n``-th item.

    Raises :class:`SetupError` (TO12).
    """
    if not levels:
        raise _refuse(Code.STRUCTURE_INVALID, text="empty", rule="TO12")
    if len(levels) > MAX_LEVELS:
        raise _refuse(Code.STRUCTURE_INVALID, text="long", rule="TO12", max=MAX_LEVELS)
    if levels[0].is_break:
        raise _refuse(Code.STRUCTURE_INVALID, text="first", rule="TO12")
    for n, level in enumerate(levels, start=1):
        if level.minutes < 1:
            raise _refuse(Code.STRUCTURE_INVALID, text="minutes", rule="TO12", n=n)
        if level.is_break:
            if level.small_blind or level.big_blind or level.ante:
                raise _refuse(
                    Code.STRUCTURE_INVALID, text="break_blinds", rule="TO12", n=n
                )
            if level.big_blind_ante:
                raise _refuse(
                    Code.STRUCTURE_INVALID, text="break_blinds", rule="TO12", n=n
                )
            if level.retire_denomination is not None and level.retire_denomination < 1:
                raise _refuse(Code.STRUCTURE_INVALID, text="retire", rule="TO6", n=n)
            continue
        if level.retire_denomination is not None:
            raise _refuse(Code.STRUCTURE_INVALID, text="retire_play", rule="TO6", n=n)
        if level.big_blind < 1 or level.small_blind < 0 or level.ante < 0:
            raise _refuse(Code.STRUCTURE_INVALID, text="blinds", rule="TO12", n=n)
        if level.small_blind > level.big_blind:
            raise _refuse(Code.STRUCTURE_INVALID, text="small", rule="TO12", n=n)


def payout_table_check(
    rows: Sequence[tuple[int, Sequence[int]]],
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return ``rows`` as the payout table :func:`payouts.shares_for` reads, or
    refuse the first row that can't be paid (TO7), naming it by its position
    (1 = the first row) and saying why: see the module's docstring.

    Raises :class:`SetupError` (TO7).

    >>> payout_table_check([(1, [10_000]), (10, [5_000, 3_000, 2_000])])
    ((1, (10000,)), (10, (5000, 3000, 2000)))
    """
    if not rows:
        raise _refuse(Code.PAYOUT_TABLE_INVALID, text="rows", rule="TO7")
    if len(rows) > MAX_ROWS:
        raise _refuse(Code.PAYOUT_TABLE_INVALID, text="long", rule="TO7", max=MAX_ROWS)
    if rows[0][0] != 1:
        raise _refuse(
            Code.PAYOUT_TABLE_INVALID, text="start", rule="TO7", entries=rows[0][0]
        )
    previous = 0
    table = []
    for row, (min_entries, shares) in enumerate(rows, start=1):
        _payout_row_check(row, min_entries, shares, previous=previous)
        previous = min_entries
        table.append((min_entries, tuple(shares)))
    return tuple(table)


def _payout_row_check(
    row: int, min_entries: int, shares: Sequence[int], *, previous: int
) -> None:
    """Refuse (TO7) row ``row`` of a payout table: its ``min_entries`` not above the
    ``previous`` row's, shares that can't be paid, or more places than entries."""
    if min_entries <= previous:
        raise _refuse(
            Code.PAYOUT_TABLE_INVALID,
            text="order",
            rule="TO7",
            row=row,
            entries=min_entries,
            previous=previous,
        )
    _payout_shares_check(row, shares)
    if len(shares) > min_entries:
        raise _refuse(
            Code.PAYOUT_TABLE_INVALID,
            text="places",
            rule="TO7",
            row=row,
            places=len(shares),
            entries=min_entries,
        )


def _payout_shares_check(row: int, shares: Sequence[int]) -> None:
    """Refuse (TO7) one row's shares unless they are positive, at most
    :data:`MAX_PLACES`, add up to :data:`BASIS` and never go up from one place to
    the next."""
    if not shares:
        raise _refuse(Code.PAYOUT_TABLE_INVALID, text="empty", rule="TO7", row=row)
    if len(shares) > MAX_PLACES:
        raise _refuse(
            Code.PAYOUT_TABLE_INVALID,
            text="many",
            rule="TO7",
            row=row,
            max=MAX_PLACES,
        )
    for place, share in enumerate(shares, start=1):
        if share < 1:
            raise _refuse(
                Code.PAYOUT_TABLE_INVALID,
                text="positive",
                rule="TO7",
                row=row,
                place=place,
            )
    if sum(shares) != BASIS:
        raise _refuse(
            Code.PAYOUT_TABLE_INVALID,
            text="basis",
            rule="TO7",
            allowed={"sum": BASIS},
            row=row,
            sum=sum(shares),
            basis=BASIS,
        )
    for place, (higher, lower) in enumerate(pairwise(shares), start=2):
        if lower > higher:
            raise _refuse(
                Code.PAYOUT_TABLE_INVALID,
                text="lower",
                rule="TO7",
                row=row,
                place=place,
            )


# An event's settings, by the model's names; what may change when (TO1, TO7).
PRICE_FIELDS = frozenset(
    {
        "buy_in_cents",
        "fee_cents",
        "staff_fee_cents",
        "bounty_kind",
        "bounty_cents",
        "starting_stack",
    }
)
"""What an entry costs and gives (TO1, TO2, TO8): fixed once an entry is sold."""

UNTIL_THE_SHEET = frozenset(
    {
        "name",
        "payout_unit_cents",
        "payout_remainder",
        "tax_document_threshold_cents",
    }
)
"""What may still change after the start, until the payout sheet is prepared: the
event's name and how its prizes are rounded and paid (TO7, TO9). Everything else
(prices, chips, the structure and the start, late registration, re-entries,
rebuys, the add-on, the guarantee, the satellite's target) is what the players
entered under, and announced terms bind (TO1, TDA R29)."""


def settings_locked(
    changed: set[str], *, started: bool, sold: bool, sheet: bool
) -> list[str]:
    """The settings in ``changed`` that can't change now, sorted: none once the
    payout sheet exists, only :data:`UNTIL_THE_SHEET` after the start, no
    :data:`PRICE_FIELDS` once an entry is sold (TO1, TO7).

    >>> settings_locked({"name", "fee_cents"}, started=False, sold=True, sheet=False)
    ['fee_cents']
    >>> settings_locked({"name", "guarantee_cents"}, started=True, sold=1, sheet=0)
    ['guarantee_cents']
    """
    if sheet:
        return sorted(changed)
    if started:
        return sorted(changed - UNTIL_THE_SHEET)
    if sold:
        return sorted(changed & PRICE_FIELDS)
    return []


def settings_check(settings: Mapping[str, Any], *, levels: int) -> None:
    """Refuse an event's settings that can't be played (TO1, TO7, TO8) with a
    structure of ``levels`` levels: bounties without an amount or an amount without
    bounties (TO8); rebuys without chips or a period, or rebuy terms in a freezeout;
    an add-on without chips, or add-on terms without its level; late registration,
    rebuys or the add-on past the last level (TO1).

    ``settings`` holds the model's field names (``buy_in_cents`` …).

    Raises :class:`SetupError`.
    """
    s = settings
    if (s["bounty_kind"] == "none") != (s["bounty_cents"] == 0):
        raise _refuse(Code.SETTINGS_INVALID, text="bounty", rule="TO8")
    if s["late_registration_level"] > levels:
        raise _refuse(
            Code.SETTINGS_INVALID,
            text="late",
            rule="TO1",
            level=s["late_registration_level"],
            levels=levels,
        )
    if s["rebuy_max"]:
        if s["rebuy_chips"] < 1 or s["rebuy_until_level"] < 1:
            raise _refuse(Code.SETTINGS_INVALID, text="rebuy", rule="TO1")
        if s["rebuy_until_level"] > levels:
            raise _refuse(
                Code.SETTINGS_INVALID,
                text="rebuy_level",
                rule="TO1",
                level=s["rebuy_until_level"],
                levels=levels,
            )
    elif (
        s["rebuy_cents"]
        or s["rebuy_fee_cents"]
        or s["rebuy_chips"]
        or s["rebuy_until_level"]
        or s["rebuy_stack_limit"]
    ):
        raise _refuse(Code.SETTINGS_INVALID, text="freezeout", rule="TO1")
    if s["addon_level"] is not None:
        if s["addon_chips"] < 1:
            raise _refuse(Code.SETTINGS_INVALID, text="addon", rule="TO1")
        if not 1 <= s["addon_level"] <= levels:
            raise _refuse(
                Code.SETTINGS_INVALID,
                text="addon_level",
                rule="TO1",
                level=s["addon_level"],
                levels=levels,
            )
    elif s["addon_cents"] or s["addon_fee_cents"] or s["addon_chips"]:
        raise _refuse(Code.SETTINGS_INVALID, text="no_addon", rule="TO1")


__all__ = [
    "MAX_LEVELS",
    "MAX_PLACES",
    "MAX_ROWS",
    "PRICE_FIELDS",
    "RESERVED_EVENT_CODES",
    "UNTIL_THE_SHEET",
    "LevelSpec",
    "SetupError",
    "payout_table_check",
    "settings_check",
    "settings_locked",
    "structure_check",
]
