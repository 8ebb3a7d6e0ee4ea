#!/usr/bin/env python
"""Measure the daily audit after a month of history, with postings back-dated
within the day: DESIGN.md's 100,000 hands in ≤ 2 s, whatever the history.

Uses ``benchmarks/reports.py``'s synthetic room and loaders on its own scratch
database ``bench_audit`` (dropped and made again on each run): ``--history-days``
earlier gaming days of ``--history-hands`` hands each, none of them audited, then
the audited day of ``--hands`` hands. The audited day's postings are then
back-dated within the day: ``--back-dated`` of them (a share, by default 0.2) swap
their ``posted_at`` with another of the day's, so the order of the ledger's ids
is not the order of time (done with the triggers suspended, as the load itself).

Then, with every check of the audit required to agree:

* the snapshot of the balances at the day's opening, taken by the audit itself
  after the day was posted (the worst case: the schedule takes it at the
  cut-off, when nothing came after it);
* ``daily audit``, best of ``--repeat``: the builder in one read-only snapshot,
  starting from that stored snapshot (the audit no day before it was stored
  for, which used to add up every entry ever posted);
* the same audit from the whole history (``full``), once, for reference;
* the day's signed digest (docs/digest.md): the history's days sealed first, then
  the audited day alone, timed, and its parts: reading the day's transactions as
  leaves (best of ``--repeat``), the Merkle root of their hashes; then
  ``books_verify`` over every day and a hand's inclusion proof;
* ``report_generate``, stored (its day already sealed).

    CARDROOM_DATA_DIR=/tmp/bench-data python benchmarks/audit.py
    python benchmarks/audit.py --history-days 30 --history-hands 20000
    python benchmarks/audit.py --scratch bench_mine   # another scratch database
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

# benchmarks/reports.py, under another name than the reports app's.
_spec = importlib.util.spec_from_file_location(
    "bench_reports", Path(__file__).resolve().parent / "reports.py"
)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_reports"] = bench
_spec.loader.exec_module(bench)
bench.SCRATCH = "bench_audit"


def back_date(day_start: Any, day_end: Any, share: float) -> int:
    """Swap ``posted_at`` between pairs of the day's postings; how many moved."""
    from django.db import connection

    from core.db import guards

    with connection.cursor() as c, guards.suspended(c):
        c.execute("SET CONSTRAINTS ALL IMMEDIATE")
        c.execute(
            """
            WITH day AS (
                SELECT id, posted_at, row_number() OVER (ORDER BY random()) AS n
                  FROM accounting_transaction
                 WHERE posted_at >= %s AND posted_at < %s),
            picked AS (SELECT * FROM day WHERE n <= (SELECT count(*) FROM day) * %s),
            pairs AS (
                SELECT a.id, b.posted_at FROM picked a
                  JOIN picked b ON b.n = CASE WHEN a.n %% 2 = 1 THEN a.n + 1
                                              ELSE a.n - 1 END)
            UPDATE accounting_transaction t SET posted_at = pairs.posted_at
              FROM pairs WHERE t.id = pairs.id
            """,
            [day_start, day_end, share],
        )
        return c.rowcount


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--history-days", type=int, default=30)
    parser.add_argument("--history-hands", type=int, default=100_000)
    parser.add_argument("--back-dated", type=float, default=0.2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--scratch", default=bench.SCRATCH, help="the scratch database's name"
    )
    parser.add_argument(
        "--measure-only",
        action="store_true",
        help="measure on the database the last run built, without building it",
    )
    args = parser.parse_args()
    bench.SCRATCH = args.scratch
    step = bench.TABLES * bench.ROTATIONS
    if args.hands % step or args.history_hands % step:
        parser.error(f"hands are a multiple of {step}")

    import django

    django.setup()
    if args.measure_only:
        from django.conf import settings

        settings.DATABASES["default"]["NAME"] = bench.SCRATCH
        settings.DATABASES["default"].pop("OWNER", None)
    else:
        bench.scratch_database()
    from django.core.management import call_command
    from django.db import connection, transaction

    from reports.selectors import Period

    day_audited = bench.DAY
    days = [day_audited - timedelta(days=n) for n in range(args.history_days, -1, -1)]
    if args.measure_only:
        measure(args, day_audited, days)
        return
    print(f"scratch database {bench.SCRATCH}: migrating", flush=True)
    bench.timed("migrate", lambda: call_command("migrate", verbosity=0))
    world = bench.timed("room", lambda: bench.setup_room(day_audited))
    for n, day in enumerate(days):
        hands = args.hands if day == day_audited else args.history_hands
        bench.fill_trays(world, day)
        with transaction.atomic():
            bench.timed(
                f"{day}: {hands:,} hands by SQL",
                lambda day=day, n=n, hands=hands: bench.load_day(
                    world, day, hands, (n + 1) * 10**7
                ),
            )
        with transaction.atomic():
            # Only this day's rows were loaded with the triggers off.
            base = (n + 1) * 10**7
            bench.settle_balances(range(base, base + 10**7))
        bench.close_day(world, day)
    period = Period.of(world["room"], day_audited)
    with transaction.atomic():
        bench.timed(
            "back-dating", lambda: back_date(period.start, period.end, args.back_dated)
        )
    with connection.cursor() as c:
        bench.timed("VACUUM ANALYZE", lambda: c.execute("VACUUM ANALYZE"))
        # The audit reads the schema's history where it is kept; a scratch database
        # keeps none (no guards installed), the schema says so.
        c.execute("CREATE SCHEMA IF NOT EXISTS cardroom_guard")
    measure(args, day_audited, days)


