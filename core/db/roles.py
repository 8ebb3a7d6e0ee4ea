"""The database's roles: an owner that migrates, an app that only reads and writes.

Three roles take part (docs/operations.md, "Configuration"; docs/security.md, "The
database's promises"):

- an **administrator**, a superuser, runs :func:`provision` once per database and
  again after an upgrade (``manage.py provision_database``; the embedded server and
  the test suite do it themselves): it creates the two roles below with nothing
  but LOGIN, gives the owner the ``public`` schema to build in, hands it any table
  another role owns, closes the database to everyone else (no CONNECT, no
  temporary tables for PUBLIC), and installs the guards' event trigger
  (:mod:`core.db.guards`);
- the **owner** owns every table, sequence and trigger function. ``manage.py
  migrate`` connects as it (``DATABASE_OWNER_URL``, or the embedded server's
  ``OWNER`` role) and then :func:`grant_app`;
- the **app**: the web, the worker, the scheduler and every other command connect
  as it (``DATABASE_URL``). It may SELECT, INSERT, UPDATE and DELETE rows and use
  the sequences, less what the database refuses anyway (UPDATE and DELETE on
  append-only tables, DELETE on records never deleted): no ownership, no
  TRUNCATE, no TRIGGER or REFERENCES, no DDL, no temporary tables. The owner's
  credentials are given only to the process that migrates: the app can't become
  the owner (there is no ``SET ROLE`` to undo).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pgtrigger
import psycopg
from django.apps import apps
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import sql

from core.db import guards
from core.db.triggers import StrictTrigger

# One lock for every provisioning of a database: processes that start together
# (the embedded server's) would otherwise race on the same catalog rows.
_LOCK = 0x63617264726F6F6D  # "cardroom"

ROW_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE")


def default_names(database: str) -> tuple[str, str]:
    """The owner and app roles of ``database`` when nothing names them."""
    return f"{database}_owner", f"{database}_app"


def _role(cur: psycopg.Cursor[Any], name: str, password: str | None) -> None:
    cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name])
    if cur.fetchone() is None:
        cur.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(name)))
    attributes = sql.SQL(
        "ALTER ROLE {} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION"
        " NOBYPASSRLS INHERIT"
    ).format(sql.Identifier(name))
    if password:
        attributes += sql.SQL(" PASSWORD {}").format(sql.Literal(password))
    cur.execute(attributes)
    # Nothing inherited either: a membership would bring another role's rights.
    cur.execute(
        "SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid"
        " WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = %s)",
        [name],
    )
    for (granted,) in cur.fetchall():
        cur.execute(
            sql.SQL("REVOKE {} FROM {}").format(
                sql.Identifier(granted), sql.Identifier(name)
            )
        )


def _adopt(cur: psycopg.Cursor[Any], owner: str) -> None:
    """Give the owner every object of ``public`` another role owns (an install
    whose tables a superuser made)."""
    cur.execute(
        """
        SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                              WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
               c.oid::regclass::text
          FROM pg_class c
         WHERE c.relnamespace = 'public'::regnamespace
           AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
           AND pg_get_userbyid(c.relowner) <> %(owner)s
           -- A sequence owned by a column follows its table.
           AND NOT EXISTS (SELECT 1 FROM pg_depend d
                            WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')
                              AND c.relkind = 'S')
        UNION ALL
        SELECT 'FUNCTION', p.oid::regprocedure::text
          FROM pg_proc p
         WHERE p.pronamespace = 'public'::regnamespace
           AND pg_get_userbyid(p.proowner) <> %(owner)s
        """,
        {"owner": owner},
    )
    for kind, name in cur.fetchall():
        cur.execute(
            sql.SQL("ALTER {} {} OWNER TO {}").format(
                sql.SQL(kind), sql.SQL(name), sql.Identifier(owner)
            )
        )


def provision(
    conn: psycopg.Connection[Any],
    *,
    owner: str,
    app: str,
    owner_password: str | None = None,
    app_password: str | None = None,
) -> None:
    """Set up the owner and app roles of the database ``conn`` is connected to.

    ``conn`` is a superuser's. Safe to run again: it creates what is missing and
    puts back what was changed. Raises :class:`ValueError` when the two roles are
    one, or one of them is the superuser running this.
    """
    if owner == app:
        raise ValueError("The owner and the app need two roles.")
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT current_user, current_database()")
        admin, database = cur.fetchone() or ("", "")
        if admin in (owner, app):
            raise ValueError(f"{admin} runs this; it can be neither owner nor app.")
        cur.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])
        _role(cur, owner, owner_password)
        _role(cur, app, app_password)
        db, own, ap = (sql.Identifier(n) for n in (database, owner, app))
        for statement in (
            "REVOKE ALL ON DATABASE {db} FROM PUBLIC",
            "REVOKE ALL ON DATABASE {db} FROM {own}, {ap}",
            "GRANT CONNECT ON DATABASE {db} TO {own}, {ap}",
            "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
            "REVOKE ALL ON SCHEMA public FROM {ap}",
            "GRANT USAGE, CREATE ON SCHEMA public TO {own}",
            "GRANT USAGE ON SCHEMA public TO {ap}",
        ):
            cur.execute(sql.SQL(statement).format(db=db, own=own, ap=ap))
        _adopt(cur, owner)
        for statement in [*guards.INSTALL, *guards.grant_read_sql(app)]:
            cur.execute(statement)


def _refusals() -> dict[str, set[str]]:
    """The row privileges the database refuses anyway, by table: those of the
    unconditional strict ``Protect`` triggers and the apps' ``DATABASE_REFUSES``."""
    refused: dict[str, set[str]] = {}
    for model, trigger in pgtrigger.registered():
        compiled = trigger.compile(model)
        if not isinstance(compiled, StrictTrigger) or compiled.sql.kwargs.get(
            "condition"
        ):
            continue
        if not isinstance(trigger, pgtrigger.Protect) or compiled.sql.kwargs.get(
            "when", ""
        ).upper() not in ("BEFORE", ""):
            continue
        operation = compiled.sql.kwargs["operation"].upper()
        ops = {op for op in ("UPDATE", "DELETE") if op in operation}
        refused.setdefault(model._meta.db_table, set()).update(ops)
    for config in apps.get_app_configs():
        declared: Mapping[str, tuple[str, ...]] = getattr(
            config.models_module, "DATABASE_REFUSES", {}
        )
        for table, privileges in declared.items():
            refused.setdefault(table, set()).update(privileges)
    return refused


