"""A hand record's checks before it is booked, for ``POST hands`` and its preview:
the table it names, its hash (a repeat is told from a conflict by it), its times,
its game, its number and the engine's settlement (HS9, HS-P1, BI8). Pure of the
database: the booking (:mod:`.record`) and the preview (:mod:`.preview`) read what
they check against, under a lock or not.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounting.domain.gaming_day import gaming_day_start
from cardroom.domain.hand_limits import check_hand_no, check_hand_times
from cardroom.domain.hand_record import HandRecord, parse_hand
from cardroom.domain.hand_record import Policy as Rules
from cardroom.domain.settlement import Settlement, settle
from cardroom.errors import Code, conflict, invalid, refuse, unprocessable
from cardroom.models import Table
from core.errors import Invalid
from core.errors import gettext_noop as _


def record_fingerprint(record: dict[str, Any]) -> str:
    """The record's hash, by which a repeat is told from a conflict."""
    return hashlib.sha256(
        json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def record_for_table(record: dict[str, Any], table_code: str) -> dict[str, Any]:
    """The record, naming the table it was posted for; refuse another (422: a
    record its schema allows, contradicting its path)."""
    if record.get("table") not in (None, table_code):
        raise unprocessable(
            Code.WRONG_TABLE,
            allowed={"table": table_code},
            r=record.get("table"),
            t=table_code,
        )
    return {**record, "table": table_code}


def record_time(value: str | None, fallback: datetime) -> datetime:
    """The record's time ``value``, aware; ``fallback`` when it has none."""
    parsed = _iso_time(value) if value else None
    if parsed is None:
        return fallback
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)


def record_settled(
    table: Table,
    record: dict[str, Any],
    policy: Rules,
    last: int | None,
    now: datetime,
) -> tuple[HandRecord, Settlement]:
    """Parse and settle a new hand of ``table`` after its hand ``last`` (HS9,
    HS-P1, BI8; the engine's parser is the record's only check, API.md "Hand
    record").

    Raises the engine's refusals (400, 422), :class:`Conflict` for a number at or
    below ``last`` and the refusals of :func:`check_hand_no` and
    :func:`check_hand_times`.
    """
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
    _envelope_check(parsed)
    settlement = settle(parsed, policy)
    if last is not None and parsed.hand_no <= last:
        raise conflict(Code.HAND_OUT_OF_ORDER, n=last)
    _limits_check(table, parsed, last, now)
    return parsed, settlement


def _envelope_check(parsed: HandRecord) -> None:
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
    """``value`` as a time, or ``None`` when it is no ISO 8601 time."""
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def _limits_check(
    table: Table, parsed: HandRecord, last: int | None, now: datetime
) -> None:
    """Refuse a hand numbered too far ahead (HS-P1) or timed outside the table's
    open gaming day (BI8); see cardroom.domain.hand_limits."""
    assert table.room is not None
    check_hand_no(parsed.hand_no, last)
    day = table.gaming_day or table.room.gaming_day(now)
    check_hand_times(
        started_at=record_time(parsed.started_at, now) if parsed.started_at else None,
        ended_at=record_time(parsed.ended_at, now) if parsed.ended_at else None,
        day_start=gaming_day_start(
            day, table.room.tz, table.room.gaming_day_cutoff_hour
        ),
        now=now,
    )
