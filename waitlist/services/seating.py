"""Seating a called player at the table he was called to (WL2, WL5, WL6, BI5, BI7)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from accounting.services.cage import Door, door_check
from cardroom import services as cardroom_services
from cardroom.models import SeatSession, StackMovement, Table
from core.errors import NotFound, SharedCode
from waitlist import selectors
from waitlist.domain.seating import (
    Kind,
)
from waitlist.errors import Code, conflict, invalid, refuse
from waitlist.models import (
    Entry,
    Event,
    Lockup,
)
from waitlist.services._shared import (
    HOUSE_MOVE_WHY,
    HOUSE_MOVES,
    end_entry,
    lock_entries,
    locked,
    record_event,
    refuse_if_barred,
    refuse_if_kept_apart,
)
from waitlist.services._steps import (
    close_if_broken_and_empty,
    locked_entry,
    must_be_called,
    release,
    uncall,
)


@retry_on_conflict()
@transaction.atomic
def entry_seat(
    *,
    entry_id: int,
    seat: int | None = None,
    amount: int | None = None,
    method: str | None = None,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> tuple[Entry, SeatSession]:
    """Seat a called player at the table he was called to; he leaves the list.

    A house move (closed table WL3, must-move WL7, seat change WL10) takes his
    whole stack from the seat he leaves, even below the minimum (BI7). A player
    seated in another game moves under BI5 with his stack (capped at the table's
    maximum), or with ``amount`` and ``method`` as the floor says (WL5). A new
    player buys in with ``amount`` and ``method`` (the cash games' services apply
    BI1–BI7, WL6). His other calls go back to waiting; his lockup at the table is
    released. Unless the house moves him, he asks at the seat's door first (PP2–PP4).

    Raises :class:`Refusal` for WL2 (the call ran out), WL7 (barred), WL9 (kept
    apart), PP2–PP4 and the buy-in rules, :class:`Conflict` when the seat is taken
    or he isn't called, :class:`Invalid` when a new player has no amount.
    """
    now = now or timezone.now()
    # Lock and check.
    entry = locked_entry(entry_id, now)
    must_be_called(entry)
    assert entry.call_table is not None and entry.call_seat is not None
    table = cardroom_services.table_get_open(entry.call_table.code, lock=False)
    seat = seat or entry.call_seat
    his_lockups = _check_seat(entry, table, seat, now)
    origin, house = _origin(entry, table)
    if not house:
        door_check(player=entry.player, door=Door.SEAT, at=now)
    # Book: he leaves the seat he had and takes this one.
    session, amount = _sit(
        entry,
        table,
        seat,
        origin=origin,
        house=house,
        amount=amount,
        method=method,
        his_lockups=his_lockups,
        by=by,
        source=source,
        now=now,
    )
    # Record; what he held elsewhere is free again.
    end_entry(
        entry,
        status=Entry.Status.SEATED,
        end=Entry.End.SEATED,
        now=now,
        session=session,
    )
    record_event(
        Event.Kind.SEATED,
        now=now,
        by=by,
        source=source,
        rule={"list": "WL5" if origin else "WL2"}.get(entry.kind, "BI7"),
        reason=_("Sat down in the seat he was called to."),
        details={
            "table": table.code,
            "seat": seat,
            "from": f"{origin.table.code}/{origin.seat}" if origin else None,
            "house_move": house,
            "amount": amount,
            "stack": session.stack_cents,
            "buy_in_kind": session.kind,
        },
        entry=entry,
        table=table,
    )
    _cancel_other_calls(entry, now, by, source)
    if origin is not None and origin.table_id != table.pk:
        close_if_broken_and_empty(origin.table, now, by, source)
    return entry, session


def entry_called_to(*, entry_id: int, table_code: str) -> None:
    """Refuse (:class:`NotFound`) a table's terminal seating an entry that isn't
    called to its table (WL2): another table's call is not its to seat."""
    if not Entry.objects.filter(pk=entry_id, call_table__code=table_code).exists():
        text = _("No call of entry %(e)s to table %(t)s.")
        raise NotFound("not_found", text % {"e": entry_id, "t": table_code})


