"""What each tournament money move books, as posting plans (TO1, TO7–TO10).

Pure: each function returns an :class:`accounting.domain.postings.Plan` whose legs
name accounts by code (the tournaments' own in :mod:`tournaments.domain.accounts`,
the rest in :mod:`accounting.domain.accounts`); the service opens and posts it.
Amounts are debits positive. A plan that takes money held in trust out of an
account is checked against the balances read (:func:`covered`) before it posts.

An entry of €100 + €10 fee + €20 bounty paid in cash at the cage:

>>> entry = purchase(event="ME1", cash="cage:C1:shift:7:cash",
...                  price=Price(10_000, 1_000, 0, 2_000, 20_000))
>>> entry.net()["tournament:ME1:prize_pool"], entry.balanced
(-10000, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from accounting.domain import accounts as room_chart
from accounting.domain.accounts import ASSET, AWARDS_PAYABLE, EXPENSE
from accounting.domain.money import ratio_split
from accounting.domain.postings import Plan
from core.errors import SharedCode
from tournaments.domain import accounts
from tournaments.errors import Code, refuse


@dataclass(frozen=True, slots=True)
class Price:
    """The parts of a purchase (TO1, TO8)."""

    prize_pool_cents: int
    fee_cents: int
    staff_fee_cents: int
    bounty_cents: int
    chips: int

    @property
    def total_cents(self) -> int:
        return (
            self.prize_pool_cents
            + self.fee_cents
            + self.staff_fee_cents
            + self.bounty_cents
        )


def _price_legs(event: str, price: Price) -> list[tuple[str, int]]:
    """Where a purchase's money goes (TO1, TO8): the buy-in to the event's prize
    pool, the fees to house revenue, the bounty to its pool. Every account has its
    leg, of zero too: it is opened with the event's first sale."""
    return [
        (accounts.prize_pool(event=event), -price.prize_pool_cents),
        (accounts.FEE_REVENUE, -price.fee_cents),
        (accounts.STAFF_FEE_REVENUE, -price.staff_fee_cents),
        (accounts.bounty_pool(event=event), -price.bounty_cents),
    ]


def purchase(*, event: str, cash: str, price: Price) -> Plan:
    """An entry, a rebuy or an add-on paid into the drawer ``cash`` (TO1, TO8)."""
    return Plan(
        "tournament_entry", ((cash, price.total_cents), *_price_legs(event, price))
    )


def refund(*, event: str, cash: str, price: Price) -> Plan:
    """A purchase reversed, its money back out of the drawer (TO10, DC2)."""
    plan = purchase(event=event, cash=cash, price=price)
    return Plan("tournament_refund", tuple((code, -cents) for code, cents in plan.legs))


def refund_parts(left: Price, amount: int) -> Price:
    """The parts of a refund of ``amount`` cents out of what is ``left`` of a
    purchase (TO10): pro rata to each part left, by the largest remainder
    (:func:`accounting.domain.money.ratio_split`), a tie going to the prize pool,
    then the fee, the staff fee, the bounty. No part exceeds what is left of it,
    and a refund of all that is left gives back every part exactly, so partial
    refunds of one purchase add up to it to the cent. No chips: the service says
    when a purchase's chips leave play.

    >>> def parts(p):
    ...     return p.prize_pool_cents, p.fee_cents, p.staff_fee_cents, p.bounty_cents
    >>> parts(refund_parts(Price(10_000, 1_000, 500, 0, 20_000), 5_750))
    (5000, 500, 250, 0)
    >>> parts(refund_parts(Price(10_000, 1_000, 0, 2_000, 0), 1))
    (1, 0, 0, 0)
    >>> parts(refund_parts(Price(3, 1, 1, 0, 0), 5))
    (3, 1, 1, 0)
    """
    if amount <= 0 or amount > left.total_cents:
        raise refuse(
            Code.REFUND_TOO_MUCH,
            rule="TO10",
            allowed={"max": left.total_cents},
            left=left.total_cents,
            amount=amount,
        )
    pool, fee, staff, bounty_ = ratio_split(
        amount,
        [
            left.prize_pool_cents,
            left.fee_cents,
            left.staff_fee_cents,
            left.bounty_cents,
        ],
    )
    return Price(pool, fee, staff, bounty_, 0)


