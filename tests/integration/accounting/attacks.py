"""What the attack tests share: the books they attack, their fingerprint, and a way
to run statements as one of the database's roles."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from django.contrib.auth.models import User

from accounting.models import AccountType, Payable, Player
from accounting.services import Leg, account_get_or_open, transaction_post
from tests.roles import SUPERUSER, Roles

AT = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)  # gaming day 2026-11-27, Helsinki
DAY = AT.date()

FINGERPRINT = """
SELECT (SELECT count(*) FROM accounting_entry),
       (SELECT md5(coalesce(string_agg(e::text, ',' ORDER BY e.id), ''))
          FROM accounting_entry e),
       (SELECT count(*) FROM accounting_transaction),
       (SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t.id), ''))
          FROM accounting_transaction t),
       (SELECT md5(coalesce(string_agg(a.code || '=' || a.balance_cents, ','
                                       ORDER BY a.id), ''))
          FROM accounting_account a),
       (SELECT md5(coalesce(string_agg(p::text, ',' ORDER BY p.id), ''))
          FROM accounting_payable p)
"""


def books() -> dict[str, Any]:
    """A float in the cage, chips a player bought, and an award paid to him."""
    eur = {"currency": "EUR"}
    accounts = {
        "cash": account_get_or_open(
            code="cage:MAIN:cash",
            name="Cage cash",
            type=AccountType.ASSET,
            non_negative=True,
            **eur,
        ),
        "chips": account_get_or_open(
            code="player:P-1:chips",
            name="P-1 chips",
            type=AccountType.LIABILITY,
            non_negative=True,
            **eur,
        ),
        "rake": account_get_or_open(
            code="revenue:rake", name="Rake", type=AccountType.REVENUE, **eur
        ),
        "float": account_get_or_open(
            code="equity:float", name="Float", type=AccountType.EQUITY, **eur
        ),
    }
    funded = transaction_post(
        kind="float",
        legs=[Leg(accounts["cash"], 10_000), Leg(accounts["float"], -10_000)],
        source="test",
        posted_at=AT,
    )
    bought = transaction_post(
        kind="chip_purchase",
        legs=[Leg(accounts["cash"], 5_000), Leg(accounts["chips"], -5_000)],
        source="test",
        posted_at=AT + timedelta(minutes=5),
    )
    player = Player.objects.create(code="P-1", name="Pat")
    approver = User.objects.create_user("mia", is_staff=True)
    award = Payable.objects.create(
        player=player,
        amount_cents=2_500,
        reference="bad beat hit 1",
        approved_by=approver,
    )
    Payable.objects.filter(pk=award.pk).update(status="paid", paid_at=AT)
    return {**accounts, "funded": funded, "bought": bought, "award": award}


def fingerprint(roles: Roles) -> tuple[Any, ...]:
    """Every entry, transaction, balance and payable, as the superuser reads them."""
    with roles.connect(SUPERUSER) as conn:
        row = conn.execute(FINGERPRINT).fetchone()
    assert row is not None
    return tuple(row)


def attack(roles: Roles, who: str, *statements: str) -> psycopg.Error | None:
    """Run ``statements`` as ``who`` in one transaction and commit; the error, if
    PostgreSQL refused."""
    try:
        with roles.connect(who) as conn:
            for statement in statements:
                conn.execute(statement)
    except psycopg.Error as error:
        return error
    return None


def refused(roles: Roles, who: str, *statements: str, match: str) -> None:
    """The attack is refused with a message ``match`` (a pattern) finds; nothing
    changed."""
    before = fingerprint(roles)
    error = attack(roles, who, *statements)
    assert error is not None, "the attack went through"
    assert re.search(match, str(error), re.IGNORECASE), str(error)
    assert fingerprint(roles) == before