def _origin(entry: Entry, table: Table) -> tuple[SeatSession | None, bool]:
    """Return where he sits now and whether the floor moves him for the house (BI7).

    Raises :class:`Refusal` (WL6) when he already sits at this table and
    isn't moved within it.
    """
    origin = selectors.open_session(entry.player)
    house = (
        Kind(entry.kind) in HOUSE_MOVES
        and origin is not None
        and origin.pk == entry.from_session_id
        and origin.stack_cents > 0
    )
    if origin is not None and origin.table_id == table.pk and not house:
        raise refuse(
            SharedCode.ALREADY_SEATED, rule="WL6", p=entry.player.code, t=table.code
        )
    return origin, house


def _check_seat(
    entry: Entry, table: Table, seat: int, now: datetime
) -> QuerySet[Lockup]:
    """Refuse a barred player (WL7), a seat taken or held for someone else, a
    table where a player kept apart from him sits (WL9); return his lockups there."""
    assert table.game is not None
    player = entry.player
    refuse_if_barred(player, table.game, now)
    state = selectors.table_state(table)
    his_lockups = Lockup.objects.filter(
        table=table, player=player, released_at__isnull=True
    )
    held_for_him = his_lockups.filter(seat=seat).exists()
    if seat != entry.call_seat and seat not in state.free_seats and not held_for_him:
        raise conflict(SharedCode.SEAT_TAKEN, s=seat)
    refuse_if_kept_apart(player, [p for p in state.seated.values() if p != player.code])
    return his_lockups


def _sit(
    entry: Entry,
    table: Table,
    seat: int,
    *,
    origin: SeatSession | None,
    house: bool,
    amount: int | None,
    method: str | None,
    his_lockups: QuerySet[Lockup],
    by: User | None,
    source: str,
    now: datetime,
) -> tuple[SeatSession, int]:
    """Book the seat through ``cardroom.services``; return his session and the
    amount moved.

    A house move takes his stack as the ledger holds it (BI7); otherwise he leaves
    the seat he had and buys in, with his stack capped at the maximum (BI5 (c))
    when the floor gives no amount. Raises :class:`Invalid` for a player
    who brings no stack and no amount.
    """
    assert table.game is not None
    stack = 0
    if origin is not None and not house:
        stack = origin.stack_cents
        cardroom_services.seat_leave(
            table_code=origin.table.code,
            seat=origin.seat,
            stack=stack,
            source=source,
            by=by,
            now=now,
        )
    if not house and amount is None:
        if stack == 0:
            raise invalid(Code.AMOUNT_REQUIRED)
        top = table.game.max_buy_in_cents
        amount = stack if top is None else min(stack, top)  # BI5 (c): capped
        method = method or StackMovement.Method.CHIPS
    for lockup in locked(his_lockups):
        release(lockup, Lockup.Release.TAKEN, now, by, source, reason=_("He sat down."))
    if house:
        # The floor moves his stack as the ledger holds it, never an amount (BI7).
        assert origin is not None
        session = cardroom_services.seat_move(
            from_table=origin.table.code,
            from_seat=origin.seat,
            to_table=table.code,
            to_seat=seat,
            why=HOUSE_MOVE_WHY[Kind(entry.kind)],
            source=source,
            by=by,
            now=now,
        )
        return session, session.stack_cents
    assert amount is not None
    session = cardroom_services.seat_take(
        table_code=table.code,
        seat=seat,
        player_code=entry.player.code,
        amount=amount,
        method=method or StackMovement.Method.CASH,
        source=source,
        by=by,
        now=now,
    )
    return session, amount


def _cancel_other_calls(
    entry: Entry, now: datetime, by: User | None, source: str
) -> None:
    """He sits down: calls for him elsewhere free their seats (WL6)."""
    for other in lock_entries(
        Entry.objects.filter(player=entry.player, status=Entry.Status.CALLED).exclude(
            pk=entry.pk
        )
    ):
        uncall(
            other,
            now,
            by,
            source,
            rule="WL6",
            reason=_("Seated elsewhere: one seat at a time; he keeps his place."),
        )
