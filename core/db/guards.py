"""The database's guards: which triggers keep the money, and the event trigger that
keeps them on.

The guards are the triggers of :mod:`core.db.triggers` (declared in the models'
``Meta.triggers``) and the plain SQL triggers an app lists in its models module as
``DATABASE_TRIGGERS`` (the ledger's, ``accounting.models``). Each must be in place
and ``ENABLE ALWAYS``; :func:`inspect` says which are not, for the daily audit.

Only the owner of a table may disable its triggers, and the owner is the role that
migrates. The event trigger :data:`EVENT_TRIGGER`, installed by a superuser
(:data:`INSTALL`, run by :func:`core.db.roles.provision`) and owned by it,
refuses any ``ALTER TABLE`` that leaves a trigger of the database disabled or
firing only in replica mode, whoever runs it: ``ALTER TABLE … DISABLE TRIGGER`` is
refused to the owner too. The owner may still change the schema (that is what a
migration does), replace a trigger function or drop a trigger; two more event
triggers write every such command, with the role that ran it, to :data:`LOG`, a
table only a superuser can change, and the daily audit lists what was written
since the audit before it. A superuser can switch the event triggers off; the
daily audit then shows them missing or off.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import pgtrigger
from django.apps import apps

from core.db.triggers import StrictTrigger, StrictTriggerSql, truncate_twin

SCHEMA = "cardroom_guard"
EVENT_TRIGGER = "cardroom_triggers_stay_on"
LOG = f"{SCHEMA}.schema_change"
LOG_TRIGGERS = {
    "cardroom_log_schema_change": "ddl_command_end",
    "cardroom_log_schema_drop": "sql_drop",
}


class Cursor(Protocol):
    def execute(self, query: Any, params: Any = ...) -> Any: ...

    def fetchall(self) -> list[tuple[Any, ...]]: ...

    def fetchone(self) -> tuple[Any, ...] | None: ...


# The event triggers and the schema's history, as a superuser installs them; the
# names are those of SCHEMA, EVENT_TRIGGER, LOG and LOG_TRIGGERS above.
INSTALL = [
    "CREATE SCHEMA IF NOT EXISTS cardroom_guard",
    "REVOKE ALL ON SCHEMA cardroom_guard FROM PUBLIC",
    """
    CREATE OR REPLACE FUNCTION cardroom_guard.triggers_stay_on()
    RETURNS event_trigger LANGUAGE plpgsql SET search_path = pg_catalog AS $$
    DECLARE
        switched_off text;
    BEGIN
        SELECT string_agg(format('%I on %s', t.tgname, t.tgrelid::regclass),
                          ', ' ORDER BY t.tgrelid::regclass::text, t.tgname)
          INTO switched_off
          FROM pg_trigger t
         WHERE t.tgenabled IN ('D', 'R');
        IF switched_off IS NOT NULL THEN
            RAISE EXCEPTION
                'cardroom: triggers are never switched off (%)', switched_off
                USING ERRCODE = 'insufficient_privilege',
                      HINT = 'They keep the ledger and the records; README.md, '
                             '"The database''s promises".';
        END IF;
    END $$
    """,
    # The schema's history: every DDL command and by whom, where only a superuser
    # can change it.
    """
    CREATE TABLE IF NOT EXISTS cardroom_guard.schema_change (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT statement_timestamp(),
        role text NOT NULL DEFAULT session_user,
        command text NOT NULL,
        object_type text NOT NULL DEFAULT '',
        object text NOT NULL DEFAULT ''
    )
    """,
    "REVOKE ALL ON cardroom_guard.schema_change FROM PUBLIC",
    """
    CREATE OR REPLACE FUNCTION cardroom_guard.log_schema_change()
    RETURNS event_trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
        -- The app's schema only: provisioning's own objects and grants are not
        -- the books' (and would fill the history at every start).
        IF TG_EVENT = 'sql_drop' THEN
            INSERT INTO cardroom_guard.schema_change (command, object_type, object)
            SELECT 'DROP', object_type, object_identity
              FROM pg_event_trigger_dropped_objects()
             WHERE original AND schema_name = 'public';
        ELSE
            INSERT INTO cardroom_guard.schema_change (command, object_type, object)
            SELECT command_tag, object_type, coalesce(object_identity, '')
              FROM pg_event_trigger_ddl_commands() WHERE schema_name = 'public';
        END IF;
    END $$
    """,
    "REVOKE ALL ON FUNCTION cardroom_guard.log_schema_change() FROM PUBLIC",
    """
    DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_event_trigger
                        WHERE evtname = 'cardroom_triggers_stay_on') THEN
            CREATE EVENT TRIGGER cardroom_triggers_stay_on ON ddl_command_end
                WHEN TAG IN ('ALTER TABLE')
                EXECUTE FUNCTION cardroom_guard.triggers_stay_on();
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_event_trigger
                        WHERE evtname = 'cardroom_log_schema_change') THEN
            CREATE EVENT TRIGGER cardroom_log_schema_change ON ddl_command_end
                EXECUTE FUNCTION cardroom_guard.log_schema_change();
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_event_trigger
                        WHERE evtname = 'cardroom_log_schema_drop') THEN
            CREATE EVENT TRIGGER cardroom_log_schema_drop ON sql_drop
                EXECUTE FUNCTION cardroom_guard.log_schema_change();
        END IF;
    END $$
    """,
    "ALTER EVENT TRIGGER cardroom_triggers_stay_on ENABLE ALWAYS",
    "ALTER EVENT TRIGGER cardroom_log_schema_change ENABLE ALWAYS",
    "ALTER EVENT TRIGGER cardroom_log_schema_drop ENABLE ALWAYS",
]


def grant_read_sql(role: str) -> list[str]:
    """Let ``role`` read the schema's history (the daily audit does)."""
    return [
        f'GRANT USAGE ON SCHEMA {SCHEMA} TO "{role}"',
        f'GRANT SELECT ON {LOG} TO "{role}"',
    ]


