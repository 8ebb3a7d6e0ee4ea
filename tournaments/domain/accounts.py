"""The tournaments' own accounts as pure values: each one's code, and what it is.

The room's chart (:mod:`accounting.domain.accounts`) names the accounts every app
shares (drawers, awards payable); these are the ones only tournaments move, opened
on first use by :mod:`tournaments.chart`:

- each event's **prize pool**, held in trust for its players like a jackpot pool
  (TO1, JD5), its **bounty pool** (TO8) and its **held prizes** (TO9): liabilities
  the database keeps at zero or above;
- the house's **fees** and **staff fees** (revenue, TO1) and a guarantee's
  **overlay** (expense, TO7).

>>> spec_of(prize_pool(event="ME1")).non_negative
True
>>> spec_of("liability:awards_payable") is None
True
"""

from __future__ import annotations

import re

from accounting.domain.accounts import EXPENSE, LIABILITY, REVENUE, AccountSpec

FEE_REVENUE = "revenue:tournament_fees"
STAFF_FEE_REVENUE = "revenue:tournament_staff_fees"
OVERLAY_EXPENSE = "expense:tournament_overlay"


def prize_pool(*, event: str) -> str:
    return f"tournament:{event}:prize_pool"


def bounty_pool(*, event: str) -> str:
    return f"tournament:{event}:bounty_pool"


def held_prizes(*, event: str) -> str:
    return f"tournament:{event}:held"


_EVENT = re.compile(r"tournament:(?P<event>.+):(?P<what>prize_pool|bounty_pool|held)")
_EVENT_NAMES = {
    "prize_pool": "Tournament {} prize pool",
    "bounty_pool": "Tournament {} bounty pool",
    "held": "Tournament {} prizes held",
}
_HOUSE = {
    FEE_REVENUE: ("Tournament fees", REVENUE),
    STAFF_FEE_REVENUE: ("Tournament staff fees", REVENUE),
    OVERLAY_EXPENSE: ("Tournament overlay", EXPENSE),
}


def spec_of(code: str) -> AccountSpec | None:
    """What the tournaments' account ``code`` is; ``None`` for the room's chart's."""
    match = _EVENT.fullmatch(code)
    if match:
        name = _EVENT_NAMES[match["what"]].format(match["event"])
        return AccountSpec(code, name, LIABILITY, True, False)
    if code in _HOUSE:
        name, kind = _HOUSE[code]
        return AccountSpec(code, name, kind, False, True)
    return None
