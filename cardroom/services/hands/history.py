"""A booked hand read back as a PHH hand history (``GET …/hands/{no}.phh``)."""

from __future__ import annotations

from cardroom.domain.phh import to_phh
from cardroom.errors import Code
from cardroom.models import Hand
from core.errors import NotFound
from core.errors import gettext_noop as _


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