def satellite_seat(*, satellite: str, target: str, price: Price) -> Plan:
    """A satellite's seat: its prize pool pays the target's entry, as the cage
    would book it, with no cash moving (TO7)."""
    return Plan(
        "tournament_satellite_seat",
        (
            (accounts.prize_pool(event=satellite), price.total_cents),
            *_price_legs(target, price),
        ),
    )


def overlay(*, event: str, cents: int) -> Plan:
    """The house makes the guarantee: its expense into the prize pool (TO7)."""
    return Plan(
        "tournament_overlay",
        ((accounts.OVERLAY_EXPENSE, cents), (accounts.prize_pool(event=event), -cents)),
    )


def payouts(*, event: str, payable: int, held: int) -> Plan:
    """An approved sheet: the prize pool to awards payable, held lines to the
    event's held prizes (TO7, TO9)."""
    return Plan(
        "tournament_payouts",
        (
            (accounts.prize_pool(event=event), payable + held),
            (AWARDS_PAYABLE, -payable),
            (accounts.held_prizes(event=event), -held),
        ),
    )


def release(*, event: str, cents: int) -> Plan:
    """A held prize released: held prizes to awards payable (TO9)."""
    return Plan(
        "tournament_release",
        ((accounts.held_prizes(event=event), cents), (AWARDS_PAYABLE, -cents)),
    )


def forfeit(*, event: str, cents: int, to: str | None = None) -> Plan:
    """A held prize forfeited (TO9): held prizes to the house's tournament revenue,
    or to the jackpot pool account ``to`` (held in trust for players, JD5).

    >>> forfeit(event="ME1", cents=5_000).net()
    {'tournament:ME1:held': 5000, 'revenue:tournament_fees': -5000}
    """
    return Plan(
        "tournament_forfeit",
        (
            (accounts.held_prizes(event=event), cents),
            (to or accounts.FEE_REVENUE, -cents),
        ),
    )


def bounty(*, event: str, cents: int) -> Plan:
    """A bounty won: the bounty pool to awards payable (TO8, CA6)."""
    return Plan(
        "tournament_bounty",
        ((accounts.bounty_pool(event=event), cents), (AWARDS_PAYABLE, -cents)),
    )


def _grows_by_debit(code: str) -> bool:
    spec = accounts.spec_of(code) or room_chart.spec_of(code)
    return spec.type in (ASSET, EXPENSE)


def non_negative(code: str) -> bool:
    """Whether the database keeps the account ``code`` at zero or above."""
    spec = accounts.spec_of(code) or room_chart.spec_of(code)
    return spec.non_negative


def overdrawn(plan: Plan, balances: Mapping[str, int]) -> list[str]:
    """The non-negative accounts that ``plan`` would take below zero from
    ``balances`` (in their normal sense; an account not named holds zero), as
    :func:`accounting.domain.postings.overdrawn` with the tournaments' accounts."""
    return [
        code
        for code, cents in plan.net().items()
        if non_negative(code)
        and balances.get(code, 0) + (cents if _grows_by_debit(code) else -cents) < 0
    ]


def covered(plan: Plan, balances: Mapping[str, int], *, rule: str) -> Plan:
    """``plan``, once the accounts of ``balances`` hold what it takes from them.

    Accounts whose balance wasn't read are left to the ledger. Raises
    :class:`core.errors.Refusal` (``rule``) naming the first that would go below
    zero, with what it holds.
    """
    known = {code: cents for code, cents in plan.net().items() if code in balances}
    short = overdrawn(Plan(plan.kind, tuple(known.items())), balances)
    if short:
        code = short[0]
        held = balances[code]
        raise refuse(
            SharedCode.INSUFFICIENT_FUNDS,
            rule=rule,
            allowed={"max": held},
            account=code,
            balance=held,
            amount=abs(known[code]),
        )
    return plan
