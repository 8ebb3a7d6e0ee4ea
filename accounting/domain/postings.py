"""Posting plans: what a money move books, as legs of (account code, cents).

A plan is pure: it is computed from the request and the balances already read,
before any account row is touched. Services turn a plan into ledger rows with
:func:`accounting.services.plan_post` (which resolves the codes to accounts); no
service builds a :class:`accounting.services.Leg` itself. Amounts are debits
positive and credits negative, as in the ledger; a plan balances when its legs sum
to zero (one currency: the room's).

>>> box, float_ = "table:T01:drop_box", "equity:chip_float"
>>> move = Plan.of("buy_in", [(box, 20000), (float_, -20000)])
>>> move.balanced, move.net()["table:T01:drop_box"]
(True, 20000)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from accounting.domain.accounts import ASSET, EXPENSE, spec_of

PlanLeg = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Plan:
    """The legs of one ledger transaction of ``kind``, in the order planned."""

    kind: str
    legs: tuple[PlanLeg, ...]

    @classmethod
    def of(cls, kind: str, legs: Iterable[PlanLeg]) -> Plan:
        """A plan of the non-zero ``legs``."""
        return cls(kind, tuple((code, cents) for code, cents in legs if cents))

    @property
    def balanced(self) -> bool:
        """Whether debits equal credits."""
        return sum(cents for _code, cents in self.legs) == 0

    def net(self) -> dict[str, int]:
        """The amount each account moves, its legs summed (debit positive)."""
        net: dict[str, int] = {}
        for code, cents in self.legs:
            net[code] = net.get(code, 0) + cents
        return net

    def __add__(self, other: Plan) -> Plan:
        return Plan(self.kind, self.legs + other.legs)


def normal(code: str, cents: int) -> int:
    """``cents`` (debit positive) as a change of the balance of ``code``: assets and
    expenses grow by debits, liabilities, equity and revenue by credits."""
    return cents if spec_of(code).type in (ASSET, EXPENSE) else -cents


def overdrawn(plan: Plan, balances: Mapping[str, int]) -> list[str]:
    """The non-negative accounts that ``plan`` would take below zero from ``balances``
    (in their normal sense; an account not named holds zero)."""
    return [
        code
        for code, cents in plan.net().items()
        if spec_of(code).non_negative
        and balances.get(code, 0) + normal(code, cents) < 0
    ]
