#!/usr/bin/env python
"""Measure hand recording over HTTP: concurrent table terminals posting to gunicorn.

What it does, in order (DESIGN.md, "Performance targets"; issue 9):

1. (Re)creates a scratch PostgreSQL database (its name must contain ``bench``),
   migrates it and builds a room through the services: a funded cage and an open
   cashier shift, ``--tables`` open NLHE 1/2 tables with their trays filled from the
   cage, nine registered players seated at each with a cash buy-in, one terminal key
   per table. The same again for as many tables for the bare script (step 5).
2. Deals each table's hands in advance with the pure engine, each hand from the
   stacks the previous one left (as ``sequence`` in
   ``tests/api/floor/test_concurrency.py`` does).
3. Starts gunicorn on a free loopback port and waits for ``/healthz``.
4. Runs one load process per table (one terminal each, :class:`Wire`)
   posting its hands in order, then checks the books: every answer 201, as many
   hands booked, every seat's stack what the engine says, the trial balance zero.
   Reports sustained hands/s over the window where every terminal is busy (the
   warm-up excluded) and the latency of the requests that ended in it.
5. Runs a bare psycopg 3 script with as many connections as tables that writes the
   same rows in the same transactions for the fresh tables: per hand one
   transaction that locks the table row and inserts the ledger transaction, the
   hand, its seats, its exceptions, updates the seat sessions' stacks and inserts the
   entries (the same tables, so the same triggers and constraints fire), from
   settlements computed in advance: no Django, no DRF, no engine. The entries lock
   the ledger rows every hand of every table moves (chip float, rake revenue,
   jackpot drops) until the commit, so the script inserts them last, as
   ``hand_record`` does (``--bare-entries-first``: right after the ledger
   transaction, to compare).
6. Prints a table: hands/s, p50/p99/max latency and errors of both, the ratio and
   the verdicts against the targets; CPU milliseconds per hand of the app's
   processes, of the database backends and of the load clients (from /proc,
   after the warm-up: the neighbours' load moves it much less than hands/s); what
   the database backends were waiting for (pg_stat_activity, every 50 ms).
   Stops gunicorn; drops the database unless ``--keep-database``.

Nothing is written outside a temporary folder, a lock file in /tmp (one run per
database at a time) and the scratch database. gunicorn runs as the Docker image runs
it, ``sync`` workers (``gunicorn.conf.py``: a worker takes a connection only when it
is free, and closes it after the answer), 4 of them as in the image, with
``CONN_MAX_AGE=600`` (one persistent connection a worker), unless told otherwise; a
run takes about two minutes. ``gthread`` workers of one thread keep each terminal's
connection, but whichever worker accepts first keeps several: four to six of the
eight terminals shared workers in every such run of 2026-12-03 (the processes' line
of the report), and waited for each other (benchmarks/README.md, "Every
terminal its turn"). The 2 workers x 4 threads of earlier runs (``--workers 2
--threads 4``) left the cores idle part of the time, the four threads of a worker
queueing for its GIL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_http \
        python benchmarks/http_hands.py                      # 8 tables, 30 s each
    python benchmarks/http_hands.py --tables 12 --workers 3 --duration 60
    python benchmarks/http_hands.py --skip-bare --profile 25  # cProfile the workers
    python benchmarks/http_hands.py --tables 1 --workers 1 --skip-bare --stages

Without ``--database-url`` or ``DATABASE_URL``, an embedded PostgreSQL server is
started in ``/tmp/bench-http-data`` (and stops when the script ends).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import http.client
import json
import multiprocessing as mp
import os
import pstats
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EMBEDDED_DIR = "/tmp/bench-http-data"  # noqa: S108
POLICY: dict[str, Any] = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}
SMALL_BLIND, BIG_BLIND, CHIP, SEATS = 100, 200, 50, 9
RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
TARGET_RATE, TARGET_P99_MS, TARGET_RATIO = 300.0, 50.0, 1 / 3
# Issue 16: one hand a request at 0.6 of the bare script, the batch endpoint at 0.9.
TARGET_SINGLE_RATIO, TARGET_BATCH_RATIO = 0.6, 0.9

# What the load processes inherit when forked (set before they start).
WORK: dict[str, Any] = {}


# --- Dealing ------------------------------------------------------------------------


def deal(
    rng: random.Random, hand_no: int, stacks: dict[int, int], players: list[str]
) -> dict[str, Any]:
    """Deal a plausible hand, as ``random_hand`` of the floor's API tests does.

    Real cards, bets within the stacks (no all-ins), a fold-out or a showdown
    with some folds; every seat with chips is dealt in.
    """
    deck = DECK[:]
    rng.shuffle(deck)
    seats_in = sorted(s for s, st in stacks.items() if st > 0)
    streets = rng.choice([1, 2, 4, 4, 4])
    board = [deck.pop() for _ in range({1: 0, 2: 3, 3: 4, 4: 5}[streets])]
    seats = []
    for s in seats_in:
        bet = min(stacks[s], CHIP * rng.randint(1, 3 * BIG_BLIND // CHIP))
        seats.append(
            {
                "seat": s,
                "player": players[s - 1],
                "stack": stacks[s],
                "present": True,
                "put_in": bet,
                "folded": False,
            }
        )
    showdown = streets == 4
    for i, row in enumerate(seats):
        last = i == len(seats) - 1
        if (not showdown and not last) or (
            showdown and i < len(seats) - 2 and rng.random() < 0.4
        ):
            row["folded"] = True
            row["put_in"] = min(row["put_in"], BIG_BLIND)
    for row in seats:
        if not row["folded"]:
            row["cards"] = [deck.pop(), deck.pop()]
    return {
        "hand_no": hand_no,
        "game": "NLHE",
        "button": seats_in[0],
        "streets": streets,
        "board": board,
        "seats": seats,
    }


def sequence(seed: int, count: int, buy_in: int) -> list[tuple[dict, dict]]:
    """Deal ``count`` hands in a row, each from the last one's final stacks.

    Players are named ``{P1}`` … ``{P9}`` and the table ``{T}``: placeholders the
    caller replaces, so the HTTP and the bare tables play the very same hands.
    Returns (record, settlement) pairs.
    """
    from cardroom.domain.hand_record import parse_policy
    from cardroom.domain.settlement import settle_record

    policy = parse_policy(POLICY)
    rng = random.Random(seed)
    players = [f"{{P{s}}}" for s in range(1, SEATS + 1)]
    stacks = dict.fromkeys(range(1, SEATS + 1), buy_in)
    hands = []
    for n in range(1, count + 1):
        if sum(1 for st in stacks.values() if st) < 2:
            break
        record = deal(rng, n, stacks, players)
        record["table"] = "{T}"
        settlement = settle_record(record, policy)
        for row in settlement["seats"]:
            stacks[row["seat"]] = row["final_stack"]
        hands.append((record, settlement))
    return hands


def named(doc: Any, table: str, players: list[str]) -> Any:
    """Replace the placeholders of :func:`sequence` in a decoded JSON document."""
    if isinstance(doc, dict):
        return {k: named(v, table, players) for k, v in doc.items()}
    if isinstance(doc, list):
        return [named(v, table, players) for v in doc]
    if isinstance(doc, str) and doc.startswith("{"):
        return table if doc == "{T}" else players[int(doc[2:-1]) - 1]
    return doc


# --- The database and the room ------------------------------------------------------


def database_url(args: argparse.Namespace) -> str:
    """Return the scratch database's URL, starting the embedded server if needed."""
    url = args.database_url or os.environ.get("DATABASE_URL", "")
    if url:
        return url
    from core.db.embedded.base import socket_dir

    host = socket_dir(EMBEDDED_DIR, "postgres")
    return f"postgres://postgres@/bench_http?host={urllib.parse.quote(host)}"


