"""What a superuser can still do to the ledger, and the owner by changing the
schema, and how the daily audit shows it (docs/security.md, "The database's promises").

These attacks go through: each test has books of its own (committed, emptied after).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from cardroom.services import room_default
from core.db import guards
from reports.builders import daily_audit
from reports.document import rows_of
from reports.selectors import Period
from reports.services import report_generate
from tests.integration.accounting.attacks import DAY, attack, fingerprint
from tests.integration.accounting.attacks import books as make_books
from tests.roles import OWNER, SUPERUSER

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def books(database_roles) -> dict[str, Any]:
    return make_books()


def audit() -> dict[str, Any]:
    """The daily audit of ``DAY``, built as the app's role."""
    period = Period.of(room_default(), DAY)
    return daily_audit(period=period, now=period.end + timedelta(hours=1))


def disagreeing(data: dict[str, Any]) -> set[str]:
    """The checks and database rows of an audit that don't agree."""
    return {r["check"] for r in rows_of(data, "checks") if not r["agrees"]} | {
        r["what"] for r in rows_of(data, "database_guards") if not r["agrees"]
    }


def test_the_audit_of_untouched_books_agrees(database_roles, books):
    """Before any attack, everything the daily audit checks agrees."""
    assert disagreeing(audit()) == set()


EVENT_TRIGGERS = list(guards.EVENT_TRIGGERS)
CACHES_OFF = {
    "cage:MAIN:cash cached balance = sum of its entries",
    "player:P-1:chips cached balance = sum of its entries",
}


def flip_with_the_guards_off(roles, transaction_id: int) -> None:
    """As a superuser: the event triggers and the entries' guard off, the signs of
    a posted transaction's entries flipped (it still balances; the cached balances
    are left alone), and everything put back as it was."""
    error = attack(
        roles,
        SUPERUSER,
        *(f"ALTER EVENT TRIGGER {e} DISABLE" for e in EVENT_TRIGGERS),
        "ALTER TABLE accounting_entry DISABLE TRIGGER ledger_entry_append_only",
        "UPDATE accounting_entry SET amount_cents = -amount_cents"
        f" WHERE transaction_id = {transaction_id}",
        "ALTER TABLE accounting_entry ENABLE ALWAYS TRIGGER ledger_entry_append_only",
        *(f"ALTER EVENT TRIGGER {e} ENABLE ALWAYS" for e in EVENT_TRIGGERS),
    )
    assert error is None


def test_a_superuser_who_switches_the_guards_off_is_shown_by_the_audit(
    database_roles, books
):
    """The edit of a superuser who switched the guards off stays; the cached
    balances are no longer the sums of the entries."""
    before = fingerprint(database_roles)
    flip_with_the_guards_off(database_roles, books["bought"].pk)
    assert fingerprint(database_roles) != before
    assert disagreeing(audit()) >= CACHES_OFF


def test_an_edit_of_a_day_already_audited_shows_in_a_full_audit(database_roles, books):
    """The same edit after the day's audit was stored: the next day's audit
    continues from the stored closings, which the untouched cached balances still
    give, and sees nothing; one made with ``full`` adds up every entry and does."""
    room = room_default()
    day = Period.of(room, DAY)
    report_generate(
        kind="daily_audit", first=DAY, source="test", now=day.end + timedelta(hours=1)
    )
    flip_with_the_guards_off(database_roles, books["bought"].pk)
    after = Period.of(room, DAY + timedelta(days=1))
    now = after.end + timedelta(hours=1)
    assert disagreeing(daily_audit(period=after, now=now)) == set()
    assert disagreeing(daily_audit(period=after, now=now, full=True)) >= CACHES_OFF


def test_a_guard_left_off_by_a_superuser_is_shown_by_the_audit(database_roles, books):
    """A superuser who drops the event trigger that keeps triggers on and leaves
    the entries' guard disabled: the audit names both."""
    error = attack(
        database_roles,
        SUPERUSER,
        "DROP EVENT TRIGGER cardroom_triggers_stay_on",
        "ALTER TABLE accounting_entry DISABLE TRIGGER ledger_entry_append_only",
    )
    assert error is None
    try:
        assert disagreeing(audit()) == {
            "guard triggers in place, ENABLE ALWAYS",
            "ledger_entry_append_only on accounting_entry (D)",
            "event trigger cardroom_triggers_stay_on",
        }
    finally:
        with database_roles.connect(SUPERUSER) as conn:
            conn.execute(
                "ALTER TABLE accounting_entry"
                " ENABLE ALWAYS TRIGGER ledger_entry_append_only"
            )
            for statement in guards.INSTALL:
                conn.execute(statement)


def test_an_owner_who_replaces_a_guard_is_shown_by_the_next_audit(
    database_roles, books
):
    """The owner may change the schema (a release's migrations do). One who
    replaces the entries' guard by one that lets everything through, flips a posted
    transaction's signs and puts the guard back keeps the edit, but the commands
    are in the schema's history, which the owner can't change: the next audit
    lists them, and its closing check sees the entries no longer add up to the
    cached balances. (The day's openings come from the stored snapshot of the
    previous day, so the edit shows at the closing, not as a break in continuity.)"""
    room = room_default()
    yesterday = Period.of(room, DAY - timedelta(days=1))
    report_generate(
        kind="daily_audit",
        first=yesterday.first,
        source="test",
        now=yesterday.end + timedelta(hours=1),
    )
    with database_roles.connect(SUPERUSER) as conn:
        (original,) = conn.execute(
            "SELECT pg_get_functiondef('ledger_append_only'::regproc)"
        ).fetchone()
    error = attack(
        database_roles,
        OWNER,
        "CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger"
        " LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
        "UPDATE accounting_entry SET amount_cents = -amount_cents"
        f" WHERE transaction_id = {books['bought'].pk}",
        original,
    )
    assert error is None
    # The history isn't the owner's to change.
    for rewrite in (f"DELETE FROM {guards.LOG}", f"TRUNCATE {guards.LOG}"):
        error = attack(database_roles, OWNER, rewrite)
        assert error is not None and "permission denied" in str(error)

    data = audit()
    assert {
        "schema changes since the previous audit",
        "cage:MAIN:cash closing = cached balance less later entries",
    } <= disagreeing(data)
    changes = rows_of(data, "schema_changes")
    assert [(c["role"], c["command"], c["object"]) for c in changes] == [
        (database_roles.owner, "CREATE FUNCTION", "public.ledger_append_only()")
    ] * 2
