"""Writes of the floor: tables, seats, buy-ins, hands, and their corrections.

Every function is keyword-only and atomic; each movement of chips or cash is one
balanced ledger transaction posted in the same database transaction as the floor's
own rows, so a failure anywhere leaves nothing behind.
"""

from __future__ import annotations

import functools
import hashlib
import json
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from accounting import chart
from accounting.cage.players import cash_activity_record
from accounting.cage.receivables import receivable_check
from accounting.domain.gaming_day import gaming_day_start
from accounting.models import Account, Player, Transaction
from accounting.services import (
    Leg,
    entries_post,
    transaction_open,
    transaction_post,
    transaction_reverse,
)
from cardroom import hooks
from cardroom.domain.buyin import (
    BI6_WINDOW,
    BuyInRefused,
    Departure,
    PlayerNight,
    decide,
    seat_allowance,
    top_up_allowance,
)
from cardroom.domain.errors import HandError
from cardroom.domain.hand_limits import check_hand_no, check_hand_times
from cardroom.domain.hand_record import HandRecord, parse_hand, parse_policy
from cardroom.domain.phh import to_phh
from cardroom.domain.settlement import settle_record
from cardroom.domain.voids import first_round
from cardroom.models import (
    Absence,
    Correction,
    Game,
    Hand,
    HandException,
    HandSeat,
    HandVoid,
    Policy,
    Room,
    SeatSession,
    StackMovement,
    StackReview,
    Table,
    TerminalKey,
)
from core import errors
from core.api.errors import ApiError, Conflict, RuleViolation
from core.db import rows
from core.errors import NotFound, Refusal
from core.roles import Role, has_role


def refusal(error: BuyInRefused) -> RuleViolation:
    """Turn a domain refusal into the API's 422 with its rule and amounts (BI11)."""
    return RuleViolation(
        error.detail, code=error.code, rule=error.rule, allowed=error.allowed
    )


def hand_refusal(error: HandError) -> ApiError:
    """Turn an engine refusal into the API's error (400, or 422 under a rule)."""
    return ApiError(
        error.detail,
        code=error.code,
        rule=error.rule,
        allowed=error.allowed,
        status_code=422 if error.rule else 400,
    )


# Rooms, games, tables ---------------------------------------------------------------


def room_default() -> Room:
    """Return the room, creating it from the settings' defaults on first use."""
    room = Room.objects.order_by("pk").first()
    if room is None:
        room = Room.objects.create(
            code="main",
            name=_("Card room"),
            time_zone=settings.TIME_ZONE,
            currency=settings.CARDROOM_CURRENCY,
            gaming_day_cutoff_hour=settings.CARDROOM_GAMING_DAY_CUTOFF_HOUR,
        )
    return room


def policy_publish(*, game: Game, document: dict[str, Any], by: User | None) -> Policy:
    """Add a policy version for ``game``; it applies from the next hand (RK7).

    Raises :class:`ApiError` (400) when the engine can't read the policy.
    """
    try:
        parse_policy(document)
    except HandError as error:
        raise hand_refusal(error) from error
    latest = game.policies.aggregate(v=Max("version"))["v"] or 0
    return Policy.objects.create(
        game=game, version=latest + 1, document=document, created_by=by
    )


@transaction.atomic
def table_open(
    *,
    code: str,
    game_code: str,
    small_blind: int,
    big_blind: int,
    min_buy_in: int,
    max_buy_in: int | None,
    seats: int,
    policy: dict[str, Any],
    by: User | None,
    now: datetime | None = None,
) -> Table:
    """Open table ``code`` for the current gaming day with its game and policy.

    The game (code and stakes) is the room's; a policy different from the game's
    current one becomes its next version (RK7). Raises :class:`Conflict` when the
    table is already open.
    """
    now = now or timezone.now()
    room = room_default()
    game, _created = Game.objects.get_or_create(
        room=room,
        code=game_code,
        small_blind_cents=small_blind,
        big_blind_cents=big_blind,
        defaults={"min_buy_in_cents": min_buy_in, "max_buy_in_cents": max_buy_in},
    )
    if (game.min_buy_in_cents, game.max_buy_in_cents) != (min_buy_in, max_buy_in):
        game.min_buy_in_cents, game.max_buy_in_cents = min_buy_in, max_buy_in
        game.save(update_fields=["min_buy_in_cents", "max_buy_in_cents"])
    current = game.policies.order_by("-version").first()
    if current is None or current.document != policy:
        policy_publish(game=game, document=policy, by=by)
    table, _created = Table.objects.select_for_update().get_or_create(
        code=code, defaults={"seats": seats, "room": room}
    )
    if table.status == Table.Status.OPEN:
        raise Conflict(
            _("Table %(t)s is already open.") % {"t": code}, code="table_open"
        )
    table.room, table.game, table.seats = room, game, seats
    table.status, table.opened_at, table.closed_at = Table.Status.OPEN, now, None
    table.gaming_day = room.gaming_day(now)
    table.save()
    return table


