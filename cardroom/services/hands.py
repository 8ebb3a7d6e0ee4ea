"""Hands: settled and booked on the ledger's stacks (HS6, HS7), read back as PHH."""

from __future__ import annotations

import functools
import hashlib
import json
from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from accounting import chart
from accounting.domain.gaming_day import gaming_day_start
from accounting.models import Account, Player, Transaction
from accounting.services import Leg, entries_post, transaction_open, transaction_post
from cardroom import hooks
from cardroom.domain.errors import HandError
from cardroom.domain.hand_limits import check_hand_no, check_hand_times
from cardroom.domain.hand_record import HandRecord, parse_hand, parse_policy
from cardroom.domain.phh import to_phh
from cardroom.domain.settlement import settle_record
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
from cardroom.services._shared import hand_refusal, no_table, open_or_refused
from core.api.errors import ApiError, Conflict, RuleViolation
from core.db import rows
from core.errors import NotFound

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


class _Sitting(NamedTuple):
    """An open seat session, as a hand needs it."""

    session_id: int
    seat: int
    player_id: int
    player: str  # the player's code
    stack_cents: int


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


def _hand_sessions(table: Table) -> tuple[dict[int, _Sitting], int | None]:
    """Lock the table's open sessions (by seat) and read its last hand number.

    Runs under the table's lock, which every hand takes: no hand can be booked at
    the table between this statement's snapshot and the commit.
    """
    sessions_sql, last_sql = _hand_sessions_sql()
    found = rows.query(sessions_sql, [table.pk, table.pk])
    last = found[0][5] if found else rows.query(last_sql, [table.pk])[0][0]
    return {r[1]: _Sitting(*r[:5]) for r in found}, last


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
        raise ApiError(
            _("hand_no must be a whole number from 1 up, not %(n)d.")
            % {"n": parsed.hand_no},
            code="malformed_hand",
            status_code=400,
        )
    for name in ("started_at", "ended_at"):
        value = getattr(parsed, name)
        if value is not None and _iso_time(value) is None:
            raise ApiError(
                _("%(name)s must be an ISO 8601 time, not %(value)s.")
                % {"name": name, "value": repr(value)[:40]},
                code="malformed_hand",
                status_code=400,
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


def _ledger_stack(accounts: dict[str, Account], table: Table, sitting: _Sitting) -> int:
    """What the ledger holds for a seat's stack: his stack account's balance (HS6)."""
    code = chart.player_stack_code(player=sitting.player, table=table.code)
    account = accounts.get(code)
    return account.balance_cents if account is not None else sitting.stack_cents


def _hs6_within_ledger(seat: int, stack: int, put_in: int, held: int) -> None:
    """HS6: a hand plays with the chips the ledger holds, never more.

    A terminal reporting a bigger stack (or putting in more than the ledger holds)
    would create chips; the hand is refused with the ledger's stack, nothing booked.
    """
    if stack > held or put_in > held:
        raise RuleViolation(
            _(
                "HS6: seat %(s)d reports a stack of %(r)d and puts in %(p)d; the"
                " ledger holds %(k)d. Read the seats (GET seats) and post the hand"
                " with the ledger's stacks."
            )
            % {"s": seat, "r": stack, "p": put_in, "k": held},
            code="stack_above_ledger",
            rule="HS6",
            allowed={"seat": seat, "max": held},
        )


def _hs6_freeze(
    table: Table,
    hand: Hand,
    frozen: tuple[_Sitting, Account, int, int],
    *,
    by: User | None,
    source: str,
) -> Transaction:
    """Freeze what the ledger holds beyond the reported stack in his review hold."""
    sitting, account, reported, held = frozen
    amount = held - reported
    return transaction_post(
        kind="stack_review_hold",
        legs=[
            Leg(account, amount),
            Leg(
                chart.stack_review_hold(player=sitting.player, table=table.code),
                -amount,
            ),
        ],
        posted_by=by,
        source=source if by is None else "",
        reference=f"{hand} seat {sitting.seat}",
        memo="HS6",
        posted_at=hand.ended_at,
    )


def _hs6_reviews(
    table: Table,
    hand: Hand,
    frozen: list[tuple[_Sitting, Account, int, int]],
    holds: list[Transaction],
    *,
    at: datetime,
) -> None:
    """Open a stack review for every frozen difference of ``hand`` (HS6)."""
    StackReview.objects.bulk_create(
        StackReview(
            hand=hand,
            table=table,
            session_id=sitting.session_id,
            player_id=sitting.player_id,
            seat=sitting.seat,
            reported_cents=reported,
            recorded_cents=held,
            amount_cents=held - reported,
            created_at=at,
            hold_transaction=hold,
        )
        for (sitting, _account, reported, held), hold in zip(frozen, holds, strict=True)
    )


def _check_hand_limits(
    table: Table, parsed: HandRecord, last: int | None, now: datetime
) -> None:
    """Refuse a hand numbered too far ahead (HS6) or timed outside the table's open
    gaming day (BI8); see cardroom.domain.hand_limits."""
    assert table.room is not None
    try:
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
    except HandError as error:
        raise hand_refusal(error) from error


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
    locked for the booking, so hands of one table book one after another. Seats
    must be held by open sessions of those players, and the hand books on the
    ledger's stacks (HS6): a seat reporting more than the ledger holds (or putting
    in more) is refused with what the ledger holds; one reporting less is booked
    with the difference frozen in his review hold, raised as ``stack_mismatch`` and
    opened as a :class:`StackReview`. Raises :class:`ApiError` (400/422) for a
    record the engine refuses.
    """
    now = now or timezone.now()
    if record.get("table") not in (None, table_code):
        raise ApiError(
            _("The record names table %(r)s but was posted for %(t)s.")
            % {"r": record.get("table"), "t": table_code},
            code="wrong_table",
            status_code=400,
        )
    record = {**record, "table": table_code}
    fingerprint = _fingerprint(record)
    table, policy_id, policy = _hand_table(table_code)
    sessions, last = _hand_sessions(table)
    hand_no = record.get("hand_no")
    # Hand numbers increase at a table: a number above the last one is new, so the
    # natural key needs a look only for a number at or below it (a repeat).
    existing = (
        Hand.objects.filter(table=table, hand_no=hand_no).first()
        if last is not None and type(hand_no) is int and hand_no <= last
        else None
    )
    if existing is not None:
        if existing.record_hash != fingerprint:
            raise Conflict(
                _("Hand %(n)s was already recorded with other content.")
                % {"n": hand_no},
                code="hand_conflict",
            )
        return existing, False
    assert table.game is not None and table.room is not None
    if record.get("game") != table.game.code:
        raise RuleViolation(
            _("The table deals %(g)s, not %(r)s.")
            % {"g": table.game.code, "r": record.get("game")},
            code="wrong_game",
            rule="HS9",
            allowed={"game": table.game.code},
        )
    # The engine's parser is the record's only check (API.md "Hand record").
    try:
        parsed = parse_hand(record)
        _hand_envelope(parsed)
        settlement = settle_record(parsed, parse_policy(policy))
    except HandError as error:
        raise hand_refusal(error) from error

    if last is not None and parsed.hand_no <= last:
        raise Conflict(
            _("Hand numbers increase at a table; the last was %(n)d.") % {"n": last},
            code="hand_out_of_order",
        )
    _check_hand_limits(table, parsed, last, now)
    exceptions: list[dict[str, Any]] = list(settlement["exceptions"])
    accounts = _hand_accounts(table, [s.player for s in sessions.values()])
    held: dict[int, int] = {}
    for seat in parsed.seats:
        sitting = sessions.get(seat.seat)
        if sitting is None or sitting.player != seat.player:
            raise RuleViolation(
                _("Seat %(s)d is not held by %(p)s at this table.")
                % {"s": seat.seat, "p": seat.player},
                code="seat_not_held",
                rule="HS6",
                allowed={
                    "seats": {str(n): s.player for n, s in sorted(sessions.items())}
                },
            )
        held[seat.seat] = _ledger_stack(accounts, table, sitting)
        _hs6_within_ledger(seat.seat, seat.stack, seat.put_in, held[seat.seat])
        if seat.stack < held[seat.seat]:
            exceptions.append(
                {
                    "code": "stack_mismatch",
                    "rule": "HS6",
                    "detail": "The stack reported is below what the ledger holds; "
                    "booked on the ledger's stack, the difference frozen for review.",
                    "seat": seat.seat,
                    "player": seat.player,
                    "reported": seat.stack,
                    "recorded": held[seat.seat],
                    "frozen": held[seat.seat] - seat.stack,
                }
            )
    won = {s["seat"]: s["won"] for s in settlement["seats"]}
    paid = dict(parsed.awarded) if parsed.awarded is not None else won
    # HS7: pushes that don't add up to the pots after rake and drop are booked as the
    # table paid them too; the chips missing (or pushed from elsewhere) wait in the
    # table's suspense account until the floor corrects the pot.
    mispaid_total = sum(paid.values()) - sum(won.values())
    if mispaid_total:
        for exception in exceptions:
            if exception["code"] == "mispaid_pot":
                exception["pushed_total"] = sum(paid.values())
                exception["due_total"] = sum(won.values())
                exception["suspense"] = mispaid_total
    ended = _when(parsed.ended_at, now)
    hand = Hand(
        table=table,
        hand_no=parsed.hand_no,
        game=table.game,
        policy_id=policy_id,
        gaming_day=table.room.gaming_day(ended),
        started_at=_when(parsed.started_at, ended) if parsed.started_at else None,
        ended_at=ended,
        record=record,
        record_hash=fingerprint,
        settlement={**settlement, "exceptions": exceptions},
        pot_cents=sum(p["amount"] for p in settlement["pots"]),
        rake_cents=settlement["rake"],
        jackpot_drop_cents=settlement["jackpot_drop"],
        participants=settlement["participants"],
        source=source,
    )
    legs: list[Leg] = []
    frozen: list[tuple[_Sitting, Account, int, int]] = []
    seat_rows: list[dict[str, Any]] = []
    stacks: list[tuple[int, int, int]] = []
    dealt = {s.seat: s for s in parsed.seats}
    cards = {s["seat"]: s.get("cards") for s in record["seats"]}
    for row in settlement["seats"]:
        sitting, seat = sessions[row["seat"]], dealt[row["seat"]]
        returned, got = row["returned"], paid.get(row["seat"], 0)
        final = row["stack"] - row["put_in"] + returned + got
        code = chart.player_stack_code(player=sitting.player, table=table.code)
        account = accounts.get(code) or chart.player_stack(
            player=sitting.player, table=table.code
        )
        legs.append(Leg(account, row["put_in"] - returned - got))
        if row["stack"] < held[row["seat"]]:
            frozen.append((sitting, account, row["stack"], held[row["seat"]]))
        seat_rows.append(
            {
                "seat": row["seat"],
                "player_id": sitting.player_id,
                "session_id": sitting.session_id,
                "stack_cents": row["stack"],
                "put_in_cents": row["put_in"],
                "returned_cents": returned,
                "won_cents": got,
                "final_stack_cents": final,
                "present": seat.present,
                "folded": seat.folded,
                "cards": cards.get(row["seat"]),
                "description": row.get("hand") or "",
            }
        )
        stacks.append((sitting.session_id, final, parsed.hand_no))
    if mispaid_total:
        legs.append(Leg(chart.table_suspense(table=table.code), mispaid_total))
    rake, drop = settlement["rake"], settlement["jackpot_drop"]
    chip_float = accounts.get(chart.CHIP_FLOAT) or chart.chip_float()
    if rake:
        legs += [
            Leg(accounts.get(chart.RAKE_REVENUE) or chart.rake_revenue(), -rake),
            Leg(
                accounts.get(chart.table_rake_box_code(table=table.code))
                or chart.table_rake_box(table=table.code),
                rake,
            ),
            Leg(chip_float, -rake),
        ]
    if drop:
        legs += hooks.jackpot_drop_legs(
            room=table.room, table=table, amount_cents=drop, accounts=accounts
        )
        legs += [
            Leg(
                accounts.get(chart.table_jackpot_box_code(table=table.code))
                or chart.table_jackpot_box(table=table.code),
                drop,
            ),
            Leg(chip_float, -drop),
        ]
    # The ledger transaction's row first, so the hand is written pointing at it; its
    # entries last: they lock the accounts every table's hands move (chip float,
    # rake revenue, jackpot pools) until the commit.
    posting = (
        transaction_open(
            kind="hand",
            legs=legs,
            posted_by=by,
            source=source if by is None else "",
            reference=str(hand),
            external_id=f"hand:{table.code}:{parsed.hand_no}",
            posted_at=ended,
        )
        if any(leg.amount_cents for leg in legs)
        else None
    )
    hand.ledger_transaction = posting.transaction if posting else None
    holds = [_hs6_freeze(table, hand, f, by=by, source=source) for f in frozen]
    rows.insert(hand)
    rows.insert_rows(HandSeat, [{"hand_id": hand.pk, **r} for r in seat_rows])
    _sessions_update(stacks)
    if exceptions:
        HandException.objects.bulk_create(
            HandException(hand=hand, kind=e["code"], details=e) for e in exceptions
        )
    if holds:
        _hs6_reviews(table, hand, frozen, holds, at=now)
    if posting is not None:
        entries_post(posting)
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
            "not_found",
            _("No hand %(n)s at table %(t)s.") % {"n": hand_no, "t": table_code},
        )
    try:
        return to_phh(
            hand.record, hand.settlement, unit=unit, seat_count=hand.table.seats
        )
    except HandError as error:
        raise hand_refusal(error) from error
