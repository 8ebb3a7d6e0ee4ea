"""The tournaments' accounts in the room's chart, opened on first use.

- Each event's **prize pool** is a liability held in trust for its players, like a
  jackpot pool (TO1, JD5): buy-ins, rebuys and add-ons go in; the payout sheet moves
  it to awards payable. The database refuses any entry taking it below zero.
- Each event's **bounty pool** is a liability of its own (TO8).
- Each event's **held prizes** (a disqualified or absent player's, TO9) are a
  liability until released to the cage.
- **Fees** and **staff fees** are the house's revenue (TO1); a guarantee's
  **overlay** is the house's expense (TO7).

An entry of €100 + €10 fee + €20 bounty paid in cash at the cage is then: drawer
cash +130 (asset), prize pool +100, bounty pool +20 (liabilities), fee revenue +10.
"""

from __future__ import annotations

from collections.abc import Iterable

from accounting.domain.postings import PlanLeg
from accounting.models import Account, AccountType
from accounting.services import account_get_or_open
from tournaments.domain import accounts
from tournaments.domain.accounts import FEE_REVENUE, OVERLAY_EXPENSE, STAFF_FEE_REVENUE

prize_pool_code = accounts.prize_pool
bounty_pool_code = accounts.bounty_pool
held_prizes_code = accounts.held_prizes


def _open(code: str, currency: str) -> Account:
    spec = accounts.spec_of(code)
    assert spec is not None, code
    return account_get_or_open(
        code=code,
        name=spec.name,
        type=AccountType(spec.type),
        currency=currency,
        non_negative=spec.non_negative,
    )


def opened(legs: Iterable[PlanLeg], *, currency: str) -> dict[str, Account]:
    """The tournaments' accounts that ``legs`` name, by code, opened if new and read
    as they stand (their balances too); the room's chart's accounts are left to
    :func:`accounting.services.legs_resolve`."""
    return {
        code: _open(code, currency)
        for code in dict.fromkeys(code for code, _cents in legs)
        if accounts.spec_of(code) is not None
    }


def prize_pool(*, event: str, currency: str) -> Account:
    """Liability held in trust: an event's prize pool (TO1, TO7)."""
    return _open(accounts.prize_pool(event=event), currency)


def bounty_pool(*, event: str, currency: str) -> Account:
    """Liability held in trust: an event's bounties (TO8)."""
    return _open(accounts.bounty_pool(event=event), currency)


def held_prizes(*, event: str, currency: str) -> Account:
    """Liability: prizes held for a disqualified or absent player (TO9, TDA RP-23)."""
    return _open(accounts.held_prizes(event=event), currency)


def fee_revenue(*, currency: str) -> Account:
    """Revenue: tournament entry, rebuy and add-on fees (TO1)."""
    return _open(FEE_REVENUE, currency)


def staff_fee_revenue(*, currency: str) -> Account:
    """Revenue: tournament staff fees (TO1)."""
    return _open(STAFF_FEE_REVENUE, currency)


def overlay_expense(*, currency: str) -> Account:
    """Expense: what the house adds to a prize pool to make its guarantee (TO7)."""
    return _open(OVERLAY_EXPENSE, currency)


__all__ = [
    "FEE_REVENUE",
    "OVERLAY_EXPENSE",
    "STAFF_FEE_REVENUE",
    "bounty_pool",
    "bounty_pool_code",
    "fee_revenue",
    "held_prizes",
    "held_prizes_code",
    "opened",
    "overlay_expense",
    "prize_pool",
    "prize_pool_code",
    "staff_fee_revenue",
]
