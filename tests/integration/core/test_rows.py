"""Plain, prepared SQL for the hot paths (core.db.rows) keeps the ORM's guarantees."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import (
    DEFAULT_DB_ALIAS,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.test.utils import CaptureQueriesContext
from psycopg.pq import TransactionStatus

from cardroom.models import Game, Policy, Room
from core.db import rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def policy() -> Policy:
    room = Room.objects.create(
        code="main", name="Room", time_zone="Europe/Helsinki", currency="EUR"
    )
    game = Game.objects.create(
        room=room,
        code="NLHE",
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=4_000,
    )
    return Policy.objects.create(game=game, version=1, document={"rake": {"cap": 5}})


def test_rows_read_back_as_the_orm_reads_them(policy):
    """from_row: every field, JSON decoded, the instance saved and usable."""
    found = rows.query(
        f"SELECT {rows.columns(Policy, 'p')} FROM {Policy._meta.db_table} p"
        " WHERE p.id = %s",
        [policy.pk],
    )
    read, end = rows.from_row(Policy, found[0])
    orm = Policy.objects.get(pk=policy.pk)
    assert end == len(Policy._meta.concrete_fields)
    assert read.document == {"rake": {"cap": 5}}
    assert [getattr(read, f.attname) for f in Policy._meta.concrete_fields] == [
        getattr(orm, f.attname) for f in Policy._meta.concrete_fields
    ]
    assert not read._state.adding and read.game.code == "NLHE"


def test_insert_writes_what_save_would(policy):
    """insert: auto_now_add set, JSON stored as JSON, the new key read back."""
    added = Policy(game=policy.game, version=2, document={"a": [1, None]})
    rows.insert(added)
    assert added.pk and not added._state.adding and added.created_at is not None
    stored = Policy.objects.get(pk=added.pk)
    assert stored.document == {"a": [1, None]}
    assert stored.created_at == added.created_at


def test_insert_rows_keeps_microseconds_and_json(policy):
    """insert_rows: times to the microsecond, JSON documents as JSON."""
    at = datetime(2026, 11, 29, 21, 0, 0, 654_321, tzinfo=UTC)
    rows.insert_rows(
        Policy,
        [
            {
                "game_id": policy.game_id,
                "version": n,
                "document": {"n": n, "none": None},
                "created_at": at,
                "created_by_id": None,
            }
            for n in (2, 3)
        ],
    )
    assert list(
        Policy.objects.filter(version__gt=1)
        .order_by("version")
        .values_list("document", "created_at")
    ) == [({"n": 2, "none": None}, at), ({"n": 3, "none": None}, at)]


def test_database_refusals_are_djangos_errors(policy):
    """A constraint failing in a plain statement raises django.db.IntegrityError."""
    again = {
        "game_id": policy.game_id,
        "version": 1,
        "document": {},
        "created_at": policy.created_at,
        "created_by_id": None,
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert_rows(Policy, [again])
    assert Policy.objects.count() == 1


def test_statements_are_logged_and_prepared_after_five_runs():
    """Captured like the ORM's queries; prepared from the fifth run on
    (DATABASES OPTIONS prepare_threshold), so PostgreSQL plans them once."""
    sql = "SELECT %s::int + 41"
    with CaptureQueriesContext(connection) as captured:
        answers = [rows.query(sql, [n])[0][0] for n in range(1, 7)]
    assert answers == [42, 43, 44, 45, 46, 47]
    assert [q["sql"] for q in captured.captured_queries] == [sql] * 6
    prepared = rows.query(
        "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
        ["%$1::int + 41%"],
    )
    assert prepared == [(1,)]


def test_statements_in_one_round_trip_run_in_order_each_with_its_rows(policy):
    """query_pipelined: each statement's rows (none for a write), in order, each
    seeing what the one before it did; logged like query's."""
    rooms = Room._meta.db_table
    room = policy.game.room_id
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        found = rows.query_pipelined(
            [
                (f"UPDATE {rooms} SET name = %s WHERE id = %s", ["Salon", room]),
                (f"SELECT name FROM {rooms} WHERE id = %(id)s", {"id": room}),
                ("SELECT %s::int, %s::text", [7, "seven"]),
            ]
        )
    assert found == [[], [("Salon",)], [(7, "seven")]]
    logged = [q["sql"] for q in captured.captured_queries]
    assert [s for s in logged if "SAVEPOINT" not in s] == [
        f"UPDATE {rooms} SET name = %s WHERE id = %s",
        f"SELECT name FROM {rooms} WHERE id = %(id)s",
        "SELECT %s::int, %s::text",
    ]


