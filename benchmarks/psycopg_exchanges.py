#!/usr/bin/env python
"""What an exchange with PostgreSQL costs the client's CPU, by the way it is sent.

The hand path talks to PostgreSQL in two exchanges, each a psycopg pipeline
(``core.db.rows``): ``BEGIN`` + the table's lock + the booking's read, then the
write + ``COMMIT``. A pipeline saves round trips; this measures whether it also
saves the client's CPU, which is what hands/s follows on two saturated cores.

One connection, trivial statements (``SELECT %s::int``, bound by the server and
prepared after five runs, as the hand path's), each way run ``--repeat`` times
after 50 warm-up runs; thread CPU and wall time per run:

    python benchmarks/psycopg_exchanges.py --database-url postgres://postgres@127.0.0.1:5432/test

Touches no table. Without ``--database-url`` or ``DATABASE_URL`` it exits.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

import psycopg

STATEMENT = "SELECT %s::int"


def ways(conn: psycopg.Connection) -> list[tuple[str, bool, Callable[[], None]]]:
    """(name, autocommit, one run) for each way of sending the statements."""
    cur = conn.cursor()

    def one() -> None:
        cur.execute(STATEMENT, (1,))
        cur.fetchall()

    def two_plain() -> None:
        one()
        cur.execute(STATEMENT, (2,))
        cur.fetchall()

    def two_pipelined() -> None:
        first, second = conn.cursor(), conn.cursor()
        with conn.pipeline():
            first.execute(STATEMENT, (1,))
            second.execute(STATEMENT, (2,))
        first.fetchall()
        second.fetchall()

    def one_then_commit() -> None:
        one()
        conn.commit()

    def one_with_commit_pipelined() -> None:
        first, commit = conn.cursor(), conn.cursor()
        with conn.pipeline():
            first.execute(STATEMENT, (1,))
            commit.execute("COMMIT")
        first.fetchall()

    def two_pipelined_then_commit() -> None:
        two_pipelined()
        conn.commit()

    return [
        ("autocommit: one statement", True, one),
        ("autocommit: two statements, one after the other", True, two_plain),
        ("autocommit: two statements in one pipeline", True, two_pipelined),
        ("transaction: one statement, then commit()", False, one_then_commit),
        (
            "transaction: one statement and COMMIT in one pipeline",
            False,
            one_with_commit_pipelined,
        ),
        (
            "transaction: two statements in one pipeline, then commit()",
            False,
            two_pipelined_then_commit,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--repeat", type=int, default=3000)
    args = parser.parse_args()
    if not args.database_url:
        sys.exit("give --database-url or DATABASE_URL")
    print(f"{'way':60} {'CPU µs':>8} {'wall µs':>8}")
    with psycopg.connect(args.database_url, prepare_threshold=5) as conn:
        for name, autocommit, run in ways(conn):
            conn.autocommit = autocommit
            for _ in range(50):
                run()
            cpu, wall = time.thread_time(), time.perf_counter()
            for _ in range(args.repeat):
                run()
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            conn.rollback()
            print(
                f"{name:60} {cpu / args.repeat * 1e6:8.1f}"
                f" {wall / args.repeat * 1e6:8.1f}"
            )


if __name__ == "__main__":
    main()
