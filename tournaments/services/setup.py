"""Setting an event up from nothing: its blind structure, the event with its money
and rule settings, its tables and its payout table (TO1, TO7, TO8, TO11, TO12).

A director (the floor or a manager) does it through the API before the event; what
may change afterwards follows what the players entered under:

- a structure's levels are replaced whole while no event using it has started;
  once one has (its status, or its clock), they are fixed (TO12), and a changed
  structure is a new one under another code;
- an event's prices (buy-in, fees, bounty, starting stack) are fixed once an entry
  is sold, every other setting once the event has started, except its name and
  how its prizes are rounded and paid, which stay open until the payout sheet is
  prepared (TO1, TO7, TO9); nothing changes once it is over;
- its payout table until the payout sheet is prepared (TO7, TO9).

The event is tracked by django-pghistory; each change here runs in a history
context naming the staff member and the use case, so its history says who did it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import pghistory
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max

from cardroom.models import Room
from cardroom.models import Table as CashTable
from cardroom.services.tables import room_default
from tournaments import selectors
from tournaments.domain.setup import (
    RESERVED_EVENT_CODES,
    LevelSpec,
    payout_table_check,
    settings_check,
    settings_locked,
    structure_check,
)
from tournaments.errors import Code, conflict, missing, refuse
from tournaments.models import (
    Entry,
    Event,
    EventTable,
    Level,
    PayoutSheet,
    Structure,
)
from tournaments.services._shared import event_locked

SETTINGS = (
    "buy_in_cents",
    "fee_cents",
    "staff_fee_cents",
    "bounty_kind",
    "bounty_cents",
    "starting_stack",
    "late_registration_level",
    "reentry_max",
    "rebuy_max",
    "rebuy_until_level",
    "rebuy_stack_limit",
    "rebuy_cents",
    "rebuy_fee_cents",
    "rebuy_chips",
    "addon_level",
    "addon_cents",
    "addon_fee_cents",
    "addon_chips",
    "guarantee_cents",
    "payout_unit_cents",
    "payout_remainder",
    "tax_document_threshold_cents",
)
"""An event's money and rule settings, by the model's field names (TO1, TO7–TO9)."""

EDITABLE = (*SETTINGS, "name", "starts_at", "structure", "satellite_target")
"""What :func:`event_settings_update` takes: the settings, the name, the start,
the structure's code and the satellite's target event's code (or ``None``)."""


def _who(by: User, action: str) -> pghistory.context:
    return pghistory.context(user=by.pk, username=by.get_username(), action=action)


def _levels_write(structure: Structure, levels: Sequence[LevelSpec]) -> None:
    Level.objects.bulk_create(
        Level(
            structure=structure,
            number=number,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            big_blind_ante=level.big_blind_ante,
            minutes=level.minutes,
            is_break=level.is_break,
            retire_denomination=level.retire_denomination,
        )
        for number, level in enumerate(levels, start=1)
    )


@transaction.atomic
def structure_create(
    *, code: str, name: str, levels: Sequence[LevelSpec], by: User
) -> Structure:
    """Create a blind structure with its levels numbered 1…n in order (TO12).
    ``by`` is taken for the record's sake; a structure keeps no author (its model
    has no field for one).

    Raises :class:`Refusal` (TO12/TO6) for levels the clock can't run,
    :class:`Conflict` when the code is taken.
    """
    structure_check(levels)
    if Structure.objects.filter(code=code).exists():
        raise conflict(Code.STRUCTURE_EXISTS, code=code)
    try:
        with transaction.atomic():
            structure = Structure.objects.create(code=code, name=name)
    except IntegrityError as error:
        raise conflict(Code.STRUCTURE_EXISTS, code=code) from error
    _levels_write(structure, levels)
    return structure


@transaction.atomic
def structure_update(
    *, structure: Structure, name: str, levels: Sequence[LevelSpec], by: User
) -> Structure:
    """Replace a structure's name and levels while no event using it has started
    (TO12). Every scheduled event using it must still find its late registration,
    rebuy and add-on levels in it (TO1).

    Raises :class:`Conflict` (TO12) once an event using it has started,
    :class:`Refusal` for levels that can't be run or that an event needs.
    """
    structure_check(levels)
    structure = Structure.objects.select_for_update().get(pk=structure.pk)
    using = list(
        Event.objects.select_for_update().filter(structure=structure).order_by("code")
    )
    started = selectors.structure_started_by(structure=structure)
    if started is not None:
        raise conflict(
            Code.STRUCTURE_IN_USE, rule="TO12", event=started.code, code=structure.code
        )
    for event in using:
        needed = max(
            event.late_registration_level,
            event.rebuy_until_level,
            event.addon_level or 0,
        )
        if needed > len(levels):
            raise refuse(
                Code.STRUCTURE_TOO_SHORT,
                rule="TO1",
                allowed={"levels": {"min": needed}},
                event=event.code,
                level=needed,
                levels=len(levels),
            )
    Structure.objects.filter(pk=structure.pk).update(name=name)
    Level.objects.filter(structure=structure).delete()
    _levels_write(structure, levels)
    structure.refresh_from_db()
    return structure


