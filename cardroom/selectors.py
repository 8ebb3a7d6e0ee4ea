"""Reads of the floor: a table's seats as its terminal sees them, the chips frozen
for review, a player's night and what he may sit down with, a hand's booked
corrections, what a table's terminal must know now, the whole table's state for
its terminal, the refused hands and a booked hand as PHH (HS6, BI1–BI9, DC2, PP5).

A use case that needs one of them reads it under its own lock
(``cardroom.services``); the API, the screens and the commands read them here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Max, Q, QuerySet, Sum
from django.utils import timezone

from accounting.domain import accounts
from accounting.models import Account, Player
from cardroom import hooks
from cardroom.domain.buyin import (
    BI6_WINDOW,
    Departure,
    PlayerNight,
    seat_allowance,
)
from cardroom.domain.phh import to_phh
from cardroom.domain.structure import betting_structure
from cardroom.errors import Code, missing
from cardroom.models import (
    Absence,
    Correction,
    Hand,
    HandRefusal,
    Room,
    SeatSession,
    StackMovement,
    StackReview,
    Table,
)
from core.errors import ApplicationError, NotFound
from core.errors import gettext_noop as _

# --- A table's seats (HS6) ----------------------------------------------------------


def table_seats(code: str) -> dict[str, Any]:
    """What the server knows of table ``code``'s seats (HS6), for its terminal.

    Each open seat with its player, the stack the ledger holds (the next hand books
    on it), the chips frozen for review and whether he is playing or away.
    Raises :class:`NotFound` for an unknown table.
    """
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise missing(Code.NOT_FOUND, t=code)
    sessions = list(
        SeatSession.objects.filter(table=table, ended_at__isnull=True)
        .select_related("player")
        .order_by("seat")
    )
    codes = {
        accounts.player_stack_code(player=s.player.code, table=code): s
        for s in sessions
    }
    balances = dict(
        Account.objects.filter(code__in=list(codes)).values_list(
            "code", "balance_cents"
        )
    )
    frozen = chips_frozen(table)
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
            "must_leave": s.must_leave_rule or None,
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


def chips_frozen(table: Table) -> dict[int, int]:
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


# --- A player's night (BI4–BI6, WL6) ------------------------------------------------


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


# --- A hand: its booked corrections (DC2), its history as PHH ----------------------


def corrections_booked(hand: Hand) -> QuerySet[Correction]:
    """The corrections of ``hand`` approved and booked, newest first (DC2)."""
    return Correction.objects.filter(
        hand=hand, status=Correction.Status.APPROVED
    ).order_by("-pk")


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


# --- What a table's terminal must know now (PP5) ------------------------------------


def seat_notice(session: SeatSession, *, left: bool) -> dict[str, Any]:
    """A seat whose player must leave (PP5), as the table's terminal is told of it:
    still there until the end of the hand in play, or ``left`` with his stack."""
    rule = session.must_leave_rule
    code = "player_barred" if rule == "PP3" else "player_self_excluded"
    return {
        "seat": session.seat,
        "player": session.player.code,
        "rule": rule,
        "code": code,
        "since": session.must_leave_at.isoformat() if session.must_leave_at else None,
        "action": "left" if left else "leave_after_hand",
        "left_with": session.left_with_cents if left else None,
    }


def table_notices(table_code: str) -> list[dict[str, Any]]:
    """What the table's terminal must know now (PP5): each seat whose player must
    leave at the end of the hand in play."""
    sessions = SeatSession.objects.filter(
        table__code=table_code, ended_at__isnull=True, must_leave_at__isnull=False
    ).select_related("player")
    return [seat_notice(session, left=False) for session in sessions.order_by("seat")]


# --- What a player may sit down with (BI1, BI4–BI7, WL6) ---------------------------


def seat_allowed(
    *, table: Table, player: Player, now: datetime | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """What ``player`` may sit down with at ``table`` now, as ``POST seats``
    decides it (:func:`cardroom.domain.buyin.seat_allowance`): ``({"min", "max",
    "kind", "min_rule", "max_rule"[, "short_min"]}, None)``, or ``(None, the
    error object's inner dict)`` when he can't sit down here by a buy-in (WL6:
    seated elsewhere). The door's checks (PP2–PP4, WL7) are the seat's, asked when
    he sits down."""
    now = now or timezone.now()
    assert table.room is not None and table.game is not None
    night = player_night(player=player, room=table.room, now=now)
    try:
        allowance = seat_allowance(
            table=table.code, stakes=table.game.stakes, night=night, now=now
        )
    except ApplicationError as error:
        return None, error.as_dict()["error"]
    return {
        **allowance.as_allowed(),
        "kind": allowance.kind.value,
        "min_rule": allowance.min_rule,
        "max_rule": allowance.max_rule,
    }, None


# --- A table's state, for its terminal (API.md "Table terminal") -----------------


def _state_seats(table: Table) -> list[dict[str, Any]]:
    """The open seats as :func:`table_seats` reads them, with each player's name,
    how he sat down and whether his absence is his long break (BI9)."""
    sessions = {
        s.seat: s
        for s in SeatSession.objects.filter(
            table=table, ended_at__isnull=True
        ).select_related("player")
    }
    breaks = set(
        Absence.objects.filter(
            session__in=list(sessions.values()), ended_at__isnull=True, long_break=True
        ).values_list("session_id", flat=True)
    )
    rows = []
    for row in table_seats(table.code)["seats"]:
        session = sessions.get(row["seat"])
        if session is None:  # left between the two reads
            continue
        rows.append(
            {
                **row,
                "name": session.player.name,
                "kind": session.kind,
                "on_break": session.pk in breaks,
            }
        )
    return rows


def _last_hand(table: Table) -> dict[str, Any] | None:
    """The table's last hand booked: its number, button, end and the seats dealt
    in (its seat rows)."""
    hand = table.hands.order_by("-hand_no").first()
    if hand is None:
        return None
    return {
        "hand_no": hand.hand_no,
        "button": hand.record.get("button"),
        "ended_at": hand.ended_at,
        "status": hand.status,
        "seats": sorted(hand.seats.values_list("seat", flat=True)),
    }


def table_state(code: str, *, now: datetime | None = None) -> dict[str, Any]:
    """All a table's terminal needs to deal (``GET tables/{table}/state``): the
    table, its game's structure and buy-ins (BI1), the policy in force (RK7, to
    settle offline), the seats (HS6, BI9, PP5), the last hand booked, and what the
    apps above the floor add (``CARDROOM_TABLE_STATE``: the floor's calls to this
    table with the buy-in each may bring, the room's jackpots, a tournament's
    level). Raises :class:`NotFound` for an unknown table."""
    now = now or timezone.now()
    table = Table.objects.select_related("room", "game").filter(code=code).first()
    if table is None:
        raise missing(Code.NOT_FOUND, t=code)
    game = table.game
    policy = game.policies.order_by("-version").first() if game else None
    return {
        "table": {
            "code": table.code,
            "name": table.name,
            "seats": table.seats,
            "status": table.status,
            "gaming_day": table.gaming_day,
            "opened_at": table.opened_at,
        },
        "game": game.code if game else None,
        "structure": (
            betting_structure(game.code, game.small_blind_cents, game.big_blind_cents)
            if game
            else None
        ),
        "buy_in": (
            {"min": game.min_buy_in_cents, "max": game.max_buy_in_cents}
            if game
            else None
        ),
        "policy": (
            {"version": policy.version, "document": policy.document} if policy else None
        ),
        "seats": _state_seats(table),
        "last_hand": _last_hand(table),
        "calls": [],
        "jackpots": [],
        "tournament": None,
        **hooks.table_state_parts(table=table, now=now),
    }


# --- Refused hands (kept for the floor) -------------------------------------------


def hand_refusals(*, handled: bool | None = None) -> QuerySet[HandRefusal]:
    """The hands the tables' terminals posted and the server refused, newest
    first; ``handled`` False: those still waiting for the floor."""
    found = HandRefusal.objects.select_related("table", "handled_by").order_by(
        "-last_at", "-pk"
    )
    if handled is not None:
        found = found.filter(handled_at__isnull=not handled)
    return found