@transaction.atomic
def table_close(*, table: Table, now: datetime | None = None) -> Table:
    """Close an open table. Raises :class:`RuleViolation` while players sit there."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status != Table.Status.OPEN:
        raise Conflict(_("The table is not open."), code="table_closed")
    seated = table.sessions.filter(ended_at__isnull=True).count()
    if seated:
        raise RuleViolation(
            _("%(n)d players still sit at the table; move or cash them out first.")
            % {"n": seated},
            code="table_has_players",
            rule="WL3",
        )
    table.status, table.closed_at = Table.Status.CLOSED, now or timezone.now()
    table.save(update_fields=["status", "closed_at"])
    return table


def table_get_open(code: str, *, lock: bool = True) -> Table:
    """Return the open table ``code`` (row locked when ``lock``).

    Raises :class:`ApiError` (404) for an unknown table and :class:`RuleViolation`
    (BI8) for a closed one.
    """
    qs = Table.objects.select_related("room", "game")
    if lock:
        qs = qs.select_for_update(of=("self",))
    return _open_or_refused(code, qs.filter(code=code).first())


def _no_table(code: str) -> ApiError:
    return ApiError(
        _("No table %(t)s.") % {"t": code}, code="not_found", status_code=404
    )


def _open_or_refused(code: str, table: Table | None) -> Table:
    """Return ``table`` if it exists and is open; refuse otherwise (404, BI8)."""
    if table is None:
        raise _no_table(code)
    if table.status != Table.Status.OPEN or table.game is None:
        raise RuleViolation(
            _("Table %(t)s is closed.") % {"t": code}, code="table_closed", rule="BI8"
        )
    return table


def player_get(code: str) -> Player:
    """Return the registered player ``code``; refuse an unknown one (BI10)."""
    player = Player.objects.filter(code=code).first()
    if player is None:
        raise RuleViolation(
            _("Player %(p)s is not registered; register him first.") % {"p": code},
            code="unknown_player",
            rule="BI10",
        )
    return player


# A player's night -------------------------------------------------------------------


def player_night(*, player: Player, room: Room, now: datetime) -> PlayerNight:
    """Gather what BI4–BI6 and WL6 need about ``player`` on today's gaming day."""
    day = room.gaming_day(now)
    seated = (
        SeatSession.objects.filter(player=player, ended_at__isnull=True)
        .select_related("table")
        .first()
    )
    movements = StackMovement.objects.filter(player=player, gaming_day=day)
    buy_in_kinds = [
        StackMovement.Kind.BUY_IN,
        StackMovement.Kind.SHORT_BUY_IN,
        StackMovement.Kind.RETURN,
        StackMovement.Kind.TRANSFER,
        StackMovement.Kind.TOP_UP,
    ]
    buy_ins = movements.filter(kind__in=buy_in_kinds).count()
    short_used = movements.filter(kind=StackMovement.Kind.SHORT_BUY_IN).exists()
    left = (
        SeatSession.objects.filter(player=player, ended_at__isnull=False)
        .filter(Q(gaming_day=day) | Q(ended_at__gte=now - BI6_WINDOW))
        .select_related("table", "game")
        .order_by("ended_at")
    )
    departures = tuple(
        Departure(
            s.table.code,
            s.game.stakes,
            s.left_with_cents or 0,
            s.ended_at,
            room.gaming_day(s.ended_at),
        )
        for s in left
        if s.ended_at is not None
    )
    return PlayerNight(
        gaming_day=day,
        seated_at=seated.table.code if seated else None,
        buy_ins_today=buy_ins,
        short_buy_in_used=short_used,
        departures=departures,
    )


# Seats, top-ups, leaving ------------------------------------------------------------


def _buy_in_legs(
    *, table: Table, player: Player, amount: int, method: str
) -> list[Leg]:
    """Cash into the drop box and chips from the tray, or chips he brings (CA3)."""
    stack = chart.player_stack(player=player.code, table=table.code)
    if method == StackMovement.Method.CASH:
        return [
            Leg(chart.table_drop_box(table=table.code), amount),
            Leg(stack, -amount),
            Leg(chart.table_tray(table=table.code), -amount),
            Leg(chart.chip_float(), amount),
        ]
    return [Leg(chart.player_chips(player=player.code), amount), Leg(stack, -amount)]


def _record_movement(
    *,
    session: SeatSession,
    kind: str,
    method: str,
    amount: int,
    legs: list[Leg],
    now: datetime,
    source: str,
    by: User | None,
) -> StackMovement:
    reference = f"{session.table.code} seat {session.seat} {session.player.code}"
    room = session.table.room
    assert room is not None
    if method == StackMovement.Method.CASH:
        # CA5: cash at the tables counts toward the identity threshold too.
        cash_activity_record(
            player=session.player,
            amount_cents=amount,
            kind=f"table_{kind}",
            reference=reference,
            at=now,
            gaming_day=room.gaming_day(now),
        )
    txn = transaction_post(
        kind=f"seat_{kind}",
        legs=legs,
        posted_by=by,
        source=source if by is None else "",
        reference=reference,
        posted_at=now,
    )
    return StackMovement.objects.create(
        session=session,
        player=session.player,
        kind=kind,
        method=method,
        amount_cents=amount,
        gaming_day=room.gaming_day(now),
        at=now,
        ledger_transaction=txn,
        recorded_by=by,
    )


