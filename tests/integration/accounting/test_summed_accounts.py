"""Summed house accounts: no row lock per entry, balances that are still exact, and
floors that still hold under concurrent transactions (migration 0011).

The races commit for real and use connections of their own, as the app's role:
two database transactions race to spend the same money, one waits for the other's
row lock, and the database alone decides. The rest run in the test's transaction,
by raw SQL where the point is what the database does with it.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction

from accounting.models import Account, AccountType, BalanceFold, Entry
from accounting.selectors import balance_expression
from accounting.services import (
    Leg,
    account_get_or_open,
    balances_fold,
    snapshot_at,
    transaction_post,
)
from tests import roles as db_roles
from tests.integration.cage.helpers import account_balance
from tests.roles import APP, SUPERUSER, Roles

COMMITTED = pytest.mark.django_db(transaction=True)


@pytest.fixture
def roles(django_db_setup) -> Roles:
    found = db_roles.current()
    if found is None:
        pytest.skip("the database server gives no superuser to make the roles with")
    return found


@pytest.fixture
def house(db) -> dict[str, Account]:
    eur = {"currency": "EUR"}
    return {
        "rake": account_get_or_open(
            code="revenue:rake", name="Rake", type=AccountType.REVENUE, **eur
        ),
        "float": account_get_or_open(
            code="equity:float", name="Float", type=AccountType.EQUITY, **eur
        ),
        "box": account_get_or_open(
            code="table:T01:rake_box",
            name="Rake box",
            type=AccountType.ASSET,
            non_negative=True,
            **eur,
        ),
        # A floor and summed: every hand's drop, spent by a manager's allocation.
        "drops": account_get_or_open(
            code="jackpot:drops",
            name="Drops",
            type=AccountType.LIABILITY,
            non_negative=True,
            summed=True,
            **eur,
        ),
        # A floor and a cached row, as before.
        "chips": account_get_or_open(
            code="player:P-1:chips",
            name="P-1 chips",
            type=AccountType.LIABILITY,
            non_negative=True,
            **eur,
        ),
    }


def stored(account: Account) -> int:
    """The account row's own column, without the pending entries."""
    return Account.objects.filter(pk=account.pk).values_list(
        "balance_cents", flat=True
    )[0]


def rake(house: dict[str, Account], cents: int) -> None:
    transaction_post(
        kind="hand",
        legs=[
            Leg(house["box"], cents),
            Leg(house["rake"], -cents),
            Leg(house["drops"], -cents),
            Leg(house["float"], cents),
        ],
        source="test",
    )


@pytest.mark.django_db
def test_house_balance_read_is_the_sum_of_its_entries(house):
    """Hands leave the summed rows alone; every read of their balance (an
    instance, ``balance_expression``, the trial of all entries) agrees, before and
    after a fold, and a floored account without the flag keeps its cached row."""
    accounts = ["rake", "float", "drops"]
    rows_before = {name: stored(house[name]) for name in accounts}
    for cents in (150, 275, 5):
        rake(house, cents)
    assert {name: stored(house[name]) for name in accounts} == rows_before
    assert stored(house["box"]) == 430  # a floor and no flag: moved in place
    assert all(Entry.objects.filter(account=house[n]).count() == 3 for n in accounts)
    assert set(
        Entry.objects.filter(account__in=[house[n] for n in accounts]).values_list(
            "summed", flat=True
        )
    ) == {True}

    def reads() -> dict[str, tuple[int, int, int]]:
        annotated = dict(
            Account.objects.annotate(balance=balance_expression()).values_list(
                "code", "balance"
            )
        )
        return {
            name: (
                Account.objects.get(pk=house[name].pk).balance_cents,
                annotated[house[name].code],
                account_balance(account=house[name]),
            )
            for name in accounts
        }

    expected = {"rake": 430, "float": -430, "drops": 430}
    assert reads() == {n: (v, v, v) for n, v in expected.items()}
    assert all(type(v) is int for row in reads().values() for v in row)
    fold = balances_fold()
    assert fold is not None and fold.accounts == 3
    assert {name: stored(house[name]) for name in accounts} == expected
    assert reads() == {n: (v, v, v) for n, v in expected.items()}
    rake(house, 70)
    account = Account.objects.get(pk=house["rake"].pk)
    assert account.balance_cents == 500
    account.refresh_from_db()
    assert account.balance_cents == 500 == account_balance(account=account)


