"""Hands: settled and booked on the ledger's stacks (HS6, HS7), read back as PHH."""

from __future__ import annotations

import functools
import hashlib
import json
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounting import chart
from accounting.domain.gaming_day import gaming_day_start
from accounting.domain.postings import PlanLeg
from accounting.models import Account, Player, Transaction
from accounting.posting import plan_open, plan_post
from accounting.services import entries_post
from cardroom import hooks
from cardroom.domain import postings
from cardroom.domain.hand_limits import check_hand_no, check_hand_times
from cardroom.domain.hand_record import HandRecord, parse_hand, parse_policy
from cardroom.domain.phh import to_phh
from cardroom.domain.postings import Frozen, HandPlan, Sitting
from cardroom.domain.settlement import Settlement, settle
from cardroom.errors import Code, conflict, invalid, refuse
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
)
from cardroom.services._shared import no_table, open_or_refused
from core.db import rows
from core.errors import Invalid, NotFound
from core.errors import gettext_noop as _

# The hand path reads and writes its rows with plain, prepared SQL (core.db.rows):
# the ORM's Python and PostgreSQL's parsing and planning were most of a hand's cost
# (benchmarks/README.md, "Hand recording over HTTP").


@functools.cache
def _hand_table_sql() -> str:
    return (
        f"SELECT {rows.columns(Table, 't')}, {rows.columns(Room, 'r')},"  # noqa: S608
        f" {rows.columns(Game, 'g')}, p.id, p.document"
        f" FROM {Table._meta.db_table} t"
        f" LEFT JOIN {Room._meta.db_table} r ON r.id = t.room_id"
        f" LEFT JOIN {Game._meta.db_table} g ON g.id = t.game_id"
        f" LEFT JOIN LATERAL (SELECT id, document FROM {Policy._meta.db_table}"
        "  WHERE game_id = t.game_id ORDER BY version DESC LIMIT 1) p ON true"
        " WHERE t.code = %s FOR UPDATE OF t"
    )


def _hand_table(code: str) -> tuple[Table, int, dict[str, Any]]:
    """Lock the open table ``code``; return it (room and game read along), and the
    id and document of its game's policy in force (RK7).

    The policy is read in the locking statement, so as it was when the booking
    began; a version published meanwhile applies from the next hand (RK7).
    Raises as :func:`table_get_open`.
    """
    found = rows.query(_hand_table_sql(), [code])
    if not found:
        raise no_table(code)
    row = found[0]
    table, at = rows.from_row(Table, row)
    room, at = rows.from_row(Room, row, at)
    game, at = rows.from_row(Game, row, at)
    table.room = room if table.room_id is not None else None
    table.game = game if table.game_id is not None else None
    open_or_refused(code, table)
    policy_id, document = row[at], row[at + 1]
    if policy_id is None:
        raise Policy.DoesNotExist(f"{game} has no policy")
    return table, policy_id, json.loads(document)


@functools.cache
def _hand_sessions_sql() -> tuple[str, str]:
    last = f"SELECT max(hand_no) FROM {Hand._meta.db_table} WHERE table_id = %s"  # noqa: S608
    return (
        "SELECT s.id, s.seat, s.player_id, p.code, s.stack_cents,"  # noqa: S608
        f" ({last}) FROM {SeatSession._meta.db_table} s"
        f" JOIN {Player._meta.db_table} p ON p.id = s.player_id"
        " WHERE s.table_id = %s AND s.ended_at IS NULL"
        " ORDER BY s.id FOR UPDATE OF s"
    ), last


def _hand_sessions(table: Table) -> tuple[dict[int, Sitting], int | None]:
    """Lock the table's open sessions (by seat) and read its last hand number.

    Runs under the table's lock, which every hand takes: no hand can be booked at
    the table between this statement's snapshot and the commit.
    """
    sessions_sql, last_sql = _hand_sessions_sql()
    found = rows.query(sessions_sql, [table.pk, table.pk])
    last = found[0][5] if found else rows.query(last_sql, [table.pk])[0][0]
    return {r[1]: Sitting(*r[:5]) for r in found}, last


