"""Every statement a hand's booking sends, and the rows it reads and writes.

Each statement is written here whole; ``docs/sql/hand/*.sql`` shows it as
PostgreSQL gets it (``tests/integration/cardroom/test_hand_sql.py`` fails when the
two differ; ``UPDATE_SQL=1`` writes the files again). A hand posted alone is five
statements in two round trips (``tests/api/floor/test_hands.py`` pins them):
``BEGIN``, :func:`lock_sql` and :func:`read_sql` in one pipeline once the process
knows the table, then :func:`write_sql` with the ``COMMIT``. Now and then also:
a policy version's document (:func:`policy_sql`, once a version in a process), the
sequences the ids come from (:func:`sequence_sql`, once a process), the hand booked
before under a repeated number (:func:`hand_sql`), the stack reviews of an HS6
hold (:func:`stack_reviews_sql`).

Not here, as they are the ledger's: an account opened on its first use and an HS6
hold posted go through :mod:`accounting.posting` with the ledger's own checks.

Plain, prepared SQL (:mod:`core.db.rows`): the ORM's Python and PostgreSQL's
parsing and planning were most of a hand's cost, then the statements' round trips
(benchmarks/README.md, "Hand recording over HTTP"). The write puts the ledger's
transactions and entries in the ledger's own tables, so every trigger and
constraint of the ledger fires as for :func:`accounting.services.transaction_post`:
``ledger_transaction_stamp``, ``ledger_entry_apply`` moving the balances and
refusing an overdraft, the deferred ``ledger_transaction_balanced`` at the commit;
the postings were netted and checked by :class:`accounting.bulk.Postings` first.
"""

from __future__ import annotations

import functools
import json
import textwrap
from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import Model

from accounting import chart
from accounting.models import Account, Entry, Player, Transaction
from accounting.services import AccountRow, Postings, account_json
from cardroom import hooks
from cardroom.domain.hand_record import Policy as Rules
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.postings import Frozen, HandPlan, Sitting
from cardroom.models import (
    Game,
    Hand,
    HandException,
    HandSeat,
    Policy,
    Room,
    SeatSession,
    StackReview,
    Table,
    TerminalKey,
)
from core.db import rows

# -- The statements ----------------------------------------------------------------


@functools.cache
def lock_sql() -> str:
    """Lock the table ``%(code)s``; read its room, its game, the id and ``xmin``
    of its game's policy in force and whether the terminal's key ``%(key)s`` was
    revoked or expired since it was verified."""
    return f"""
SELECT {rows.columns(Table, "t")},
       {rows.columns(Room, "r")},
       {rows.columns(Game, "g")},
       p.id, p.xmin::text, k.revoked, k.expiry_date
  FROM {Table._meta.db_table} t
  LEFT JOIN {Room._meta.db_table} r ON r.id = t.room_id
  LEFT JOIN {Game._meta.db_table} g ON g.id = t.game_id
  LEFT JOIN LATERAL (SELECT id, xmin FROM {Policy._meta.db_table}
                      WHERE game_id = t.game_id ORDER BY version DESC LIMIT 1) p
         ON true
  LEFT JOIN {TerminalKey._meta.db_table} k ON k.id = %(key)s
 WHERE t.code = %(code)s
   FOR UPDATE OF t"""  # noqa: S608


@functools.cache
def read_sql(pools: str | None) -> str:
    """Under the table's lock: lock its open sessions and read them, its last hand
    number, the accounts ``%(codes)s``, ``%(count)s`` ids each for ledger
    transactions and hands, and ``pools``, the sub-select of the room's jackpot
    pools the drop's legs are asked with (:func:`cardroom.hooks.jackpot_drop_legs`)."""
    sessions, players = SeatSession._meta.db_table, Player._meta.db_table
    hands = Hand._meta.db_table
    return f"""
WITH s AS (
    SELECT s.id, s.seat, s.player_id, p.code, s.stack_cents,
           s.must_leave_at IS NOT NULL AS leaving
      FROM {sessions} s JOIN {players} p ON p.id = s.player_id
     WHERE s.table_id = %(table)s AND s.ended_at IS NULL
     ORDER BY s.id FOR UPDATE OF s
)
SELECT (SELECT max(hand_no) FROM {hands} WHERE table_id = %(table)s),
       (SELECT coalesce(json_agg(json_build_array(id, seat, player_id, code,
                                                  stack_cents, leaving)
                                 ORDER BY id),
                        '[]')::text FROM s),
       (SELECT coalesce(json_agg({account_json("a")}), '[]')::text
          FROM {Account._meta.db_table} a WHERE a.code = ANY(%(codes)s::text[])),
       ARRAY(SELECT nextval('{_sequence(Transaction)}')
               FROM generate_series(1, %(count)s::integer)),
       ARRAY(SELECT nextval('{_sequence(Hand)}')
               FROM generate_series(1, %(count)s::integer)),
       {pools or "NULL::text"}"""  # noqa: S608