@COMMITTED
def test_a_fold_waits_for_postings_in_flight_and_loses_nothing(house, roles):
    """While a database transaction holding summed entries is open, a fold waits
    for it, gives up after its attempts and changes nothing; once it commits,
    the balance counts it and the next fold folds it."""
    rake(house, 100)
    with roles.connect(APP) as conn:
        post_raw(conn, house["rake"], house["float"], -40)
        assert balances_fold(attempts=1) is None
        assert stored(house["rake"]) == 0
        assert Account.objects.get(pk=house["rake"].pk).balance_cents == 100
        conn.commit()
    account = Account.objects.get(pk=house["rake"].pk)
    assert account.balance_cents == 140 == account_balance(account=account)
    assert balances_fold() is not None
    assert stored(house["rake"]) == 140


@pytest.mark.django_db
def test_client_values_of_the_flags_are_ignored(house):
    """An entry claiming to be summed on a cached account (or not summed on a
    summed one), or a fold claiming an id, gets what PostgreSQL decides."""
    rake(house, 100)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO accounting_transaction (kind, reference, memo, source,"
            " posted_at) VALUES ('t', '', '', 'raw', now()) RETURNING id"
        )
        txn = cursor.fetchone()[0]
        for account, cents in ((house["chips"], -30), (house["float"], 30)):
            cursor.execute(
                "INSERT INTO accounting_entry (transaction_id, account_id,"
                " amount_cents, currency, summed, epoch) VALUES (%s, %s, %s,"
                " 'EUR', %s, %s)",
                [txn, account.pk, cents, account.pk == house["chips"].pk, 10**9],
            )
        cursor.execute(
            "INSERT INTO accounting_balancefold (id, accounts) VALUES (%s, 99)",
            [10**9],
        )
    assert stored(house["chips"]) == 30
    chips = Entry.objects.get(account=house["chips"])
    assert (chips.summed, chips.epoch) == (False, 0)
    spent = Entry.objects.filter(account=house["float"]).latest("pk")
    assert spent.summed and spent.epoch < 10**9
    fold = BalanceFold.objects.get()
    assert fold.pk < 10**9 and fold.accounts == 3
    rake(house, 1)  # after the fold: counted, whatever the client claimed
    assert Account.objects.get(pk=house["float"].pk).balance_cents == -131


def post_raw(
    conn: psycopg.Connection[Any], account: Account, other: Account, cents: int
) -> None:
    """``cents`` (raw sign) on ``account`` against ``other``, not committed."""
    txn = conn.execute(
        "INSERT INTO accounting_transaction (kind, reference, memo, source,"
        " posted_at) VALUES ('payout', '', '', 'raw', now()) RETURNING id"
    ).fetchone()[0]
    conn.execute(
        "INSERT INTO accounting_entry (transaction_id, account_id, amount_cents,"
        " currency) VALUES (%s, %s, %s, 'EUR'), (%s, %s, %s, 'EUR')",
        [txn, account.pk, cents, txn, other.pk, -cents],
    )


def waiting_for_a_lock(roles: Roles, pid: int) -> bool:
    with roles.connect(SUPERUSER, autocommit=True) as conn:
        row = conn.execute(
            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid]
        ).fetchone()
    return row is not None and row[0] == "Lock"


