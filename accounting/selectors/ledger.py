"""Reads of the ledger: balances (now or at a time) and the trial balance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import Combinable
from django.db.models.functions import Cast, Coalesce

from accounting.models import DEBIT_NORMAL, Account, BalanceSnapshot, Entry


def balance_expression() -> Combinable:
    """An account's balance in its normal sign, as a query expression: annotate
    ``values()`` reads with it (``Account.balance_cents`` gives the same on an
    instance).

    A summed account's is its stored balance plus its entries not yet folded,
    read through the partial index ``entry_summed_by_account``.
    """
    pending = (
        Entry.objects.filter(
            account=OuterRef("pk"),
            summed=True,
            epoch__gte=OuterRef("summed_through"),
        )
        .order_by()
        .values("account")
        .annotate(s=Cast(Sum("amount_cents"), BigIntegerField()))
        .values("s")
    )
    sign = Case(When(type__in=DEBIT_NORMAL, then=Value(1)), default=Value(-1))
    return F("balance_cents") + Case(
        When(summed=True, then=sign * Coalesce(Subquery(pending), Value(0))),
        default=Value(0),
        output_field=BigIntegerField(),
    )


def balances_at(*, snapshot: BalanceSnapshot) -> dict[int, int]:
    """Every account's raw balance (debits positive) from the postings dated
    before ``snapshot.at``: the stored sums plus the entries of transactions dated
    before it and written from the snapshot's horizon on (back-dated postings
    made since), read through ``transaction_by_xact``."""
    balances = {int(pk): raw for pk, raw in snapshot.balances.items()}
    late = (
        Entry.objects.filter(
            transaction__xact_id__gte=snapshot.horizon,
            transaction__posted_at__lt=snapshot.at,
        )
        .values_list("account_id")
        .annotate(s=Sum("amount_cents"))
        .order_by()
    )
    for account_id, raw in late:
        balances[account_id] = balances.get(account_id, 0) + raw
    return balances


@dataclass(frozen=True, slots=True)
class TrialBalanceLine:
    code: str
    name: str
    type: str
    currency: str
    debit_cents: int
    credit_cents: int
    balance_cents: int
    cached_balance_cents: int


@dataclass(frozen=True, slots=True)
class TrialBalance:
    lines: list[TrialBalanceLine]
    debits: dict[str, int]
    credits: dict[str, int]

    @property
    def balanced(self) -> bool:
        """Debits equal credits in every currency."""
        return self.debits == self.credits

    @property
    def cached_balances_agree(self) -> bool:
        """Each account's cached balance equals the sum of its entries."""
        return all(x.balance_cents == x.cached_balance_cents for x in self.lines)


def trial_balance(*, at: datetime | None = None) -> TrialBalance:
    """Return every account's debits, credits and balance, with totals per currency."""
    when = Q() if at is None else Q(entries__transaction__posted_at__lte=at)
    rows = Account.objects.annotate(
        debit=Sum(
            "entries__amount_cents", filter=when & Q(entries__amount_cents__gt=0)
        ),
        credit=Sum(
            "entries__amount_cents", filter=when & Q(entries__amount_cents__lt=0)
        ),
        n=Count("entries", filter=when),
    ).order_by("code")
    lines: list[Any] = []
    debits: dict[str, int] = {}
    credits: dict[str, int] = {}
    for a in rows:
        debit, credit = a.debit or 0, -(a.credit or 0)
        net = debit - credit
        lines.append(
            TrialBalanceLine(
                code=a.code,
                name=a.name,
                type=a.type,
                currency=a.currency,
                debit_cents=debit,
                credit_cents=credit,
                balance_cents=net if a.type in DEBIT_NORMAL else -net,
                cached_balance_cents=a.balance_cents,
            )
        )
        debits[a.currency] = debits.get(a.currency, 0) + debit
        credits[a.currency] = credits.get(a.currency, 0) + credit
    return TrialBalance(lines=lines, debits=debits, credits=credits)