def _structure(code: str) -> Structure:
    found = Structure.objects.filter(code=code).first()
    if found is None:
        raise missing(Code.NO_SUCH_STRUCTURE, code=code)
    return found


def _satellite_target(code: str, *, currency: str, own: str) -> Event:
    target = Event.objects.filter(code=code).first()
    if (
        target is None
        or target.code == own
        or target.currency != currency
        or target.status not in (Event.Status.SCHEDULED, Event.Status.RUNNING)
    ):
        raise refuse(Code.SATELLITE_TARGET_INVALID, rule="TO7", code=code)
    return target


def _defaults() -> dict[str, Any]:
    fields = {f.name: f for f in Event._meta.concrete_fields}
    return {name: fields[name].get_default() for name in SETTINGS}


@transaction.atomic
def event_create(
    *,
    code: str,
    name: str,
    structure: str,
    starts_at: datetime,
    settings: Mapping[str, Any],
    by: User,
    room: str | None = None,
    currency: str | None = None,
    satellite_target: str | None = None,
    payout_table: Sequence[tuple[int, Sequence[int]]] | None = None,
) -> Event:
    """Create a scheduled event with its money and rule settings (``settings``:
    the model's names of :data:`SETTINGS`; absent ones take the model's defaults),
    in ``room`` (the room by default) and its currency unless ``currency`` says
    otherwise, recording who created it.

    Raises :class:`Refusal` for settings that can't be played (TO1, TO7,
    TO8) or a payout table that can't be paid (TO7), :class:`NotFound` for
    an unknown structure or room, :class:`Conflict` when the code is taken.
    """
    if code.lower() in RESERVED_EVENT_CODES:
        raise refuse(Code.EVENT_CODE_RESERVED, code=code)
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise TypeError(f"not an event setting: {sorted(unknown)}")
    found = _structure(structure)
    values = {**_defaults(), **settings}
    settings_check(values, levels=found.levels.count())
    table = payout_table_check(payout_table) if payout_table else ()
    if room is None:
        the_room = room_default()
    else:
        the_room = Room.objects.filter(code=room).first() or _no_room(room)
    currency = currency or the_room.currency
    target = (
        _satellite_target(satellite_target, currency=currency, own=code)
        if satellite_target
        else None
    )
    if Event.objects.filter(code=code).exists():
        raise conflict(Code.EVENT_EXISTS, code=code)
    try:
        with transaction.atomic(), _who(by, "event_create"):
            event = Event.objects.create(
                room=the_room,
                code=code,
                name=name,
                currency=currency,
                structure=found,
                starts_at=starts_at,
                satellite_target=target,
                payout_table=_rows_json(table),
                created_by=by,
                **values,
            )
    except IntegrityError as error:
        raise conflict(Code.EVENT_EXISTS, code=code) from error
    return event


def _no_room(code: str) -> Room:
    raise missing(Code.NO_SUCH_ROOM, code=code)


def _rows_json(
    table: Sequence[tuple[int, Sequence[int]]],
) -> list[dict[str, Any]]:
    return [{"min_entries": n, "shares": list(shares)} for n, shares in table]


def _current(event: Event) -> dict[str, Any]:
    values = {name: getattr(event, name) for name in SETTINGS}
    values["name"] = event.name
    values["starts_at"] = event.starts_at
    values["structure"] = event.structure.code
    target = event.satellite_target
    values["satellite_target"] = target.code if target is not None else None
    return values


def _over(event: Event) -> bool:
    return event.status in (Event.Status.FINISHED, Event.Status.CANCELLED)