def test_a_statement_failing_in_one_round_trip_raises_djangos_error(policy):
    """The first failing statement raises (IntegrityError); the rest don't run and
    the transaction is rolled back."""
    policies, rooms = Policy._meta.db_table, Room._meta.db_table
    again = (
        f"INSERT INTO {policies} (game_id, version, document, created_at)"
        " VALUES (%s, 1, '{}', now())"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.query_pipelined(
            [
                (again, [policy.game_id]),
                (
                    f"UPDATE {rooms} SET name = 'Salon' WHERE id = %s",
                    [policy.game.room_id],
                ),
            ]
        )
    assert Room.objects.get().name == "Room" and Policy.objects.count() == 1


def _committed_name(room_id: int) -> str:
    """The room's name as another connection reads it: what is committed."""
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with other.cursor() as cursor:
            cursor.execute(
                f"SELECT name FROM {Room._meta.db_table} WHERE id = %s",
                [room_id],
            )
            (name,) = cursor.fetchone()
    finally:
        other.close()
    return name


@pytest.mark.django_db(transaction=True)
def test_the_last_statement_of_the_outermost_block_commits_with_it(policy):
    """query_then_commit in the outermost atomic block: the statement and its
    COMMIT go in one round trip, so the block's work is committed before it ends;
    Django's own commit then sends nothing and the on_commit functions run once,
    after the block."""
    room = policy.game.room_id
    heard: list[str] = []
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        transaction.on_commit(lambda: heard.append("committed"))
        Room.objects.filter(pk=room).update(code="salon")
        rows.query_then_commit(
            f"UPDATE {Room._meta.db_table} SET name = %s WHERE id = %s",
            ["Salon", room],
        )
        assert connection.connection.info.transaction_status == TransactionStatus.IDLE
        assert _committed_name(room) == "Salon" and heard == []
    assert heard == ["committed"]
    assert Room.objects.get(pk=room).code == "salon"
    sent = [q["sql"] for q in captured.captured_queries]
    assert sent[-2:] == [
        f"UPDATE {Room._meta.db_table} SET name = %s WHERE id = %s",
        "COMMIT",  # Django's, at the block's end: one COMMIT a transaction
    ]
    assert sent.count("COMMIT") == 1


@pytest.mark.django_db(transaction=True)
def test_in_a_savepoint_the_commit_is_left_to_the_outer_block(policy):
    """In a nested block query_then_commit commits nothing: the outer block still
    decides, and rolls the statement back with the rest."""
    room = policy.game.room_id
    update = f"UPDATE {Room._meta.db_table} SET name = %s WHERE id = %s"
    with pytest.raises(RuntimeError), transaction.atomic():
        with transaction.atomic():
            rows.query_then_commit(update, ["Salon", room])
        assert connection.connection.info.transaction_status != TransactionStatus.IDLE
        raise RuntimeError("the caller changes its mind")
    assert Room.objects.get(pk=room).name == "Room" == _committed_name(room)


@pytest.mark.django_db(transaction=True)
def test_in_a_transaction_opened_by_hand_the_commit_is_left_to_its_owner(policy):
    """With autocommit off the atomic block doesn't end the transaction, so
    query_then_commit doesn't either; its owner rolls it back."""
    room = policy.game.room_id
    update = f"UPDATE {Room._meta.db_table} SET name = %s WHERE id = %s"
    transaction.set_autocommit(False)
    try:
        with transaction.atomic():
            rows.query_then_commit(update, ["Salon", room])
        assert connection.connection.info.transaction_status != TransactionStatus.IDLE
        transaction.rollback()
    finally:
        transaction.set_autocommit(True)
    assert Room.objects.get(pk=room).name == "Room" == _committed_name(room)


@pytest.mark.django_db(transaction=True)
def test_a_failing_last_statement_commits_nothing(policy):
    """The statement fails: COMMIT doesn't run, Django's IntegrityError is raised,
    the block's earlier work is rolled back and the connection serves the next."""
    room = policy.game.room_id
    again = (
        f"INSERT INTO {Policy._meta.db_table} (game_id, version, document, created_at)"
        " VALUES (%s, 1, '{}', now())"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Room.objects.filter(pk=room).update(name="Salon")
        rows.query_then_commit(again, [policy.game_id])
    assert _committed_name(room) == "Room" and Policy.objects.count() == 1
    assert rows.query("SELECT 1") == [(1,)]


@pytest.mark.django_db(transaction=True)
def test_the_first_exchange_of_a_transaction_opens_it(policy):
    """query_pipelined sends the transaction's BEGIN with its statements: they run
    in the block's transaction, as the statements after them."""
    with transaction.atomic():
        assert connection.connection.info.transaction_status == TransactionStatus.IDLE
        ((first,),), (mine,) = rows.query_pipelined(
            [("SELECT txid_current()", ()), ("SELECT %s::int", [1])]
        )
        assert mine == (1,)
        assert connection.connection.info.transaction_status != TransactionStatus.IDLE
        ((after,),) = rows.query("SELECT txid_current()")
    assert first == after


@pytest.mark.django_db(transaction=True)
def test_prepared_round_trips_survive_psycopgs_deallocation(policy):
    """Statements sent in one round trip are prepared in psycopg's own cache:
    when a rollback makes psycopg deallocate every prepared statement, they are
    prepared again rather than named in vain."""
    sql = "SELECT %s::int * 2"
    for n in range(8):
        assert rows.query_pipelined([(sql, [n])]) == [[(n * 2,)]]
        rows.query("SELECT %s::int + 1", [n])  # psycopg's own, prepared too
    prepared = "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s"
    assert rows.query(prepared, ["%$1::int * 2%"]) == [(1,)]
    with pytest.raises(RuntimeError), transaction.atomic():
        rows.query_pipelined([(sql, [1])])
        raise RuntimeError("rolled back")
    for n in range(8):
        assert rows.query_pipelined([(sql, [n])]) == [[(n * 2,)]]
