"""The database's promises, attacked as the app's role, as the owner and as a
superuser.

Each attack runs its statements in one database transaction on a connection of its
own and commits, as a person with that role's password would. Each is refused, and
the ledger's fingerprint (every entry, transaction and balance, and the payables)
is what it was. The books are made once for the module and committed; nothing the
tests do may change them. What a superuser can still do is in
``test_attacks_shown.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from tests import roles as db_roles
from tests.integration.accounting.attacks import books as make_books
from tests.integration.accounting.attacks import refused
from tests.roles import APP, OWNER, SUPERUSER, Roles

# The attacks use connections of their own; the books are committed by the module.
pytestmark = pytest.mark.django_db
EVERYONE = [APP, OWNER, SUPERUSER]


@pytest.fixture(scope="module")
def roles(django_db_setup) -> Roles:
    found = db_roles.current()
    if found is None:
        pytest.skip("the database server gives no superuser to make the roles with")
    return found


@pytest.fixture(scope="module")
def books(roles, django_db_blocker) -> Iterator[dict[str, Any]]:
    """The books, committed for the module's attacks, then emptied."""
    with django_db_blocker.unblock():
        made = make_books()
        yield made
        call_command("flush", interactive=False, verbosity=0)


def expected_refusal(who: str, for_owner: str, app: str = "permission denied") -> str:
    """What refuses ``who``: a privilege for the app, the guard for the others."""
    return app if who == APP else for_owner


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize(
    ("table", "guard"),
    [
        ("accounting_entry", "never emptied"),
        ("accounting_transaction", "never emptied|cannot truncate"),
        ("accounting_account", "never emptied|cannot truncate"),
        ("accounting_payable", "cannot truncate"),
        ("cardroom_stackmovement", "cannot truncate"),
    ],
)
def test_truncate_is_refused(roles, books, who, table, guard):
    """TRUNCATE … CASCADE of a ledger or record table is refused to everyone."""
    refused(
        roles,
        who,
        f"TRUNCATE {table} CASCADE",
        match=expected_refusal(who, guard),
    )


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize(
    "switch_off",
    [
        "ALTER TABLE accounting_entry DISABLE TRIGGER ledger_entry_append_only",
        "ALTER TABLE accounting_entry DISABLE TRIGGER USER",
        "ALTER TABLE accounting_entry ENABLE REPLICA TRIGGER ledger_entry_append_only",
    ],
)
def test_disabling_a_trigger_to_edit_is_refused(roles, books, who, switch_off):
    """ALTER TABLE … DISABLE TRIGGER, an edit, then re-enabling: refused at the first
    statement, to the owner and to a superuser too (the guards' event trigger)."""
    refused(
        roles,
        who,
        switch_off,
        "UPDATE accounting_entry SET amount_cents = amount_cents * 2",
        "ALTER TABLE accounting_entry ENABLE ALWAYS TRIGGER ledger_entry_append_only",
        match=expected_refusal(
            who, "triggers are never switched off", app="must be owner"
        ),
    )


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize(
    ("edit", "guard"),
    [
        ("UPDATE accounting_entry SET amount_cents = amount_cents * 2", "append-only"),
        ("DELETE FROM accounting_entry", "append-only"),
        ("DELETE FROM accounting_transaction", "append-only"),
        (
            "UPDATE accounting_account SET balance_cents = balance_cents + 1000000",
            "balances move only by entries",
        ),
        ("UPDATE accounting_payable SET status = 'open', paid_at = NULL", "pgtrigger"),
    ],
)
def test_replica_mode_skips_no_guard(roles, books, who, edit, guard):
    """SET session_replication_role = replica, then UPDATE or DELETE: only a
    superuser may set it, and every guard fires in replica mode too."""
    app_or_owner = "permission denied to set parameter"
    refused(
        roles,
        who,
        "SET session_replication_role = replica",
        edit,
        match=guard if who == SUPERUSER else app_or_owner,
    )


