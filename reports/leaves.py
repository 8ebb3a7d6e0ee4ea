"""Reads of the day's digest: the ledger's transactions as leaves (docs/digest.md).

Which transactions a gaming day's digest holds: those dated before the day's end
(``until``) and written by a database transaction below the digest's ``horizon``
(each one below it had ended when the digest was computed, so the set can't grow
afterwards), less those the day before's digest held. A posting dated into a day
already sealed (a terminal's late hand) goes into the next day sealed; none ever
changes a sealed day. Each is read with its entries in the order they were written,
and the hand, the receipt and the jackpot awards it books.

Plain SQL, one statement for the transactions and one for the awards: 100,000 hands
are read in about a second.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from django.db import connection

from accounting.domain.cage import receipt_no
from reports.domain.digest import Leaf, leaf_record

# The first database transaction of this database still running, or the next one
# to start: every one below it has ended. As accounting.services.ledger's
# SNAPSHOT_SQL, the other databases' transactions of the server are left out (one
# left open elsewhere would hold the horizon back); unlike it, the caller's own
# transaction counts as ended (a snapshot never lists its own): what it wrote
# commits with the digest, or neither does.
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
           (SELECT min(r) FROM s, pg_snapshot_xip(s.s) AS r
             WHERE NOT EXISTS (SELECT FROM elsewhere e
                                WHERE e.transactionid = r::xid)),
           (SELECT pg_snapshot_xmax(s.s) FROM s)
       )::text::bigint
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

EARLIEST = datetime(1, 1, 1, tzinfo=UTC)  # before any posting: the first day's "after"
ONE_SQL = "SELECT %(transaction)s::bigint AS id"

LEAVES_SQL = """
WITH day AS MATERIALIZED ({ids}),
en AS (
    SELECT e.transaction_id,
           array_agg(a.code ORDER BY e.id) AS codes,
           array_agg(e.amount_cents ORDER BY e.id) AS amounts,
           array_agg(e.currency ORDER BY e.id) AS currencies
      FROM day JOIN accounting_entry e ON e.transaction_id = day.id
      JOIN accounting_account a ON a.id = e.account_id
     GROUP BY e.transaction_id
)
SELECT t.id, t.kind, t.reference, t.external_id, t.memo, t.source,
       to_char(t.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       t.posted_by_id, t.approved_by_id, t.reverses_id,
       en.codes, en.amounts, en.currencies,
       tb.code, h.hand_no, h.gaming_day::text, h.record_hash, h.pot_cents,
       h.rake_cents, h.jackpot_drop_cents,
       c.code, r.number, r.kind, rp.code, r.amount_cents, pa.id
  FROM day JOIN accounting_transaction t ON t.id = day.id
  LEFT JOIN en ON en.transaction_id = t.id
  LEFT JOIN cardroom_hand h ON h.ledger_transaction_id = t.id
  LEFT JOIN cardroom_table tb ON tb.id = h.table_id
  LEFT JOIN accounting_receipt r ON r.transaction_id = t.id
  LEFT JOIN accounting_cage c ON c.id = r.cage_id
  LEFT JOIN accounting_player rp ON rp.id = r.player_id
  LEFT JOIN jackpots_award pa ON pa.payable_id = r.payable_id
 ORDER BY t.posted_at, t.id
"""

# The jackpot awards a transaction books: a hit's, a month's or a prize's.
AWARDS_SQL = """
WITH day AS MATERIALIZED ({ids})
SELECT coalesce(hi.booking_id, mo.booking_id, pr.booking_id), aw.id, p.code,
       aw.role, aw.amount_cents, tb.code || '#' || h.hand_no
  FROM jackpots_award aw
  LEFT JOIN jackpots_hit hi ON hi.id = aw.hit_id
  LEFT JOIN jackpots_month mo ON mo.id = aw.month_id
  LEFT JOIN jackpots_promotionprize pr ON pr.id = aw.prize_id
  JOIN accounting_player p ON p.id = aw.player_id
  JOIN cardroom_hand h ON h.id = aw.hand_id
  JOIN cardroom_table tb ON tb.id = h.table_id
 WHERE coalesce(hi.booking_id, mo.booking_id, pr.booking_id) IN (SELECT id FROM day)
 ORDER BY aw.id
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
    *, after: datetime | None, after_horizon: int, until: datetime, horizon: int
) -> list[Leaf]:
    """The leaves of the transactions a day's digest holds, in the tree's order
    (dated, then by id): dated before ``until`` and written below ``horizon``,
    less those dated before ``after`` written below ``after_horizon`` (the day
    before's digest's; ``None`` and 0 for the first day sealed)."""
    params = {
        "after": after if after is not None else EARLIEST,
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
        cursor.execute(AWARDS_SQL.format(ids=ids), params)
        awards: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for txn, award, player, role, amount, hand in cursor.fetchall():
            awards[txn].append(
                {
                    "id": award,
                    "player": player,
                    "role": role,
                    "amount_cents": amount,
                    "hand": hand,
                }
            )
        cursor.execute(LEAVES_SQL.format(ids=ids), params)
        return [Leaf.of(_record(row, awards.get(row[0], []))) for row in cursor]


def _record(row: tuple[Any, ...], awards: list[dict[str, Any]]) -> dict[str, Any]:
    (txn, kind, reference, external_id, memo, source, posted_at, posted_by) = row[:8]
    (approved_by, reverses, codes, amounts, currencies) = row[8:13]
    table, hand_no, hand_day, record_hash, pot, rake, drop = row[13:20]
    cage, number, receipt_kind, player, receipt_amount, paid_award = row[20:26]
    hand = None
    if table is not None:
        hand = {
            "table": table,
            "hand_no": hand_no,
            "gaming_day": hand_day,
            "record_hash": record_hash,
            "pot_cents": pot,
            "rake_cents": rake,
            "jackpot_drop_cents": drop,
        }
    receipt = None
    if cage is not None:
        receipt = {
            "no": receipt_no(cage, number),
            "kind": receipt_kind,
            "player": player,
            "amount_cents": receipt_amount,
            "award": paid_award,
        }
    return leaf_record(
        transaction={
            "id": txn,
            "kind": kind,
            "reference": reference,
            "external_id": external_id,
            "memo": memo,
            "source": source,
            "posted_at": posted_at,
            "posted_by": posted_by,
            "approved_by": approved_by,
            "reverses": reverses,
        },
        entries=list(zip(codes or [], amounts or [], currencies or [], strict=True)),
        hand=hand,
        receipt=receipt,
        awards=awards,
    )
