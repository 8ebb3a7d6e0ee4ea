"""Reads of the day's digest: the ledger's transactions as leaves (docs/digest.md).

Which transactions a gaming day's digest holds: those dated before the day's end
(``until``) and written by a database transaction below the digest's ``horizon``
(each one below it had ended when the digest was computed, so the set can't grow
afterwards), less those the day before's digest held. A posting dated into a day
already sealed (a terminal's late hand) goes into the next day sealed; none ever
changes a sealed day. Each is read with its entries in the order they were written,
and the hand, the receipt and the jackpot awards it books.

One statement, in which PostgreSQL writes each leaf's canonical JSON (the format
of :func:`reports.domain.digest.leaf_record`; a test compares them leaf by leaf).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection

from reports.domain.digest import Leaf
from reports.domain.merkle import leaf_hash

# The first database transaction of this database still running, or the next one
# to start: every one below it has ended. As accounting.services.ledger's
# SNAPSHOT_SQL, the other databases' transactions of the server are left out (one
# left open elsewhere would hold the horizon back); unlike it, the caller's own
# transaction counts as ended (a snapshot never lists its own): what it wrote
# commits with the digest, or neither does. A snapshot's xmax is the newest
# transaction ended plus one, which is the caller's own id when it is the newest
# begun and none newer has ended: the horizon is then above the caller's own.
HORIZON_SQL = """
WITH s AS MATERIALIZED (SELECT pg_current_snapshot() AS s),
elsewhere AS (
    SELECT l.transactionid
      FROM pg_locks l JOIN pg_stat_activity b ON b.pid = l.pid
     WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock'
       AND b.datid <> (SELECT oid FROM pg_database
                        WHERE datname = current_database())
)
SELECT least(
           (SELECT min(r)::text::bigint FROM s, pg_snapshot_xip(s.s) AS r
             WHERE NOT EXISTS (SELECT FROM elsewhere e
                                WHERE e.transactionid = r::xid)),
           greatest(
               (SELECT pg_snapshot_xmax(s.s)::text::bigint FROM s),
               pg_current_xact_id_if_assigned()::text::bigint + 1
           )
       )
"""

# The transactions of a day: dated in it and sealed now, or dated before it and
# written after the day before was sealed (late ones).
DAY_SQL = """
SELECT t.id FROM accounting_transaction t
 WHERE t.posted_at >= %(after)s AND t.posted_at < %(until)s
   AND t.xact_id < %(horizon)s
UNION ALL
SELECT t.id FROM accounting_transaction t
 WHERE t.posted_at < %(after)s
   AND t.xact_id >= %(after_horizon)s AND t.xact_id < %(horizon)s