def _hand_accounts(table: Table, players: list[str]) -> dict[str, Account]:
    """Fetch, in one statement, the accounts a hand at ``table`` moves that are open.

    The chart opens the others on first use (the first hand of a seat or table).
    """
    codes = [chart.player_stack_code(player=p, table=table.code) for p in players]
    codes += [
        chart.RAKE_REVENUE,
        chart.CHIP_FLOAT,
        chart.JACKPOT_DROPS,
        chart.table_rake_box_code(table=table.code),
        chart.table_jackpot_box_code(table=table.code),
    ]
    found = rows.query(
        f"SELECT {rows.columns(Account, 'a')}"  # noqa: S608
        f" FROM {Account._meta.db_table} a WHERE a.code = ANY(%s)",
        [codes],
    )
    accounts = [rows.from_row(Account, row)[0] for row in found]
    return {a.code: a for a in accounts}


def _sessions_update(stacks: list[tuple[int, int, int]]) -> None:
    """Write (session id, stack, last hand) of the sessions in one statement."""
    if stacks:
        ids, chips, hand_nos = zip(*stacks, strict=True)
        rows.query(
            f"UPDATE {SeatSession._meta.db_table} AS s"  # noqa: S608
            " SET stack_cents = v.stack, last_hand_no = v.hand_no"
            " FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[])"
            " AS v (id, stack, hand_no) WHERE s.id = v.id",
            [list(ids), list(chips), list(hand_nos)],
        )


