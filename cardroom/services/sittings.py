"""Seats and buy-ins: a player seated, moved for the house, topped up (BI1–BI7)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting import chart
from accounting.models import Account, Player
from accounting.services.cage import Door, door_check, receivable_check
from cardroom import hooks
from cardroom.domain import postings
from cardroom.domain.buyin import decide, seat_allowance, top_up_allowance
from cardroom.errors import Code, conflict, refuse
from cardroom.models import SeatSession, StackMovement
from cardroom.selectors import player_night
from cardroom.services.leaving import seat_leave
from cardroom.services.sessions import movement_record, player_require, session_get_open
from cardroom.services.tables import table_get_open
from core.errors import Refusal


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
    The player asks at the seat's door first, whether he buys in, returns or
    brings his chips (BI5): one check covers the seat and its buy-in (PP2–PP4).
    Raises :class:`Refusal` with the rule and the amounts allowed: BI10 for an
    unregistered player, PP2 (``under_age``) for one under age or without a date
    of birth, PP3 (``player_barred``) or PP4 (``player_self_excluded``) for a
    restricted one, DC3 when he owes a receivable past its terms.
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
    it at the new seat even below the table's minimum. The house moves him: no
    door asks (a restriction that began while he sat takes him out at the end of
    his hand, PP5). Raises :class:`Refusal` (BI7) when he has no chips there to
    move: a player who brings nothing buys in.
    """
    if why not in HOUSE_MOVES:
        raise ValueError(f"not a house move: {why!r}")
    now = now or timezone.now()
    origin = table_get_open(from_table, lock=False)
    session = session_get_open(origin, from_seat)
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
    """Seat a player: a buy-in, or (``house_move_stack``) a house move's stack.

    A buy-in asks at the seat's door (PP2–PP4), under the player's row lock, which
    a restriction being set takes too: a bar set a moment before is seen."""
    table = table_get_open(table_code)
    player = player_require(player_code)
    # Serialise a player's seat requests: two terminals seating him at once see each
    # other's session instead of both passing the one-seat check.
    Player.objects.select_for_update().filter(pk=player.pk).first()
    if house_move_stack is None:
        door_check(player=player, door=Door.SEAT, at=now)
    if not 1 <= seat <= table.seats:
        raise refuse(
            Code.NO_SUCH_SEAT,
            rule="HS1",
            allowed={"min": 1, "max": table.seats},
            s=seat,
            n=table.seats,
        )
    if table.sessions.filter(seat=seat, ended_at__isnull=True).exists():
        raise conflict(Code.SEAT_TAKEN, s=seat)
    assert table.game is not None and table.room is not None
    if house_move_stack is None:
        receivable_check(player=player, now=now)  # DC3: he pays back first
    hooks.seat_checks(player=player, game=table.game, now=now)
    night = player_night(player=player, room=table.room, now=now)
    allowance = seat_allowance(
        table=table.code,
        stakes=table.game.stakes,
        night=night,
        now=now,
        house_move_stack=house_move_stack,
    )
    kind = decide(amount, allowance)
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
    movement_record(
        session=session,
        kind=kind.value,
        method=method,
        amount=amount,
        plan=postings.buy_in(
            kind=f"seat_{kind.value}",
            table=table.code,
            player=player.code,
            amount=amount,
            cash=method == StackMovement.Method.CASH,
        ),
        now=now,
        source=source,
        by=by,
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

    He asks at the buy-in door (PP2–PP4): a bar set while he sits refuses his
    next top-up. Raises :class:`Refusal` (BI2, BI4) with the amounts allowed, PP2
    (``under_age``), PP3 (``player_barred``) or PP4 (``player_self_excluded``)
    for a player the door refuses, DC3 when he owes a receivable past its terms.
    """
    now = now or timezone.now()
    table = table_get_open(table_code)
    session = session_get_open(table, seat)
    assert table.game is not None and table.room is not None
    door_check(player=session.player, door=Door.BUY_IN, at=now)
    receivable_check(player=session.player, now=now)  # DC3
    night = player_night(player=session.player, room=table.room, now=now)
    allowance = top_up_allowance(
        stack=session.stack_cents, stakes=table.game.stakes, night=night
    )
    kind = decide(amount, allowance)
    movement_record(
        session=session,
        kind=kind.value,
        method=method,
        amount=amount,
        plan=postings.buy_in(
            kind=f"seat_{kind.value}",
            table=table.code,
            player=session.player.code,
            amount=amount,
            cash=method == StackMovement.Method.CASH,
        ),
        now=now,
        source=source,
        by=by,
    )
    session.stack_cents += amount
    session.save(update_fields=["stack_cents"])
    return session