@COMMITTED
def test_two_spends_race_and_the_floor_holds(house, roles):
    """100 held, two database transactions each spend 60 at the same time, as the
    app's role by raw SQL: the second waits for the first's row lock and is
    refused, on a summed account (its credits pending) as on a cached one, in
    READ COMMITTED and in REPEATABLE READ. 40 is left each time."""
    for name in ("drops", "chips"):
        for isolation in ("READ COMMITTED", "REPEATABLE READ"):
            account = house[name]
            transaction_post(
                kind="fund",
                legs=[
                    Leg(account, account_balance(account=account) - 100),
                    Leg(house["float"], 100 - account_balance(account=account)),
                ],
                source="test",
            )
            error = race(roles, account, house["float"], isolation)
            assert error is not None, f"both spends went through: {name}"
            assert isinstance(
                error,
                psycopg.errors.CheckViolation | psycopg.errors.SerializationFailure,
            ), repr(error)
            if isolation == "READ COMMITTED":
                assert "account_non_negative_balance" in str(error)
            assert Account.objects.get(pk=account.pk).balance_cents == 40
            assert account_balance(account=account) == 40


def race(
    roles: Roles, account: Account, other: Account, isolation: str
) -> psycopg.Error | None:
    """Two connections spend 60 of ``account``; the second's error, if any."""
    first = roles.connect(APP)
    second = roles.connect(APP)
    outcome: dict[str, psycopg.Error | None] = {}
    try:
        for conn in (first, second):
            conn.execute(f"SET TRANSACTION ISOLATION LEVEL {isolation}")
            conn.execute("SELECT 1")  # REPEATABLE READ: the snapshot starts here
        post_raw(first, account, other, 60)

        def spend() -> None:
            try:
                post_raw(second, account, other, 60)
                second.commit()
                outcome["second"] = None
            except psycopg.Error as error:
                second.rollback()
                outcome["second"] = error

        racer = threading.Thread(target=spend)
        racer.start()
        deadline = time.monotonic() + 10
        while not waiting_for_a_lock(roles, second.info.backend_pid):
            assert time.monotonic() < deadline, "the second spend never waited"
            time.sleep(0.02)
        first.commit()
        racer.join(10)
    finally:
        first.close()
        second.close()
    return outcome["second"]


@pytest.mark.django_db
def test_a_summed_floor_counts_pending_credits_and_no_more(house):
    """A summed account's pending credits can be spent, to the cent, by raw SQL."""
    rake(house, 100)  # drops: 100, all pending

    def spend(cents: int) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO accounting_transaction (kind, reference, memo, source,"
                " posted_at) VALUES ('payout', '', '', 'raw', now()) RETURNING id"
            )
            txn = cursor.fetchone()[0]
            cursor.execute(
                "INSERT INTO accounting_entry (transaction_id, account_id,"
                " amount_cents, currency) VALUES (%s, %s, %s, 'EUR'),"
                " (%s, %s, %s, 'EUR')",
                [txn, house["drops"].pk, cents, txn, house["float"].pk, -cents],
            )

    with pytest.raises(IntegrityError, match="account_non_negative_balance"):
        spend(101)
    spend(100)
    assert Account.objects.get(pk=house["drops"].pk).balance_cents == 0
    assert stored(house["drops"]) == -100  # the row; +100 pending


@pytest.mark.django_db
def test_a_transaction_left_open_in_another_database_holds_no_snapshot_back(roles):
    """The server's databases share its transaction ids; one open in another
    database never writes here, so a balance snapshot's horizon passes it (else
    the stored sums leave out everything written since)."""
    xid = "SELECT pg_current_xact_id()::text::bigint"
    with psycopg.connect(**roles.admin, dbname="postgres") as elsewhere:
        row = elsewhere.execute(xid).fetchone()
        account_get_or_open(
            code="revenue:rake", name="Rake", type=AccountType.REVENUE, currency="EUR"
        )
        # One that ends after it, so that the snapshot's xmax passes it.
        with psycopg.connect(**roles.admin, dbname="postgres") as ended:
            ended.execute(xid)
        snapshot = snapshot_at(datetime(2026, 11, 27, 4, tzinfo=UTC))
        elsewhere.rollback()
    assert row is not None
    assert snapshot.horizon > row[0]
