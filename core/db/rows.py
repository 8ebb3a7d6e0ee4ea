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
import select
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.postgresql.base import ServerBindingCursor
from psycopg import errors
from psycopg._preparing import Prepare
from psycopg._queries import PostgresQuery
from psycopg.adapt import Transformer
from psycopg.pq import ConnStatus, ExecStatus, TransactionStatus

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
    """Run ``statements`` in order in one round trip (libpq's pipeline mode);
    return the rows of each.

    PostgreSQL still runs them one after the other, each with a snapshot of its
    own taken when it starts: a statement that waits for a lock delays the next
    one's snapshot until the lock is held. Outside a transaction (autocommit) the
    statements commit together at the end; when no transaction is open yet, the
    ``BEGIN`` that opens the caller's rides in the same round trip. The first
    statement to fail raises (Django's error) and the rest don't run.
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
    noting the statements in the query log.

    Sent through libpq's pipeline mode directly (:func:`_exchange`), in one write
    and one round trip: psycopg's own pipeline starts a transaction with a
    ``BEGIN`` it waits for, and sends each statement in a write of its own
    (benchmarks/README.md, "One write a round trip")."""
    with db.wrap_database_errors:
        return _exchange(db.connection, statements)


class _Sent:
    """What one command of an exchange was, to read its result: the statement's
    place (its rows are kept), and what psycopg's cache of prepared statements
    must be told of it."""

    __slots__ = ("place", "validate")

    def __init__(self, place: int | None = None, validate: Any = None) -> None:
        self.place, self.validate = place, validate


def _exchange(
    conn: Any, statements: Sequence[tuple[str, Sequence[Any] | Mapping[str, Any]]]
) -> list[list[tuple[Any, ...]]]:
    """Run ``statements`` on the psycopg connection ``conn`` in one round trip;
    return the rows of each.

    Every statement is converted and its parameters dumped by psycopg, as a
    cursor would, before anything is sent: a parameter psycopg can't adapt raises
    with nothing sent. Then, in libpq's pipeline mode, the transaction's ``BEGIN``
    when psycopg would send one (the connection not in autocommit and no
    transaction open), each statement, and a Sync go in one write; the results
    are read until the Sync's. Statements are prepared as psycopg's cursors
    prepare them, in psycopg's cache of the connection's prepared statements
    (after ``prepare_threshold`` runs; never when it is ``None``), so the cache's
    upkeep (a rollback deallocates them all) covers these too. The first error is
    raised once all results are read (psycopg's exception, which the caller's
    ``wrap_database_errors`` makes Django's); the statements after it don't run.

    It uses psycopg's own parts as its cursors do (the query's conversion, the
    cache of prepared statements, the transaction's ``BEGIN``), some of them not
    public: pyproject.toml holds psycopg to the minor release these were read in,
    and tests/integration/core/test_rows.py fails if they behave otherwise.
    """
    pgconn = conn.pgconn
    tx = Transformer(conn)
    cache = conn._prepared  # psycopg's, as its cursors use it
    with conn.lock:
        conn._check_connection_ok()  # psycopg's own check
        commands: list[tuple[Callable[[], None], _Sent]] = []
        if not conn.autocommit and pgconn.transaction_status == TransactionStatus.IDLE:
            begin = conn._get_tx_start_command()  # as psycopg starts one
            send_begin = functools.partial(pgconn.send_query_params, begin, None)
            commands.append((send_begin, _Sent()))
        for place, (sql, params) in enumerate(statements):
            query = PostgresQuery(tx)
            query.convert(sql, params)
            prep, name = cache.get(query)
            if prep is Prepare.NO:
                send = functools.partial(
                    pgconn.send_query_params,
                    query.query,
                    query.params,
                    param_types=query.types,
                    param_formats=query.formats,
                )
            else:
                if prep is Prepare.SHOULD:
                    prepare = functools.partial(
                        pgconn.send_prepare, name, query.query, param_types=query.types
                    )
                    commands.append((prepare, _Sent()))
                send = functools.partial(
                    pgconn.send_query_prepared,
                    name,
                    query.params,
                    param_formats=query.formats,
                )
            key = cache.maybe_add_to_cache(query, prep, name)
            validate = (key, prep, name) if key is not None else None
            commands.append((send, _Sent(place, validate)))
        results = _round_trip(pgconn, [send for send, _ in commands])
        found: list[list[tuple[Any, ...]]] = [[] for _ in statements]
        error: errors.Error | None = None
        for (_send, sent), result in zip(commands, results, strict=True):
            if sent.validate is not None:
                cache.validate(*sent.validate, [result])
            if result.status == ExecStatus.FATAL_ERROR and error is None:
                error = errors.error_from_result(result, encoding=pgconn._encoding)
            elif sent.place is not None and result.nfields:
                tx.set_pgresult(result)
                found[sent.place] = tx.load_rows(0, result.ntuples, tuple)
    if error is not None:
        raise error
    return found


def _round_trip(pgconn: Any, sends: Sequence[Callable[[], None]]) -> list[Any]:
    """Send the commands ``sends`` and a Sync in libpq's pipeline mode, in one
    write as long as the socket takes it; return one result for each command."""
    results: list[Any] = []
    poll = select.poll()
    poll.register(pgconn.socket, select.POLLIN)
    pgconn.enter_pipeline_mode()
    try:
        for send in sends:
            send()
        pgconn.pipeline_sync()
        while pgconn.flush():  # more than the socket took: send as it drains
            poll.modify(pgconn.socket, select.POLLIN | select.POLLOUT)
            poll.poll()
            pgconn.consume_input()
        poll.modify(pgconn.socket, select.POLLIN)
        while True:
            while pgconn.is_busy():
                poll.poll()
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:  # the end of one command's results
                continue
            if result.status == ExecStatus.PIPELINE_SYNC:
                break
            results.append(result)
    finally:
        if pgconn.status == ConnStatus.OK:
            try:
                pgconn.exit_pipeline_mode()
            except errors.Error:
                # Results left unread (the exchange broke off): the connection
                # can't serve again; closed, Django opens another.
                pgconn.finish()
    return results


def query_then_commit(
    sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> list[tuple[Any, ...]]:
    """Run ``sql``, the last statement of the caller's transaction, and send
    ``COMMIT`` with it in the same round trip (libpq's pipeline); return its rows.

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