_HAND_COLUMNS = (
    "id",
    "table_id",
    "hand_no",
    "game_id",
    "policy_id",
    "gaming_day",
    "started_at",
    "ended_at",
    "record",
    "record_hash",
    "settlement",
    "pot_cents",
    "rake_cents",
    "jackpot_drop_cents",
    "participants",
    "status",
    "ledger_transaction_id",
    "source",
    "created_at",
)
_SEAT_COLUMNS = (
    "hand_id",
    "seat",
    "player_id",
    "session_id",
    "stack_cents",
    "put_in_cents",
    "returned_cents",
    "won_cents",
    "final_stack_cents",
    "present",
    "folded",
    "cards",
    "description",
)
_EXCEPTION_COLUMNS = (
    "hand_id",
    "kind",
    "details",
    "status",
    "created_at",
    "resolution",
)
_REVIEW_COLUMNS = (
    "hand_id",
    "table_id",
    "session_id",
    "player_id",
    "seat",
    "reported_cents",
    "recorded_cents",
    "amount_cents",
    "status",
    "resolution",
    "reason",
    "created_at",
    "hold_transaction_id",
)


@functools.cache
def write_sql() -> str:
    """The booking's one write: its ledger transactions and their entries (each
    entry in the order the postings gave it, so a batch moves every balance
    through the same steps as posting them one after another), its hands, their
    seats and exceptions, and the sessions' stacks."""
    sessions = SeatSession._meta.db_table
    return f"""
WITH ledger_transactions AS (
    INSERT INTO {Transaction._meta.db_table}
           (id, kind, reference, external_id, memo, source, posted_at,
            posted_by_id, xact_id)
    SELECT id, kind, reference, external_id, '', source, posted_at, posted_by, 0
      FROM jsonb_to_recordset(%(ledger_transactions)s::jsonb)
        AS r (id bigint, kind text, reference text, external_id text, source text,
              posted_at timestamptz, posted_by integer)
),
ledger_entries AS (
    INSERT INTO {Entry._meta.db_table}
           (transaction_id, account_id, amount_cents, currency)
    SELECT t, a, c, k
      FROM ROWS FROM (jsonb_to_recordset(%(ledger_entries)s::jsonb)
                      AS (t bigint, a bigint, c bigint, k text))
           WITH ORDINALITY AS r (t, a, c, k, n)
     ORDER BY n
),
hands AS (
{_insert_sql(Hand, _HAND_COLUMNS, "hands")}
),
seats AS (
{_insert_sql(HandSeat, _SEAT_COLUMNS, "seats")}
),
exceptions AS (
{_insert_sql(HandException, _EXCEPTION_COLUMNS, "exceptions")}
)
UPDATE {sessions} AS s
   SET stack_cents = v.stack, last_hand_no = v.hand_no
  FROM jsonb_to_recordset(%(stacks)s::jsonb) AS v (id bigint, stack bigint,
                                                   hand_no bigint)
 WHERE s.id = v.id"""  # noqa: S608


@functools.cache
def policy_sql() -> str:
    """The document of the policy version ``%(id)s``."""
    return f"SELECT document FROM {Policy._meta.db_table} WHERE id = %(id)s"  # noqa: S608


@functools.cache
def sequence_sql() -> str:
    """The sequence a table's ids come from."""
    return "SELECT pg_get_serial_sequence(%(table)s, 'id')"


@functools.cache
def hand_sql() -> str:
    """The hand ``%(hand_no)s`` of the table ``%(table)s``, if it was booked."""
    return f"""
SELECT {rows.columns(Hand, "h")}
  FROM {Hand._meta.db_table} h
 WHERE h.table_id = %(table)s AND h.hand_no = %(hand_no)s"""  # noqa: S608


@functools.cache
def stack_reviews_sql() -> str:
    """The stack reviews of a hand's HS6 holds."""
    return _insert_sql(StackReview, _REVIEW_COLUMNS, "reviews").strip()


def statements() -> dict[str, str]:
    """Each statement by name, as it is sent (docs/sql/hand)."""
    return {
        "lock": lock_sql(),
        "read": read_sql(hooks.jackpot_drop_pools_sql()),
        "write": write_sql(),
        "policy": policy_sql(),
        "sequence": sequence_sql(),
        "hand": hand_sql(),
        "stack_reviews": stack_reviews_sql(),
    }


