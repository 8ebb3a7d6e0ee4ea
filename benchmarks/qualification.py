#!/usr/bin/env python
"""Measure bad-beat qualification at a sustained hand rate on the default setup.

Issue 16: at 100 hands/s sustained on the default setup, a bad beat is a pending
hit within 5 s of its hand, with no backlog after the run. The default setup is
what ``make run`` serves: ``manage.py serve`` (gunicorn, one Celery worker, beat)
with kombu's filesystem broker (no ``CELERY_BROKER_URL``), qualification by the
sweep beat sends every two seconds (``jackpots.tasks``).

What it does, in order:

1. (Re)creates a scratch database (its name must contain ``bench``; the embedded
   server when no URL is given), migrates it and builds the room through the
   services as ``benchmarks/http_hands.py`` does (``--tables`` NLHE 1/2 tables,
   nine players each, a terminal key each), plus the bad-beat pool the default
   category pays from (``demo_jackpots``'s).
2. Deals each table's hands in advance, each from the stacks the last one left;
   every ``--bad-beat-every``-th hand of a table is a stacked bad beat
   (``simulation.bad_beat``) that the category's own rules accept.
3. Starts ``manage.py serve`` on a free port with a fresh data folder (its own
   filesystem broker) and waits for ``/healthz``.
4. Posts the hands from one thread a table, each on a schedule that adds up to
   ``--rate`` hands/s, for ``--duration`` seconds; a monitor polls the database
   every 100 ms for the pending hits. For each bad beat: the time from the
   terminal's 201 to the hit being in the database.
5. After the last post: how long until the sweep's cursor passed the last hand
   booked and every booked hand is qualified (the backlog), then stops ``serve``.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_qual \\
        python benchmarks/qualification.py                    # 100 h/s, 60 s
    python benchmarks/qualification.py --rate 150 --duration 120 --json q.json
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_spec = importlib.util.spec_from_file_location(
    "bench_http", Path(__file__).resolve().parent / "http_hands.py"
)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench
_spec.loader.exec_module(bench)

TARGET_LAG_S = 5.0
BUY_IN = 2_000_000


def bad_beat_config() -> dict[str, Any]:
    """The rules of the bad-beat category in force for NLHE whose pool is open."""
    from jackpots.models import CategoryVersion, Pool

    pools = set(
        Pool.objects.filter(active=True, kind=Pool.Kind.BAD_BEAT).values_list(
            "code", flat=True
        )
    )
    latest = (
        CategoryVersion.objects.order_by("category_id", "-version")
        .distinct("category_id")
        .select_related("category")
    )
    for version in latest:
        if version.active and "NLHE" in version.games and version.pool_code in pools:
            return version.config()
    sys.exit("no bad-beat category covers NLHE with an open pool")


def deal_bad_beat(
    rng: random.Random,
    code: str,
    hand_no: int,
    stacks: dict[int, int],
    players: list[str],
    config: dict[str, Any],
) -> dict[str, Any] | None:
    """A stacked hand the category accepts as a bad beat, or None after 20 tries."""
    from cardroom.domain.settlement import settle_record as settle
    from simulation.bad_beat import bad_beat_preset, is_bad_beat
    from simulation.dealer import deal_hand

    dealt = [s for s, st in stacks.items() if st > 0]
    for _attempt in range(20):
        loser, winner = rng.sample(dealt, 2)
        preset = bad_beat_preset(rng, game="NLHE", loser=loser, winner=winner)
        record = deal_hand(
            rng,
            table=code,
            hand_no=hand_no,
            game="NLHE",
            seats={s: (players[s - 1], stacks[s]) for s in dealt},
            button=dealt[0],
            small_blind=bench.SMALL_BLIND,
            big_blind=bench.BIG_BLIND,
            preset=preset,
        )
        pots = sum(p["amount"] for p in settle(record, bench.POLICY)["pots"])
        if is_bad_beat(record, config, pots):
            return record
    return None


def table_hands(
    seed: int,
    code: str,
    players: list[str],
    count: int,
    every: int,
    config: dict[str, Any],
) -> tuple[list[bytes], set[int]]:
    """``count`` hands of one table in a row, and the numbers of the bad beats."""
    from cardroom.domain.settlement import settle_record as settle

    rng = random.Random(seed)
    stacks = dict.fromkeys(range(1, bench.SEATS + 1), BUY_IN)
    bodies, beats = [], set()
    for n in range(1, count + 1):
        record = None
        if every and n % every == 0:
            record = deal_bad_beat(rng, code, n, stacks, players, config)
            if record is not None:
                beats.add(n)
        if record is None:
            record = bench.deal(rng, n, stacks, players)
            record["table"] = code
        for row in settle(record, bench.POLICY)["seats"]:
            stacks[row["seat"]] = row["final_stack"]
        bodies.append(json.dumps(record, separators=(",", ":")).encode())
    return bodies, beats


class Monitor(threading.Thread):
    """Polls the database every 100 ms: when each hit was first there."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.seen: dict[tuple[str, int], float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        from django.db import connection

        from jackpots.models import Hit

        while not self.stop.is_set():
            found = Hit.objects.values_list("hand__table__code", "hand__hand_no")
            now = time.monotonic()
            for key in found:
                self.seen.setdefault(key, now)
            time.sleep(0.1)
        connection.close()