def grant_app(connection: BaseDatabaseWrapper, app: str) -> None:
    """Grant the app's role what it needs on every table; the owner runs it."""
    role = connection.ops.quote_name(app)
    with connection.cursor() as cur:
        cur.execute(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public"
            f" TO {role}"
        )
        cur.execute(
            "REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public"
            f" FROM {role}"
        )
        cur.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}")
        for table, ops in sorted(_refusals().items()):
            cur.execute(
                f"REVOKE {', '.join(sorted(ops))} ON {connection.ops.quote_name(table)}"
                f" FROM {role}"
            )


@contextmanager
def as_owner(connection: BaseDatabaseWrapper) -> Iterator[str | None]:
    """Connect ``connection`` as the database's owner for the block.

    The owner is the ``OWNER`` entry of the database's settings (``USER``,
    ``PASSWORD``, ``HOST``, ``PORT``: ``DATABASE_OWNER_URL``). Yields the app's
    role (the ``USER`` it replaces), or None when no owner is configured: one
    role does everything, as a superuser does on a development machine.
    """
    named = connection.settings_dict
    owner: Mapping[str, Any] = named.get("OWNER") or {}
    if not owner.get("USER"):
        yield None
        return
    keys = ("USER", "PASSWORD", "HOST", "PORT")
    saved = {k: named.get(k) for k in keys}
    connection.close()
    named.update({k: owner[k] for k in keys if owner.get(k) is not None})
    try:
        yield saved["USER"]
    finally:
        connection.close()
        named.update(saved)
