"""The chart of accounts as pure values: each account's code, and what it is.

A posting plan (:mod:`accounting.domain.postings`) names accounts by code; the
ledger's edge (:func:`accounting.services.legs_resolve`) finds or opens them. Each
function here returns a code; :func:`spec_of` reads a code back into the account it
names (its type, its name, whether the database keeps it non-negative), so the
edge can open an account the first time a plan moves it. How chips and cash are
booked is told in :mod:`accounting.chart`.

>>> player_stack_code(player="P-1", table="T01")
'player:P-1:table:T01'
>>> spec_of("player:P-1:table:T01").non_negative
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

ASSET, LIABILITY, EQUITY, REVENUE, EXPENSE = (
    "asset",
    "liability",
    "equity",
    "revenue",
    "expense",
)

CHIP_FLOAT = "equity:chip_float"
HOUSE_CAPITAL = "equity:house_capital"
RAKE_REVENUE = "revenue:rake"
TIME_REVENUE = "revenue:time"
JACKPOT_DROPS = "jackpot:drops"
AWARDS_PAYABLE = "liability:awards_payable"
AWARDS_FORFEITED = "liability:awards_forfeited"
ESCROW = "liability:escrow"
OVER_SHORT = "expense:over_short"
PROMOTIONS_EXPENSE = "expense:promotions"


class AccountSpec(NamedTuple):
    """What an account is: enough to open it (``accounting.models.Account``)."""

    code: str
    name: str
    type: str
    non_negative: bool
    summed: bool


def cage_cash_code(*, cage: str) -> str:
    return f"cage:{cage}:cash"


def cage_chips_code(*, cage: str) -> str:
    return f"cage:{cage}:chips"


def drawer_cash_code(*, cage: str, shift: int) -> str:
    return f"cage:{cage}:shift:{shift}:cash"


def drawer_chips_code(*, cage: str, shift: int) -> str:
    return f"cage:{cage}:shift:{shift}:chips"


def table_tray_code(*, table: str) -> str:
    return f"table:{table}:tray"


def table_drop_box_code(*, table: str) -> str:
    return f"table:{table}:drop_box"


def table_rake_box_code(*, table: str) -> str:
    return f"table:{table}:rake_box"


def table_jackpot_box_code(*, table: str) -> str:
    return f"table:{table}:jackpot_box"


def table_suspense_code(*, table: str) -> str:
    return f"table:{table}:suspense"


def player_chips_code(*, player: str) -> str:
    return f"player:{player}:chips"


def player_stack_code(*, player: str, table: str) -> str:
    return f"player:{player}:table:{table}"


def stack_review_hold_code(*, player: str, table: str) -> str:
    return f"{player_stack_code(player=player, table=table)}:review"


def custody_code(*, player: str) -> str:
    return f"player:{player}:custody"


def jackpot_pool_code(*, pool: str) -> str:
    return f"jackpot:{pool}:pool"


def jackpot_reserve_code(*, pool: str) -> str:
    return f"jackpot:{pool}:reserve"


def receivables_code(*, player: str) -> str:
    return f"receivable:{player}"


_Namer = Callable[[re.Match[str]], str]
# (pattern, type, non-negative, summed, name); the first pattern that matches wins,
# so the longer shapes of a prefix come first.
_SHAPES: tuple[tuple[re.Pattern[str], str, bool, bool, _Namer], ...] = tuple(
    (re.compile(pattern), kind, floor, summed, namer)
    for pattern, kind, floor, summed, namer in (
        (
            r"equity:chip_float",
            EQUITY,
            False,
            True,
            lambda m: "Chip float (house chips at face value)",
        ),
        (r"equity:house_capital", EQUITY, False, True, lambda m: "House capital"),
        (r"revenue:rake", REVENUE, False, True, lambda m: "Rake revenue"),
        (r"revenue:time", REVENUE, False, True, lambda m: "Time collection revenue"),
        (r"jackpot:drops", LIABILITY, True, True, lambda m: "Jackpot drops"),
        (
            r"liability:awards_payable",
            LIABILITY,
            True,
            False,
            lambda m: "Awards payable",
        ),
        (
            r"liability:awards_forfeited",
            LIABILITY,
            True,
            False,
            lambda m: "Forfeited awards of restricted players (PP6)",
        ),
        (r"liability:escrow", LIABILITY, True, False, lambda m: "Held pots (escrow)"),
        (r"expense:over_short", EXPENSE, False, True, lambda m: "Over/short"),
        (
            r"expense:promotions",
            EXPENSE,
            False,
            True,
            lambda m: "Promotions paid by the house",
        ),
        (
            r"cage:(?P<cage>.+):shift:(?P<shift>\d+):cash",
            ASSET,
            True,
            False,
            lambda m: f"Cage {m['cage']} shift {m['shift']} drawer cash",
        ),
        (
            r"cage:(?P<cage>.+):shift:(?P<shift>\d+):chips",
            ASSET,
            True,
            False,
            lambda m: f"Cage {m['cage']} shift {m['shift']} drawer chips",
        ),
        (
            r"cage:(?P<cage>.+):cash",
            ASSET,
            True,
            False,
            lambda m: f"Cage {m['cage']} cash",
        ),
        (
            r"cage:(?P<cage>.+):chips",
            ASSET,
            True,
            False,
            lambda m: f"Cage {m['cage']} chips",
        ),
        (r"table:(?P<t>.+):tray", ASSET, True, False, lambda m: f"Table {m['t']} tray"),
        (
            r"table:(?P<t>.+):drop_box",
            ASSET,
            True,
            False,
            lambda m: f"Table {m['t']} drop box",
        ),
        (
            r"table:(?P<t>.+):rake_box",
            ASSET,
            True,
            False,
            lambda m: f"Table {m['t']} rake box",
        ),
        (
            r"table:(?P<t>.+):jackpot_box",
            ASSET,
            True,
            False,
            lambda m: f"Table {m['t']} jackpot box",
        ),
        (
            r"table:(?P<t>.+):suspense",
            ASSET,
            False,
            True,
            lambda m: f"Table {m['t']} chip differences",
        ),
        (
            r"player:(?P<p>.+):table:(?P<t>.+):review",
            LIABILITY,
            True,
            False,
            lambda m: f"Player {m['p']} chips at {m['t']} frozen for review",
        ),
        (
            r"player:(?P<p>.+):table:(?P<t>.+)",
            LIABILITY,
            True,
            False,
            lambda m: f"Player {m['p']} stack at {m['t']}",
        ),
        (
            r"player:(?P<p>.+):custody",
            LIABILITY,
            True,
            False,
            lambda m: f"Player {m['p']} chips in cage custody",
        ),
        (
            r"player:(?P<p>.+):chips",
            LIABILITY,
            True,
            False,
            lambda m: f"Player {m['p']} chips",
        ),
        (
            r"jackpot:(?P<pool>.+):reserve",
            LIABILITY,
            True,
            False,
            lambda m: f"Jackpot {m['pool']} reserve",
        ),
        (
            r"jackpot:(?P<pool>.+):pool",
            LIABILITY,
            True,
            False,
            lambda m: f"Jackpot {m['pool']}",
        ),
        (
            r"receivable:(?P<p>.+)",
            ASSET,
            True,
            False,
            lambda m: f"Receivable from {m['p']}",
        ),
    )
)


def spec_of(code: str) -> AccountSpec:
    """Return what the account ``code`` is; ``ValueError`` for an unknown shape."""
    for pattern, kind, non_negative, summed, namer in _SHAPES:
        match = pattern.fullmatch(code)
        if match:
            return AccountSpec(code, namer(match), kind, non_negative, summed)
    raise ValueError(f"No account of the chart has the code {code!r}.")


def is_non_negative(code: str) -> bool:
    """Whether the database keeps the account ``code`` at zero or above."""
    return spec_of(code).non_negative
