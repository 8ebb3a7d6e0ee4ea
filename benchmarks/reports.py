#!/usr/bin/env python
"""Measure the reports against DESIGN.md: the daily audit of a gaming day with
100,000 hands (≤ 2 s) and hand-of-the-month standings over 1,000,000 hands (≤ 1 s).

Builds a scratch database ``bench_reports`` (dropped and made again on each run) on
the configured PostgreSQL server — the embedded one of ``CARDROOM_DATA_DIR`` (by
default ``/tmp/bench-data``), or the server of ``DATABASE_URL`` — migrates it, and
fills it with synthetic rows by SQL:

* the audited gaming day: 20 NL 1/2 tables, 2,000 players, 4,500 seat sessions with
  their cash buy-ins, ``--hands`` nine-handed hands (three in four raked, with a €1
  jackpot drop shared by a bad-beat pool with a reserve and a hand-of-the-month
  pool), their seats, one balanced ledger transaction each with its entries (one per
  player and one per house account), a stack mismatch in one hand of a hundred and a
  void (with its reversal) in one of a thousand; fills, box counts with variances
  and a cashier's shift closed short, through the services;
* ``--history-days`` earlier days of the same volume, so the ledger holds more than
  the audited day (the trial balance reads every entry);
* a month of ``--hm-hands`` hands (October) with two hands tabled at each showdown
  entered in the hand-of-the-month standings (``jackpots.MonthHand``).

Rows are inserted with the triggers switched off for the load, in its transaction
(``core.db.guards.suspended``: the ledger's triggers are ``ENABLE ALWAYS``, so
``session_replication_role = replica`` skips none; the scratch database is the
superuser's own, without the app's roles or the guards' event triggers), the
accounts' cached balances are then set from the entries, and the audit's own checks
(trial balance, cached balances, every records-vs-ledger comparison) must all agree,
which proves the synthetic books balance. Then, best of ``--repeat``:

* ``daily audit``: the builder of the daily audit in one read-only snapshot (all its
  grouped queries and the assembly of the document), then one full
  ``report_generate`` (the same plus storing the JSON);
* ``HM standings``: ``jackpots.selectors.month_standings`` for October.

    CARDROOM_DATA_DIR=/tmp/bench-data python benchmarks/reports.py
    python benchmarks/reports.py --hands 20000 --hm-hands 100000   # a quick run
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from datetime import time as dt_time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CARDROOM_DATA_DIR", "/tmp/bench-data")  # noqa: S108
os.environ.setdefault("LOG_LEVEL", "WARNING")
SCRATCH = "bench_reports"
DAY = date(2026, 11, 27)
HM_MONTH = date(2026, 10, 1)
TABLES, PLAYERS, ROTATIONS = 20, 2_000, 25
TARGETS = {"daily audit": 2.0, "HM standings": 1.0}
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)  # every synthetic day is over
HELSINKI = ZoneInfo("Europe/Helsinki")


def local(day: date, hour: int, minute: int = 0) -> datetime:
    """``hour:minute`` of gaming day ``day`` in Helsinki (before 06:00: next date)."""
    on = day + timedelta(days=1) if hour < 6 else day
    return datetime.combine(on, dt_time(hour, minute), tzinfo=HELSINKI)


def scratch_database() -> None:
    """Point Django at a fresh ``bench_reports`` database on the same server."""
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    db["NAME"] = SCRATCH
    # The superuser's own scratch database: no owner and app roles to switch to.
    db.pop("OWNER", None)
    if db["ENGINE"] == "core.db.embedded":
        db["EMBEDDED_DATABASE"] = SCRATCH
        db["USER"] = "postgres"
    from django.db import connection

    params = connection.get_connection_params()
    keep = {
        k: v for k, v in params.items() if k in ("host", "port", "user", "password")
    }
    if db["ENGINE"] == "core.db.embedded":
        from core.db.embedded.base import socket_dir

        keep["host"] = socket_dir(db["DATA_DIR"], "postgres")
    with psycopg.connect(dbname="postgres", autocommit=True, **keep) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{SCRATCH}"')
    connection.close()


class Timed:
    """A cursor that prints each slow statement's time with ``--verbose``."""

    verbose = False

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    def execute(self, sql: str, params: Any = None) -> None:
        started = time.perf_counter()
        self.cursor.execute(sql, params)
        spent = time.perf_counter() - started
        if self.verbose and spent > 0.5:
            text = " ".join(sql.split())
            print(f"    {spent:6.1f} s  {text[:40]} … {text[-40:]}", flush=True)

    def fetchone(self) -> Any:
        return self.cursor.fetchone()


