"""The test database with production's roles: an owner migrates it, the app uses it.

When the configured role is a superuser (CI's ``postgres``, the embedded server's),
the session creates ``test_<name>`` as it, provisions the database's owner and app
roles (:func:`core.db.roles.provision`, with the guards' event trigger), lets
Django migrate it as the owner and runs every connection of the suite as the app:
a privilege the app lacks fails the test that needs it. Otherwise the suite runs as
the configured role, and the tests that need the roles are skipped.

``DATABASE_ADMIN_URL`` names the superuser when ``DATABASE_URL`` isn't one.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from typing import Any

import environ
import psycopg
from django.db import connections, transaction
from psycopg import sql

from core.db import guards, roles

SUPERUSER, OWNER, APP = "superuser", "owner", "app"


@dataclass(frozen=True, slots=True)
class Roles:
    """The test database and who may connect to it."""

    admin: dict[str, Any]  # psycopg's keywords for the superuser, without dbname
    server: dict[str, Any]  # host and port the app connects to
    database: str
    owner: str
    owner_password: str
    app: str
    app_password: str

    def params(self, who: str) -> dict[str, Any]:
        """psycopg's keywords to connect to the test database as ``who``."""
        if who == SUPERUSER:
            return {**self.admin, "dbname": self.database}
        user, password = {
            OWNER: (self.owner, self.owner_password),
            APP: (self.app, self.app_password),
        }[who]
        return {
            **self.server,
            "user": user,
            "password": password,
            "dbname": self.database,
        }

    def connect(self, who: str, **options: Any) -> psycopg.Connection[Any]:
        return psycopg.connect(**self.params(who), **options)


_current: Roles | None = None


def current() -> Roles | None:
    """The session's roles, or None when the suite runs as one role."""
    return _current


def _admin(named: dict[str, Any]) -> dict[str, Any]:
    if named["ENGINE"] == "core.db.embedded":
        from core.db.embedded.base import socket_dir

        return {
            "host": socket_dir(named["DATA_DIR"], named["EMBEDDED_DATABASE"]),
            "user": "postgres",
        }
    url = os.environ.get("DATABASE_ADMIN_URL", "")
    source = environ.Env.db_url_config(url) if url else named
    params = {
        "host": source.get("HOST") or None,
        "port": source.get("PORT") or None,
        "user": source.get("USER") or None,
        "password": source.get("PASSWORD") or None,
    }
    return {k: v for k, v in params.items() if v}


def prepare(named: dict[str, Any], *, keepdb: bool) -> Roles | None:
    """Create the test database and its roles, and point ``named`` (the default
    database's settings) at the app's role with the owner as ``OWNER``."""
    global _current
    admin = _admin(named)
    database = named.get("TEST", {}).get("NAME") or f"test_{named['NAME']}"
    try:
        with psycopg.connect(**admin, dbname="postgres", autocommit=True) as conn:
            row = conn.execute(
                "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
            ).fetchone()
            if not (row and row[0]):
                return None
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [database]
            ).fetchone()
            name = sql.Identifier(database)
            if exists and not keepdb:
                conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(name))
            if not exists or not keepdb:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(name))
            # A test database need not outlive a crash of the server: a commit
            # doesn't wait for its WAL to reach the disk (every session of it,
            # the servers and workers a test starts included).
            conn.execute(
                sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(name)
            )
    except psycopg.OperationalError:
        return None
    owner, app = roles.default_names(database)
    found = Roles(
        admin=admin,
        server={
            k: v
            for k, v in {
                "host": admin["host"]
                if named["ENGINE"] == "core.db.embedded"
                else named.get("HOST") or None,
                "port": named.get("PORT") or None,
            }.items()
            if v
        },
        database=database,
        owner=owner,
        owner_password=secrets.token_urlsafe(16),
        app=app,
        app_password=secrets.token_urlsafe(16),
    )
    with found.connect(SUPERUSER) as conn:
        roles.provision(
            conn,
            owner=owner,
            app=app,
            owner_password=found.owner_password,
            app_password=found.app_password,
        )
    _install_truncate(found)
    named.update(USER=app, PASSWORD=found.app_password)
    named["OWNER"] = {"USER": owner, "PASSWORD": found.owner_password}
    _current = found
    return found


def drop(found: Roles) -> None:
    """Drop the test database and its roles."""
    for conn in connections.all():
        conn.close()
    with psycopg.connect(**found.admin, dbname="postgres", autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(found.database)
            )
        )
        for role in (found.app, found.owner):
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