def _insert_sql(model: type[Model], attnames: tuple[str, ...], param: str) -> str:
    """An ``INSERT`` of ``model``'s rows given as the JSON array ``%(param)s``, its
    columns ``attnames`` typed as the model's fields are."""
    fields = {f.attname: f for f in model._meta.concrete_fields}
    chosen = [fields[name] for name in attnames]
    names = ", ".join(f'"{f.column}"' for f in chosen)
    # A column and its type stay on one line (a no-break space until wrapped).
    types = ", ".join(
        f'"{f.column}" {f.db_type(connection)}'.replace(" ", "\xa0") for f in chosen
    )
    return f"""    INSERT INTO {model._meta.db_table}
           ({_wrapped(names, 12)})
    SELECT {_wrapped(names, 11)}
      FROM jsonb_to_recordset(%({param})s::jsonb)
        AS r ({_wrapped(types, 14)})"""  # noqa: S608


def _wrapped(text: str, indent: int) -> str:
    """``text`` in lines of at most 88 columns, the next ones ``indent`` in."""
    return (
        textwrap.fill(
            text,
            width=88,
            initial_indent=" " * indent,
            subsequent_indent=" " * indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
        .lstrip()
        .replace("\xa0", " ")
    )


@functools.cache
def _sequence(model: type[Model]) -> str:
    """The sequence of ``model``'s ids (asked once a process)."""
    ((name,),) = rows.query(sequence_sql(), {"table": model._meta.db_table})
    return str(name)


# -- Locking the table and reading what the hands need -----------------------------


class Read(NamedTuple):
    """What a booking reads under the table's lock (:func:`read_sql`)."""

    last: int | None
    sittings: dict[int, Sitting]
    """The open sessions, by seat."""
    accounts: dict[str, AccountRow]
    """The accounts asked for that exist, by code."""
    ids: list[tuple[int, int]]
    """Ids of a ledger transaction and a hand, for as many hands."""
    pools: str | None
    """The room's jackpot pools, as the drop's hook reads them."""


class Locked(NamedTuple):
    """The table locked (its room and game set), its policy in force and the
    terminal key's state, read by :func:`lock_sql`; the booking's read if it
    rode along."""

    table: Table
    policy_id: int | None
    policy_written_by: str | None
    key_revoked: bool | None
    key_expiry: datetime | None
    read: Read | None


PLACES: dict[str, tuple[int, int]] = {}
"""A table's id and its room's by the table's code, as the last booking of the
process found them: what the booking's read needs before the lock's answer."""


def _read_params(table: str, records: Sequence[Any]) -> dict[str, Any]:
    """The read's parameters for ``records`` at ``table``, but the table's and
    the room's ids: the accounts their hands would move (the stacks of the
    players they name, a name that holds no seat being refused before it
    matters, and the house's) and how many ids."""
    names: set[str] = set()
    for record in records:
        seats = record.get("seats") if isinstance(record, dict) else None
        for seat in seats if isinstance(seats, list) else ():
            player = seat.get("player") if isinstance(seat, dict) else None
            if isinstance(player, str):
                names.add(player)
    codes = [
        *(chart.player_stack_code(player=p, table=table) for p in sorted(names)),
        chart.RAKE_REVENUE,
        chart.CHIP_FLOAT,
        chart.JACKPOT_DROPS,
        chart.table_rake_box_code(table=table),
        chart.table_jackpot_box_code(table=table),
    ]
    return {"codes": codes, "count": max(1, len(records))}


def table_lock(code: str, key: str | None, records: Sequence[Any]) -> Locked | None:
    """Lock the table ``code`` (:func:`lock_sql`) for booking ``records``; ``None``
    when there is none. ``key``: the terminal key's id the records came with.

    When this process has booked at the table before, the booking's read
    (:func:`booking_read`) is sent with the lock in one round trip
    (:func:`core.db.rows.query_pipelined`). PostgreSQL runs it once the lock
    is held, with a snapshot taken then, so it sees every booking committed
    before; it is kept only if the table and its room are still the ones it was
    sent for.
    """
    lock = (lock_sql(), {"code": code, "key": key})
    place = PLACES.get(code)
    read: list[tuple[Any, ...]] | None = None
    if place is None:
        found = rows.query(*lock)
    else:
        statement = _read_statement(*place, _read_params(code, records))
        found, read = rows.query_pipelined([lock, statement])
    if not found:
        return None
    row = found[0]
    table, at = rows.from_row(Table, row)
    room, at = rows.from_row(Room, row, at)
    game, at = rows.from_row(Game, row, at)
    policy_id, written_by, revoked, expiry = row[at : at + 4]
    table.room = room if table.room_id is not None else None
    table.game = game if table.game_id is not None else None
    if table.room_id is not None and place != (table.pk, table.room_id):
        PLACES[code] = (table.pk, table.room_id)
        read = None
    return Locked(
        table,
        policy_id,
        written_by,
        revoked,
        expiry,
        _read_of(read[0]) if read else None,
    )


def booking_read(table: Table, records: Sequence[Any]) -> Read:
    """Read what the hands of ``records`` need at ``table`` (:func:`read_sql`),
    the table locked."""
    assert table.room_id is not None
    params = _read_params(table.code, records)
    (row,) = rows.query(*_read_statement(table.pk, table.room_id, params))
    return _read_of(row)


def _read_statement(
    table: int, room: int, params: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    return (
        read_sql(hooks.jackpot_drop_pools_sql()),
        {**params, "table": table, "room": room},
    )


def _read_of(row: tuple[Any, ...]) -> Read:
    last, sittings, accounts, txn_ids, hand_ids, pools = row
    return Read(
        last,
        {r[1]: Sitting(*r) for r in orjson.loads(sittings)},
        {a[1]: AccountRow(*a) for a in orjson.loads(accounts)},
        list(zip(txn_ids, hand_ids, strict=True)),
        pools,
    )


@functools.cache
def policy_rules(policy_id: int, written_by: str) -> Rules:
    """The engine's reading of policy version ``policy_id`` (:func:`policy_sql`),
    written by the database transaction ``written_by`` (its ``xmin``: the pair
    names one row of one database for good). Versions are append-only (RK7, the
    database refuses an edit), so each is read once a process."""
    ((document,),) = rows.query(policy_sql(), {"id": policy_id})
    return parse_policy(json.loads(document) if isinstance(document, str) else document)


def hand_get(table: int, hand_no: int) -> Hand | None:
    """The hand ``hand_no`` booked at the table ``table``, if any (:func:`hand_sql`)."""
    found = rows.query(hand_sql(), {"table": table, "hand_no": hand_no})
    return rows.from_row(Hand, found[0])[0] if found else None


# -- Writing ---------------------------------------------------------------------


def booking_write(
    hands: Sequence[tuple[Hand, HandPlan]],
    postings: Postings,
    *,
    created_at: datetime,
    last: bool,
) -> None:
    """Write ``hands`` as planned, with ``postings``, in one statement
    (:func:`write_sql`); their exceptions open, raised at ``created_at``. ``last``:
    the statement ends the caller's transaction, and its commit may travel with
    it (:func:`core.db.rows.query_then_commit`).

    Raises Django's :class:`~django.db.IntegrityError` when the database refuses
    a row (an overdraft: the ledger's ``account_non_negative_balance``).
    """
    rows_of_hands, seats, exceptions, stacks = [], [], [], {}
    for hand, planned in hands:
        rows_of_hands.append({name: getattr(hand, name) for name in _HAND_COLUMNS})
        seats += [{"hand_id": hand.pk, **row} for row in planned.seat_rows]
        exceptions += [
            {
                "hand_id": hand.pk,
                "kind": e["code"],
                "details": e,
                "status": HandException.Status.OPEN,
                "created_at": created_at,
                "resolution": "",
            }
            for e in planned.exceptions
        ]
        # A session's stack as the last of the hands left it.
        stacks.update({s[0]: s for s in planned.stacks})
    params = {
        "ledger_transactions": _json(postings.transactions),
        "ledger_entries": _json(postings.entries),
        "hands": _json(rows_of_hands),
        "seats": _json(seats),
        "exceptions": _json(exceptions),
        "stacks": _json(
            [{"id": i, "stack": s, "hand_no": n} for i, s, n in stacks.values()]
        ),
    }
    (rows.query_then_commit if last else rows.query)(write_sql(), params)


def stack_reviews_insert(
    hand: Hand, frozen: Sequence[Frozen], holds: Sequence[Transaction], at: datetime
) -> None:
    """Open a stack review, raised ``at``, for each ``frozen`` difference of
    ``hand`` and its hold (:func:`stack_reviews_sql`, HS6)."""
    reviews = [
        {
            "hand_id": hand.pk,
            "table_id": hand.table_id,
            "session_id": f.sitting.session_id,
            "player_id": f.sitting.player_id,
            "seat": f.sitting.seat,
            "reported_cents": f.reported,
            "recorded_cents": f.held,
            "amount_cents": f.held - f.reported,
            "status": StackReview.Status.OPEN,
            "resolution": "",
            "reason": "",
            "created_at": at,
            "hold_transaction_id": hold.pk,
        }
        for f, hold in zip(frozen, holds, strict=True)
    ]
    rows.query(stack_reviews_sql(), {"reviews": _json(reviews)})


def _json(value: Any) -> str:
    """``value`` as JSON text for PostgreSQL; orjson, or Django's encoder for what
    orjson can't write (an integer beyond 64 bits in a record's extra field)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, cls=DjangoJSONEncoder)
