"""Seat sessions and the chips in them, as the floor's use cases share them: the
registered player, the open session at a seat, a stack movement booked, where a
player's chips are, and open sessions' stacks made their ledger balances."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User

from accounting import chart
from accounting.domain import accounts
from accounting.domain.postings import Plan
from accounting.errors import InsufficientFunds
from accounting.models import Account, Player
from accounting.services import plan_post
from accounting.services.cage import cash_activity_record
from cardroom.errors import Code, missing, overdraft_said, refuse
from cardroom.models import SeatSession, StackMovement, Table


def player_require(code: str) -> Player:
    """Return the registered player ``code`` a table or a list names; refuse an
    unknown one (BI10). The cage's own is :func:`accounting.services.cage.player_get`
    (CA2, another code)."""
    player = Player.objects.filter(code=code).first()
    if player is None:
        raise refuse(Code.UNKNOWN_PLAYER, rule="BI10", p=code)
    return player


def movement_record(
    *,
    session: SeatSession,
    kind: str,
    method: str,
    amount: int,
    plan: Plan,
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
    try:
        txn = plan_post(
            plan,
            posted_by=by,
            source=source if by is None else "",
            reference=reference,
            posted_at=now,
        )
    except InsufficientFunds as short:
        # CA2, CA3: the tray or the player's chips, never the ledger's account.
        raise overdraft_said(
            short, table=session.table.code, player=session.player.code, amount=amount
        ) from short
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


def session_get_open(table: Table, seat: int) -> SeatSession:
    """Return the open session at ``table``'s ``seat``, its row locked; refuse an
    empty seat (404)."""
    session = (
        SeatSession.objects.select_for_update(of=("self",))
        .select_related("player", "table", "table__room")
        .filter(table=table, seat=seat, ended_at__isnull=True)
        .first()
    )
    if session is None:
        raise missing(Code.SEAT_EMPTY, s=seat)
    return session


def chips_locate(player: Player, table: Table) -> tuple[str, SeatSession | None]:
    """Where a player's chips are now (an account code): his stack at the table, or
    what he carries."""
    session = (
        SeatSession.objects.select_for_update()
        .filter(player=player, table=table, ended_at__isnull=True)
        .first()
    )
    if session is not None:
        return accounts.player_stack_code(player=player.code, table=table.code), session
    return accounts.player_chips_code(player=player.code), None


def stacks_sync(*sessions: SeatSession | None) -> None:
    """Make open sessions' stacks their ledger balances after a correction."""
    for session in sessions:
        if session is None:
            continue
        account = chart.player_stack(
            player=session.player.code, table=session.table.code
        )
        session.stack_cents = Account.objects.get(pk=account.pk).balance_cents
        session.save(update_fields=["stack_cents"])