# The suite's flush (after a transactional test, or a test's own ``flush``): a
# superuser's function of the test database only, run on the app's connection so
# that it is part of the caller's transaction (a flush inside a test is rolled back
# with it). It truncates the tables it is given with the TRUNCATE guards and the
# event triggers off for the statement, and puts them back as they were. Only the
# tables holding rows are truncated (with every table whose foreign keys reach
# them, which TRUNCATE asks for), unless the sequences restart: the rest are empty
# already, and a TRUNCATE of every table (a new file for each table and index, an
# ALTER TABLE for each guard) took seconds after each transactional test.
TRUNCATE_FUNCTION = r"""
CREATE OR REPLACE FUNCTION cardroom_test.truncate(
    tables text[], restart boolean, cascade boolean
) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public AS $$
DECLARE
    events text[];
    triggers text[];
    modes "char"[];
    chosen text[] := '{}';
    more text[];
    held boolean;
    i integer;
BEGIN
    IF restart THEN
        chosen := tables;
    ELSE
        FOR i IN 1 .. coalesce(array_length(tables, 1), 0) LOOP
            EXECUTE format('SELECT EXISTS (SELECT FROM %I)', tables[i]) INTO held;
            IF held THEN
                chosen := chosen || tables[i];
            END IF;
        END LOOP;
        LOOP
            SELECT array_agg(DISTINCT c.conrelid::regclass::text) INTO more
              FROM pg_constraint c
             WHERE c.contype = 'f' AND c.confrelid::regclass::text = ANY (chosen)
               AND NOT c.conrelid::regclass::text = ANY (chosen)
               AND c.conrelid::regclass::text = ANY (tables);
            EXIT WHEN more IS NULL;
            chosen := chosen || more;
        END LOOP;
    END IF;
    IF coalesce(array_length(chosen, 1), 0) = 0 THEN
        RETURN;
    END IF;
    SELECT array_agg(evtname) INTO events FROM pg_event_trigger
     WHERE evtname LIKE 'cardroom\_%' AND evtenabled = 'A';
    SELECT array_agg(format('%s %I', t.tgrelid::regclass, t.tgname)),
           array_agg(t.tgenabled)
      INTO triggers, modes
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND t.tgtype & 32 <> 0 AND t.tgenabled <> 'D'
       AND c.relnamespace = 'public'::regnamespace
       AND c.relname = ANY (chosen);
    FOR i IN 1 .. coalesce(array_length(events, 1), 0) LOOP
        EXECUTE format('ALTER EVENT TRIGGER %I DISABLE', events[i]);
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(triggers, 1), 0) LOOP
        EXECUTE 'ALTER TABLE ' || split_part(triggers[i], ' ', 1)
             || ' DISABLE TRIGGER ' || split_part(triggers[i], ' ', 2);
    END LOOP;
    EXECUTE 'TRUNCATE ' || (SELECT string_agg(format('%I', t), ', ')
                              FROM unnest(chosen) t)
         || CASE WHEN restart THEN ' RESTART IDENTITY' ELSE '' END
         || CASE WHEN cascade THEN ' CASCADE' ELSE '' END;
    FOR i IN 1 .. coalesce(array_length(triggers, 1), 0) LOOP
        EXECUTE 'ALTER TABLE ' || split_part(triggers[i], ' ', 1) || ' '
             || CASE modes[i] WHEN 'A' THEN 'ENABLE ALWAYS' WHEN 'R'
                    THEN 'ENABLE REPLICA' ELSE 'ENABLE' END
             || ' TRIGGER ' || split_part(triggers[i], ' ', 2);
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(events, 1), 0) LOOP
        EXECUTE format('ALTER EVENT TRIGGER %I ENABLE ALWAYS', events[i]);
    END LOOP;
END $$
"""


def _install_truncate(found: Roles) -> None:
    with found.connect(SUPERUSER) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS cardroom_test")
        conn.execute(TRUNCATE_FUNCTION)
        for statement in (
            "REVOKE ALL ON SCHEMA cardroom_test FROM PUBLIC",
            "REVOKE ALL ON FUNCTION cardroom_test.truncate FROM PUBLIC",
            "GRANT USAGE ON SCHEMA cardroom_test TO {app}",
            "GRANT EXECUTE ON FUNCTION cardroom_test.truncate TO {app}",
        ):
            conn.execute(sql.SQL(statement).format(app=sql.Identifier(found.app)))


def sql_flush(
    self: Any,
    style: Any,
    tables: list[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    """Django's flush SQL for the suite: see :data:`TRUNCATE_FUNCTION`."""
    if not tables:
        return []
    names = ", ".join("'" + t.replace("'", "''") + "'" for t in tables)
    return [
        f"SELECT cardroom_test.truncate(ARRAY[{names}]::text[],"
        f" {str(reset_sequences).lower()}, {str(allow_cascade).lower()})"
    ]


def execute_sql_flush(self: Any, sql_list: list[str]) -> None:
    """Django's flush when the suite runs as one role: the guards off around it,
    which that role may do if it owns the tables and no event trigger is there."""
    with (
        transaction.atomic(using=self.connection.alias),
        self.connection.cursor() as cursor,
        guards.suspended(cursor, truncate_only=True),
    ):
        for statement in sql_list:
            cursor.execute(statement)