@transaction.atomic
def seat_take(
    *,
    table_code: str,
    seat: int,
    player_code: str,
    amount: int,
    method: str,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> SeatSession:
    """Seat a player with a buy-in (API.md ``POST seats``).

    Decides the amount under BI1, BI4–BI6 and WL6 and books it: cash into the drop
    box with chips from the tray, or the player's own chips (BI5 transfers). A
    house move (BI7) is never a buy-in: only :func:`seat_move` makes one.
    Raises :class:`RuleViolation` with the rule and the amounts allowed, and
    :class:`Refusal` (DC3) when he owes a receivable past its terms.
    """
    return _seat(
        table_code=table_code,
        seat=seat,
        player_code=player_code,
        amount=amount,
        method=method,
        house_move_stack=None,
        source=source,
        by=by,
        now=now or timezone.now(),
    )


HOUSE_MOVES = ("table_break", "table_balance", "must_move", "seat_change")
"""The floor's flows that move a seated player for the house (BI7, WL3, WL7, WL10)."""


@transaction.atomic
def seat_move(
    *,
    from_table: str,
    from_seat: int,
    to_table: str,
    to_seat: int,
    why: str,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> SeatSession:
    """Move a seated player for the house, with the stack the ledger holds (BI7).

    Only the floor's own flows call it, each naming itself in ``why``: a table it
    breaks (WL3), a table it balances, a must-move (WL7), a seat change it grants
    (WL10). The stack moved is the balance of his stack account at the table he
    leaves, read under the seat's lock, never an amount a client posted; he keeps
    it at the new seat even below the table's minimum. Raises :class:`Refusal`
    (BI7) when he has no chips there to move: a player who brings nothing buys in.
    """
    if why not in HOUSE_MOVES:
        raise ValueError(f"not a house move: {why!r}")
    now = now or timezone.now()
    origin = table_get_open(from_table, lock=False)
    session = _open_session(origin, from_seat)
    account = chart.player_stack(player=session.player.code, table=origin.code)
    stack = Account.objects.get(pk=account.pk).balance_cents
    if stack <= 0:
        raise Refusal(
            "nothing_to_move",
            _(
                "BI7: %(p)s has no chips at %(t)s to move; a player who brings"
                " nothing buys in."
            )
            % {"p": session.player.code, "t": origin.code},
            rule="BI7",
            allowed={"min": 1, "max": None},
        )
    seat_leave(
        table_code=origin.code,
        seat=from_seat,
        stack=stack,
        source=source,
        by=by,
        now=now,
    )
    return _seat(
        table_code=to_table,
        seat=to_seat,
        player_code=session.player.code,
        amount=stack,
        method=StackMovement.Method.CHIPS,
        house_move_stack=stack,
        source=source,
        by=by,
        now=now,
    )


def _seat(
    *,
    table_code: str,
    seat: int,
    player_code: str,
    amount: int,
    method: str,
    house_move_stack: int | None,
    source: str,
    by: User | None,
    now: datetime,
) -> SeatSession:
    """Seat a player: a buy-in, or (``house_move_stack``) a house move's stack."""
    table = table_get_open(table_code)
    player = player_get(player_code)
    # Serialise a player's seat requests: two terminals seating him at once see each
    # other's session instead of both passing the one-seat check.
    Player.objects.select_for_update().filter(pk=player.pk).first()
    if not 1 <= seat <= table.seats:
        raise RuleViolation(
            _("Seat %(s)d doesn't exist at this table (1–%(n)d).")
            % {"s": seat, "n": table.seats},
            code="no_such_seat",
            rule="HS1",
            allowed={"min": 1, "max": table.seats},
        )
    if table.sessions.filter(seat=seat, ended_at__isnull=True).exists():
        raise Conflict(_("Seat %(s)d is taken.") % {"s": seat}, code="seat_taken")
    assert table.game is not None and table.room is not None
    if house_move_stack is None:
        receivable_check(player=player, now=now)  # DC3: he pays back first
    hooks.seat_checks(player=player, game=table.game, now=now)
    night = player_night(player=player, room=table.room, now=now)
    try:
        allowance = seat_allowance(
            table=table.code,
            stakes=table.game.stakes,
            night=night,
            now=now,
            house_move_stack=house_move_stack,
        )
        kind = decide(amount, allowance)
    except BuyInRefused as error:
        raise refusal(error) from error
    session = SeatSession.objects.create(
        table=table,
        game=table.game,
        seat=seat,
        player=player,
        kind=kind.value,
        house_move=house_move_stack is not None,
        gaming_day=night.gaming_day,
        started_at=now,
        stack_cents=amount,
    )
    _record_movement(
        session=session,
        kind=kind.value,
        method=method,
        amount=amount,
        legs=_buy_in_legs(table=table, player=player, amount=amount, method=method),
        now=now,
        source=source,
        by=by,
    )
    return session


def _open_session(table: Table, seat: int) -> SeatSession:
    session = (
        SeatSession.objects.select_for_update(of=("self",))
        .select_related("player", "table", "table__room")
        .filter(table=table, seat=seat, ended_at__isnull=True)
        .first()
    )
    if session is None:
        raise ApiError(
            _("Nobody sits in seat %(s)d.") % {"s": seat},
            code="seat_empty",
            status_code=404,
        )
    return session


@transaction.atomic
def seat_top_up(
    *,
    table_code: str,
    seat: int,
    amount: int,
    method: str,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> SeatSession:
    """Add chips to a seated player's stack between hands (BI2, BI4).

    Raises :class:`RuleViolation` (BI2, BI4) with the amounts allowed, and
    :class:`Refusal` (DC3) when he owes a receivable past its terms.
    """
    now = now or timezone.now()
    table = table_get_open(table_code)
    session = _open_session(table, seat)
    assert table.game is not None and table.room is not None
    receivable_check(player=session.player, now=now)  # DC3
    night = player_night(player=session.player, room=table.room, now=now)
    try:
        allowance = top_up_allowance(
            stack=session.stack_cents, stakes=table.game.stakes, night=night
        )
        kind = decide(amount, allowance, what="top-up")
    except BuyInRefused as error:
        raise refusal(error) from error
    _record_movement(
        session=session,
        kind=kind.value,
        method=method,
        amount=amount,
        legs=_buy_in_legs(
            table=table, player=session.player, amount=amount, method=method
        ),
        now=now,
        source=source,
        by=by,
    )
    session.stack_cents += amount
    session.save(update_fields=["stack_cents"])
    return session


@transaction.atomic
def seat_leave(
    *,
    table_code: str,
    seat: int,
    stack: int,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> SeatSession:
    """End a seat session; the player takes his stack with him (BI3, API.md).

    His chips move from his stack at the table to the chips he carries, to cash out
    at the cage or to play on under BI5. A reported stack other than the one the
    floor knows is refused (HS6): the terminal must report what the hands left.
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = _open_session(table, seat)
    if stack != session.stack_cents:
        raise RuleViolation(
            _("The stack reported (%(r)d) differs from the recorded %(k)d.")
            % {"r": stack, "k": session.stack_cents},
            code="stack_mismatch",
            rule="HS6",
            allowed={"min": session.stack_cents, "max": session.stack_cents},
        )
    if stack:
        _record_movement(
            session=session,
            kind=StackMovement.Kind.LEAVE,
            method=StackMovement.Method.CHIPS,
            amount=stack,
            legs=[
                Leg(
                    chart.player_stack(player=session.player.code, table=table.code),
                    stack,
                ),
                Leg(chart.player_chips(player=session.player.code), -stack),
            ],
            now=now,
            source=source,
            by=by,
        )
    session.ended_at, session.left_with_cents = now, stack
    session.stack_cents = 0
    session.save(update_fields=["ended_at", "left_with_cents", "stack_cents"])
    return session


# Hands ------------------------------------------------------------------------------


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
        raise _no_table(code)
    row = found[0]
    table, at = rows.from_row(Table, row)
    room, at = rows.from_row(Room, row, at)
    game, at = rows.from_row(Game, row, at)
    table.room = room if table.room_id is not None else None
    table.game = game if table.game_id is not None else None
    _open_or_refused(code, table)
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


def _void_checks(table: Table, hand: Hand) -> list[SeatSession]:
    """RK8: only the table's last hand, while its players still sit there.

    Returns the hand's seat sessions, locked. Raises :class:`Refusal` (RK8).
    """
    if table.hands.filter(hand_no__gt=hand.hand_no).exists():
        raise errors.Refusal(
            "void_too_late",
            _(
                "RK8: only the last hand at a table can be voided; later hands were"
                " dealt."
            ),
            rule="RK8",
        )
    ids = list(hand.seats.values_list("session_id", flat=True))
    sessions = list(
        SeatSession.objects.select_for_update()
        .select_related("player")
        .filter(pk__in=ids)
    )
    if any(s.ended_at is not None for s in sessions):
        raise errors.Refusal(
            "void_too_late",
            _("RK8: a player of this hand has left; void it before anyone leaves."),
            rule="RK8",
        )
    return sessions


def _void_book(void: HandVoid, *, table: Table, sessions: list[SeatSession]) -> None:
    """Book the void: the reversal of the hand's transaction, a new one (RK8, DC2)."""
    hand = void.hand
    if hand.ledger_transaction is not None:
        void.ledger_transaction = transaction_reverse(
            original=hand.ledger_transaction,
            requested_by=void.requested_by,
            approved_by=void.decided_by,
            reason=void.reason,
            kind="hand_void",
        )
    for session in sessions:
        # The session's stack is its ledger balance again.
        account = chart.player_stack(player=session.player.code, table=table.code)
        session.stack_cents = Account.objects.get(pk=account.pk).balance_cents
        session.save(update_fields=["stack_cents"])
    void.status = HandVoid.Status.BOOKED
    void.save()
    hand.status = Hand.Status.VOIDED
    hand.save(update_fields=["status"])


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


@transaction.atomic
def hand_void(
    *,
    table_code: str,
    hand_no: int,
    reason: str,
    by: User,
    now: datetime | None = None,
) -> HandVoid:
    """A floor person voids a hand: every contribution back, no rake, no drop (RK8).

    The reason is one of :class:`HandVoid.Reason`; the deal must still be
    cancellable (no two players acted with a call, bet or raise among them,
    :mod:`cardroom.domain.voids`); only the table's last hand, while its players
    still sit there. A hand that took no rake and no drop is voided at once: the
    reversal of its transaction is booked. One that took rake or drop waits for a
    manager, another person (:func:`hand_void_decide`). Raises :class:`Refusal`
    (RK8), :class:`Invalid` for a reason off the list, :class:`NotFound` and
    :class:`Conflict` (already void, or a void waiting).
    """
    now = now or timezone.now()
    if reason not in HandVoid.Reason.values:
        raise errors.Invalid(
            "void_reason",
            _("RK8: a void's reason is one of the list."),
            rule="RK8",
            allowed={"reason": list(HandVoid.Reason.values)},
        )
    table = table_get_open(table_code)
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("game", "ledger_transaction")
        .filter(table=table, hand_no=hand_no)
        .first()
    )
    if hand is None:
        raise errors.NotFound("not_found", _("No hand %(n)s.") % {"n": hand_no})
    if hand.status == Hand.Status.VOIDED:
        raise errors.Conflict("already_void", _("The hand is already void."))
    if hand.voids.filter(status=HandVoid.Status.PENDING).exists():
        raise errors.Conflict(
            "void_pending", _("A void of this hand waits for a manager's approval.")
        )
    sessions = _void_checks(table, hand)
    acted = first_round(
        hand.record,
        small_blind=hand.game.small_blind_cents,
        big_blind=hand.game.big_blind_cents,
    )
    if not acted.cancellable:
        raise errors.Refusal(
            "void_after_action",
            _(
                "RK8: the deal can't be cancelled once two players have acted and one"
                " of them called, bet or raised."
            ),
            rule="RK8",
            allowed={
                "called_bet_or_raised": list(acted.callers),
                "acted": list(acted.acted),
            },
        )
    void = HandVoid.objects.create(
        hand=hand,
        reason=reason,
        needs_approval=bool(hand.rake_cents or hand.jackpot_drop_cents),
        requested_by=by,
        requested_at=now,
    )
    if not void.needs_approval:
        _void_book(void, table=table, sessions=sessions)
    return void


@transaction.atomic
def hand_void_decide(
    *, void: HandVoid, approve: bool, by: User, now: datetime | None = None
) -> HandVoid:
    """A manager approves (and books) or rejects a void that waits (RK8, DC2).

    Raises :class:`Forbidden` for anyone but a manager, :class:`Refusal` (RK8) when
    the floor person who asked decides or the hand can't be voided any more, and
    :class:`Conflict` when the void was decided already.
    """
    if not has_role(by, Role.MANAGER):
        raise errors.Forbidden(
            "manager_only", _("RK8: a manager approves the void of a raked hand.")
        )
    found = (
        HandVoid.objects.select_for_update(of=("self",))
        .select_related("hand", "hand__table", "requested_by")
        .filter(pk=void.pk)
        .first()
    )
    if found is None:
        raise errors.NotFound("not_found", _("No void %(id)s.") % {"id": void.pk})
    void = found
    if void.status != HandVoid.Status.PENDING:
        raise errors.Conflict("decided", _("This void was decided already."))
    if void.requested_by_id == by.pk:
        raise errors.Refusal(
            "four_eyes",
            _("RK8: the void of a raked hand is approved by another person (DC2)."),
            rule="RK8",
        )
    void.decided_by, void.decided_at = by, now or timezone.now()
    if not approve:
        void.status = HandVoid.Status.REJECTED
        void.save()
        return void
    table = table_get_open(void.hand.table.code)
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("ledger_transaction")
        .get(pk=void.hand_id)
    )
    void.hand = hand
    sessions = _void_checks(table, hand)
    _void_book(void, table=table, sessions=sessions)
    return void


# Stack reviews (HS6) ------------------------------------------------------------


def _review_locked(review: StackReview) -> StackReview:
    found = (
        StackReview.objects.select_for_update(of=("self",))
        .select_related("table", "player", "session", "to_player", "proposed_by")
        .filter(pk=review.pk)
        .first()
    )
    if found is None:
        raise errors.NotFound(
            "not_found", _("No stack review %(id)s.") % {"id": review.pk}
        )
    return found


@transaction.atomic
def stack_review_propose(
    *,
    review: StackReview,
    resolution: str,
    reason: str,
    by: User,
    to_player: str | None = None,
    now: datetime | None = None,
) -> StackReview:
    """A floor person proposes how to resolve a stack review (HS6); nothing moves.

    ``release`` gives the frozen chips back to the player; ``correction`` gives
    them to ``to_player`` or, with nobody named, to the house's over/short. A
    manager, another person, approves (:func:`stack_review_approve`). Raises
    :class:`Conflict` when the review is resolved already, :class:`Invalid` for a
    resolution off the list or without a reason.
    """
    review = _review_locked(review)
    if review.status == StackReview.Status.RESOLVED:
        raise errors.Conflict("resolved", _("This stack review is resolved already."))
    if resolution not in StackReview.Resolution.values:
        raise errors.Invalid(
            "review_resolution",
            _("HS6: a stack review is released or corrected."),
            rule="HS6",
            allowed={"resolution": list(StackReview.Resolution.values)},
        )
    if not reason.strip():
        raise errors.Invalid(
            "reason_required", _("DC2: a correction says why."), rule="DC2"
        )
    if resolution == StackReview.Resolution.RELEASE and to_player is not None:
        raise errors.Invalid(
            "invalid", _("HS6: a release goes to the player himself."), rule="HS6"
        )
    review.resolution = resolution
    review.to_player = player_get(to_player) if to_player else None
    review.reason = reason
    review.proposed_by, review.proposed_at = by, now or timezone.now()
    review.status = StackReview.Status.PROPOSED
    review.save()
    return review


@transaction.atomic
def stack_review_approve(
    *, review: StackReview, by: User, now: datetime | None = None
) -> StackReview:
    """A manager approves a proposed resolution; its transaction is booked (HS6, DC2).

    The frozen chips go from the player's review hold to his stack at the table
    (still seated) or the chips he carries (a release), or to the named player's
    chips or the house's over/short (a correction); the hand's ``stack_mismatch``
    exception for that seat is resolved with it. Raises :class:`Forbidden` for
    anyone but a manager, :class:`Refusal` (HS6) when the proposer approves or
    nothing is proposed, :class:`Conflict` when resolved already.
    """
    if not has_role(by, Role.MANAGER):
        raise errors.Forbidden(
            "manager_only", _("HS6: a manager approves a stack review.")
        )
    review = _review_locked(review)
    if review.status == StackReview.Status.RESOLVED:
        raise errors.Conflict("resolved", _("This stack review is resolved already."))
    if review.status != StackReview.Status.PROPOSED or review.proposed_by is None:
        raise errors.Refusal(
            "nothing_proposed",
            _("HS6: a floor person proposes a resolution first."),
            rule="HS6",
        )
    if review.proposed_by_id == by.pk:
        raise errors.Refusal(
            "four_eyes",
            _("HS6: a stack review is approved by another person (DC2)."),
            rule="HS6",
        )
    table, amount = review.table, review.amount_cents
    hold = chart.stack_review_hold(player=review.player.code, table=table.code)
    touched: list[SeatSession | None] = []
    if review.resolution == StackReview.Resolution.RELEASE:
        account, session = _chips_of(review.player, table)
        touched.append(session)
        target = [Leg(account, -amount)]
    elif review.to_player is not None:
        account, session = _chips_of(review.to_player, table)
        touched.append(session)
        target = [Leg(account, -amount)]
    else:
        # Chips nobody can claim: the house no longer owes them; a count difference.
        target = [Leg(chart.over_short(), -amount)]
    review.approved_by, review.approved_at = by, now or timezone.now()
    review.ledger_transaction = transaction_post(
        kind=f"stack_review_{review.resolution}",
        legs=[Leg(hold, amount), *target],
        posted_by=review.proposed_by,
        approved_by=by,
        reference=f"{review.hand} seat {review.seat}",
        memo=review.reason,
        posted_at=review.approved_at,
    )
    review.status = StackReview.Status.RESOLVED
    review.save()
    HandException.objects.filter(
        hand_id=review.hand_id,
        kind=HandException.Kind.STACK_MISMATCH,
        details__seat=review.seat,
        status=HandException.Status.OPEN,
    ).update(
        status=HandException.Status.RESOLVED,
        resolved_by=by,
        resolved_at=review.approved_at,
        resolution=f"{review.resolution}: {review.reason}"[:500],
    )
    _sync(*touched)
    return review


def table_seats(code: str) -> dict[str, Any]:
    """What the server knows of table ``code``'s seats (HS6), for its terminal.

    Each open seat with its player, the stack the ledger holds (the next hand books
    on it), the chips frozen for review and whether he is playing or away.
    Raises :class:`NotFound` for an unknown table.
    """
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise errors.NotFound("not_found", _("No table %(t)s.") % {"t": code})
    sessions = list(
        SeatSession.objects.filter(table=table, ended_at__isnull=True)
        .select_related("player")
        .order_by("seat")
    )
    codes = {
        chart.player_stack_code(player=s.player.code, table=code): s for s in sessions
    }
    balances = dict(
        Account.objects.filter(code__in=list(codes)).values_list(
            "code", "balance_cents"
        )
    )
    frozen = frozen_at(table)
    seats = [
        {
            "seat": s.seat,
            "player": s.player.code,
            "stack": balances.get(account, s.stack_cents),
            "frozen": frozen.get(s.pk, 0),
            "state": "away" if s.away_since is not None else "playing",
            "away_since": s.away_since,
            "sat_down": s.started_at,
            "last_hand_no": s.last_hand_no,
        }
        for account, s in codes.items()
    ]
    return {
        "table": table.code,
        "status": table.status,
        "gaming_day": table.gaming_day,
        "last_hand_no": table.hands.aggregate(n=Max("hand_no"))["n"],
        "seats": sorted(seats, key=lambda row: row["seat"]),
    }


def frozen_at(table: Table) -> dict[int, int]:
    """Chips frozen for review per open session at ``table`` (HS6)."""
    found = (
        StackReview.objects.filter(
            table=table,
            session__ended_at__isnull=True,
            status__in=[StackReview.Status.OPEN, StackReview.Status.PROPOSED],
        )
        .values("session_id")
        .annotate(total=Sum("amount_cents"))
    )
    return {row["session_id"]: row["total"] for row in found}


# Time collection (RK6) ------------------------------------------------------------


@transaction.atomic
def seat_time_charge(
    *,
    table_code: str,
    charges: dict[int, int],
    reference: str,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> list[SeatSession]:
    """Book a period's time collection: ``charges`` maps seats to cents (RK6).

    One ledger transaction from the seats' stacks to time-collection revenue, with
    ``reference`` naming the period (a retry of the same period books nothing new).
    Who pays is decided by the caller from the game's waiting list. Raises
    :class:`RuleViolation` (RK6) for a seat nobody holds or a stack that can't pay.
    """
    now = now or timezone.now()
    table = table_get_open(table_code)
    external_id = f"time:{table.code}:{reference}"
    if Transaction.objects.filter(external_id=external_id).exists():
        return []  # this period was collected already; a retry changes nothing
    sessions = {
        s.seat: s
        for s in SeatSession.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(table=table, ended_at__isnull=True, seat__in=list(charges))
    }
    legs: list[Leg] = []
    total = 0
    for seat, amount in sorted(charges.items()):
        session = sessions.get(seat)
        if session is None or amount <= 0 or amount > session.stack_cents:
            raise RuleViolation(
                _("Seat %(s)d can't pay %(a)d of time.") % {"s": seat, "a": amount},
                code="time_not_payable",
                rule="RK6",
                allowed={"max": session.stack_cents if session else 0},
            )
        legs.append(
            Leg(
                chart.player_stack(player=session.player.code, table=table.code), amount
            )
        )
        session.stack_cents -= amount
        total += amount
    if not legs:
        return []
    legs += [
        Leg(chart.time_revenue(), -total),
        Leg(chart.table_rake_box(table=table.code), total),
        Leg(chart.chip_float(), -total),
    ]
    transaction_post(
        kind="time_collection",
        legs=legs,
        posted_by=by,
        source=source if by is None else "",
        reference=reference,
        external_id=external_id,
        posted_at=now,
    )
    SeatSession.objects.bulk_update(sessions.values(), ["stack_cents"])
    return list(sessions.values())


# Absence (BI9) -------------------------------------------------------------------

LONG_BREAK = timedelta(minutes=30)


@transaction.atomic
def seat_away(
    *,
    table_code: str,
    seat: int,
    long_break: bool = False,
    now: datetime | None = None,
) -> Absence:
    """Mark a seated player away; a long break is once per gaming day (BI9).

    Raises :class:`RuleViolation` (BI9) for a second long break the same night and
    :class:`Conflict` when he is already away.
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = _open_session(table, seat)
    if session.absences.filter(ended_at__isnull=True).exists():
        raise Conflict(_("The player is already away."), code="already_away")
    assert table.room is not None
    day = table.room.gaming_day(now)
    if (
        long_break
        and Absence.objects.filter(
            player=session.player, gaming_day=day, long_break=True
        ).exists()
    ):
        raise RuleViolation(
            _("BI9: one long break per gaming day; he had his tonight."),
            code="long_break_used",
            rule="BI9",
        )
    session.away_since = now
    session.save(update_fields=["away_since"])
    return Absence.objects.create(
        session=session,
        player=session.player,
        gaming_day=day,
        long_break=long_break,
        started_at=now,
    )


@transaction.atomic
def seat_back(*, table_code: str, seat: int, now: datetime | None = None) -> Absence:
    """The player is back at his seat (BI9)."""
    table = table_get_open(table_code, lock=False)
    session = _open_session(table, seat)
    absence = session.absences.filter(ended_at__isnull=True).first()
    if absence is None:
        raise Conflict(_("The player is not away."), code="not_away")
    absence.ended_at = now or timezone.now()
    absence.save(update_fields=["ended_at"])
    session.away_since = None
    session.save(update_fields=["away_since"])
    return absence


@transaction.atomic
def seat_pick_up(
    *,
    table_code: str,
    seat: int,
    by: User,
    now: datetime | None = None,
) -> SeatSession:
    """Pick up an absent player's chips into cage custody and free the seat (BI9).

    Allowed after more than 30 minutes away; the ledger transaction names the floor
    person. Raises :class:`RuleViolation` (BI9) earlier or when he isn't away.
    """
    now = now or timezone.now()
    table = table_get_open(table_code, lock=False)
    session = _open_session(table, seat)
    absence = session.absences.select_for_update().filter(ended_at__isnull=True).first()
    if absence is None or now - absence.started_at <= LONG_BREAK:
        away = 0 if absence is None else int((now - absence.started_at).total_seconds())
        raise RuleViolation(
            _("BI9: chips are picked up only after 30 minutes away."),
            code="not_away_long_enough",
            rule="BI9",
            allowed={
                "away_seconds_min": int(LONG_BREAK.total_seconds()) + 1,
                "away_seconds": away,
            },
        )
    stack = session.stack_cents
    player = session.player
    if stack:
        _record_movement(
            session=session,
            kind=StackMovement.Kind.PICK_UP,
            method=StackMovement.Method.CHIPS,
            amount=stack,
            legs=[
                Leg(chart.player_stack(player=player.code, table=table.code), stack),
                Leg(chart.custody(player=player.code), -stack),
            ],
            now=now,
            source="",
            by=by,
        )
    absence.ended_at, absence.picked_up_by = now, by
    absence.save(update_fields=["ended_at", "picked_up_by"])
    session.ended_at, session.left_with_cents, session.stack_cents = now, stack, 0
    session.away_since = None
    session.save(
        update_fields=["ended_at", "left_with_cents", "stack_cents", "away_since"]
    )
    return session


@transaction.atomic
def custody_return(*, player_code: str, by: User, now: datetime | None = None) -> int:
    """Give a player the chips held in custody for him (BI9); return how many.

    They become chips he carries: to sit down with (BI5 applies) or to cash out.
    Raises :class:`RuleViolation` (BI9) when nothing is held for him.
    """
    player = player_get(player_code)
    account = chart.custody(player=player.code)
    held = Account.objects.select_for_update().get(pk=account.pk).balance_cents
    if held <= 0:
        raise RuleViolation(
            _("BI9: no chips are held for %(p)s.") % {"p": player.code},
            code="nothing_in_custody",
            rule="BI9",
        )
    transaction_post(
        kind="custody_return",
        legs=[Leg(account, held), Leg(chart.player_chips(player=player.code), -held)],
        posted_by=by,
        reference=f"custody {player.code}",
        posted_at=now or timezone.now(),
    )
    return held


# Terminal keys -------------------------------------------------------------------


def terminal_key_create(*, table_code: str, name: str) -> tuple[TerminalKey, str]:
    """Issue a key for table ``table_code``'s terminal; return it and the key in
    clear, shown this once (the server keeps only its hash). Raises
    :class:`NotFound` for an unknown table."""
    table = Table.objects.filter(code=table_code).first()
    if table is None:
        raise NotFound("not_found", _("No table %(t)s.") % {"t": table_code})
    key, raw = TerminalKey.objects.create_key(
        name=name or f"terminal {table.code}", table=table
    )
    assert isinstance(key, TerminalKey)
    return key, raw


@transaction.atomic
def terminal_key_revoke(*, prefix: str) -> TerminalKey:
    """Revoke a terminal's key: from the next request on it is refused (401).

    Raises :class:`NotFound` for an unknown key, :class:`Conflict` (409) for one
    revoked already.
    """
    key = (
        TerminalKey.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(prefix=prefix)
        .first()
    )
    if key is None:
        raise NotFound("not_found", _("No terminal key %(p)s.") % {"p": prefix})
    if key.revoked:
        raise errors.Conflict(
            "key_revoked", _("This terminal key was revoked already.")
        )
    key.revoked = True
    key.save(update_fields=["revoked"])
    return key


# Corrections: pot corrections, held pots, receivables (HS7, HS8, DC1–DC3) --------


def _chips_of(player: Player, table: Table) -> tuple[Account, SeatSession | None]:
    """Where a player's chips are now: his stack at the table, or what he carries."""
    session = (
        SeatSession.objects.select_for_update()
        .filter(player=player, table=table, ended_at__isnull=True)
        .first()
    )
    if session is not None:
        return chart.player_stack(player=player.code, table=table.code), session
    return chart.player_chips(player=player.code), None


def _sync(*sessions: SeatSession | None) -> None:
    """Make open sessions' stacks their ledger balances after a correction."""
    for session in sessions:
        if session is None:
            continue
        account = chart.player_stack(
            player=session.player.code, table=session.table.code
        )
        session.stack_cents = Account.objects.get(pk=account.pk).balance_cents
        session.save(update_fields=["stack_cents"])


def _dc1(hand: Hand) -> None:
    if hand.status == Hand.Status.VOIDED:
        raise RuleViolation(_("The hand was voided."), code="hand_voided", rule="RK8")
    if hand.table.hands.filter(hand_no__gt=hand.hand_no).exists():
        raise RuleViolation(
            _(
                "DC1: a pot ruling is asked for before the next hand at the table"
                " starts; hand %(n)d was dealt since."
            )
            % {"n": hand.table.hands.aggregate(n=Max("hand_no"))["n"]},
            code="ruling_too_late",
            rule="DC1",
        )


@transaction.atomic
def correction_request(
    *,
    kind: str,
    table_code: str,
    amount: int,
    reason: str,
    by: User,
    hand_no: int | None = None,
    from_player: str | None = None,
    to_player: str | None = None,
    held_id: int | None = None,
    now: datetime | None = None,
) -> Correction:
    """Ask for a correction; nothing moves until another person approves (DC2).

    Pot corrections and holds name a hand and must be asked for before the next
    hand at that table (DC1, HS7, HS8); a release names an approved hold and pays
    at most what it still holds; a receivable names the player who owes (DC3).
    Raises :class:`RuleViolation` with the rule that refuses it.
    """
    table = Table.objects.filter(code=table_code).first()
    if table is None:
        raise ApiError(
            _("No table %(t)s.") % {"t": table_code}, code="not_found", status_code=404
        )
    if not reason.strip():
        raise RuleViolation(
            _("DC2: a correction says why."), code="reason_required", rule="DC2"
        )
    hand = None
    if hand_no is not None:
        hand = (
            Hand.objects.select_related("table")
            .filter(table=table, hand_no=hand_no)
            .first()
        )
        if hand is None:
            raise ApiError(
                _("No hand %(n)s.") % {"n": hand_no}, code="not_found", status_code=404
            )
    needs = {
        Correction.Kind.POT_CORRECTION: ("hand", "from", "to"),
        Correction.Kind.HOLD: ("hand", "from"),
        Correction.Kind.RELEASE: ("held", "to"),
        Correction.Kind.RECEIVABLE: ("from",),
    }[Correction.Kind(kind)]
    given = {"hand": hand, "from": from_player, "to": to_player, "held": held_id}
    missing = [n for n in needs if given[n] is None]
    if missing:
        raise ApiError(
            _("A %(k)s needs: %(m)s.") % {"k": kind, "m": ", ".join(missing)},
            code="invalid",
        )
    if hand is not None and kind in (
        Correction.Kind.POT_CORRECTION,
        Correction.Kind.HOLD,
    ):
        _dc1(hand)
    held = None
    if kind == Correction.Kind.RELEASE:
        assert held_id is not None
        held = (
            Correction.objects.select_for_update()
            .filter(
                pk=held_id, kind=Correction.Kind.HOLD, status=Correction.Status.APPROVED
            )
            .first()
        )
        if held is None:
            raise RuleViolation(
                _("HS8: no approved hold %(id)s.") % {"id": held_id},
                code="no_such_hold",
                rule="HS8",
            )
        left = held.amount_cents - sum(
            r.amount_cents
            for r in held.releases.exclude(status=Correction.Status.REJECTED)
        )
        if amount > left:
            raise RuleViolation(
                _("HS8: the hold has %(left)d left to release.") % {"left": left},
                code="above_held",
                rule="HS8",
                allowed={"max": left},
            )
    return Correction.objects.create(
        kind=kind,
        hand=hand or (held.hand if held else None),
        table=table,
        from_player=player_get(from_player) if from_player else None,
        to_player=player_get(to_player) if to_player else None,
        held=held,
        amount_cents=amount,
        reason=reason,
        requested_by=by,
        requested_at=now or timezone.now(),
    )


@transaction.atomic
def correction_decide(
    *,
    correction: Correction,
    approve: bool,
    by: User,
    now: datetime | None = None,
) -> Correction:
    """Approve (and book) or reject a correction; the decider is another person.

    Raises :class:`RuleViolation` (DC2) when the asker decides, :class:`Conflict`
    when it was decided already, :class:`InsufficientFunds` when the chips aren't
    there any more.
    """
    c = (
        Correction.objects.select_for_update(of=("self",))
        .select_related("table", "from_player", "to_player")
        .get(pk=correction.pk)
    )
    if c.status != Correction.Status.PENDING:
        raise Conflict(_("This correction was decided already."), code="decided")
    if c.requested_by_id == by.pk:
        raise RuleViolation(
            _("DC2: corrections of money need two different staff."),
            code="four_eyes",
            rule="DC2",
        )
    c.decided_by, c.decided_at = by, now or timezone.now()
    if not approve:
        c.status = Correction.Status.REJECTED
        c.save()
        return c
    amount, table = c.amount_cents, c.table
    touched: list[SeatSession | None] = []
    legs: list[Leg] = []
    if c.kind == Correction.Kind.RECEIVABLE:
        assert c.from_player is not None
        legs.append(Leg(chart.receivables(player=c.from_player.code), amount))
        if c.to_player is not None:
            account, session = _chips_of(c.to_player, table)
            touched.append(session)
            legs += [
                Leg(account, -amount),
                Leg(chart.table_tray(table=table.code), -amount),
                Leg(chart.chip_float(), amount),
            ]
        else:
            legs.append(Leg(chart.over_short(), -amount))
    else:
        if c.from_player is not None:
            account, session = _chips_of(c.from_player, table)
            touched.append(session)
            legs.append(Leg(account, amount))
        else:
            legs.append(Leg(chart.escrow(), amount))
        if c.to_player is not None:
            account, session = _chips_of(c.to_player, table)
            touched.append(session)
            legs.append(Leg(account, -amount))
        else:
            legs.append(Leg(chart.escrow(), -amount))
    c.ledger_transaction = transaction_post(
        kind=c.kind,
        legs=legs,
        posted_by=by,
        approved_by=c.requested_by,
        reference=str(c.hand or table),
        memo=c.reason,
        posted_at=c.decided_at,
    )
    c.status = Correction.Status.APPROVED
    c.save()
    _sync(*touched)
    return c


__all__ = [
    "correction_decide",
    "correction_request",
    "hand_record",
    "hand_void",
    "hand_void_decide",
    "player_get",
    "player_night",
    "policy_publish",
    "room_default",
    "seat_leave",
    "seat_take",
    "seat_top_up",
    "stack_review_approve",
    "stack_review_propose",
    "table_close",
    "table_get_open",
    "table_open",
    "table_seats",
    "terminal_key_create",
    "terminal_key_revoke",
]