def post_table(
    port: int,
    code: str,
    key: str,
    bodies: list[bytes],
    *,
    start: float,
    interval: float,
    deadline: float,
    acks: dict[tuple[str, int], float],
    errors: list[str],
) -> None:
    """Post one table's hands on its schedule; note when each was answered."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json", "Authorization": f"Api-Key {key}"}
    for n, body in enumerate(bodies, start=1):
        due = start + (n - 1) * interval
        if due > deadline:
            break
        time.sleep(max(0.0, due - time.monotonic()))
        conn.request("POST", f"/api/v1/tables/{code}/hands", body, headers)
        answer = conn.getresponse()
        content = answer.read()
        acks[(code, n)] = time.monotonic()
        if answer.status != 201 and len(errors) < 5:
            errors.append(f"{code} #{n}: {answer.status} {content[:200]!r}")
    conn.close()


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """Start ``manage.py serve`` and wait for its health check."""
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(300):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.kill()
    sys.exit("manage.py serve did not answer /healthz")


def backlog_cleared(timeout: float) -> float | None:
    """Seconds until every booked hand is qualified and the cursor passed the last."""
    from django.db.models import Max

    from cardroom.models import Hand
    from jackpots.models import QualifiedHand, SweepCursor

    begun = time.monotonic()
    last = Hand.objects.aggregate(m=Max("pk"))["m"] or 0
    booked = Hand.objects.count()
    while time.monotonic() - begun < timeout:
        cursor = SweepCursor.objects.order_by("-last_hand_id").first()
        done = QualifiedHand.objects.count()
        if cursor is not None and cursor.last_hand_id >= last and done >= booked:
            return time.monotonic() - begun
        time.sleep(0.1)
    return None


def room(tables: int) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The benchmark's room, with the bad-beat pool of the default category."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from cardroom.services import room_default
    from jackpots.models import Pool
    from jackpots.services import pool_create

    call_command("migrate", verbosity=0)
    codes = [f"Q{i:02d}" for i in range(1, tables + 1)]
    keys, players, _bare = bench.build_room(codes, [], BUY_IN)
    pool_create(
        room=room_default(),
        code="bad-beat",
        name="Bad beat jackpot",
        kind=Pool.Kind.BAD_BEAT,
        by=User.objects.get(username="bench-manager"),
        drop_ratio=3,
        reserve_percent=10,
        seed_cents=500_000,
    )
    return keys, players


def run(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """Deal, serve, post at the rate, measure; return the figures."""
    keys, players = room(args.tables)
    config = bad_beat_config()
    per_table = int(args.rate * args.duration / args.tables) + 1
    dealt = {
        code: table_hands(
            args.seed + i, code, players[code], per_table, args.bad_beat_every, config
        )
        for i, code in enumerate(keys)
    }
    from django.db import connections

    connections.close_all()
    port = bench.free_port()
    server = serve(env, port)
    monitor = Monitor()
    monitor.start()
    acks: dict[tuple[str, int], float] = {}
    errors: list[str] = []
    interval = args.tables / args.rate
    start = time.monotonic() + 1.0
    deadline = start + args.duration
    threads = [
        threading.Thread(
            target=post_table,
            args=(port, code, keys[code], dealt[code][0]),
            kwargs={"start": start, "interval": interval, "deadline": deadline}
            | {"acks": acks, "errors": errors},
        )
        for code in keys
    ]
    for i, thread in enumerate(threads):
        time.sleep(interval / len(threads) if i else 0)
        thread.start()
    for thread in threads:
        thread.join()
    posted_for = max(acks.values()) - start
    cleared = backlog_cleared(args.settle)
    time.sleep(0.3)
    monitor.stop.set()
    monitor.join()
    os.killpg(server.pid, signal.SIGINT)
    server.wait(60)
    beats = [(code, n) for code in keys for n in dealt[code][1] if (code, n) in acks]
    lags = [monitor.seen[b] - acks[b] for b in beats if b in monitor.seen]
    return {
        "rate_asked": args.rate,
        "hands_posted": len(acks),
        "rate_sustained": round(len(acks) / posted_for, 1),
        "errors": errors,
        "bad_beats_posted": len(beats),
        "hits_found": len(lags),
        "lag_s_max": round(max(lags), 2) if lags else None,
        "lag_s_median": round(statistics.median(lags), 2) if lags else None,
        "backlog_cleared_s": None if cleared is None else round(cleared, 2),
        "target_lag_s": TARGET_LAG_S,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rate", type=float, default=100.0, help="hands/s in all")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds")
    parser.add_argument("--bad-beat-every", type=int, default=150, metavar="N")
    parser.add_argument("--settle", type=float, default=60.0, help="backlog wait, s")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--json", default="", metavar="FILE")
    args = parser.parse_args()
    url = bench.database_url(args)
    bench.recreate_database(url)
    tmp = Path(tempfile.mkdtemp(prefix="bench-qual-"))
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
        "PYTHONWARNINGS": "ignore:No directory at",
    }
    env.pop("CELERY_BROKER_URL", None)
    os.environ.clear()
    os.environ.update(env)
    import django

    django.setup()
    result = run(args, env)
    for name, value in result.items():
        print(f"{name:>20}: {value}")
    met = (
        result["hits_found"] == result["bad_beats_posted"] > 0
        and (result["lag_s_max"] or 99) <= TARGET_LAG_S
        and result["backlog_cleared_s"] is not None
        and result["rate_sustained"] >= 0.95 * args.rate
    )
    print("verdict:", "met" if met else "NOT met")
    if args.json:
        Path(args.json).write_text(json.dumps(result | {"met": met}, indent=2) + "\n")
    bench.drop_database(url)


if __name__ == "__main__":
    main()