def _fingerprint(record: dict[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def _hand_envelope(parsed: HandRecord) -> None:
    """Refuse (400) what the engine's parser leaves to the server: a hand number
    below 1 and times that are no ISO 8601 times."""
    if parsed.hand_no < 1:
        raise invalid(Code.MALFORMED_HAND, n=parsed.hand_no)
    for name in ("started_at", "ended_at"):
        value = getattr(parsed, name)
        if value is not None and _iso_time(value) is None:
            raise Invalid(
                Code.MALFORMED_HAND,
                _("%(name)s must be an ISO 8601 time, not %(value)s."),
                params={"name": name, "value": repr(value)[:40]},
            )


def _iso_time(value: str) -> datetime | None:
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def _when(value: str | None, fallback: datetime) -> datetime:
    parsed = _iso_time(value) if value else None
    if parsed is None:
        return fallback
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)


def _hs6_freeze(
    table: Table,
    hand: Hand,
    frozen: Frozen,
    accounts: dict[str, Account],
    *,
    by: User | None,
    source: str,
) -> Transaction:
    """Freeze what the ledger holds beyond the reported stack in his review hold."""
    return plan_post(
        postings.review_hold(
            table=table.code,
            player=frozen.sitting.player,
            amount=frozen.held - frozen.reported,
        ),
        known=accounts,
        posted_by=by,
        source=source if by is None else "",
        reference=f"{hand} seat {frozen.sitting.seat}",
        memo="HS6",
        posted_at=hand.ended_at,
    )


def _hs6_reviews(
    table: Table,
    hand: Hand,
    frozen: tuple[Frozen, ...],
    holds: list[Transaction],
    *,
    at: datetime,
) -> None:
    """Open a stack review for every frozen difference of ``hand`` (HS6)."""
    StackReview.objects.bulk_create(
        StackReview(
            hand=hand,
            table=table,
            session_id=f.sitting.session_id,
            player_id=f.sitting.player_id,
            seat=f.sitting.seat,
            reported_cents=f.reported,
            recorded_cents=f.held,
            amount_cents=f.held - f.reported,
            created_at=at,
            hold_transaction=hold,
        )
        for f, hold in zip(frozen, holds, strict=True)
    )


def _check_hand_limits(
    table: Table, parsed: HandRecord, last: int | None, now: datetime
) -> None:
    """Refuse a hand numbered too far ahead (HS6) or timed outside the table's open
    gaming day (BI8); see cardroom.domain.hand_limits."""
    assert table.room is not None
    check_hand_no(parsed.hand_no, last)
    day = table.gaming_day or table.room.gaming_day(now)
    check_hand_times(
        started_at=_when(parsed.started_at, now) if parsed.started_at else None,
        ended_at=_when(parsed.ended_at, now) if parsed.ended_at else None,
        day_start=gaming_day_start(
            day, table.room.tz, table.room.gaming_day_cutoff_hour
        ),
        now=now,
    )


def _for_table(record: dict[str, Any], table_code: str) -> dict[str, Any]:
    """The record, naming the table it was posted for; refuse another (400)."""
    if record.get("table") not in (None, table_code):
        raise invalid(Code.WRONG_TABLE, r=record.get("table"), t=table_code)
    return {**record, "table": table_code}


def _replayed(
    table: Table, record: dict[str, Any], fingerprint: str, last: int | None
) -> Hand | None:
    """The hand booked first, when ``record`` repeats it; ``None`` for a new hand.

    Hand numbers increase at a table: a number above the last one is new, so the
    natural key needs a look only for a number at or below it. Another record with
    a booked number is a :class:`Conflict`.
    """
    hand_no = record.get("hand_no")
    if last is None or type(hand_no) is not int or hand_no > last:
        return None
    existing = Hand.objects.filter(table=table, hand_no=hand_no).first()
    if existing is not None and existing.record_hash != fingerprint:
        raise conflict(Code.HAND_CONFLICT, n=hand_no)
    return existing


def _settled(
    table: Table,
    record: dict[str, Any],
    policy: dict[str, Any],
    last: int | None,
    now: datetime,
) -> tuple[HandRecord, Settlement]:
    """Parse and settle a new hand of ``table`` (HS9, HS6, BI8; the engine's parser
    is the record's only check, API.md "Hand record")."""
    assert table.game is not None
    if record.get("game") != table.game.code:
        raise refuse(
            Code.WRONG_GAME,
            rule="HS9",
            allowed={"game": table.game.code},
            g=table.game.code,
            r=record.get("game"),
        )
    parsed = parse_hand(record)
    _hand_envelope(parsed)
    settlement = settle(parsed, parse_policy(policy))
    if last is not None and parsed.hand_no <= last:
        raise conflict(Code.HAND_OUT_OF_ORDER, n=last)
    _check_hand_limits(table, parsed, last, now)
    return parsed, settlement


def _hand_row(
    table: Table,
    parsed: HandRecord,
    settlement: Settlement,
    planned: HandPlan,
    **fields: Any,
) -> Hand:
    """The hand's row (not written yet), timed by the record or at ``now``."""
    assert table.room is not None
    now = fields.pop("now")
    ended = _when(parsed.ended_at, now)
    return Hand(
        table=table,
        hand_no=parsed.hand_no,
        game=table.game,
        gaming_day=table.room.gaming_day(ended),
        started_at=_when(parsed.started_at, ended) if parsed.started_at else None,
        ended_at=ended,
        settlement={**settlement.as_api(), "exceptions": list(planned.exceptions)},
        pot_cents=sum(p.amount for p in settlement.pots),
        rake_cents=settlement.rake,
        jackpot_drop_cents=settlement.jackpot_drop,
        participants=settlement.participants,
        **fields,
    )


def _hand_write(
    table: Table,
    hand: Hand,
    planned: HandPlan,
    accounts: dict[str, Account],
    *,
    by: User | None,
    now: datetime,
) -> None:
    """Write the hand: the ledger transaction's row first, so the hand points at it;
    the HS6 holds; the hand, its seats, the sessions' stacks, the exceptions and the
    reviews; its entries last: they lock the accounts every table's hands move (chip
    float, rake revenue, jackpot pools) until the commit."""
    posting = (
        plan_open(
            planned.plan,
            known=accounts,
            posted_by=by,
            source=hand.source if by is None else "",
            reference=str(hand),
            external_id=f"hand:{table.code}:{hand.hand_no}",
            posted_at=hand.ended_at,
        )
        if planned.plan.legs
        else None
    )
    hand.ledger_transaction = posting.transaction if posting else None
    holds = [
        _hs6_freeze(table, hand, f, accounts, by=by, source=hand.source)
        for f in planned.frozen
    ]
    rows.insert(hand)
    rows.insert_rows(HandSeat, [{"hand_id": hand.pk, **r} for r in planned.seat_rows])
    _sessions_update(list(planned.stacks))
    if planned.exceptions:
        HandException.objects.bulk_create(
            HandException(hand=hand, kind=e["code"], details=e)
            for e in planned.exceptions
        )
    if holds:
        _hs6_reviews(table, hand, planned.frozen, holds, at=now)
    if posting is not None:
        entries_post(posting)


def _drop_legs(table: Table, drop: int, accounts: dict[str, Account]) -> list[PlanLeg]:
    """The legs crediting the hand's jackpot drop to the pools (JD1, JD4)."""
    if not drop:
        return []
    return hooks.jackpot_drop_legs(
        room=table.room, table=table, amount_cents=drop, accounts=accounts
    )


@transaction.atomic
def hand_record(
    *,
    table_code: str,
    record: dict[str, Any],
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> tuple[Hand, bool]:
    """Validate, settle and book a hand; return it and whether it is new.

    The natural key ``(table, hand_no)`` makes a repeat return the first booking;
    another record with the same number is a :class:`Conflict`. The table row is
    locked for the booking, so hands of one table book one after another. The hand
    books on the ledger's stacks (:func:`cardroom.domain.postings.hand`, HS6, HS7).
    Raises the engine's refusals (400/422) for a record it can't settle.
    """
    now = now or timezone.now()
    record = _for_table(record, table_code)
    fingerprint = _fingerprint(record)
    # 1. Lock and read: the table with its game and policy, its sessions, last hand.
    table, policy_id, policy = _hand_table(table_code)
    sittings, last = _hand_sessions(table)
    # 2. Replay or conflict.
    existing = _replayed(table, record, fingerprint, last)
    if existing is not None:
        return existing, False
    # 3. Parse, settle, plan: pure, on the balances read here (and the pools').
    parsed, settlement = _settled(table, record, policy, last, now)
    accounts = _hand_accounts(table, [s.player for s in sittings.values()])
    planned = postings.hand(
        table=table.code,
        parsed=parsed,
        settlement=settlement,
        sittings=sittings,
        ledger={c: a.balance_cents for c, a in accounts.items() if not a.summed},
        cards={s["seat"]: s.get("cards") for s in record["seats"]},
        drop_legs=_drop_legs(table, settlement.jackpot_drop, accounts),
    )
    # 4. Write.
    hand = _hand_row(
        table,
        parsed,
        settlement,
        planned,
        policy_id=policy_id,
        record=record,
        record_hash=fingerprint,
        source=source,
        now=now,
    )
    _hand_write(table, hand, planned, accounts, by=by, now=now)
    # 5. After the commit: the apps above the floor hear of it.
    hooks.after_hand_booked(hand.pk)
    return hand, True


def hand_phh(*, table_code: str, hand_no: int, unit: int = 1) -> str:
    """Return a booked hand as a PHH hand history (``GET …/hands/{no}.phh``).

    Open or closed, the table's hand ``hand_no`` as it was booked: its record and
    settlement, written by :func:`cardroom.domain.phh.to_phh` in PHH chips of
    ``unit`` cents. Raises :class:`NotFound` for no such table or hand, and the
    engine's ``unknown_game`` (400) for a game PHH has no variant for.
    """
    hand = (
        Hand.objects.select_related("table")
        .filter(table__code=table_code, hand_no=hand_no)
        .first()
    )
    if hand is None:
        raise NotFound(
            Code.NOT_FOUND,
            _("No hand %(n)s at table %(t)s."),
            params={"n": hand_no, "t": table_code},
        )
    return to_phh(hand.record, hand.settlement, unit=unit, seat_count=hand.table.seats)
