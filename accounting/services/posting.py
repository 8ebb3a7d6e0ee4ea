"""The ledger's edge for posting plans: codes resolved to accounts, then posted.

A plan (:mod:`accounting.domain.postings`) names accounts by code; this module
reads them in one query, opens the ones never used
(:func:`accounting.domain.accounts.spec_of` says what each is) and posts the
transaction with :mod:`accounting.services`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings

from accounting.domain.accounts import spec_of
from accounting.domain.postings import Plan, PlanLeg
from accounting.models import Account, AccountType, Transaction
from accounting.services.ledger import Leg, account_get_or_open, transaction_post


def account_for(code: str, *, currency: str | None = None) -> Account:
    """The account ``code``, opened as the chart says if it is new."""
    spec = spec_of(code)
    return account_get_or_open(
        code=code,
        name=spec.name,
        type=AccountType(spec.type),
        currency=currency or settings.CARDROOM_CURRENCY,
        non_negative=spec.non_negative,
        summed=spec.summed,
    )


def legs_resolve(
    legs: Iterable[PlanLeg],
    *,
    currency: str | None = None,
    known: Mapping[str, Account] | None = None,
) -> list[Leg]:
    """The ledger's legs: existing accounts read in one query, new ones opened.

    Accounts the caller has read already (``known``, by code) are not read again:
    when they are all the plan names, nothing is asked of the database.
    """
    legs = list(legs)
    found = dict(known or {})
    wanted = {c for c, _ in legs} - found.keys()
    if wanted:
        found |= {a.code: a for a in Account.objects.filter(code__in=wanted)}
    accounts = {
        code: found.get(code) or account_for(code, currency=currency)
        for code, _ in legs
    }
    return [Leg(accounts[code], cents) for code, cents in legs]


def plan_post(
    plan: Plan,
    *,
    currency: str | None = None,
    known: Mapping[str, Account] | None = None,
    **kwargs: Any,
) -> Transaction:
    """Post ``plan`` as one transaction (``accounting.services.transaction_post``);
    ``known`` as in :func:`legs_resolve`."""
    legs = legs_resolve(plan.legs, currency=currency, known=known)
    return transaction_post(kind=plan.kind, legs=legs, **kwargs)