def expected() -> dict[str, set[str]]:
    """Every guard trigger the code declares, by table."""
    found: dict[str, set[str]] = {}
    for model, trigger in pgtrigger.registered():
        compiled = trigger.compile(model)
        if not isinstance(compiled, StrictTrigger):
            continue
        names = found.setdefault(model._meta.db_table, set())
        names.add(compiled.sql.pgid)
        sql = compiled.sql
        if isinstance(sql, StrictTriggerSql) and sql._refuses_delete():
            names.add(truncate_twin(sql.pgid))
    for config in apps.get_app_configs():
        declared = getattr(config.models_module, "DATABASE_TRIGGERS", {})
        for table, names in declared.items():
            found.setdefault(table, set()).update(names)
    return found


EVENT_TRIGGERS = (EVENT_TRIGGER, *LOG_TRIGGERS)
_MODES = {"A": "ENABLE ALWAYS", "O": "ENABLE", "R": "ENABLE REPLICA"}


@dataclass(frozen=True, slots=True)
class Guards:
    """What :func:`inspect` found."""

    expected: int
    missing: list[str]  # "trigger on table"
    not_always: list[str]  # "trigger on table (mode)"
    event_triggers: dict[str, str]  # name: "A", "O", "R", "D", or "" when missing

    @property
    def in_place(self) -> bool:
        return (
            not self.missing
            and not self.not_always
            and all(mode == "A" for mode in self.event_triggers.values())
        )


def _event_modes(cursor: Cursor) -> dict[str, str]:
    cursor.execute(
        "SELECT evtname, evtenabled FROM pg_event_trigger WHERE evtname = ANY(%s)",
        [list(EVENT_TRIGGERS)],
    )
    found = {str(name): str(mode) for name, mode in cursor.fetchall()}
    return {name: found.get(name, "") for name in EVENT_TRIGGERS}


def inspect(cursor: Cursor) -> Guards:
    """Compare the guard triggers in the database with :func:`expected`."""
    wanted = expected()
    cursor.execute(
        "SELECT c.relname, t.tgname, t.tgenabled FROM pg_trigger t"
        " JOIN pg_class c ON c.oid = t.tgrelid"
        " WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(%s)",
        [sorted(wanted)],
    )
    present = {(table, name): mode for table, name, mode in cursor.fetchall()}
    missing, not_always = [], []
    for table, names in sorted(wanted.items()):
        for name in sorted(names):
            mode = present.get((table, name))
            if mode is None:
                missing.append(f"{name} on {table}")
            elif mode != "A":
                not_always.append(f"{name} on {table} ({mode})")
    return Guards(
        expected=sum(len(n) for n in wanted.values()),
        missing=missing,
        not_always=not_always,
        event_triggers=_event_modes(cursor),
    )


@dataclass(frozen=True, slots=True)
class SchemaChange:
    id: int
    at: datetime
    role: str
    command: str
    object_type: str
    object: str


def schema_changes(cursor: Cursor, *, after: int = 0) -> list[SchemaChange] | None:
    """The schema's history after the entry ``after``; None when it isn't kept (no
    log, or no right to read it).

    A database set up with one role and no superuser's install has no schema
    :data:`SCHEMA` at all; ``has_schema_privilege`` given its name raises then, so
    it is asked of the schema's row, which a missing schema doesn't have.
    """
    cursor.execute(
        "SELECT coalesce(bool_or(has_schema_privilege(n.oid, 'USAGE')), false)"
        " FROM pg_namespace n WHERE n.nspname = %s",
        [SCHEMA],
    )
    row = cursor.fetchone()
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [LOG])
    log = cursor.fetchone()
    if not (row and row[0] and log and log[0]):
        return None
    cursor.execute(
        f"SELECT id, at, role, command, object_type, object FROM {LOG}"  # noqa: S608
        " WHERE id > %s ORDER BY id",
        [after],
    )
    return [SchemaChange(*r) for r in cursor.fetchall()]


@contextmanager
def suspended(cursor: Cursor, *, truncate_only: bool = False) -> Iterator[None]:
    """Switch the triggers of the database off for the block, then back as they were.

    For a superuser emptying a test's database or loading a scratch one, in one
    database transaction (the caller's): nothing else sees the guards off. With
    ``truncate_only``, only the triggers that refuse TRUNCATE. The event triggers
    are disabled meanwhile, which only a superuser may do; without them installed,
    the tables' owner may.
    """
    events = {n: m for n, m in _event_modes(cursor).items() if m in _MODES}
    cursor.execute(
        "SELECT t.tgrelid::regclass::text, t.tgname, t.tgenabled FROM pg_trigger t"
        " JOIN pg_class c ON c.oid = t.tgrelid"
        " WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace"
        " AND (NOT %s OR t.tgtype & 32 <> 0) AND t.tgenabled <> 'D'",
        [truncate_only],
    )
    switched = cursor.fetchall()
    for name in events:
        cursor.execute(f"ALTER EVENT TRIGGER {name} DISABLE")
    for table, name, _mode in switched:
        cursor.execute(f'ALTER TABLE {table} DISABLE TRIGGER "{name}"')
    yield
    for table, name, mode in switched:
        cursor.execute(f'ALTER TABLE {table} {_MODES[mode]} TRIGGER "{name}"')
    for name, mode in events.items():
        cursor.execute(f"ALTER EVENT TRIGGER {name} {_MODES[mode]}")