def timed(label: str, func: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = func()
    print(f"  {label}: {time.perf_counter() - started:.1f} s", flush=True)
    return result


def setup_room(day: date) -> dict[str, Any]:
    """The room, its games, tables, players, pools and house accounts (ORM)."""
    from django.contrib.auth.models import Group, User

    from accounting import chart
    from accounting.models import Cage, Player
    from accounting.services import cage
    from cardroom.services import room_default, table_open
    from jackpots.models import Pool
    from jackpots.services import drop_legs, pool_create

    manager = User.objects.create_user("bench-manager")
    manager.groups.set(Group.objects.filter(name="manager"))
    cashier = User.objects.create_user("bench-cashier")
    cashier.groups.set(Group.objects.filter(name="cashier"))
    floor = User.objects.create_user("bench-floor")
    floor.groups.set(Group.objects.filter(name="floor"))
    policy = {
        "currency": "EUR",
        "smallest_chip": 50,
        "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
        "jackpot_drop": {"amount": 100, "min_participants": 6},
    }
    opened = local(HM_MONTH, 7)
    tables = [
        table_open(
            code=f"T{n:02d}",
            game_code="NLHE",
            small_blind=100,
            big_blind=200,
            min_buy_in=10_000,
            max_buy_in=40_000,
            seats=9,
            policy=policy,
            by=manager,
            now=opened,
        )
        for n in range(1, TABLES + 1)
    ]
    room = room_default()
    Player.objects.bulk_create(
        Player(
            code=f"P-{n:04d}",
            name=f"Player {n}",
            id_verified=True,
            birth_date=date(1985, 1, 1),  # PP2: no door lets one in without it
        )
        for n in range(1, PLAYERS + 1)
    )
    for code, kind, ratio, reserve in [
        ("bad-beat", Pool.Kind.BAD_BEAT, 3, 10),
        ("hand-of-the-month", Pool.Kind.HAND_OF_THE_MONTH, 1, 0),
    ]:
        pool_create(
            room=room,
            code=code,
            name=code,
            kind=kind,
            drop_ratio=ratio,
            reserve_percent=reserve,
            by=manager,
            starts_on=HM_MONTH,
            now=opened,
        )
    main = Cage.objects.create(code="MAIN", name="Main cage")
    cage.cage_vault_fund(cage=main, cash_cents=10**10, chips_cents=10**10, by=manager)
    return {
        "room": room,
        "tables": tables,
        "manager": manager,
        "cashier": cashier,
        "floor": floor,
        "cage": main,
        "drop": [
            (leg.account.pk, leg.amount_cents)
            for leg in drop_legs(room=room, table=None, amount_cents=100)
        ],
        "house": {
            "revenue": chart.rake_revenue().pk,
            "float": chart.chip_float().pk,
        },
        "boxes": {
            t.pk: {
                box: getattr(chart, f"table_{box}")(table=t.code).pk
                for box in ("tray", "drop_box", "rake_box", "jackpot_box")
            }
            for t in tables
        },
    }


def fill_trays(world: dict[str, Any], day: date) -> None:
    """Fill every tray for the day's buy-ins, through the cage's services (CA3)."""
    from accounting.models import TableSlip
    from accounting.services import cage

    shift = cage.shift_open(
        cage=world["cage"],
        cashier=world["cashier"],
        cash_cents=10**8,
        chips_cents=10**9,
        at=local(day, 6, 30),
    )
    world.setdefault("shifts", {})[day] = shift
    for table in world["tables"]:
        slip = cage.slip_request(
            kind=TableSlip.Kind.FILL,
            cage=world["cage"],
            table=table.code,
            amount_cents=ROTATIONS * 9 * 20_000,
            requested_by=world["floor"],
            at=local(day, 6, 40),
        )
        cage.slip_issue(slip=slip, cashier=world["cashier"], at=local(day, 6, 45))


def load_day(world: dict[str, Any], day: date, hands: int, base: int) -> None:
    """Insert a gaming day's sessions, buy-ins, hands, seats and ledger by SQL.

    ``base`` offsets every id of the day, so days never collide.
    """
    from django.db import connection

    from core.db import guards

    start = local(day, 6)
    txn = base + 5_000_000  # hands' transactions; their voids' follow them
    per_table = hands // TABLES
    table_ids = [t.pk for t in world["tables"]]
    game_id, policy_id = (
        world["tables"][0].game_id,
        world["tables"][0].game.policies.get().pk,
    )
    with connection.cursor() as raw, guards.suspended(raw):
        # The foreign keys' checks now, not at commit: the triggers are switched
        # back on (ALTER TABLE) before it, which pending checks would refuse.
        raw.execute("SET CONSTRAINTS ALL IMMEDIATE")
        c = Timed(raw)
        c.execute(
            "CREATE TEMP TABLE IF NOT EXISTS bench_tables (n int, table_id bigint, "
            "rake_box bigint, jackpot_box bigint, tray bigint, drop_box bigint)"
        )
        c.execute("TRUNCATE bench_tables")
        for n, t in enumerate(table_ids):
            b = world["boxes"][t]
            c.execute(
                "INSERT INTO bench_tables VALUES (%s, %s, %s, %s, %s, %s)",
                [n, t, b["rake_box"], b["jackpot_box"], b["tray"], b["drop_box"]],
            )
        c.execute("SELECT min(id) FROM accounting_player")
        first_player = c.fetchone()[0]
        # Seat sessions: table n, rotation r, seat s (1–9), 24 h / 25 each.
        c.execute(
            """
            INSERT INTO cardroom_seatsession (id, table_id, game_id, seat, player_id,
                kind, house_move, gaming_day, started_at, ended_at, stack_cents,
                left_with_cents, must_leave_rule)
            SELECT %(base)s + bt.n * %(rot)s * 9 + r * 9 + s, bt.table_id, %(game)s, s,
                   %(p0)s + (bt.n * %(rot)s * 9 + r * 9 + s - 1) %% %(players)s,
                   'buy_in', false, %(day)s,
                   %(start)s + r * interval '1 day' / %(rot)s,
                   %(start)s + (r + 1) * interval '1 day' / %(rot)s, 0, 0, ''
              FROM bench_tables bt, generate_series(0, %(rot)s - 1) r,
                   generate_series(1, 9) s
            """,
            {
                "base": base,
                "rot": ROTATIONS,
                "game": game_id,
                "p0": first_player,
                "players": PLAYERS,
                "day": day,
                "start": start,
            },
        )
        # Each (player, table) stack account, opened empty.
        c.execute(
            """
            INSERT INTO accounting_account (code, name, type, currency, non_negative,
                balance_cents, created_at)
            SELECT DISTINCT 'player:' || p.code || ':table:' || t.code, 'stack',
                   'liability', 'EUR', true, 0, now()
              FROM cardroom_seatsession ss
              JOIN accounting_player p ON p.id = ss.player_id
              JOIN cardroom_table t ON t.id = ss.table_id
             WHERE ss.id > %(base)s
            ON CONFLICT (code) DO NOTHING
            """,
            {"base": base},
        )
        c.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS bench_stacks AS
            SELECT NULL::bigint player_id, NULL::bigint table_id,
                   NULL::bigint account_id
             LIMIT 0
            """
        )
        c.execute("TRUNCATE bench_stacks")
        c.execute(
            """
            INSERT INTO bench_stacks
            SELECT DISTINCT ss.player_id, ss.table_id, a.id
              FROM cardroom_seatsession ss
              JOIN accounting_player p ON p.id = ss.player_id
              JOIN cardroom_table t ON t.id = ss.table_id
              JOIN accounting_account a
                ON a.code = 'player:' || p.code || ':table:' || t.code
             WHERE ss.id > %(base)s
            """,
            {"base": base},
        )
        c.execute(
            "CREATE INDEX IF NOT EXISTS bench_stacks_key"
            " ON bench_stacks (player_id, table_id)"
        )
        c.execute("ANALYZE bench_tables")
        c.execute("ANALYZE bench_stacks")
        # Buy-ins: €200 cash each, drop box + stack, tray − float.
        c.execute(
            """
            INSERT INTO accounting_transaction (id, kind, reference, memo, source,
                posted_at, xact_id)
            SELECT ss.id, 'seat_buy_in', 'bench', '', 'bench', ss.started_at,
                   pg_current_xact_id()::text::bigint
              FROM cardroom_seatsession ss WHERE ss.id > %(base)s
            """,
            {"base": base},
        )
        c.execute(
            """
            INSERT INTO accounting_entry (transaction_id, account_id, amount_cents,
                currency)
            SELECT ss.id, x.account_id, x.amount, 'EUR'
              FROM cardroom_seatsession ss
              JOIN bench_tables bt ON bt.table_id = ss.table_id
              JOIN bench_stacks st ON st.player_id = ss.player_id
                                  AND st.table_id = ss.table_id
             CROSS JOIN LATERAL (VALUES (bt.drop_box, 20000), (st.account_id, -20000),
                   (bt.tray, -20000), (%(float)s::bigint, 20000)) x(account_id, amount)
             WHERE ss.id > %(base)s
            """,
            {"base": base, "float": world["house"]["float"]},
        )
        c.execute(
            """
            INSERT INTO cardroom_stackmovement (session_id, player_id, kind, method,
                amount_cents, gaming_day, at, ledger_transaction_id)
            SELECT ss.id, ss.player_id, 'buy_in', 'cash', 20000, ss.gaming_day,
                   ss.started_at, ss.id
              FROM cardroom_seatsession ss WHERE ss.id > %(base)s
            """,
            {"base": base},
        )
        c.execute(
            """
            INSERT INTO accounting_cashtransaction (player_id, gaming_day, kind,
                amount_cents, reference, at)
            SELECT ss.player_id, ss.gaming_day, 'table_buy_in', 20000, 'bench',
                   ss.started_at
              FROM cardroom_seatsession ss WHERE ss.id > %(base)s
            """,
            {"base": base},
        )
        # Hands: i = k * 20 + table; one in four ends before the flop (no rake, no
        # drop); one in a thousand is voided.
        c.execute(
            """
            INSERT INTO accounting_transaction (id, kind, reference, external_id, memo,
                source, posted_at, xact_id)
            SELECT %(txn)s + i, 'hand', 'bench', 'hand:' || %(txn)s + i, '', 'bench',
                   %(start)s + (i / %(tables)s + 0.5) * interval '1 day' / %(per)s,
                   pg_current_xact_id()::text::bigint
              FROM generate_series(0, %(hands)s - 1) i
            """,
            {
                "txn": txn,
                "start": start,
                "tables": TABLES,
                "per": per_table,
                "hands": hands,
            },
        )
        c.execute(
            """
            INSERT INTO cardroom_hand (id, table_id, hand_no, game_id, policy_id,
                gaming_day, ended_at, record, record_hash, settlement, pot_cents,
                rake_cents, jackpot_drop_cents, participants, status,
                ledger_transaction_id, source, created_at)
            SELECT %(base)s + i, bt.table_id, %(base)s + i / %(tables)s + 1, %(game)s,
                   %(policy)s, %(day)s, t.posted_at, '{}', md5(i::text), '{}',
                   CASE WHEN i %% 4 = 0 THEN 900 ELSE 3600 END,
                   CASE WHEN i %% 4 = 0 THEN 0 ELSE 100 END,
                   CASE WHEN i %% 4 = 0 THEN 0 ELSE 100 END, 9,
                   CASE WHEN i %% 1000 = 999 THEN 'voided' ELSE 'booked' END,
                   %(txn)s + i, 'bench', now()
              FROM generate_series(0, %(hands)s - 1) i
              JOIN bench_tables bt ON bt.n = i %% %(tables)s
              JOIN accounting_transaction t ON t.id = %(txn)s + i
            """,
            {
                "base": base,
                "txn": txn,
                "tables": TABLES,
                "game": game_id,
                "policy": policy_id,
                "day": day,
                "hands": hands,
            },
        )
        c.execute(
            """
            INSERT INTO cardroom_handseat (hand_id, seat, player_id, session_id,
                stack_cents, put_in_cents, returned_cents, won_cents,
                final_stack_cents, present, folded, description)
            SELECT h.id, s, ss.player_id, ss.id, 20000, h.pot_cents / 9, 0,
                   CASE WHEN s = w THEN h.pot_cents - h.rake_cents
                        - h.jackpot_drop_cents ELSE 0 END,
                   20000 - h.pot_cents / 9 + CASE WHEN s = w THEN h.pot_cents
                        - h.rake_cents - h.jackpot_drop_cents ELSE 0 END,
                   true, s <> w, ''
              FROM cardroom_hand h
              JOIN bench_tables bt ON bt.table_id = h.table_id
             CROSS JOIN generate_series(1, 9) s
             CROSS JOIN LATERAL (SELECT (h.hand_no - %(base)s - 1) k) kk
             CROSS JOIN LATERAL (SELECT (kk.k %% 9) + 1 w) ww
              JOIN cardroom_seatsession ss ON ss.id = %(base)s + bt.n * %(rot)s * 9
                   + (kk.k * %(rot)s / %(per)s) * 9 + s
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
            """,
            {"base": base, "rot": ROTATIONS, "per": per_table, "hands": hands},
        )
        for table in ("cardroom_hand", "cardroom_handseat", "cardroom_seatsession"):
            c.execute(f"ANALYZE {table}")  # our own names, not input
        c.execute(
            """
            INSERT INTO accounting_entry (transaction_id, account_id, amount_cents,
                currency)
            SELECT h.ledger_transaction_id, st.account_id,
                   hs.put_in_cents - hs.won_cents, 'EUR'
              FROM cardroom_handseat hs
              JOIN cardroom_hand h ON h.id = hs.hand_id
              JOIN bench_stacks st ON st.player_id = hs.player_id
                                  AND st.table_id = h.table_id
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
            UNION ALL
            SELECT h.ledger_transaction_id, x.account_id, x.amount, 'EUR'
              FROM cardroom_hand h
              JOIN bench_tables bt ON bt.table_id = h.table_id
             CROSS JOIN LATERAL (VALUES (bt.rake_box, 100), (%(revenue)s::bigint, -100),
                   (bt.jackpot_box, 100), (%(float)s::bigint, -200))
                   x(account_id, amount)
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
               AND h.rake_cents > 0
            UNION ALL
            SELECT h.ledger_transaction_id, d.account_id, d.amount, 'EUR'
              FROM cardroom_hand h
             CROSS JOIN unnest(%(drop_accounts)s::bigint[], %(drop_amounts)s::bigint[])
                   d(account_id, amount)
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
               AND h.jackpot_drop_cents > 0
            """,
            {
                "base": base,
                "hands": hands,
                "revenue": world["house"]["revenue"],
                "float": world["house"]["float"],
                "drop_accounts": [a for a, _v in world["drop"]],
                "drop_amounts": [v for _a, v in world["drop"]],
            },
        )
        # Voids (RK8): a reversal mirroring the hand's entries.
        c.execute(
            """
            INSERT INTO accounting_transaction (id, kind, reference, memo, source,
                reverses_id, posted_at, xact_id)
            SELECT h.ledger_transaction_id + %(hands)s, 'hand_void', 'bench',
                   'misdeal', 'bench',
                   h.ledger_transaction_id, h.ended_at + interval '5 seconds',
                   pg_current_xact_id()::text::bigint
              FROM cardroom_hand h
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
               AND h.status = 'voided'
            """,
            {"base": base, "hands": hands},
        )
        c.execute(
            """
            INSERT INTO accounting_entry (transaction_id, account_id, amount_cents,
                currency)
            SELECT t.id, e.account_id, -e.amount_cents, 'EUR'
              FROM accounting_transaction t
              JOIN accounting_entry e ON e.transaction_id = t.reverses_id
             WHERE t.id >= %(txn)s + %(hands)s AND t.id < %(txn)s + 2 * %(hands)s
            """,
            {"txn": txn, "hands": hands},
        )
        c.execute(
            """
            INSERT INTO cardroom_handexception (hand_id, kind, details, status,
                created_at, resolution)
            SELECT h.id, 'stack_mismatch',
                   jsonb_build_object('seat', 1, 'reported', 20100, 'recorded', 20000),
                   'open', h.ended_at, ''
              FROM cardroom_hand h
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
               AND (h.id - %(base)s) %% 100 = 50
            """,
            {"base": base, "hands": hands},
        )


def load_hm_month(world: dict[str, Any], hands: int, base: int) -> None:
    """A month of hands with two showdown hands each in the HM standings."""
    from django.db import connection

    from core.db import guards
    from jackpots.models import Pool

    pool = Pool.objects.get(kind=Pool.Kind.HAND_OF_THE_MONTH)
    start = local(HM_MONTH, 6)
    game_id = world["tables"][0].game_id
    policy_id = world["tables"][0].game.policies.get().pk
    with connection.cursor() as c, guards.suspended(c):
        c.execute("SELECT min(id) FROM accounting_player")
        first_player = c.fetchone()[0]
        c.execute(
            """
            INSERT INTO cardroom_hand (id, table_id, hand_no, game_id, policy_id,
                gaming_day, ended_at, record, record_hash, settlement, pot_cents,
                rake_cents, jackpot_drop_cents, participants, status, source,
                created_at)
            SELECT %(base)s + i, bt.table_id, %(base)s + i / %(tables)s + 1, %(game)s,
                   %(policy)s, (%(start)s + i * interval '30 days' / %(hands)s)::date,
                   %(start)s + i * interval '30 days' / %(hands)s, '{}',
                   md5(i::text), '{}', 3600, 100, 100, 9,
                   CASE WHEN i %% 1000 = 999 THEN 'voided' ELSE 'booked' END,
                   'bench', now()
              FROM generate_series(0, %(hands)s - 1) i
              JOIN bench_tables bt ON bt.n = i %% %(tables)s
            """,
            {
                "base": base,
                "tables": TABLES,
                "game": game_id,
                "policy": policy_id,
                "start": start,
                "hands": hands,
            },
        )
        c.execute(
            """
            INSERT INTO jackpots_monthhand (pool_id, month, hand_id, ended_at, seat,
                player_id, key, description, cards)
            SELECT %(pool)s, %(month)s, h.id, h.ended_at, s,
                   %(p0)s + (h.id * 7 + s) %% %(players)s,
                   abs(hashint4((h.id * 2 + s)::int)) %% 7462,
                   'hand ' || (abs(hashint4((h.id * 2 + s)::int)) %% 7462),
                   '["As", "Ks", "Qs", "Js", "Ts"]'
              FROM cardroom_hand h CROSS JOIN generate_series(1, 2) s
             WHERE h.id >= %(base)s AND h.id < %(base)s + %(hands)s
            """,
            {
                "pool": pool.pk,
                "month": HM_MONTH,
                "p0": first_player,
                "players": PLAYERS,
                "base": base,
                "hands": hands,
            },
        )


def settle_balances(ids: range | None = None) -> None:
    """Set every account's cached balance from its entries (the triggers were off);
    a summed account's entries that the triggers kept out of its row stay out.

    ``ids``: only the entries of the transactions with those ids were loaded with
    the triggers off (a day of :func:`load_day`); their sums are added to the cached
    balances, so a month of history costs each day its own entries only.
    """
    from django.db import connection

    from core.db import guards

    among = "" if ids is None else "AND transaction_id >= %s AND transaction_id < %s"
    bounds = [] if ids is None else [ids.start, ids.stop]
    with connection.cursor() as c, guards.suspended(c):
        c.execute(
            f"""
            UPDATE accounting_account a
               SET balance_cents = {"" if ids is None else "a.balance_cents +"}
                   CASE WHEN a.type IN ('asset', 'expense')
                        THEN s.total ELSE -s.total END
              FROM (SELECT account_id, sum(amount_cents) total FROM accounting_entry
                     WHERE NOT summed {among} GROUP BY account_id) s
             WHERE s.account_id = a.id
            """,  # noqa: S608
            bounds,
        )
        c.execute(
            "SELECT count(*) FROM (SELECT transaction_id FROM accounting_entry "  # noqa: S608
            f"WHERE true {among} "
            "GROUP BY transaction_id HAVING sum(amount_cents) <> 0) x",
            bounds,
        )
        assert c.fetchone()[0] == 0, "an unbalanced synthetic transaction"
        for table in (
            "accounting_transaction",
            "accounting_entry",
            "accounting_account",
            "cardroom_hand",
            "cardroom_handseat",
            "cardroom_seatsession",
            "cardroom_stackmovement",
        ):
            c.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608
                f"(SELECT max(id) FROM {table}))"
            )


def close_day(world: dict[str, Any], day: date) -> None:
    """Count every box, a few with variances, and close the shift €5 short (CA1,
    CA4)."""
    from accounting.models import Account, BoxCount
    from accounting.selectors import shift_report
    from accounting.services import cage

    at = local(day + timedelta(days=1), 5)
    for n, table in enumerate(world["tables"]):
        for box in (BoxCount.Box.DROP, BoxCount.Box.RAKE, BoxCount.Box.JACKPOT):
            recorded = Account.objects.get(code=f"table:{table.code}:{box}_box")
            cage.box_count_record(
                cage="MAIN",
                cashier=world["cashier"],
                table=table.code,
                box=box,
                gaming_day=day,
                counted_cents=max(
                    0, recorded.balance_cents - (100 if n % 7 == 0 else 0)
                ),
                at=at,
            )
    shift = world["shifts"][day]
    report = shift_report(shift=shift)
    cage.shift_close(
        shift=shift,
        cashier=world["cashier"],
        cash_cents=report.cash.expected - 500,
        chips_cents=report.chips.expected,
        at=local(day + timedelta(days=1), 5, 30),
    )


def best(repeat: int, func: Callable[[], Any]) -> tuple[float, float, Any]:
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--history-days", type=int, default=0)
    parser.add_argument("--hm-hands", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    Timed.verbose = args.verbose
    if args.hands % (TABLES * ROTATIONS):
        parser.error(f"--hands is a multiple of {TABLES * ROTATIONS}")

    import django

    django.setup()
    scratch_database()
    from django.core.management import call_command
    from django.db import connection, transaction

    from reports.services import report_generate

    print(f"scratch database {SCRATCH}: migrating", flush=True)
    timed("migrate", lambda: call_command("migrate", verbosity=0))
    world = timed("room, tables, players, pools", lambda: setup_room(DAY))
    days = [DAY - timedelta(days=n) for n in range(args.history_days, -1, -1)]
    for n, day in enumerate(days):
        fill_trays(world, day)
        with transaction.atomic():
            timed(
                f"{day}: {args.hands:,} hands by SQL",
                lambda day=day, n=n: load_day(world, day, args.hands, (n + 1) * 10**7),
            )
        with transaction.atomic():
            timed("cached balances from the entries", settle_balances)
        timed(
            f"{day}: box counts and shift close", lambda day=day: close_day(world, day)
        )
        if day != DAY:
            # The audits run every morning: the audited day's continues from these.
            timed(
                f"{day}: its daily audit",
                lambda day=day: report_generate(
                    kind="daily_audit", first=day, source="command", now=NOW
                ),
            )
    if args.hm_hands:
        with transaction.atomic():
            timed(
                f"{HM_MONTH:%Y-%m}: {args.hm_hands:,} hands for the HM standings",
                lambda: load_hm_month(world, args.hm_hands, 10**9),
            )
    with connection.cursor() as c:
        timed("VACUUM ANALYZE", lambda: c.execute("VACUUM ANALYZE"))
        c.execute("SELECT count(*) FROM accounting_entry")
        entries = c.fetchone()[0]
        c.execute("SELECT count(*) FROM jackpots_monthhand")
        month_hands = c.fetchone()[0]
    print(f"ledger: {entries:,} entries; HM standings: {month_hands:,} entries")

    from reports.builders import daily_audit
    from reports.document import rows_of
    from reports.selectors import Period
    from reports.services import report_snapshot

    room = world["room"]
    period = Period.of(room, DAY)
    now = NOW

    steps: dict[str, float] = {}

    def audit() -> dict[str, Any]:
        mark = [time.perf_counter()]

        def progress(step: str) -> None:
            now_ = time.perf_counter()
            steps[step] = min(steps.get(step, 1e9), now_ - mark[0])
            mark[0] = now_

        with report_snapshot():
            return daily_audit(period=period, now=now, progress=progress)

    fastest, median, data = best(args.repeat, audit)
    checks = rows_of(data, "checks")
    failed = [c for c in checks if not c["agrees"]]
    assert not failed, failed
    hands = sum(r["dealt"] for r in rows_of(data, "tables_hands"))
    assert hands == args.hands, hands
    mode = (
        "continuing from the day before's" if args.history_days else "first, full scan"
    )
    print(
        f"daily audit ({mode}; {hands:,} hands, {len(checks)} checks agree): best "
        f"{fastest:.3f} s, median {median:.3f} s (target ≤ {TARGETS['daily audit']} s)"
    )
    print(
        "  by section (best): "
        + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in steps.items())
    )
    started = time.perf_counter()
    outcome = report_generate(kind="daily_audit", first=DAY, source="command", now=now)
    stored = time.perf_counter() - started
    print(
        f"report_generate, stored: {stored:.3f} s "
        f"(figures {outcome.report.duration_ms} ms)"
    )

    from jackpots.models import Pool
    from jackpots.selectors import month_standings
    from reports.builders import jackpot_report

    if not args.hm_hands:
        return
    pool = Pool.objects.get(kind=Pool.Kind.HAND_OF_THE_MONTH)
    fastest, median, table = best(
        args.repeat, lambda: month_standings(pool=pool, month=HM_MONTH)
    )
    print(
        f"HM standings, jackpots.selectors.month_standings ({args.hm_hands:,} "
        f"hands, {month_hands:,} entries, top {len(table)}): best "
        f"{fastest * 1000:.1f} ms, median {median * 1000:.1f} ms "
        f"(target ≤ {TARGETS['HM standings']} s)"
    )
    month_period = Period.of(room, HM_MONTH, date(2026, 10, 31))
    fastest, median, _data = best(
        args.repeat, lambda: jackpot_report(period=month_period, now=now)
    )
    print(
        f"jackpot report of {HM_MONTH:%Y-%m} (funds, drops, hits, standings): "
        f"best {fastest:.3f} s, median {median:.3f} s"
    )


if __name__ == "__main__":
    main()
