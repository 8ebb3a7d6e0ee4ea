"""Balancing two tables of a game with a house move (BI7, WL9)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.models import Player
from accounting.services import retry_on_conflict
from cardroom import services as cardroom_services
from cardroom.models import SeatSession, Table
from core.errors import SharedCode
from waitlist import selectors
from waitlist.errors import NO_FREE_SEAT, Code, conflict, missing, refuse
from waitlist.models import (
    Event,
)
from waitlist.services._shared import (
    first_free,
    record_event,
    refuse_if_kept_apart,
)


@retry_on_conflict()
@transaction.atomic
def table_balance(
    *,
    table_code: str,
    seat: int,
    to_table: str,
    to_seat: int | None = None,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> SeatSession:
    """Balance two tables of a game: the player in ``seat`` moves to ``to_table``.

    A house move (BI7): he keeps the stack the ledger holds, even below the new
    table's minimum. Both tables deal the same game at the same stakes, and the
    table he leaves has at least two players more than the one he goes to (the move
    makes them more even); the house keeps pairs apart there too (WL9). He goes to
    ``to_seat`` or the lowest free seat. Raises :class:`Refusal` (BI7, WL9)
    and :class:`Conflict` when the seat is taken or held.
    """
    now = now or timezone.now()
    origin = cardroom_services.table_get_open(table_code, lock=False)
    target = cardroom_services.table_get_open(to_table, lock=False)
    here, there = _check_balance(origin, target)
    code = here.seated.get(seat)
    if code is None:
        raise missing(SharedCode.SEAT_EMPTY, s=seat)
    new_seat = to_seat if to_seat is not None else first_free(there)
    if new_seat is None or new_seat not in there.free_seats:
        raise (
            conflict(SharedCode.SEAT_TAKEN, text=NO_FREE_SEAT, t=target.code)
            if new_seat is None
            else conflict(SharedCode.SEAT_TAKEN, s=new_seat)
        )
    player = Player.objects.get(code=code)
    refuse_if_kept_apart(player, there.seated.values())
    session = cardroom_services.seat_move(
        from_table=origin.code,
        from_seat=seat,
        to_table=target.code,
        to_seat=new_seat,
        why="table_balance",
        source=source,
        by=by,
        now=now,
    )
    record_event(
        Event.Kind.MOVED,
        now=now,
        by=by,
        source=source,
        rule="BI7",
        reason=_("Moved to balance the tables, keeping his stack (BI7)."),
        details={
            "player": code,
            "from": f"{origin.code}/{seat}",
            "table": target.code,
            "seat": new_seat,
            "stack": session.stack_cents,
        },
        table=target,
        player=player,
    )
    return session


def _check_balance(
    source: Table, target: Table
) -> tuple[selectors.TableState, selectors.TableState]:
    """Refuse tables of two games and a move that doesn't even them out (BI7);
    return the seats of the table left and of the one joined."""
    if target.pk == source.pk or target.game_id != source.game_id:
        raise refuse(Code.NOT_THE_SAME_GAME, rule="BI7", t=target.code, s=source.code)
    there, here = selectors.table_state(target), selectors.table_state(source)
    if here.players < there.players + 2:
        raise refuse(
            Code.TABLES_BALANCED,
            rule="BI7",
            allowed={"min": there.players + 2, "max": None},
            s=source.code,
            n=here.players,
            t=target.code,
            m=there.players,
        )
    return here, there
