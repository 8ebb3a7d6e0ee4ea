"""Hands: settled and booked on the ledger's stacks (HS6, HS7), read back as PHH.

A table's hands are booked together (``_booking``): the table locked, what its
hands need read in one statement, each hand settled and planned in memory from
the stacks the one before it left, and every row of every hand (the ledger
transactions and their entries, the hands, their seats and exceptions, the
sessions' stacks) written in one statement (``_hand_sql``,
:mod:`accounting.bulk`). One hand posted alone is a booking of one; ``POST
hands/batch`` books its hands in one booking. The statements' round trips, not
the work, were most of a hand's cost (benchmarks/README.md, "One statement a
booking").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.utils import timezone

from cardroom.domain.phh import to_phh
from cardroom.errors import Code
from cardroom.models import Hand, TerminalKey
from cardroom.services._booking import Booked, _book
from core.errors import ApplicationError, NotFound
from core.errors import gettext_noop as _
from core.work import retried

__all__ = ["Booked", "hand_phh", "hand_record", "hands_record"]


@retried()
@transaction.atomic
def hands_record(
    *,
    table_code: str,
    records: Sequence[dict[str, Any]],
    source: str = "",
    by: User | None = None,
    key: TerminalKey | None = None,
    now: datetime | None = None,
) -> list[Booked]:
    """Validate, settle and book ``records``, hands of one table, in order; return
    each one's :class:`Booked`: the hand and whether it is new, or its refusal.

    Each hand is checked and booked as :func:`hand_record` books it alone, on the
    stacks the hands before it left; a refused hand (its :class:`ApplicationError`
    in its ``Booked``) changes nothing and the others book. All of them are
    written in one database transaction. Should the database refuse what the
    checks let through, each hand is booked again on its own (a savepoint each),
    so the refusal is its hand's alone. Raises as :func:`hand_record` for the
    table itself (unknown, closed, without a policy).
    """
    now = now or timezone.now()
    if len(records) < 2:
        return _book(
            table_code, records, source=source, by=by, key=key, now=now, last=True
        )
    try:
        with transaction.atomic():
            return _book(table_code, records, source=source, by=by, key=key, now=now)
    except DatabaseError:
        pass
    done: list[Booked] = []
    for record in records:
        try:
            with transaction.atomic():
                done += _book(
                    table_code, [record], source=source, by=by, key=key, now=now
                )
        except ApplicationError as error:
            done.append(Booked(error=error))
    return done


def hand_record(
    *,
    table_code: str,
    record: dict[str, Any],
    source: str = "",
    by: User | None = None,
    key: TerminalKey | None = None,
    now: datetime | None = None,
) -> tuple[Hand, bool]:
    """Validate, settle and book a hand; return it and whether it is new.

    The natural key ``(table, hand_no)`` makes a repeat return the first booking;
    another record with the same number is a :class:`Conflict`. The table row is
    locked for the booking, so hands of one table book one after another. The hand
    books on the ledger's stacks (:func:`cardroom.domain.postings.hand`, HS6, HS7).
    Raises the engine's refusals (400/422) for a record it can't settle.
    """
    (booked,) = hands_record(
        table_code=table_code,
        records=[record],
        source=source,
        by=by,
        key=key,
        now=now,
    )
    if booked.error is not None:
        raise booked.error
    assert booked.hand is not None
    return booked.hand, booked.created


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
