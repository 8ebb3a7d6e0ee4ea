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

from accounting.models import Account, AccountType
from accounting.services import account_get_or_open

FEE_REVENUE = "revenue:tournament_fees"
STAFF_FEE_REVENUE = "revenue:tournament_staff_fees"
OVERLAY_EXPENSE = "expense:tournament_overlay"


def prize_pool_code(*, event: str) -> str:
    return f"tournament:{event}:prize_pool"


def bounty_pool_code(*, event: str) -> str:
    return f"tournament:{event}:bounty_pool"


def held_prizes_code(*, event: str) -> str:
    return f"tournament:{event}:held"


def prize_pool(*, event: str, currency: str) -> Account:
    """Liability held in trust: an event's prize pool (TO1, TO7)."""
    return account_get_or_open(
        code=prize_pool_code(event=event),
        name=f"Tournament {event} prize pool",
        type=AccountType.LIABILITY,
        currency=currency,
        non_negative=True,
    )


def bounty_pool(*, event: str, currency: str) -> Account:
    """Liability held in trust: an event's bounties (TO8)."""
    return account_get_or_open(
        code=bounty_pool_code(event=event),
        name=f"Tournament {event} bounty pool",
        type=AccountType.LIABILITY,
        currency=currency,
        non_negative=True,
    )


def held_prizes(*, event: str, currency: str) -> Account:
    """Liability: prizes held for a disqualified or absent player (TO9, TDA RP-23)."""
    return account_get_or_open(
        code=held_prizes_code(event=event),
        name=f"Tournament {event} prizes held",
        type=AccountType.LIABILITY,
        currency=currency,
        non_negative=True,
    )


def fee_revenue(*, currency: str) -> Account:
    """Revenue: tournament entry, rebuy and add-on fees (TO1)."""
    return account_get_or_open(
        code=FEE_REVENUE,
        name="Tournament fees",
        type=AccountType.REVENUE,
        currency=currency,
    )


def staff_fee_revenue(*, currency: str) -> Account:
    """Revenue: tournament staff fees (TO1)."""
    return account_get_or_open(
        code=STAFF_FEE_REVENUE,
        name="Tournament staff fees",
        type=AccountType.REVENUE,
        currency=currency,
    )


def overlay_expense(*, currency: str) -> Account:
    """Expense: what the house adds to a prize pool to make its guarantee (TO7)."""
    return account_get_or_open(
        code=OVERLAY_EXPENSE,
        name="Tournament overlay",
        type=AccountType.EXPENSE,
        currency=currency,
    )
