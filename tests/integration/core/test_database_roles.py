"""The database's roles: the app has only what it needs, the owner migrates, and
provisioning puts back what was changed (core/db/roles.py, core/db/guards.py).

The suite itself connects as the app's role (tests/roles.py): every other test that
passes proves the grants are enough.
"""

from __future__ import annotations

import re
from io import StringIO

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from psycopg import sql

from core.db import guards, roles
from tests.roles import APP, OWNER, SUPERUSER

pytestmark = pytest.mark.django_db


def one(conn: psycopg.Connection, query: str, params: list | None = None):
    row = conn.execute(query, params or []).fetchone()
    assert row is not None
    return row[0] if len(row) == 1 else row


def test_the_suite_connects_as_the_app(database_roles):
    """Django's own connection is the app's role."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == database_roles.app


@pytest.mark.parametrize("who", [APP, OWNER])
def test_no_role_of_the_app_is_privileged(database_roles, who):
    """Neither role is a superuser, makes roles or databases, replicates, bypasses
    row security, belongs to another role, creates schemas or temporary tables."""
    name = database_roles.params(who)["user"]
    with database_roles.connect(SUPERUSER) as conn:
        attributes = one(
            conn,
            "SELECT (rolsuper, rolcreaterole, rolcreatedb, rolreplication,"
            " rolbypassrls)::text FROM pg_roles WHERE rolname = %s",
            [name],
        )
        assert attributes == "(f,f,f,f,f)"
        assert not one(
            conn,
            "SELECT count(*) FROM pg_auth_members m JOIN pg_roles r"
            " ON r.oid = m.member WHERE r.rolname = %s",
            [name],
        )
        for privilege in ("CREATE", "TEMPORARY"):
            assert not one(
                conn,
                "SELECT has_database_privilege(%s, current_database(), %s)",
                [name, privilege],
            )


def test_the_owner_owns_every_table_and_the_app_none(database_roles):
    with database_roles.connect(SUPERUSER) as conn:
        owners = dict(
            conn.execute(
                "SELECT pg_get_userbyid(relowner), count(*) FROM pg_class"
                " WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'"
                " GROUP BY 1"
            ).fetchall()
        )
    assert set(owners) == {database_roles.owner}


def test_the_app_has_rows_and_nothing_more(database_roles):
    """SELECT, INSERT, UPDATE, DELETE on the tables, less what the database refuses
    anyway; never TRUNCATE, REFERENCES or TRIGGER; no CREATE in the schema."""
    refusals = roles._refusals()
    assert refusals["accounting_entry"] == {"UPDATE", "DELETE"}
    assert refusals["accounting_payable"] == {"DELETE"}
    with database_roles.connect(SUPERUSER) as conn:
        tables = [
            t
            for (t,) in conn.execute(
                "SELECT relname FROM pg_class WHERE relkind = 'r'"
                " AND relnamespace = 'public'::regnamespace"
            )
        ]
        assert not one(
            conn,
            "SELECT has_schema_privilege(%s, 'public', 'CREATE')",
            [database_roles.app],
        )
        for table in tables:
            granted = {
                p
                for p in (
                    "SELECT",
                    "INSERT",
                    "UPDATE",
                    "DELETE",
                    "TRUNCATE",
                    "REFERENCES",
                    "TRIGGER",
                )
                if one(
                    conn,
                    "SELECT has_table_privilege(%s, %s, %s)",
                    [database_roles.app, f"public.{table}", p],
                )
            }
            expected = set(roles.ROW_PRIVILEGES) - refusals.get(table, set())
            assert granted == expected, table


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE TABLE mine (x int)",
        "CREATE TEMP TABLE mine (x int)",
        "CREATE FUNCTION pg_temp.mine() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        "SET ROLE {owner}",
        "SET session_replication_role = replica",
        "CREATE TRIGGER mine BEFORE UPDATE ON accounting_account FOR EACH ROW"
        " EXECUTE FUNCTION ledger_account_guard()",
    ],
)
def test_the_app_changes_no_schema_and_becomes_no_one(database_roles, statement):
    """No DDL, no temporary objects (a trigger of its own would run deeper than
    the ledger's depth check), no SET ROLE, no replica mode."""
    owner = sql.Identifier(database_roles.owner).as_string()
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege),
        database_roles.connect(APP) as conn,
    ):
        conn.execute(statement.replace("{owner}", owner))