@transaction.atomic
def event_settings_update(
    *, event: Event, changes: Mapping[str, Any], by: User
) -> Event:
    """Change an event's settings (``changes``: names of :data:`EDITABLE`), as far
    as the players' terms allow: no prices once an entry is sold, only the name and
    the prizes' rounding and tax threshold after the start, nothing once the payout
    sheet is prepared or the event is over (TO1, TO7, TO9). A value equal to the
    current one is no change.

    Raises :class:`Conflict` naming the settings that can't change now as
    the API names them (``allowed: {"locked": ["buy_in"]}``) and why,
    :class:`Refusal` for settings that can't be played.
    """
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise TypeError(f"not an event setting: {sorted(unknown)}")
    event = event_locked(event)
    current = _current(event)
    changed = {k for k, v in changes.items() if current[k] != v}
    if not changed:
        return event
    if _over(event):
        raise conflict(
            Code.SETTINGS_LOCKED,
            text="over",
            rule="TO1",
            code=event.code,
            status=event.get_status_display(),
        )
    sheet = PayoutSheet.objects.filter(event=event).exists()
    started = selectors.event_started(event=event)
    sold = (
        Entry.objects.filter(event=event).exclude(status=Entry.Status.REFUNDED).exists()
    )
    locked = settings_locked(changed, started=started, sold=sold, sheet=sheet)
    if locked:
        # Named as the API names them: money without its "_cents".
        locked = [name.removesuffix("_cents") for name in locked]
        why = "sheet" if sheet else "started" if started else None
        raise conflict(
            Code.SETTINGS_LOCKED,
            text=None if why is None else why,
            rule="TO7" if sheet else "TO1",
            allowed={"locked": locked},
            fields=", ".join(locked),
        )
    values = {**current, **{k: changes[k] for k in changed}}
    structure = (
        _structure(values["structure"]) if "structure" in changed else event.structure
    )
    settings_check(values, levels=structure.levels.count())
    update: dict[str, Any] = {k: values[k] for k in changed if k in SETTINGS}
    for name in ("name", "starts_at"):
        if name in changed:
            update[name] = values[name]
    if "structure" in changed:
        update["structure"] = structure
    if "satellite_target" in changed:
        code = values["satellite_target"]
        update["satellite_target"] = (
            _satellite_target(code, currency=event.currency, own=event.code)
            if code
            else None
        )
    with _who(by, "event_settings_update"):
        for name, value in update.items():
            setattr(event, name, value)
        event.save(update_fields=list(update))
    event.refresh_from_db()
    return event


@transaction.atomic
def event_table_add(
    *,
    event: Event,
    table: str,
    seats: int = 9,
    break_order: int | None = None,
    by: User,
) -> EventTable:
    """Add a table to an event that isn't over, broken in ``break_order`` (the next
    after the last by default; TO11). A table plays one running event at a time,
    and a running event doesn't take a cash table that is open.

    Raises :class:`Conflict` for a table the event has, a breaking place
    taken, a table in play elsewhere or an event that is over.
    """
    event = event_locked(event)
    if _over(event):
        raise conflict(
            Code.EVENT_CLOSED,
            rule="TO1",
            code=event.code,
            status=event.get_status_display(),
        )
    tables = EventTable.objects.filter(event=event)
    if tables.filter(table=table).exists():
        raise conflict(Code.EVENT_TABLE_EXISTS, table=table, event=event.code)
    if break_order is None:
        break_order = (tables.aggregate(top=Max("break_order"))["top"] or 0) + 1
    else:
        taken = tables.filter(break_order=break_order).first()
        if taken is not None:
            raise conflict(
                Code.BREAK_ORDER_TAKEN,
                rule="TO11",
                table=taken.table,
                order=break_order,
            )
    other = (
        EventTable.objects.filter(
            table=table,
            status=EventTable.Status.OPEN,
            event__status=Event.Status.RUNNING,
        )
        .exclude(event=event)
        .select_related("event")
        .first()
    )
    if other is not None:
        raise conflict(
            Code.TABLE_IN_PLAY, rule="TO11", table=table, other=other.event.code
        )
    if event.status == Event.Status.RUNNING:
        cash = CashTable.objects.filter(code=table, status="open").first()
        if cash is not None:
            raise conflict(
                Code.TABLE_IN_PLAY,
                rule="TO11",
                table=table,
                other=cash.name or cash.code,
            )
    with _who(by, "event_table_add"):
        return EventTable.objects.create(
            event=event, table=table, seats=seats, break_order=break_order
        )


@transaction.atomic
def payout_table_set(
    *, event: Event, rows: Sequence[tuple[int, Sequence[int]]], by: User
) -> Event:
    """Set the event's payout table (``rows`` of ``(min_entries, shares)``; none
    for the default table) until its payout sheet is prepared (TO7, TO9).

    Raises :class:`Refusal` (TO7) for a table that can't be paid,
    :class:`Conflict` once the payout sheet exists or the event is over.
    """
    table = payout_table_check(rows) if rows else ()
    event = event_locked(event)
    if PayoutSheet.objects.filter(event=event).exists():
        raise conflict(Code.PAYOUT_TABLE_FIXED, rule="TO9", event=event.code)
    if _over(event):
        raise conflict(
            Code.SETTINGS_LOCKED,
            text="over",
            rule="TO1",
            code=event.code,
            status=event.get_status_display(),
        )
    with _who(by, "payout_table_set"):
        event.payout_table = _rows_json(table)
        event.save(update_fields=["payout_table"])
    return event


__all__ = [
    "EDITABLE",
    "SETTINGS",
    "event_create",
    "event_settings_update",
    "event_table_add",
    "payout_table_set",
    "structure_create",
    "structure_update",
]
