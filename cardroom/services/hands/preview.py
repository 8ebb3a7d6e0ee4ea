"""A hand's settlement as ``POST hands`` would book it, booking nothing: what the
table's terminal shows the dealer before it posts the hand (API.md "Table
terminal", ``POST hands/preview``).

The same checks as the booking (:mod:`.record`), in the same order, with the same
refusals: the table (unknown, closed, its policy), the record's table, a number
booked before (the same record: its booked settlement; another: 409), the game,
the engine's parse and settlement under the policy in force (RK7), the number's
and the times' limits (HS-P1, BI8), and the seats against the open sessions and
the ledger's stacks (HS6), with the exceptions the booking would raise (HS6,
HS7). Nothing is locked or written: no hand, no ledger row, no idempotency record,
no sequence drawn; a booking between the preview and the post is answered by the
post.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils import timezone

from accounting.domain import accounts
from accounting.models import Account
from cardroom.domain import postings
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.postings import Sitting
from cardroom.errors import Code, conflict
from cardroom.models import Hand, Policy, SeatSession, Table
from cardroom.services.hands.checks import (
    record_fingerprint,
    record_for_table,
    record_settled,
)
from cardroom.services.tables import table_check_open
from core.errors import ApplicationError


def hand_preview(
    *, table_code: str, record: dict[str, Any], now: datetime | None = None
) -> dict[str, Any]:
    """Return the settlement ``record`` would be booked with at ``table_code`` now
    (the JSON ``POST hands`` answers), writing nothing.

    A record already booked under its number answers that hand's settlement;
    another record under a booked number is a :class:`Conflict` (409). Raises
    every refusal ``POST hands`` raises for the record, in the same order: the
    table's (404, BI8), the record's table (422), the engine's (400, 422, HS9),
    the number's and the times' (409, HS-P1, BI8) and the seats' (HS6).
    """
    now = now or timezone.now()
    try:
        table = table_check_open(
            table_code,
            Table.objects.select_related("room", "game")
            .filter(code=table_code)
            .first(),
        )
        assert table.game is not None
        policy = table.game.current_policy()
    except (ApplicationError, Policy.DoesNotExist):
        record_for_table(record, table_code)  # another table is said first
        raise
    record = record_for_table(record, table_code)
    last = table.hands.aggregate(n=Max("hand_no"))["n"]
    booked = _booked(table, record, last)
    if booked is not None:
        return dict(booked.settlement)
    parsed, settlement = record_settled(
        table, record, parse_policy(policy.document), last, now
    )
    sittings = _sittings(table)
    planned = postings.hand(
        table=table.code,
        parsed=parsed,
        settlement=settlement,
        sittings=sittings,
        ledger=_stacks(table.code, sittings),
        cards={s["seat"]: s.get("cards") for s in record["seats"]},
    )
    return {**settlement.as_api(), "exceptions": list(planned.exceptions)}


def _booked(table: Table, record: dict[str, Any], last: int | None) -> Hand | None:
    """The hand booked under the record's number with the same record; refuse
    another record under a booked number (:class:`Conflict`), as the booking."""
    hand_no = record.get("hand_no")
    if last is None or type(hand_no) is not int or hand_no > last:
        return None
    hand = Hand.objects.filter(table=table, hand_no=hand_no).first()
    if hand is not None and hand.record_hash != record_fingerprint(record):
        raise conflict(Code.HAND_CONFLICT, n=hand_no)
    return hand


def _sittings(table: Table) -> dict[int, Sitting]:
    """The table's open sessions by seat, as the booking reads them."""
    sessions = SeatSession.objects.filter(table=table, ended_at__isnull=True)
    return {
        s.seat: Sitting(
            s.pk,
            s.seat,
            s.player_id,
            s.player.code,
            s.stack_cents,
            s.must_leave_at is not None,
        )
        for s in sessions.select_related("player").order_by("pk")
    }


def _stacks(table: str, sittings: dict[int, Sitting]) -> dict[str, int]:
    """The ledger's stacks of the seated players (HS6), by account code."""
    codes = [
        accounts.player_stack_code(player=s.player, table=table)
        for s in sittings.values()
    ]
    return dict(
        Account.objects.filter(code__in=codes, summed=False).values_list(
            "code", "balance_cents"
        )
    )
