"""Model rows read and written with plain, prepared SQL, for the paths that run all
night: a hand's booking and a terminal's authentication.

On the development VM the ORM spends about a millisecond of Python building each
SELECT and a bulk INSERT, and PostgreSQL parses and plans every statement it is
sent, several times the cost of running it (benchmarks/README.md, "Hand recording
over HTTP"). Here the statements are written once, PostgreSQL binds their
parameters, and psycopg prepares a statement once it has run ``prepare_threshold``
times on a connection (``DATABASES["default"]["OPTIONS"]``; None: never).

What the ORM guarantees is kept: column names and types come from the models'
``_meta``; rows become instances through ``Model.from_db`` after each field's
``from_db_value``; an insert runs each field's ``pre_save`` and
``get_db_prep_save``; errors are Django's (``IntegrityError``…); statements are
logged when Django logs queries (``CaptureQueriesContext``, ``DEBUG``). They go
straight to psycopg, past Django's execute wrappers: pghistory's prefixes a second
command to each statement while its context is active, which a prepared statement
can't hold, so these functions must not write a table pghistory tracks (its triggers
would miss the context); reading one is fine.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.postgresql.base import ServerBindingCursor

M = TypeVar("M", bound=models.Model)


def _usable() -> Any:
    """The connection of this thread, open and not in a broken transaction; looked
    up once (each attribute of ``django.db.connection`` looks it up again)."""
    db = connections[DEFAULT_DB_ALIAS]
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_no_broken_transaction()
    return db


def _rows(cursor: Any) -> list[tuple[Any, ...]]:
    """The rows of ``cursor``'s statement: whether it gave rows is asked without
    psycopg's ``description``, which builds a column object for each column of
    every result."""
    result = cursor.pgresult
    return cursor.fetchall() if result is not None and result.nfields else []


def _log(db: Any, sqls: Sequence[str], started: float) -> None:
    """Note ``sqls`` as Django notes its queries, when it does."""
    if db.queries_logged:
        took = f"{time.monotonic() - started:.3f}"
        db.queries_log.extend({"sql": sql, "time": took} for sql in sqls)


def query(
    sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> list[tuple[Any, ...]]:
    """Run one statement, its parameters bound by PostgreSQL; return its rows.

    ``params`` fill ``%s`` in order, or ``%(name)s`` by name.
    """
    db = _usable()
    started = time.monotonic()
    with (
        db.wrap_database_errors,
        ServerBindingCursor(db.connection) as cursor,  # type: ignore[call-arg, attr-defined]  # the stubs miss its psycopg base
    ):
        cursor.execute(sql, params)
        found = _rows(cursor)
    _log(db, [sql], started)
    return found


def query_pipelined(
    statements: Sequence[tuple[str, Sequence[Any] | Mapping[str, Any]]],
) -> list[list[tuple[Any, ...]]]:
    """Run ``statements`` in order in one round trip (psycopg's pipeline mode);
    return the rows of each.

    PostgreSQL still runs them one after the other, each with a snapshot of its
    own taken when it starts: a statement that waits for a lock delays the next
    one's snapshot until the lock is held. Outside a transaction (autocommit) the
    statements commit together at the end; in one, psycopg's ``BEGIN`` rides in
    the same round trip. The first statement to fail raises (Django's error) and
    the rest don't run.
    """
    db = _usable()
    started = time.monotonic()
    found = _pipelined(db, statements)
    _log(db, [sql for sql, _ in statements], started)
    return found


def _pipelined(
    db: Any, statements: Sequence[tuple[str, Sequence[Any] | Mapping[str, Any]]]
) -> list[list[tuple[Any, ...]]]:
    """:func:`query_pipelined` on the connection ``db``, already checked, without
    noting the statements in the query log."""
    with db.wrap_database_errors:
        # ServerBindingCursor: the stubs miss its psycopg base.
        cursors: list[Any] = [ServerBindingCursor(db.connection) for _ in statements]  # type: ignore[call-arg]
        with db.connection.pipeline():
            for cursor, (sql, params) in zip(cursors, statements, strict=True):
                cursor.execute(sql, params)
        found = [_rows(cursor) for cursor in cursors]
        for cursor in cursors:
            cursor.close()
    return found


def query_then_commit(
    sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> list[tuple[Any, ...]]:
    """Run ``sql``, the last statement of the caller's transaction, and send
    ``COMMIT`` with it in the same round trip (psycopg's pipeline); return its rows.

    Only when that transaction is the caller's own outermost ``atomic`` block that
    commits on exit: then Django's commit, when the block ends, finds the
    transaction committed and sends nothing, and the ``on_commit`` functions run as
    they would. Inside a savepoint or a transaction the caller opened with
    autocommit off this is :func:`query`, and the commit is left to the caller (a
    block marked for rollback runs no statement at all). If ``sql``
    fails, ``COMMIT`` isn't run and the error (Django's) leaves the transaction to
    roll back as any failed statement does; if ``COMMIT`` fails (a deferred
    constraint), it rolls back and raises. The block must run no statement after
    this one. Django notes its ``COMMIT`` when the block ends, as for any block,
    so the query log holds the statement alone here.
    """
    db = _usable()
    if not (db.in_atomic_block and db.commit_on_exit and len(db.atomic_blocks) == 1):
        # Through query itself: the one way a lone statement goes.
        return query(sql, params)
    started = time.monotonic()
    found, _commit = _pipelined(db, [(sql, params), ("COMMIT", ())])
    _log(db, [sql], started)
    return found


@functools.cache
def _fields(model: type[models.Model]) -> tuple[models.Field, ...]:
    return tuple(model._meta.concrete_fields)


@functools.cache
def _attnames(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in _fields(model))


@functools.cache
def _converters(
    model: type[models.Model],
) -> tuple[tuple[int, Callable[..., Any]], ...]:
    return tuple(
        (i, f.from_db_value)
        for i, f in enumerate(_fields(model))
        if hasattr(f, "from_db_value")
    )


def columns(model: type[models.Model], alias: str) -> str:
    """Return the select list of every concrete column of ``model`` as ``alias``."""
    return ", ".join(f'{alias}."{f.column}"' for f in _fields(model))


def from_row(model: type[M], row: Sequence[Any], start: int = 0) -> tuple[M, int]:
    """Build ``model`` from ``row[start:]`` selected by :func:`columns`.

    Return the instance and the index where the next model's columns begin.
    """
    end = start + len(_fields(model))
    values = list(row[start:end])
    for i, convert in _converters(model):
        values[i] = convert(values[i], None, connection)
    return model.from_db(DEFAULT_DB_ALIAS, _attnames(model), values), end


@functools.cache
def _insert_one(model: type[models.Model]) -> tuple[tuple[models.Field, ...], str]:
    pk = model._meta.pk
    assert pk is not None and isinstance(pk, models.AutoField | models.BigAutoField)
    fields = tuple(f for f in _fields(model) if f is not pk)
    names = ", ".join(f'"{f.column}"' for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = (
        f"INSERT INTO {model._meta.db_table} ({names}) VALUES ({marks})"  # noqa: S608
        f' RETURNING "{pk.column}"'
    )
    return fields, sql


def insert(obj: models.Model) -> None:
    """Insert the new ``obj`` as ``obj.save(force_insert=True)`` would.

    Each field's ``pre_save`` (``auto_now_add``) and ``get_db_prep_save`` give the
    values; the primary key (auto) is read back. No signals are sent, and related
    objects must be saved before they are assigned.
    """
    fields, sql = _insert_one(type(obj))
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    ((obj.pk,),) = query(sql, values)
    obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


@functools.cache
def _insert_rows(model: type[models.Model], attnames: tuple[str, ...]) -> str:
    fields = {f.attname: f for f in _fields(model)}
    chosen = [fields[name] for name in attnames]
    names = ", ".join(f'"{f.column}"' for f in chosen)
    types = ", ".join(f'"{f.column}" {f.db_type(connection)}' for f in chosen)
    return (
        f"INSERT INTO {model._meta.db_table} ({names})"  # noqa: S608
        f" SELECT {names} FROM jsonb_to_recordset(%s::jsonb) AS r ({types})"
    )


@functools.cache
def insert_rows_sql(
    model: type[models.Model], attnames: tuple[str, ...], param: str
) -> str:
    """The ``INSERT`` of :func:`insert_rows` with its rows in the JSON array
    parameter ``%(param)s``, for a ``WITH`` list writing several tables at once."""
    return _insert_rows(model, attnames).replace("%s", f"%({param})s")


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but times to the microsecond (it keeps milliseconds)."""

    def default(self, o: Any) -> Any:
        if hasattr(o, "isoformat"):
            return o.isoformat()
        return super().default(o)


def insert_rows(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` (values by field attname, the same keys in each) at once.

    The rows travel as one JSON document, which costs a fraction of the ORM's bulk
    insert; a value is what JSON can carry (numbers, booleans, text, dates and
    times as ISO text) and, for a ``JSONField``, the document itself. No
    ``save()``, no signals, no field defaults: give every column without a
    database default. PostgreSQL's constraints and triggers run as for any insert.
    """
    if rows:
        query(_insert_rows(model, tuple(rows[0])), [json.dumps(rows, cls=_Encoder)])