def measure(args: argparse.Namespace, day_audited: Any, days: list[Any]) -> None:
    """Time the snapshot and the audits on the database built."""
    from django.db import connection

    from accounting.services import snapshot_at
    from cardroom.services import room_default
    from reports.builders import daily_audit
    from reports.document import rows_of
    from reports.selectors import Period
    from reports.services import report_generate, report_snapshot

    period = Period.of(room_default(), day_audited)
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM accounting_entry")
        entries = c.fetchone()[0]
        c.execute(
            "SELECT count(*) FROM accounting_transaction WHERE posted_at >= %s"
            " AND posted_at < %s",
            [period.start, period.end],
        )
        postings = c.fetchone()[0]
    print(
        f"ledger: {entries:,} entries over {len(days)} days; the audited day "
        f"{postings:,} postings, a share {args.back_dated:g} back-dated within it"
    )

    started = time.perf_counter()
    snapshot = snapshot_at(period.start)
    taken = time.perf_counter() - started
    print(
        f"snapshot at the day's opening (taken after the day, or read): {taken:.3f} s"
    )

    def audit(**options: Any) -> dict[str, Any]:
        with report_snapshot():
            return daily_audit(period=period, now=bench.NOW, **options)

    fastest, median, data = bench.best(args.repeat, lambda: audit(snapshot=snapshot))
    failed = [c for c in rows_of(data, "checks") if not c["agrees"]]
    assert not failed, failed
    dealt = sum(r["dealt"] for r in rows_of(data, "tables_hands"))
    assert dealt == args.hands, dealt
    print(
        f"daily audit from the snapshot ({dealt:,} hands, "
        f"{len(rows_of(data, 'checks'))} checks agree): best {fastest:.3f} s, "
        f"median {median:.3f} s (target ≤ {bench.TARGETS['daily audit']} s)"
    )
    full_s, _median, full = bench.best(1, lambda: audit(full=True))
    assert rows_of(full, "trial_balance") == rows_of(data, "trial_balance")
    print(f"the same from every entry ever posted (full): {full_s:.3f} s")
    measure_digest(args, day_audited, postings)
    started = time.perf_counter()
    outcome = report_generate(
        kind="daily_audit", first=day_audited, source="command", now=bench.NOW
    )
    print(
        f"report_generate, stored: {time.perf_counter() - started:.3f} s "
        f"(figures {outcome.report.duration_ms} ms, "
        f"{outcome.report.checks_failed} checks failed)"
    )


def measure_digest(args: argparse.Namespace, day_audited: Any, postings: int) -> None:
    """Time the day's signed digest: sealing the audited day, its parts, the
    verification of every day and a hand's proof."""
    from cardroom.models import Hand
    from reports.domain.merkle import root_of
    from reports.leaves import day_leaves
    from reports.models import DayDigest
    from reports.services import books_verify, digests_seal, hand_proof

    started = time.perf_counter()
    history = digests_seal(through=day_audited - timedelta(days=1), now=bench.NOW)
    print(
        f"digests of the {len(history)} days before, sealed: "
        f"{time.perf_counter() - started:.3f} s"
    )
    started = time.perf_counter()
    made = digests_seal(through=day_audited, now=bench.NOW)
    took = time.perf_counter() - started
    # (--measure-only on a database whose day a run before sealed: none made.)
    sealed = made[0] if made else DayDigest.objects.get(gaming_day=day_audited)
    assert sealed.size == postings, (sealed.size, postings)
    print(
        f"digest of the audited day ({sealed.size:,} transactions), sealed, signed, "
        f"stored and archived: {took:.3f} s (the service's own measure "
        f"{sealed.duration_ms} ms)"
    )
    before = DayDigest.objects.get(gaming_day=day_audited - timedelta(days=1))
    bounds = {
        "after": before.until,
        "after_horizon": before.horizon,
        "until": sealed.until,
        "horizon": sealed.horizon,
    }
    fastest, median, leaves = bench.best(args.repeat, lambda: day_leaves(**bounds))
    print(
        f"  the day's transactions read as leaves (SQL, canonical JSON, SHA-256): "
        f"best {fastest:.3f} s, median {median:.3f} s"
    )
    hashes = [leaf.hash for leaf in leaves]
    fastest, median, root = bench.best(args.repeat, lambda: root_of(hashes))
    assert root.hex() == sealed.root
    print(f"  their Merkle root: best {fastest:.3f} s, median {median:.3f} s")
    started = time.perf_counter()
    found = books_verify()
    assert found.status == 0, found.findings
    print(
        f"books_verify, every one of {found.days} days recomputed: "
        f"{time.perf_counter() - started:.3f} s"
    )
    hand = (
        Hand.objects.filter(gaming_day=day_audited, ledger_transaction__isnull=False)
        .select_related("table")
        .order_by("pk")[1000]
    )
    fastest, median, proof = bench.best(
        args.repeat,
        lambda: hand_proof(table=hand.table.code, hand_no=hand.hand_no),
    )
    assert proof["agrees"]
    print(
        f"a hand's inclusion proof ({len(proof['audit_path'])} siblings): "
        f"best {fastest:.3f} s, median {median:.3f} s"
    )


if __name__ == "__main__":
    main()
