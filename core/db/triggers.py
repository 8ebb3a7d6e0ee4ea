"""django-pgtrigger's triggers without their off switch: the records' own guards.

django-pgtrigger compiles every trigger with a first step that skips it when the
session lists it in the ``pgtrigger.ignore`` setting, which any client may set
(``SET LOCAL pgtrigger.ignore = …``): a paid award could be made open again. The
triggers here are the same (``Protect``, ``ReadOnly``, ``FSM``, and
django-pghistory's ``InsertEvent`` and ``UpdateEvent``) compiled from a template
without that step, and installed ``ENABLE ALWAYS``, so a session in
``session_replication_role = replica`` fires them too. A trigger that refuses
DELETE comes with a twin refusing TRUNCATE (a statement trigger on the same
function): emptying the table is the same loss.

The compiled classes are named in migrations: :class:`StrictTriggerSql`'s template
is version 1 and must never change; a new template is a new class. (``manage.py
pgtrigger ls`` shows these triggers as disabled: it counts only ``ENABLE`` as on.)
"""

from __future__ import annotations

from typing import Any

import pghistory
import pghistory.trigger
import pgtrigger
from django.db import models
from pgtrigger import compiler, utils

TRUNCATE_PREFIX = "no_truncate_"


def truncate_twin(pgid: str) -> str:
    """The name of the TRUNCATE trigger beside the row trigger ``pgid``."""
    name = TRUNCATE_PREFIX + pgid.removeprefix("pgtrigger_")
    if len(name) > 63:
        raise ValueError(f"Trigger name {name} is longer than 63 characters.")
    return name


class StrictTriggerSql(compiler.UpsertTriggerSql):
    """The SQL of a trigger that no session setting skips (template version 1)."""

    def _refuses_delete(self) -> bool:
        return "DELETE" in self.kwargs["operation"].upper() and (
            self.kwargs.get("level", "ROW").upper() == "ROW"
        )

    def get_template(self) -> str:
        twin = ""
        if self._refuses_delete():
            name = truncate_twin(self.kwargs["pgid"])
            twin = f"""
            DROP TRIGGER IF EXISTS {name} ON {{table}};
            CREATE TRIGGER {name}
                BEFORE TRUNCATE ON {{table}}
                FOR EACH STATEMENT EXECUTE PROCEDURE {{execute}};
            ALTER TABLE {{table}} ENABLE ALWAYS TRIGGER {name};
            """
        return (
            """
            CREATE OR REPLACE FUNCTION {pgid}()
            RETURNS TRIGGER AS $$
                {declare}
                BEGIN
                    IF (TG_OP = 'TRUNCATE') THEN
                        RAISE EXCEPTION
                            'pgtrigger: Cannot truncate % table', TG_TABLE_NAME
                            USING ERRCODE = 'restrict_violation';
                    END IF;
                    {func}
                END;
            $$ LANGUAGE plpgsql;

            DROP TRIGGER IF EXISTS {pgid} ON {table};
            CREATE {constraint} TRIGGER {pgid}
                {when} {operation} ON {table}
                {timing}
                {referencing}
                FOR EACH {level} {condition}
                EXECUTE PROCEDURE {execute};
            ALTER TABLE {table} ENABLE ALWAYS TRIGGER {pgid};

            COMMENT ON TRIGGER {pgid} ON {table} IS '{hash}';
            """
            + twin
        )

    def get_defaults(self, pgid: str) -> dict[str, str]:
        defaults = super().get_defaults(pgid)
        del defaults["ignore_func_name"]
        return defaults


class StrictTrigger(compiler.Trigger):
    """A compiled strict trigger: uninstalling it drops its TRUNCATE twin too."""

    @property
    def uninstall_sql(self) -> str:
        sql = super().uninstall_sql
        if isinstance(self.sql, StrictTriggerSql) and self.sql._refuses_delete():
            name = truncate_twin(self.sql.pgid)
            sql += f" DROP TRIGGER IF EXISTS {name} ON {utils.quote(self.sql.table)};"
        return sql

    @property
    def enable_sql(self) -> str:
        return (
            f"ALTER TABLE {utils.quote(self.sql.table)} "
            f"ENABLE ALWAYS TRIGGER {self.sql.pgid};"
        )


class _Strict:
    """Compile with :class:`StrictTriggerSql` instead of pgtrigger's template."""

    def compile(self, model: Any) -> compiler.Trigger:
        compiled = super().compile(model)  # type: ignore[misc]
        kwargs: dict[str, Any] = dict(compiled.sql.kwargs)
        kwargs.pop("ignore_func_name", None)
        return StrictTrigger(name=compiled.name, sql=StrictTriggerSql(**kwargs))


class Protect(_Strict, pgtrigger.Protect):
    """``pgtrigger.Protect`` that no session setting skips."""


class ReadOnly(_Strict, pgtrigger.ReadOnly):
    """``pgtrigger.ReadOnly`` that no session setting skips."""


class FSM(_Strict, pgtrigger.FSM):
    """``pgtrigger.FSM`` that no session setting skips."""


class _StrictEvent(_Strict, pghistory.trigger.Event):
    """django-pghistory's event trigger that no session setting skips."""


class _StrictRowEvent(pghistory.RowEvent):
    def add_event_trigger(self, event_model: type[models.Model]) -> None:
        pgtrigger.register(
            _StrictEvent(
                event_model=event_model,
                label=self.label,
                name=self.trigger_name,
                row=self.row,
                operation=self.operation,
                condition=self.condition,
                level=self.level,
            )
        )(event_model.pgh_tracked_model)  # type: ignore[attr-defined]


class InsertEvent(_StrictRowEvent, pghistory.InsertEvent):
    """``pghistory.InsertEvent`` whose trigger no session setting skips: a change
    of a tracked model always leaves its history."""


class UpdateEvent(_StrictRowEvent, pghistory.UpdateEvent):
    """``pghistory.UpdateEvent`` whose trigger no session setting skips."""
