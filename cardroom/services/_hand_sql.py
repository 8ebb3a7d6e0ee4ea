"""The hand path's statements: what a booking reads under the table's lock and
the one statement that writes it (:mod:`cardroom.services._booking`).

Plain, prepared SQL (core.db.rows): the ORM's Python and PostgreSQL's parsing and
planning were most of a hand's cost, then the statements' round trips
(benchmarks/README.md, "Hand recording over HTTP").
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model

from accounting import bulk, chart
from accounting.models import Player, Transaction
from cardroom import hooks
from cardroom.domain.hand_record import Policy as Rules
from cardroom.domain.hand_record import parse_policy
from cardroom.errors import (
    KEY_REVOKED_TEXT,
    Code,
    unauthenticated,
)
from cardroom.models import (
    Game,
    Hand,
    HandException,
    HandSeat,
    Policy,
    Room,
    SeatSession,
    Table,
    TerminalKey,
)
from cardroom.services._shared import no_table, open_or_refused
from core.db import rows

# -- Reading ---------------------------------------------------------------------


@functools.cache
def _hand_table_sql() -> str:
    keys = TerminalKey._meta.db_table
    return (
        f"SELECT {rows.columns(Table, 't')}, {rows.columns(Room, 'r')},"  # noqa: S608
        f" {rows.columns(Game, 'g')}, p.id, p.xmin::text, k.revoked, k.expiry_date"
        f" FROM {Table._meta.db_table} t"
        f" LEFT JOIN {Room._meta.db_table} r ON r.id = t.room_id"
        f" LEFT JOIN {Game._meta.db_table} g ON g.id = t.game_id"
        f" LEFT JOIN LATERAL (SELECT id, xmin FROM {Policy._meta.db_table}"
        "  WHERE game_id = t.game_id ORDER BY version DESC LIMIT 1) p ON true"
        f" LEFT JOIN {keys} k ON k.id = %(key)s"
        " WHERE t.code = %(code)s FOR UPDATE OF t"
    )


@functools.cache
def _policy(policy_id: int, written_by: str) -> Rules:
    """The engine's reading of policy version ``policy_id``, written by the
    database transaction ``written_by`` (its ``xmin``: the pair names one row of
    one database for good). Versions are append-only (RK7, the database refuses
    an edit), so each is read once."""
    (document,) = Policy.objects.filter(pk=policy_id).values_list("document", flat=True)
    return parse_policy(document)


_PLACES: dict[str, tuple[int, int]] = {}
"""A table's id and its room's by the table's code, as the last booking of the
process found them: what the booking's read needs before the lock's answer."""


def _hand_table(
    code: str,
    key: TerminalKey | None,
    now: datetime,
    context: dict[str, Any] | None = None,
) -> tuple[Table, int, Rules, tuple[Any, ...] | None]:
    """Lock the open table ``code``; return it (room and game read along), the
    id and the engine's reading of its game's policy in force (RK7), and the
    booking's read (:func:`_context_sql`) if it rode along.

    The policy is read in the locking statement, so as it was when the booking
    began; a version published meanwhile applies from the next booking (RK7).
    ``key``, the terminal's key the hands came with, is read again in the same
    statement: revoked or expired since it was verified, it refuses the booking
    (401), so a revocation holds from the next hand in every process. Raises as
    :func:`table_get_open`.

    ``context``, the read's other parameters: when this process has booked at the
    table before, the read is sent with the lock in one round trip
    (:func:`core.db.rows.query_pipelined`). PostgreSQL runs it once the lock is
    held, with a snapshot taken then, so it sees every booking committed before;
    it is used only if the table and its room are still the ones it was sent for.
    """
    params = {"code": code, "key": key.pk if key is not None else None}
    place = _PLACES.get(code) if context is not None else None
    read: tuple[Any, ...] | None = None
    if place is None:
        found = rows.query(_hand_table_sql(), params)
    else:
        assert context is not None
        found, context_rows = rows.query_pipelined(
            [
                (_hand_table_sql(), params),
                _context_statement(*place, context),
            ]
        )
        read = context_rows[0]
    if not found:
        raise no_table(code)
    row = found[0]
    table, at = rows.from_row(Table, row)
    room, at = rows.from_row(Room, row, at)
    game, at = rows.from_row(Game, row, at)
    policy_id, written_by, revoked, expiry = row[at : at + 4]
    if key is not None and revoked is not False:
        raise unauthenticated(Code.KEY_NO_LONGER_VALID, text=KEY_REVOKED_TEXT)
    if key is not None and expiry is not None and expiry <= now:
        raise unauthenticated(Code.KEY_NO_LONGER_VALID)
    table.room = room if table.room_id is not None else None
    table.game = game if table.game_id is not None else None
    open_or_refused(code, table)
    if policy_id is None:
        raise Policy.DoesNotExist(f"{game} has no policy")
    if table.room_id is not None and place != (table.pk, table.room_id):
        _PLACES[code] = (table.pk, table.room_id)
        read = None
    return table, policy_id, _policy(policy_id, written_by), read


@functools.cache
def _sequence(model: type[Model]) -> str:
    """The sequence of ``model``'s ids (read once)."""
    ((name,),) = rows.query(
        "SELECT pg_get_serial_sequence(%s, %s)", [model._meta.db_table, "id"]
    )
    return str(name)