def conninfo(url: str, dbname: str | None = None) -> str:
    """Turn a ``postgres://`` URL into a psycopg conninfo (unix sockets too)."""
    from psycopg.conninfo import make_conninfo

    u = urllib.parse.urlsplit(url)
    params = {
        "dbname": dbname or urllib.parse.unquote(u.path.lstrip("/")),
        "user": urllib.parse.unquote(u.username or "") or None,
        "password": urllib.parse.unquote(u.password or "") or None,
        "host": urllib.parse.unquote(u.hostname or "") or None,
        "port": u.port,
    }
    query = urllib.parse.parse_qs(u.query)
    if "host" in query:  # a socket directory: postgres://user@/name?host=/dir
        params["host"], params["port"] = query["host"][0], None
    return make_conninfo(**{k: v for k, v in params.items() if v is not None})


def recreate_database(url: str) -> None:
    """Drop and create the scratch database named in ``url``."""
    import psycopg

    name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.lstrip("/"))
    if "bench" not in name:
        sys.exit(f"refusing to drop {name!r}: a scratch database's name has 'bench'")
    with psycopg.connect(conninfo(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.lstrip("/"))
    with psycopg.connect(conninfo(url, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class BareTable:
    """What the bare script needs to book one table's hands without Django."""

    code: str
    table_id: int
    game_id: int
    policy_id: int
    gaming_day: Any
    sessions: dict[int, int]  # seat -> session id
    players: dict[int, int]  # seat -> player id
    stack_accounts: dict[int, int]  # seat -> account id
    rake_legs: list[tuple[int, int]]  # (account id, sign) per unit of rake
    drop_legs: list[tuple[int, int]]  # (account id, sign) per unit of drop
    hands: list[tuple] = field(default_factory=list)


def build_room(
    http_codes: list[str], bare_codes: list[str], buy_in: int
) -> tuple[dict[str, str], dict[str, list[str]], dict[str, BareTable]]:
    """Open the tables, fill the trays, seat nine players at each, make the keys.

    Everything goes through the services, as the room would do it. Returns the
    terminal keys of the HTTP tables, every table's player codes by seat, and what
    the bare script needs about its tables.
    """
    from django.contrib.auth.models import Group, User

    from accounting import chart
    from accounting.models import Cage, TableSlip
    from accounting.services import account_for
    from accounting.services.cage import (
        cage_vault_fund,
        player_register,
        shift_open,
        slip_issue,
        slip_request,
    )
    from cardroom import hooks, services
    from cardroom.models import SeatSession, TerminalKey
    from core.roles import Role

    def staff(name: str, role: Role) -> User:
        user = User.objects.create_user(name, is_staff=True)
        user.groups.set(Group.objects.filter(name=role.value))
        return user

    manager = staff("bench-manager", Role.MANAGER)
    floor = staff("bench-floor", Role.FLOOR)
    cashier = staff("bench-cashier", Role.CASHIER)
    cage = Cage.objects.create(code="MAIN", name="Main cage")
    tray = SEATS * buy_in
    tables = len(http_codes) + len(bare_codes)
    cage_vault_fund(
        cage=cage,
        cash_cents=10**9,
        chips_cents=tray * tables + 10**8,
        by=manager,
    )
    shift_open(
        cage=cage, cashier=cashier, cash_cents=10**7, chips_cents=tray * tables + 10**7
    )
    keys: dict[str, str] = {}
    players: dict[str, list[str]] = {}
    bare: dict[str, BareTable] = {}
    for code in http_codes + bare_codes:
        table = services.table_open(
            code=code,
            game_code="NLHE",
            small_blind=SMALL_BLIND,
            big_blind=BIG_BLIND,
            min_buy_in=50 * BIG_BLIND,
            max_buy_in=buy_in,
            seats=SEATS,
            policy=POLICY,
            by=manager,
        )
        slip = slip_request(
            kind=TableSlip.Kind.FILL,
            cage=cage,
            table=code,
            amount_cents=tray,
            requested_by=floor,
        )
        slip_issue(slip=slip, cashier=cashier)
        players[code] = [f"{code}-P{s}" for s in range(1, SEATS + 1)]
        for seat, player in enumerate(players[code], start=1):
            player_register(
                code=player,
                name=f"Player {player}",
                id_verified=True,
                birth_date=date(1985, 1, 1),  # PP2: no seat without one
            )
            services.seat_take(
                table_code=code,
                seat=seat,
                player_code=player,
                amount=buy_in,
                method="cash",
                source=f"terminal:{code}",
            )
        if code in http_codes:
            _, keys[code] = TerminalKey.objects.create_key(name=code, table=table)
            continue
        # The accounts a hand moves, opened now as the first hand would open them.
        drop = hooks.jackpot_drop_legs(room=table.room, table=table, amount_cents=1)
        sessions = SeatSession.objects.filter(table=table, ended_at__isnull=True)
        assert table.game is not None and table.room is not None
        bare[code] = BareTable(
            code=code,
            table_id=table.pk,
            game_id=table.game.pk,
            policy_id=table.game.current_policy().pk,
            gaming_day=table.room.gaming_day(time_now()),
            sessions={s.seat: s.pk for s in sessions},
            players={s.seat: s.player_id for s in sessions},
            stack_accounts={
                seat: chart.player_stack(player=player, table=code).pk
                for seat, player in enumerate(players[code], start=1)
            },
            rake_legs=[
                (chart.rake_revenue().pk, -1),
                (chart.table_rake_box(table=code).pk, 1),
                (chart.chip_float().pk, -1),
            ],
            drop_legs=[
                *((account_for(c).pk, cents) for c, cents in drop),
                (chart.table_jackpot_box(table=code).pk, 1),
                (chart.chip_float().pk, -1),
            ],
        )
    return keys, players, bare


def time_now() -> Any:
    from django.utils import timezone

    return timezone.now()


def fingerprint(record: dict[str, Any]) -> str:
    """The record's hash, as ``cardroom.services.hands.record`` computes it."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def bare_rows(t: BareTable, record: dict, settlement: dict) -> tuple:
    """Compute every row ``hand_record`` writes for a hand, as SQL parameters."""
    exceptions = list(settlement["exceptions"])  # no stack mismatch: stacks agree
    legs: dict[int, int] = defaultdict(int)
    seats, sessions = [], []
    for row in settlement["seats"]:
        seat = row["seat"]
        got = row["won"]
        final = row["stack"] - row["put_in"] + row["returned"] + got
        legs[t.stack_accounts[seat]] += row["put_in"] - row["returned"] - got
        given = next(s for s in record["seats"] if s["seat"] == seat)
        cards = given.get("cards")
        seats.append(
            (
                seat,
                row["stack"],
                row["put_in"],
                row["returned"],
                got,
                final,
                given["present"],
                given["folded"],
                None if cards is None else json.dumps(cards),
                row.get("hand") or "",
                t.players[seat],
                t.sessions[seat],
            )
        )
        sessions.append((t.sessions[seat], final))
    for account, sign in t.rake_legs:
        legs[account] += sign * settlement["rake"]
    for account, sign in t.drop_legs:
        legs[account] += sign * settlement["jackpot_drop"]
    entries = [(a, legs[a]) for a in sorted(legs) if legs[a]]
    assert sum(amount for _, amount in entries) == 0
    hand_no = record["hand_no"]
    hand = (
        hand_no,
        t.gaming_day,
        json.dumps(record),
        fingerprint(record),
        json.dumps({**settlement, "exceptions": exceptions}),
        sum(p["amount"] for p in settlement["pots"]),
        settlement["rake"],
        settlement["jackpot_drop"],
        settlement["participants"],
        f"terminal:{t.code}",
        t.game_id,
        t.table_id,
        t.policy_id,
    )
    txn = (f"{t.code}#{hand_no}", f"hand:{t.code}:{hand_no}", f"terminal:{t.code}")
    excs = [(e["code"], json.dumps(e)) for e in exceptions]
    return hand_no, txn, entries, hand, seats, sessions, excs


# --- Measuring ---------------------------------------------------------------------


@dataclass
class Result:
    """What one load process saw: (start, end, status) of each request."""

    table: str
    requests: list[tuple[float, float, int]]
    errors: list[str]
    cpu: float = 0.0  # CPU seconds of the process after the warm-up


def summarize(results: list[Result], warmup: float, t0: float) -> dict[str, Any]:
    """Hands/s over the window where every process is busy, and latencies in it."""
    done = [r for r in results if r.requests]
    start = t0 + warmup
    end = min(r.requests[-1][1] for r in done)
    ends = [(e, e - s, st) for r in done for s, e, st in r.requests]
    window = [x for x in ends if start <= x[0] <= end]
    if end - start <= 0 or not window:
        statuses = Counter(st for r in results for _s, _e, st in r.requests)
        errors = [e for r in results for e in r.errors][:3]
        raise SystemExit(
            f"statuses {dict(statuses)}, errors {errors}\n"
            f"no measuring window: warm-up {warmup} s, first terminal done after "
            f"{end - t0:.1f} s; post more hands or shorten the warm-up"
        )
    latencies = sorted(x[1] for x in window)
    step = max(1.0, round((end - t0) / 12))
    slices = Counter(int((x[0] - t0) // step) for x in ends)
    statuses = Counter(st for r in results for _s, _e, st in r.requests)
    return {
        "rate": len(window) / (end - start),
        "window": end - start,
        "hands": len(window),
        "total": sum(len(r.requests) for r in results),
        "p50": latencies[len(latencies) // 2] * 1000,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "max": latencies[-1] * 1000,
        "mean": statistics.fmean(latencies) * 1000,
        "statuses": statuses,
        "errors": sum(len(r.errors) for r in results)
        + sum(n for st, n in statuses.items() if st != 201),
        "error_samples": [e for r in results for e in r.errors][:3],
        "slices": [slices[i] / step for i in range(int((end - t0) // step))],
        "step": step,
        # Each process: (its name, hands, seconds from the start to its last answer).
        "spans": [
            (r.table, len(r.requests), round(r.requests[-1][1] - t0, 2)) for r in done
        ],
    }


class Wire:
    """A table terminal's side of HTTP/1.1, as lean as a client can be: the request's
    bytes built once, the answer's status line and ``Content-Length`` (or chunks)
    read off the socket; the connection kept while the server keeps it (``gthread``
    workers) and opened again after an answer that closes it (``sync`` workers).

    In the room each terminal is a machine of its own; here the eight share the
    server's two cores, so what the client spends is taken from the server. Python's
    ``http.client`` parses every answer's headers with the e-mail parser, about
    0.4 ms of CPU a hand (benchmarks/README.md, "A round trip less, and the server
    as it is deployed").
    """

    def __init__(self, port: int, path: str, headers: dict[str, str]) -> None:
        self.port = port
        lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.head = ("\r\n".join(lines) + "\r\nContent-Length: ").encode()
        self.sock: socket.socket | None = None
        self.buffer = b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def post(self, body: bytes) -> tuple[int, bytes]:
        """Send ``body``; return the answer's status and body."""
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(b"%s%d\r\n\r\n%s" % (self.head, len(body), body))
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            self._more()
        head, self.buffer = self.buffer[:end], self.buffer[end + 4 :]
        status_line, *fields = head.split(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        headers = {}
        for line in fields:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if b"content-length" in headers:
            content = self._take(int(headers[b"content-length"]))
        elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            content = self._chunks()
        else:  # the body runs to the end of the connection
            while self._more(eof_ok=True):
                pass
            content, self.buffer = self.buffer, b""
            self.close()
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, content

    def _more(self, eof_ok: bool = False) -> bool:
        assert self.sock is not None
        data = self.sock.recv(65536)
        if not data:
            if eof_ok:
                return False
            raise ConnectionError("the server closed the connection")
        self.buffer += data
        return True

    def _take(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._more()
        taken, self.buffer = self.buffer[:size], self.buffer[size:]
        return taken

    def _chunks(self) -> bytes:
        content = b""
        while True:
            while (end := self.buffer.find(b"\r\n")) < 0:
                self._more()
            size = int(self.buffer[:end].split(b";")[0], 16)
            self.buffer = self.buffer[end + 2 :]
            content += self._take(size + 2)[:size]
            if size == 0:
                return content


def terminal(index: int, barrier: Any, queue: Any) -> None:
    """Load process: post one table's hands in order (:class:`Wire`)."""
    code, path, headers, bodies = WORK["terminals"][index]
    port, deadline_s, batch = WORK["port"], WORK["duration"], WORK["batch"]
    wire = Wire(port, path, headers)
    requests: list[tuple[float, float, int]] = []
    errors: list[str] = []
    barrier.wait()
    begun = time.monotonic()
    deadline, cpu0 = begun + deadline_s, None
    for body in bodies:
        started = time.monotonic()
        if started > deadline:
            break
        if cpu0 is None and started - begun >= WORK["warmup"]:
            cpu0 = time.process_time()
        try:
            status, content = wire.post(body)
        except (OSError, ValueError) as exc:
            wire.close()
            errors.append(f"{code}: {exc!r}")
            status = 0
            content = b""
        ended = time.monotonic()
        if batch and status == 200:
            # One entry a hand of the batch, each with the batch's latency.
            answers = json.loads(content)["results"]
            requests.extend((started, ended, a["status"]) for a in answers)
            for a in answers:
                if a["status"] != 201 and len(errors) < 3:
                    errors.append(f"{code}: {a['status']} {str(a['body'])[:300]}")
            continue
        requests.append((started, ended, status))
        if status not in (0, 201) and len(errors) < 3:
            errors.append(f"{code}: {status} {content[:300]!r}")
    wire.close()
    cpu = time.process_time() - cpu0 if cpu0 is not None else 0.0
    queue.put(Result(code, requests, errors, cpu))
    WORK["release"].wait(60)


def bare_writer(index: int, barrier: Any, queue: Any) -> None:
    """Bare psycopg process: book one table's hands, one transaction each."""
    import psycopg

    t: BareTable = WORK["bare"][index]
    deadline_s = WORK["duration"]
    entries_first = WORK["entries_first"]
    requests: list[tuple[float, float, int]] = []
    errors: list[str] = []
    with psycopg.connect(WORK["conninfo"]) as conn:
        cur = conn.cursor()
        barrier.wait()
        begun = time.monotonic()
        deadline, cpu0 = begun + deadline_s, None
        for hand_no, txn, entries, hand, seats, sessions, excs in t.hands:
            started = time.monotonic()
            if started > deadline:
                break
            if cpu0 is None and started - begun >= WORK["warmup"]:
                cpu0 = time.process_time()
            try:
                cur.execute(
                    "SELECT id FROM cardroom_table WHERE id = %s FOR UPDATE",
                    [t.table_id],
                )
                cur.execute(
                    "INSERT INTO accounting_transaction (kind, reference, external_id,"
                    " memo, source, posted_at) VALUES ('hand', %s, %s, '', %s, now())"
                    " RETURNING id",
                    txn,
                )
                (txn_id,) = cur.fetchone()  # type: ignore[misc]
                if entries_first:
                    insert_entries(cur, txn_id, entries)
                cur.execute(
                    "INSERT INTO cardroom_hand (hand_no, gaming_day, started_at,"
                    " ended_at, record, record_hash, settlement, pot_cents,"
                    " rake_cents, jackpot_drop_cents, participants, status, source,"
                    " created_at, game_id, ledger_transaction_id, table_id,"
                    " policy_id) VALUES (%s, %s, NULL, now(), %s::jsonb, %s,"
                    " %s::jsonb, %s, %s, %s, %s, 'booked', %s, now(), %s, %s, %s, %s)"
                    " RETURNING id",
                    (*hand[:10], hand[10], txn_id, hand[11], hand[12]),
                )
                (hand_id,) = cur.fetchone()  # type: ignore[misc]
                cur.execute(
                    "INSERT INTO cardroom_handseat (hand_id, seat, stack_cents,"  # noqa: S608
                    " put_in_cents, returned_cents, won_cents, final_stack_cents,"
                    " present, folded, cards, description, player_id, session_id)"
                    " VALUES "
                    + ", ".join(
                        ["(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s)"]
                        * len(seats)
                    ),
                    [v for row in seats for v in (hand_id, *row)],
                )
                cur.execute(
                    "UPDATE cardroom_seatsession AS s SET stack_cents = v.stack,"  # noqa: S608
                    " last_hand_no = %s FROM (VALUES "
                    + ", ".join(["(%s::bigint, %s::bigint)"] * len(sessions))
                    + ") AS v (id, stack) WHERE s.id = v.id",
                    [hand_no, *(v for row in sessions for v in row)],
                )
                if excs:
                    cur.execute(
                        "INSERT INTO cardroom_handexception (hand_id, kind, details,"  # noqa: S608
                        " status, created_at, resolution) VALUES "
                        + ", ".join(
                            ["(%s, %s, %s::jsonb, 'open', now(), '')"] * len(excs)
                        ),
                        [v for row in excs for v in (hand_id, *row)],
                    )
                if not entries_first:
                    insert_entries(cur, txn_id, entries)
                conn.commit()
                status = 201
            except psycopg.Error as exc:
                conn.rollback()
                errors.append(f"{t.code}#{hand_no}: {exc!r}"[:300])
                status = 0
            requests.append((started, time.monotonic(), status))
        cpu = time.process_time() - cpu0 if cpu0 is not None else 0.0
        queue.put(Result(t.code, requests, errors, cpu))
        WORK["release"].wait(60)


def insert_entries(cur: Any, txn_id: int, entries: list[tuple[int, int]]) -> None:
    cur.execute(
        "INSERT INTO accounting_entry (transaction_id, account_id, amount_cents,"  # noqa: S608
        " currency) VALUES " + ", ".join(["(%s, %s, %s, 'EUR')"] * len(entries)),
        [v for account, amount in entries for v in (txn_id, account, amount)],
    )


def run_processes(
    target: Any,
    count: int,
    timeout: float,
    on_start: Any = None,
    on_done: Any = None,
) -> tuple[list, float]:
    """Fork ``count`` processes of ``target``, start them together, collect results.

    The processes keep their connections open until every result is in and
    ``on_done`` has run, so the database backends are still there to be measured.
    """
    ctx = mp.get_context("fork")
    barrier, queue = ctx.Barrier(count + 1), ctx.Queue()
    WORK["release"] = ctx.Event()
    procs = [ctx.Process(target=target, args=(i, barrier, queue)) for i in range(count)]
    for p in procs:
        p.start()
    barrier.wait(timeout=60)
    t0 = time.monotonic()
    if on_start is not None:
        on_start()
    results = []
    deadline = t0 + timeout
    with contextlib.suppress(Exception):
        for _ in procs:
            results.append(queue.get(timeout=max(1.0, deadline - time.monotonic())))
    if on_done is not None:
        on_done()
    WORK["release"].set()
    for p in procs:
        p.join(timeout=10)
        if p.is_alive():
            p.kill()
    if len(results) != count:
        raise SystemExit(f"{count - len(results)} load processes gave no result")
    return results, t0


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each process still alive (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (gunicorn's workers)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rpartition(")")[2].split()[1]) == parent:
                pids.append(int(stat.parent.name))
    return pids


class Sampler(threading.Thread):
    """Watch the run from outside: database waits, and CPU spent per hand.

    Every 50 ms it samples what the database's client backends are doing. After
    the warm-up it notes the CPU time of the app's processes (gunicorn's workers)
    and of the database backends, and again when stopped: with the hands booked
    in between, that gives CPU milliseconds per hand, a figure the neighbours'
    load on the machine changes much less than hands/s.
    """

    def __init__(self, dsn: str, warmup: float, app_parent: int | None) -> None:
        super().__init__(daemon=True)
        self.dsn, self.warmup, self.app_parent = dsn, warmup, app_parent
        self.stop, self.counts = threading.Event(), Counter()
        self.cpu_start: dict[int, float] = {}
        self.cpu_end: dict[int, float] = {}
        self.app_pids: list[int] = []
        self.db_pids: list[int] = []
        self.window_start = 0.0

    def run(self) -> None:
        import psycopg

        started = time.monotonic()
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            me = conn.info.backend_pid
            query = (
                "SELECT pid, state, wait_event_type, wait_event FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> %s"
                " AND backend_type = 'client backend'"
            )
            while not self.stop.wait(0.05):
                rows = conn.execute(query, [me]).fetchall()
                if not self.cpu_start and time.monotonic() - started >= self.warmup:
                    self.window_start = time.monotonic()
                    self.db_pids = [r[0] for r in rows]
                    if self.app_parent:
                        self.app_pids = children(self.app_parent)
                    self.cpu_start = cpu_seconds(self.app_pids + self.db_pids)
                for _pid, state, kind, event in rows:
                    if state == "idle":
                        what = "idle (waiting for the client)"
                    elif state == "idle in transaction":
                        what = "idle in transaction (client working)"
                    elif kind is None:
                        what = "running (CPU)"
                    else:
                        what = f"{kind}:{event}"
                    self.counts[what] += 1
            # The backends are still there: their connections outlive the load.
            self.cpu_end = cpu_seconds(self.app_pids + self.db_pids)

    def cpu_used(self) -> tuple[float, float]:
        """CPU seconds of the app's processes and of the backends in the window."""

        def spent(pids: list[int]) -> float:
            return sum(
                self.cpu_end[p] - self.cpu_start[p]
                for p in pids
                if p in self.cpu_end and p in self.cpu_start
            )

        return spent(self.app_pids), spent(self.db_pids)

    def shares(self) -> dict[str, float]:
        """The share of the samples waiting on a lock: of all the backends'
        samples, and of those not idle (the backends' own time)."""
        total = sum(self.counts.values()) or 1
        busy = total - sum(n for what, n in self.counts.items() if "idle" in what)
        locks = sum(n for what, n in self.counts.items() if what.startswith("Lock:"))
        return {
            "lock_wait_share": locks / total,
            "lock_wait_share_busy": locks / max(busy, 1),
        }

    def report(self) -> list[str]:
        total = sum(self.counts.values()) or 1
        return [f"{n / total:6.1%}  {what}" for what, n in self.counts.most_common(6)]


# --- gunicorn ------------------------------------------------------------------------

PROFILE_HOOKS = """
import cProfile, os, pstats, threading, time

_local, _profiles = threading.local(), []


def post_worker_init(worker):
    app = worker.wsgi

    def profiled(environ, start_response):
        # A thread's first requests build caches (connection, engine tables): skip.
        _local.seen = getattr(_local, "seen", 0) + 1
        if _local.seen <= 5:
            return app(environ, start_response)
        profile = getattr(_local, "profile", None)
        if profile is None:
            # CPU time of the thread: waiting for the database or the GIL is left out.
            profile = _local.profile = cProfile.Profile(time.thread_time)
            _profiles.append(profile)
        profile.enable()
        try:
            return app(environ, start_response)
        finally:
            profile.disable()

    worker.wsgi = profiled


def worker_exit(server, worker):
    if _profiles:
        stats = pstats.Stats(*_profiles)
        stats.dump_stats(os.path.join(PROFILE_DIR, f"{os.getpid()}.prof"))
"""


STAGE_HOOKS = """
import gc, importlib, json, os, resource, time

# (module, function, stage): each call's thread CPU is added to its stage.
WRAPPED = (
    ("cardroom.api.terminal", "answer", "answer"),
    ("cardroom.services.hands.record", "hands_record", "hands_record"),
    ("core.db.rows", "_pipelined", "exchanges"),
    ("core.db.rows", "query", "exchanges"),
    ("cardroom.services.hands.record", "_settled", "settle"),
    ("cardroom.services.hands.record", "_fingerprint", "fingerprint"),
)
SKIP = 20  # a worker's first requests build its caches
spent, state = {}, {"requests": 0}


def timed(module, name, stage):
    inner = getattr(module, name)

    def wrapper(*args, **kwargs):
        started = time.thread_time_ns()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[stage] = spent.get(stage, 0) + time.thread_time_ns() - started

    setattr(module, name, wrapper)


def post_worker_init(worker):
    gc.collect()
    gc.freeze()  # as gunicorn.conf.py, which --config replaces
    for module, name, stage in WRAPPED:
        timed(importlib.import_module(module), name, stage)
    app = worker.wsgi

    def measured(environ, start_response):
        state["requests"] += 1
        if state["requests"] == SKIP + 1:
            spent.clear()
            state["usage"] = resource.getrusage(resource.RUSAGE_SELF)
        started = time.thread_time_ns()
        try:
            return app(environ, start_response)
        finally:
            spent["wsgi"] = spent.get("wsgi", 0) + time.thread_time_ns() - started

    worker.wsgi = measured


def worker_exit(server, worker):
    if "usage" not in state:
        return
    usage, before = resource.getrusage(resource.RUSAGE_SELF), state["usage"]
    figures = {stage: ns / 1e9 for stage, ns in spent.items()}
    figures["process"] = (
        usage.ru_utime - before.ru_utime + usage.ru_stime - before.ru_stime
    )
    figures["kernel"] = usage.ru_stime - before.ru_stime
    figures["requests"] = state["requests"] - SKIP
    with open(os.path.join(STAGE_DIR, f"{os.getpid()}.stages.json"), "w") as out:
        json.dump(figures, out)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(
    args: argparse.Namespace, env: dict[str, str], tmp: Path, port: int
) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(args.workers),
        "--worker-class",
        args.worker_class,
        "--threads",
        str(args.threads),
        "--keep-alive",
        "30",
        "--timeout",
        "60",
        "--graceful-timeout",
        "20",
        "--log-level",
        "warning",
        "--error-logfile",
        "-",
    ]
    if args.worker_connections:
        command += ["--worker-connections", str(args.worker_connections)]
    if args.profile:
        conf = tmp / "gunicorn_profile.py"
        conf.write_text(f"PROFILE_DIR = {str(tmp)!r}\n" + PROFILE_HOOKS)
        command += ["--config", str(conf)]
    elif args.stages:
        conf = tmp / "gunicorn_stages.py"
        conf.write_text(f"STAGE_DIR = {str(tmp)!r}\n" + STAGE_HOOKS)
        command += ["--config", str(conf)]
    log = (tmp / "gunicorn.out").open("wb")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            out = (tmp / "gunicorn.out").read_text()[-2000:]
            sys.exit(f"gunicorn exited ({server.returncode}):\n{out}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return server
        time.sleep(0.2)
    server.kill()
    sys.exit("gunicorn did not answer /healthz within 60 s")


def stop_gunicorn(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# --- Checking the books -------------------------------------------------------------


def check_books(
    codes: list[str], posted: dict[str, int], finals: dict[str, dict[str, int]]
) -> list[str]:
    """Return what is wrong: hands booked, stacks, ledger against the sessions."""
    from accounting.models import Account
    from accounting.selectors import trial_balance
    from cardroom.models import Hand, SeatSession

    problems = []
    for code in codes:
        booked = Hand.objects.filter(table__code=code).count()
        if booked != posted[code]:
            problems.append(
                f"{code}: {booked} hands booked, {posted[code]} answered 201"
            )
        for s in SeatSession.objects.filter(
            table__code=code, ended_at__isnull=True
        ).select_related("player"):
            want = finals[code].get(s.player.code)
            balance = Account.objects.get(
                code=f"player:{s.player.code}:table:{code}"
            ).balance_cents
            if not (s.stack_cents == balance == want):
                problems.append(
                    f"{code} seat {s.seat}: session {s.stack_cents}, ledger "
                    f"{balance}, engine {want}"
                )
    tb = trial_balance()
    if not (tb.balanced and tb.cached_balances_agree):
        problems.append("the trial balance doesn't balance")
    return problems


def measure(
    target: Any,
    count: int,
    args: argparse.Namespace,
    dsn: str,
    app_parent: int | None,
) -> tuple[dict[str, Any], list[str]]:
    """Run the load processes under a sampler; summarize, with CPU per hand."""
    sampler = Sampler(dsn, args.warmup, app_parent)

    def stop_sampler() -> None:
        sampler.stop.set()
        sampler.join(10)

    results, t0 = run_processes(
        target, count, args.duration + 120, sampler.start, stop_sampler
    )
    summary = summarize(results, args.warmup, t0)
    booked = sum(
        1
        for r in results
        for _s, end, st in r.requests
        if st == 201 and end >= sampler.window_start
    )
    app, db = sampler.cpu_used()
    clients = sum(r.cpu for r in results)
    per_hand = 1000 / max(booked, 1)
    summary.update(
        posted={r.table: sum(1 for *_, st in r.requests if st == 201) for r in results},
        cpu_app=app * per_hand if app_parent else clients * per_hand,
        cpu_db=db * per_hand,
        cpu_clients=clients * per_hand if app_parent else 0.0,
        **sampler.shares(),
    )
    return summary, sampler.report()


# --- Main ----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8, help="terminals (default 8)")
    parser.add_argument(
        "--hands",
        type=int,
        default=5000,
        help="hands dealt per table (default 5000: more than the fastest terminal "
        "posts in 30 s, so the measuring window is the whole run)",
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=30.0,
        help="stop each terminal after this many seconds (default 30)",
    )
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds not measured (default 5)"
    )
    parser.add_argument(
        "--workers", type=int, default=4, help="gunicorn workers (default 4)"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="threads a worker (default 1)"
    )
    parser.add_argument(
        "--worker-class", default="sync", help="gunicorn worker class (sync)"
    )
    parser.add_argument(
        "--worker-connections",
        type=int,
        default=0,
        help="gunicorn's connections a worker at most (default: gunicorn's)",
    )
    parser.add_argument(
        "--conn-max-age", type=int, default=600, help="Django CONN_MAX_AGE (s)"
    )
    parser.add_argument("--database-url", default="", help="scratch database URL")
    parser.add_argument(
        "--buy-in",
        type=int,
        default=2_000_000,
        help="each player's stack, deep enough for the run (default 2,000,000)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip-bare", action="store_true")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument(
        "--bare-entries-first",
        action="store_true",
        help="bare script: insert the entries right after the ledger transaction "
        "instead of last (hand_record's order)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="cProfile the gunicorn workers and print the top N functions",
    )
    parser.add_argument(
        "--stages",
        action="store_true",
        help="print the workers' CPU a request by stage (gunicorn, Django, the"
        " answer, the booking's Python, psycopg's exchanges, the engine);"
        " ignored with --profile",
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=0,
        metavar="N",
        help="post each terminal's hands N at a time to POST hands/batch "
        "(default 0: one a request to POST hands)",
    )
    parser.add_argument(
        "--json", default="", metavar="FILE", help="write the results to FILE too"
    )
    parser.add_argument("--keep-database", action="store_true")
    args = parser.parse_args()

    url = database_url(args)
    # One run at a time per database: a second one would drop it under the first.
    name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.lstrip("/"))
    lock = open(f"/tmp/bench-http-{name}.lock", "w")  # noqa: SIM115, S108
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(f"another run is using the database {name}")
    recreate_database(url)
    tmp_dir = tempfile.TemporaryDirectory(prefix="bench-http-")
    tmp = Path(tmp_dir.name)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CARDROOM_DATA_DIR": str(tmp / "data"),
        "SECRET_KEY": secrets.token_urlsafe(48),
        "DEBUG": "false",
        "SECURE": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        # whitenoise warns that the static files aren't collected: no page needs them.
        "PYTHONWARNINGS": "ignore:No directory at",
        "CONN_MAX_AGE": str(args.conn_max_age),
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    started = time.monotonic()
    call_command("migrate", verbosity=0)
    http_codes = [f"H{i:02d}" for i in range(1, args.tables + 1)]
    bare_codes = (
        [] if args.skip_bare else [f"B{i:02d}" for i in range(1, args.tables + 1)]
    )
    if args.skip_http:
        http_codes = []
    keys, players, bare = build_room(http_codes, bare_codes, args.buy_in)
    setup = time.monotonic() - started

    started = time.monotonic()
    terminals, finals, dealt = [], {}, {}
    for i in range(args.tables):
        hands = sequence(args.seed + i, args.hands, args.buy_in)
        if http_codes:
            code = http_codes[i]
            records = [named(r, code, players[code]) for r, _s in hands]
            path = f"/api/v1/tables/{code}/hands"
            if args.batch:
                path += "/batch"
                docs: list[Any] = [
                    {"hands": records[i : i + args.batch]}
                    for i in range(0, len(records), args.batch)
                ]
            else:
                docs = records
            bodies = [json.dumps(d, separators=(",", ":")).encode() for d in docs]
            headers = {
                "Content-Type": "application/json",
                "Authorization": f"Api-Key {keys[code]}",
            }
            terminals.append((code, path, headers, bodies))
            dealt[code] = hands
        if bare_codes:
            t = bare[bare_codes[i]]
            names = players[t.code]
            t.hands = [
                bare_rows(t, named(r, t.code, names), named(s, t.code, names))
                for r, s in hands
            ]
    dealing = time.monotonic() - started
    connections.close_all()

    WORK.update(
        terminals=terminals,
        duration=args.duration,
        bare=[bare[c] for c in bare_codes],
        conninfo=conninfo(url),
        entries_first=args.bare_entries_first,
        warmup=args.warmup,
        batch=args.batch,
    )
    http_summary = bare_summary = None
    waits: dict[str, list[str]] = {}
    profile_lines: list[str] = []
    problems: list[str] = []
    if http_codes:
        port = free_port()
        WORK["port"] = port
        server = start_gunicorn(args, env, tmp, port)
        try:
            http_summary, waits["HTTP"] = measure(
                terminal, len(terminals), args, conninfo(url), server.pid
            )
        finally:
            stop_gunicorn(server)
        posted = dict.fromkeys(http_codes, 0)
        posted.update(http_summary["posted"])
        for code, hands in dealt.items():
            last = posted[code]
            settled = named(hands[last - 1][1], code, players[code]) if last else None
            finals[code] = (
                {row["player"]: row["final_stack"] for row in settled["seats"]}
                if settled
                else {}
            )
        problems = check_books(http_codes, posted, finals)
        connections.close_all()
        if args.profile:
            profiled = http_summary["total"] - 5 * args.workers * args.threads
            profile_lines = profile_report(tmp, args.profile, profiled)
        elif args.stages:
            profile_lines = stages_report(tmp)
    if bare_codes:
        bare_summary, waits["bare"] = measure(
            bare_writer, len(bare_codes), args, conninfo(url), None
        )

    report(args, http_summary, bare_summary, setup, dealing, waits, problems)
    if args.json:
        write_json(args, http_summary, bare_summary, waits, problems)
    if profile_lines:
        print("\n".join(profile_lines))
    if not args.keep_database:
        drop_database(url)
    tmp_dir.cleanup()
    os.unlink(lock.name)
    failed = (
        problems
        or (http_summary and http_summary["errors"])
        or (bare_summary and bare_summary["errors"])
    )
    sys.exit(1 if failed else 0)


def write_json(
    args: argparse.Namespace,
    http_s: dict | None,
    bare_s: dict | None,
    waits: dict[str, list[str]],
    problems: list[str],
) -> None:
    """Write the run's figures to ``args.json``: hands/s, latencies, CPU per hand
    and lock-wait shares of both sides, and their ratio."""
    keep = (
        "rate",
        "p50",
        "p99",
        "max",
        "mean",
        "hands",
        "window",
        "errors",
        "cpu_app",
        "cpu_db",
        "cpu_clients",
        "lock_wait_share",
        "lock_wait_share_busy",
        "spans",
    )

    def side(s: dict | None) -> dict[str, Any] | None:
        if s is None:
            return None
        out: dict[str, Any] = {k: s[k] for k in keep}
        out["cpu_per_hand"] = s["cpu_app"] + s["cpu_db"] + s["cpu_clients"]
        return out

    doc = {
        "tables": args.tables,
        "batch": args.batch,
        "workers": args.workers,
        "threads": args.threads,
        "duration": args.duration,
        "warmup": args.warmup,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "http": side(http_s),
        "bare": side(bare_s),
        "ratio": http_s["rate"] / bare_s["rate"] if http_s and bare_s else None,
        "waits": waits,
        "books_ok": not problems,
    }
    Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")


def profile_report(tmp: Path, top: int, requests: int) -> list[str]:
    files = sorted(str(p) for p in tmp.glob("*.prof"))
    if not files:
        return ["(no profile written by the workers)"]
    stats = pstats.Stats(*files)
    lines = [
        "\ncProfile of the gunicorn workers: thread CPU time, inflated by the"
        " profiler; each thread's first 5 requests left out; cum/req = cumulative"
        " / requests;",
        f"{'ncalls':>9} {'tottime':>8} {'cumtime':>8} {'cum/req':>9}  function",
    ]
    rows = []
    for (path, line, name), (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        where = path.replace(str(ROOT) + "/", "")
        if "site-packages/" in where:
            where = where.split("site-packages/", 1)[1]
        rows.append((ct, tt, nc, f"{where}:{line}({name})"))
    # Requests = calls of Django's WSGI handler that were profiled.
    handler = [
        nc
        for _ct, _tt, nc, where in rows
        if "django/core/handlers/wsgi.py" in where and where.endswith("(__call__)")
    ]
    requests = handler[0] if handler else requests
    lines[0] += f" {requests:,} requests profiled."
    own = ("cardroom/", "accounting/", "core/", "jackpots/", "waitlist/")
    listings = (
        ("by own time", 1, rows),
        ("by cumulative time", 0, rows),
        (
            "the project's code by cumulative time",
            0,
            [r for r in rows if r[3].startswith(own)],
        ),
    )
    for title, key, chosen in listings:
        lines.append(f"-- {title}")
        for ct, tt, nc, where in sorted(chosen, key=lambda r: -r[key])[:top]:
            lines.append(
                f"{nc:>9} {tt:8.2f} {ct:8.2f} {ct / max(requests, 1) * 1e3:7.2f}ms  "
                f"{where[-90:]}"
            )
    return lines


def stages_report(tmp: Path) -> list[str]:
    """The workers' CPU a request by stage, from what ``STAGE_HOOKS`` wrote: each
    stage is the thread CPU of the calls that make it, less the stages inside it;
    gunicorn's is the process's (both threads, user and kernel) less Django's."""
    total: Counter[str] = Counter()
    for path in tmp.glob("*.stages.json"):
        total.update(json.loads(path.read_text()))
    requests = total.pop("requests", 0)
    if not requests:
        return ["(no stages written by the workers)"]
    process, wsgi, answer = total["process"], total["wsgi"], total["answer"]
    booking, exchanges = total["hands_record"], total["exchanges"]
    settle, fingerprint = total["settle"], total["fingerprint"]
    stages = (
        ("gunicorn (parsing, writing, the threads' hand-offs)", process - wsgi),
        ("Django's handler and middleware", wsgi - answer),
        ("the terminal's answer (key, body, response)", answer - booking),
        ("psycopg's exchanges with PostgreSQL", exchanges),
        ("the engine: parse and settle", settle),
        ("the record's fingerprint", fingerprint),
        ("the rest of the booking", booking - exchanges - settle - fingerprint),
    )
    lines = [
        f"\nCPU a request in the gunicorn workers, by stage ({requests:,} requests,"
        " each worker's first 20 left out; kernel time"
        f" {total['kernel'] / requests * 1e6:,.0f} µs of the whole):"
    ]
    for name, seconds in stages:
        lines.append(
            f"  {seconds / requests * 1e6:7,.0f} µs  {seconds / process:6.1%}  {name}"
        )
    lines.append(f"  {process / requests * 1e6:7,.0f} µs  100.0%  in all")
    return lines


def report(
    args: argparse.Namespace,
    http_s: dict | None,
    bare_s: dict | None,
    setup: float,
    dealing: float,
    waits: dict[str, list[str]],
    problems: list[str],
) -> None:
    load = os.getloadavg()
    print(
        f"Hand recording over HTTP: {args.tables} tables (one terminal each), "
        f"NLHE 1/2, 9 seats; gunicorn {args.worker_class} "
        f"{args.workers} workers x {args.threads} threads, CONN_MAX_AGE="
        f"{args.conn_max_age}; {os.cpu_count()} CPUs, load average before the "
        f"report {load[0]:.2f} {load[1]:.2f}"
    )
    print(f"set-up {setup:.1f} s, dealing {dealing:.1f} s, warm-up {args.warmup} s")
    print()
    print(
        f"| {'':<26} | {'hands/s':>8} | {'p50 ms':>7} | {'p99 ms':>7} | {'max ms':>7} "
        f"| {'hands':>6} | {'window s':>8} | {'errors':>6} |"
    )
    print(
        f"|{'-' * 28}|{'-' * 10}:|{'-' * 9}:|{'-' * 9}:|{'-' * 9}:|{'-' * 8}:|"
        f"{'-' * 10}:|{'-' * 8}:|"
    )
    bare_name = "bare psycopg" + (" (entries 1st)" if args.bare_entries_first else "")
    http_name = f"HTTP batches of {args.batch}" if args.batch else "HTTP (gunicorn)"
    for name, s in ((http_name, http_s), (bare_name, bare_s)):
        if s:
            print(
                f"| {name:<26} | {s['rate']:8.1f} | {s['p50']:7.1f} | {s['p99']:7.1f} "
                f"| {s['max']:7.1f} | {s['hands']:6d} | {s['window']:8.1f} "
                f"| {s['errors']:6d} |"
            )
    print()
    if http_s:
        verdict = "met" if http_s["rate"] >= TARGET_RATE else "MISSED"
        print(f"target >= {TARGET_RATE:.0f} hands/s: {verdict} ({http_s['rate']:.0f})")
        verdict = "met" if http_s["p99"] <= TARGET_P99_MS else "MISSED"
        print(f"target p99 <= {TARGET_P99_MS:.0f} ms: {verdict} ({http_s['p99']:.1f})")
    if http_s and bare_s:
        ratio = http_s["rate"] / bare_s["rate"]
        verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
        print(f"target >= 1/3 of the bare script: {verdict} (ratio {ratio:.2f})")
        wanted = TARGET_BATCH_RATIO if args.batch else TARGET_SINGLE_RATIO
        verdict = "met" if ratio >= wanted else "MISSED"
        print(
            f"target >= {wanted} of the bare script "
            f"({'batch' if args.batch else 'one hand a request'}): {verdict}"
        )
    for name, s in (("HTTP", http_s), ("bare", bare_s)):
        if s:
            rates = " ".join(f"{r:.0f}" for r in s["slices"])
            print(
                f"{name} hands/s in {s['step']:.0f}-second slices from the start: "
                f"{rates}"
            )
    for name, s in (("HTTP", http_s), ("bare", bare_s)):
        if s:
            spans = ", ".join(f"{n} in {t:.1f} s" for _c, n, t in s["spans"])
            print(f"{name} processes, hands and last answer: {spans}")
    if http_s:
        print(
            f"HTTP statuses: {dict(http_s['statuses'])}; all hands posted: "
            f"{http_s['total']}"
        )
        for e in http_s["error_samples"]:
            print(f"  error: {e}")
    if bare_s:
        for e in bare_s["error_samples"]:
            print(f"  bare error: {e}")
    if problems:
        print("BOOKS WRONG:")
        for p in problems[:10]:
            print(f"  {p}")
    elif http_s:
        print(
            "books checked: hands booked = 201 answers, stacks = ledger = engine, "
            "trial balance zero"
        )
    print()
    print("CPU per hand after the warm-up, ms (2 cores = 2,000 ms of CPU a second):")
    for name, s in (("HTTP", http_s), ("bare", bare_s)):
        if s:
            who = "app (gunicorn workers)" if name == "HTTP" else "bare script"
            total = s["cpu_app"] + s["cpu_db"] + s["cpu_clients"]
            print(
                f"  {name}: {who} {s['cpu_app']:.2f}, PostgreSQL backends "
                f"{s['cpu_db']:.2f}, load clients {s['cpu_clients']:.2f}; total "
                f"{total:.2f} -> at most {2000 / max(total, 1e-9):.0f} hands/s on two "
                f"idle cores"
            )
    for name, lines in waits.items():
        print(f"database client backends during the {name} run (pg_stat_activity):")
        for line in lines:
            print(f"  {line}")


if __name__ == "__main__":
    main()