def test_every_guard_is_in_place_and_enabled_always(database_roles):
    """Each trigger the code declares is in the database, ENABLE ALWAYS, with the
    event triggers; every table that refuses DELETE refuses TRUNCATE too."""
    with database_roles.connect(SUPERUSER) as conn:
        found = guards.inspect(conn.cursor())
        no_delete = {
            t
            for (t,) in conn.execute(
                "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c"
                " ON c.oid = t.tgrelid WHERE NOT t.tgisinternal"
                " AND t.tgtype & 8 <> 0 AND t.tgtype & 2 <> 0"  # BEFORE DELETE
                " AND c.relnamespace = 'public'::regnamespace"
            )
        }
        no_truncate = {
            t
            for (t,) in conn.execute(
                "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c"
                " ON c.oid = t.tgrelid WHERE t.tgtype & 32 <> 0"
                " AND c.relnamespace = 'public'::regnamespace"
            )
        }
    assert found.in_place, found
    assert found.expected > 60
    assert no_delete and no_delete <= no_truncate, no_delete - no_truncate


def test_no_trigger_reads_pgtriggers_ignore_setting(database_roles):
    """No trigger function of the schema calls django-pgtrigger's ignore check."""
    with database_roles.connect(SUPERUSER) as conn:
        reading = [
            name
            for (name,) in conn.execute(
                "SELECT DISTINCT p.proname FROM pg_trigger t"
                " JOIN pg_proc p ON p.oid = t.tgfoid"
                " WHERE p.prosrc LIKE '%\\_pgtrigger\\_should\\_ignore%'"
            )
        ]
    assert reading == []


def test_provisioning_puts_back_what_was_changed(database_roles):
    """A role given more (CREATEDB, the owner's membership, temporary tables) gets
    only what it should when provisioning runs again."""
    app, owner = (sql.Identifier(n) for n in (database_roles.app, database_roles.owner))
    with database_roles.connect(SUPERUSER, autocommit=True) as conn:
        conn.execute(sql.SQL("ALTER ROLE {} CREATEDB").format(app))
        conn.execute(sql.SQL("GRANT {} TO {}").format(owner, app))
        conn.execute(
            sql.SQL("GRANT TEMPORARY ON DATABASE {} TO {}").format(
                sql.Identifier(database_roles.database), app
            )
        )
    with database_roles.connect(SUPERUSER) as conn:
        roles.provision(
            conn,
            owner=database_roles.owner,
            app=database_roles.app,
            owner_password=database_roles.owner_password,
            app_password=database_roles.app_password,
        )
    test_no_role_of_the_app_is_privileged(database_roles, APP)


def test_provision_database_command(database_roles, settings):
    """The command provisions the configured database's roles as a superuser."""
    admin = database_roles.admin
    url = "postgres://{user}@{host}{port}/postgres".format(
        user=admin["user"],
        host=admin["host"] if not admin["host"].startswith("/") else "",
        port=f":{admin['port']}" if admin.get("port") else "",
    )
    if admin["host"].startswith("/"):
        url += f"?host={admin['host']}"
    out = StringIO()
    call_command("provision_database", admin_url=url, stdout=out)
    assert re.search(rf"{database_roles.owner} owns the tables", out.getvalue())


@pytest.mark.django_db(transaction=True)
def test_migrate_connects_as_the_owner(database_roles):
    """Within :func:`core.db.roles.as_owner` the connection is the owner's; then the
    app's again."""
    connection.close()
    with roles.as_owner(connection) as app, connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == database_roles.owner
    assert app == database_roles.app
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == database_roles.app