@functools.cache
def _context_sql(pools: str | None) -> str:
    """What a booking reads under the table's lock; ``pools`` is the sub-select
    of the room's jackpot pools (``cardroom.hooks``), if any."""
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
       {bulk.accounts_sql("%(codes)s")},
       ARRAY(SELECT nextval('{_sequence(Transaction)}')
               FROM generate_series(1, %(count)s::integer)),
       ARRAY(SELECT nextval('{_sequence(Hand)}')
               FROM generate_series(1, %(count)s::integer)),
       {pools or "NULL::text"}"""  # noqa: S608


def _context_statement(
    table: int, room: int, params: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The booking's read at the table ``table`` of the room ``room``, with its
    other parameters ``params`` (the accounts' codes, how many ids)."""
    return (
        _context_sql(hooks.jackpot_drop_pools_sql()),
        {**params, "table": table, "room": room},
    )


def _codes_named(table: str, records: Sequence[Any]) -> list[str]:
    """The accounts ``records``' hands would move at ``table``: the stacks of the
    players they name (a name that holds no seat is refused before it matters)
    and the house's."""
    names: set[str] = set()
    for record in records:
        seats = record.get("seats") if isinstance(record, dict) else None
        for seat in seats if isinstance(seats, list) else ():
            player = seat.get("player") if isinstance(seat, dict) else None
            if isinstance(player, str):
                names.add(player)
    return [
        *(chart.player_stack_code(player=p, table=table) for p in sorted(names)),
        chart.RAKE_REVENUE,
        chart.CHIP_FLOAT,
        chart.JACKPOT_DROPS,
        chart.table_rake_box_code(table=table),
        chart.table_jackpot_box_code(table=table),
    ]


# -- Writing -----------------------------------------------------------------------


def _json(value: Any) -> str:
    """``value`` as JSON text for PostgreSQL; orjson, or Django's encoder for what
    orjson can't write (an integer beyond 64 bits in a record's extra field)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, cls=DjangoJSONEncoder)


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


@functools.cache
def _write_sql() -> str:
    """The booking's one write: its postings, hands, seats and exceptions, and the
    sessions' stacks."""
    sessions = SeatSession._meta.db_table
    return (
        f"WITH {bulk.POSTINGS_SQL},"  # noqa: S608
        f" hands AS ({rows.insert_rows_sql(Hand, _HAND_COLUMNS, 'hands')}),"
        f" seats AS ({rows.insert_rows_sql(HandSeat, _SEAT_COLUMNS, 'seats')}),"
        " exceptions AS"
        f" ({rows.insert_rows_sql(HandException, _EXCEPTION_COLUMNS, 'exceptions')})"
        f" UPDATE {sessions} AS s"
        " SET stack_cents = v.stack, last_hand_no = v.hand_no"
        " FROM jsonb_to_recordset(%(stacks)s::jsonb)"
        " AS v (id bigint, stack bigint, hand_no bigint) WHERE s.id = v.id"
    )