@pytest.mark.parametrize("who", EVERYONE)
def test_posting_flag_inflates_no_balance(roles, books, who):
    """SET cardroom.ledger_posting = 'on' unlocks nothing: a cached balance moves
    only under the entry trigger."""
    refused(
        roles,
        who,
        "SET cardroom.ledger_posting = 'on'",
        "UPDATE accounting_account SET balance_cents = balance_cents + 1000000"
        " WHERE code = 'player:P-1:chips'",
        match="balances move only by entries",
    )


@pytest.mark.parametrize("who", EVERYONE)
def test_posting_flag_lets_no_entry_overdraw(roles, books, who):
    """With the flag, a balance inflated and then spent by balanced entries: the
    inflation is refused, and spending more than the entries hold is too."""
    spend = (
        "WITH t AS (INSERT INTO accounting_transaction (kind, reference, memo,"
        " source, posted_at, xact_id) VALUES ('payout', '', '', 'attack', now(), 0)"
        " RETURNING id) INSERT INTO accounting_entry (transaction_id, account_id,"
        " amount_cents, currency) SELECT t.id, a.id, CASE a.code WHEN"
        " 'player:P-1:chips' THEN 1000000 ELSE -1000000 END, 'EUR' FROM t,"
        " accounting_account a WHERE a.code IN ('player:P-1:chips', 'cage:MAIN:cash')"
    )
    refused(
        roles,
        who,
        "SET cardroom.ledger_posting = 'on'",
        spend,
        match="account_non_negative_balance",
    )
    refused(
        roles,
        who,
        "SET cardroom.ledger_posting = 'on'",
        "UPDATE accounting_account SET balance_cents = balance_cents + 1000000"
        " WHERE code IN ('player:P-1:chips', 'cage:MAIN:cash')",
        spend,
        match="balances move only by entries",
    )


@pytest.mark.parametrize("who", EVERYONE)
def test_balanced_legs_join_no_posted_transaction(roles, books, who):
    """Two balanced legs appended to a posted transaction are refused: its entries
    came with it, in the database transaction that wrote it."""
    posted, chips, rake = books["funded"].pk, books["chips"].pk, books["rake"].pk
    refused(
        roles,
        who,
        "INSERT INTO accounting_entry (transaction_id, account_id, amount_cents,"
        f" currency) VALUES ({posted}, {chips}, 700, 'EUR'),"
        f" ({posted}, {rake}, -700, 'EUR')",
        match=f"transaction {posted} is posted",
    )


def test_a_transaction_is_stamped_with_its_own_database_transaction(roles, books):
    """Whatever ``xact_id`` a client writes, the row gets its own transaction's: a
    posted transaction's can't be borrowed to add entries to it."""
    with roles.connect(APP) as conn:
        (posted,) = conn.execute(
            "SELECT xact_id FROM accounting_transaction WHERE id = %s",
            [books["funded"].pk],
        ).fetchone()
        stamped, current = conn.execute(
            "INSERT INTO accounting_transaction (kind, reference, memo, source,"
            " posted_at, xact_id) VALUES ('x', '', '', 'attack', now(), %s)"
            " RETURNING xact_id, pg_current_xact_id()::text::bigint",
            [posted],
        ).fetchone()
        conn.rollback()
    assert posted > 0
    assert stamped == current != posted


@pytest.mark.parametrize("who", EVERYONE)
def test_pgtrigger_ignore_reopens_no_paid_award(roles, books, who):
    """SET LOCAL pgtrigger.ignore naming every trigger of the payables, then a paid
    award made open again with another amount: the triggers don't read it."""
    with roles.connect(SUPERUSER) as conn:
        names = [
            name
            for (name,) in conn.execute(
                "SELECT tgname FROM pg_trigger"
                " WHERE tgrelid = 'accounting_payable'::regclass AND NOT tgisinternal"
            )
        ]
    assert len(names) >= 4
    refused(
        roles,
        who,
        f"SET LOCAL pgtrigger.ignore = '{{{','.join(names)}}}'",
        "UPDATE accounting_payable SET status = 'open', paid_at = NULL,"
        f" amount_cents = 250000 WHERE id = {books['award'].pk}",
        match="pgtrigger",
    )