"""

ONE_SQL = "SELECT %(transaction)s::bigint AS id"

# Each transaction of ``day`` as its leaf's canonical JSON, keys in sorted order
# (reports.domain.digest.leaf_record, docs/digest.md "A leaf"), in the tree's order.
# PostgreSQL writes the bytes: 100,000 hands of 14 entries each in about 3 s, where
# decoding them into Python and encoding them again took 10 (benchmarks/README.md).
# Texts are JSON strings by to_json(…::text)::text: PostgreSQL escapes as Python's
# json.dumps(ensure_ascii=False) does (", \ and the control characters; \b \f \n
# \r \t short, the others \u00xx), so the bytes are canonical (tests/integration/
# reports/test_digest_leaves.py compares every leaf with reports.domain.digest's).
LEAVES_SQL = """WITH day AS MATERIALIZED ({ids}),
en AS (
    SELECT e.transaction_id,
           '[' || string_agg('[' || to_json(a.code::text)::text
               || ',' || e.amount_cents
               || ',' || to_json(e.currency::text)::text || ']',
               ',' ORDER BY e.id) || ']' AS entries
      FROM day JOIN accounting_entry e ON e.transaction_id = day.id
      JOIN accounting_account a ON a.id = e.account_id
     GROUP BY e.transaction_id
),
aw AS (
    SELECT b.booking,
           '[' || string_agg('{{"amount_cents":' || aw.amount_cents
               || ',"hand":' || to_json(tb.code || '#' || h.hand_no::text)::text
               || ',"id":' || aw.id
               || ',"player":' || to_json(p.code::text)::text
               || ',"role":' || to_json(aw.role::text)::text || '}}',
               ',' ORDER BY aw.id) || ']' AS awards
      FROM jackpots_award aw
      LEFT JOIN jackpots_hit hi ON hi.id = aw.hit_id
      LEFT JOIN jackpots_month mo ON mo.id = aw.month_id
      LEFT JOIN jackpots_promotionprize pr ON pr.id = aw.prize_id
      CROSS JOIN LATERAL (
          SELECT coalesce(hi.booking_id, mo.booking_id, pr.booking_id) AS booking) b
      JOIN accounting_player p ON p.id = aw.player_id
      JOIN cardroom_hand h ON h.id = aw.hand_id
      JOIN cardroom_table tb ON tb.id = h.table_id
     WHERE b.booking IN (SELECT id FROM day)
     GROUP BY b.booking
)
SELECT t.id,
       '{{"approved_by":' || coalesce(t.approved_by_id::text, 'null')
    || ',"awards":' || coalesce(aw.awards, '[]')
    || ',"entries":' || coalesce(en.entries, '[]')
    || ',"external_id":' || coalesce(to_json(t.external_id::text)::text, 'null')
    || ',"hand":' || CASE WHEN h.id IS NULL THEN 'null' ELSE
           '{{"gaming_day":"' || h.gaming_day::text
        || '","hand_no":' || h.hand_no
        || ',"jackpot_drop_cents":' || h.jackpot_drop_cents
        || ',"pot_cents":' || h.pot_cents
        || ',"rake_cents":' || h.rake_cents
        || ',"record_hash":' || to_json(h.record_hash::text)::text
        || ',"table":' || to_json(tb.code::text)::text || '}}' END
    || ',"id":' || t.id
    || ',"kind":' || to_json(t.kind::text)::text
    || ',"memo":' || to_json(t.memo::text)::text
    || ',"posted_at":"'
    || to_char(t.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
    || '","posted_by":' || coalesce(t.posted_by_id::text, 'null')
    || ',"receipt":' || CASE WHEN r.id IS NULL THEN 'null' ELSE
           '{{"amount_cents":' || r.amount_cents
        || ',"award":' || coalesce(pa.id::text, 'null')
        || ',"kind":' || to_json(r.kind::text)::text
        || ',"no":' || to_json((c.code || '-' || CASE WHEN r.number < 1000000
                THEN lpad(r.number::text, 6, '0')
                ELSE r.number::text END)::text)::text
        || ',"player":' || to_json(rp.code::text)::text || '}}' END
    || ',"reference":' || to_json(t.reference::text)::text
    || ',"reverses":' || coalesce(t.reverses_id::text, 'null')
    || ',"source":' || to_json(t.source::text)::text || '}}'
  FROM day JOIN accounting_transaction t ON t.id = day.id
  LEFT JOIN en ON en.transaction_id = t.id
  LEFT JOIN aw ON aw.booking = t.id
  LEFT JOIN cardroom_hand h ON h.ledger_transaction_id = t.id
  LEFT JOIN cardroom_table tb ON tb.id = h.table_id
  LEFT JOIN accounting_receipt r ON r.transaction_id = t.id
  LEFT JOIN accounting_cage c ON c.id = r.cage_id
  LEFT JOIN accounting_player rp ON rp.id = r.player_id
  LEFT JOIN jackpots_award pa ON pa.payable_id = r.payable_id
 ORDER BY t.posted_at, t.id
"""


def ledger_horizon() -> int:
    """The first database transaction not ended now: every posting written by one
    below it is in the database for good (ids only grow)."""
    with connection.cursor() as cursor:
        cursor.execute(HORIZON_SQL)
        row = cursor.fetchone()
    return int(row[0])


def first_posted_at() -> datetime | None:
    """When the earliest transaction of the ledger is dated; None without any."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(posted_at) FROM accounting_transaction")
        row = cursor.fetchone()
    return row[0] if row else None


def day_leaves(
    *, after: datetime, after_horizon: int, until: datetime, horizon: int
) -> list[Leaf]:
    """The leaves of the transactions a day's digest holds, in the tree's order
    (dated, then by id): dated before ``until`` and written below ``horizon``,
    less those dated before ``after`` written below ``after_horizon`` (the day
    before's digest's end and horizon; for the first day sealed, its own start
    and horizon: nothing dated before it)."""
    params = {
        "after": after,
        "after_horizon": after_horizon,
        "until": until,
        "horizon": horizon,
    }
    return _leaves(DAY_SQL, params)


def transaction_leaf(transaction: int) -> Leaf | None:
    """The leaf of ledger transaction ``transaction`` as it reads now; None when
    there is no such transaction."""
    found = _leaves(ONE_SQL, {"transaction": transaction})
    return found[0] if found else None


def _leaves(ids: str, params: dict[str, Any]) -> list[Leaf]:
    with connection.cursor() as cursor:
        cursor.execute(LEAVES_SQL.format(ids=ids), params)
        return [
            Leaf(txn, data, leaf_hash(data))
            for txn, data in ((txn, text.encode()) for txn, text in cursor)
        ]
