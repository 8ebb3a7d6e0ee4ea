"""Sweeps that qualify the hands booked since the last one, and the hands whose
qualification was missed (BB1, HM1).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import OperationalError, transaction
from django.db.models import Exists, OuterRef

from accounting.services import retry_on_conflict
from cardroom.models import Hand, Room
from jackpots.models import (
    QualifiedHand,
    SweepCursor,
)
from jackpots.services._shared import _now, log


def _qualify(*, hand_id: int, now: datetime | None = None) -> Any:
    """:func:`jackpots.services.hand_qualify`, looked up when called (a test may
    replace it there)."""
    from jackpots import services

    return services.hand_qualify(hand_id=hand_id, now=now)


def hands_qualify_missed(
    *, since: datetime, until: datetime | None = None, room: Room | None = None
) -> int:
    """Qualify the booked hands that ended in ``[since, until)`` and were never
    looked at (their task lost with a broker down); return how many.

    Each hand in its own transaction, in the order they ended.
    """
    hands = Hand.objects.filter(ended_at__gte=since).exclude(
        Exists(QualifiedHand.objects.filter(hand_id=OuterRef("pk")))
    )
    if until is not None:
        hands = hands.filter(ended_at__lt=until)
    if room is not None:
        hands = hands.filter(table__room=room)
    count = 0
    for hand_id in hands.order_by("ended_at", "pk").values_list("pk", flat=True):
        _qualify(hand_id=hand_id)
        count += 1
    return count


SWEEP = "hands"


SWEEP_BATCH = 500


"""The most hands one sweep qualifies in its transaction; the task sweeps again
until fewer are left."""


SWEEP_LOOKBACK = 1_000


"""How many ids below the cursor each sweep looks at again. Ids are drawn when a
hand is inserted, not when it commits: a booking that commits after a later one
is found here, and ``hands_qualify_missed`` (every five minutes, two days back)
catches what is slower still."""


@retry_on_conflict()
@transaction.atomic
def hands_qualify_new(*, limit: int = SWEEP_BATCH, now: datetime | None = None) -> int:
    """Qualify the hands booked since the sweep's cursor, in one transaction, in id
    order; return how many (BB1, HM1).

    The cursor row is locked first, so sweeps run one at a time, and moved in the
    same transaction: a sweep that fails leaves it and its hands as they were, and
    the next one does them again. Hands already qualified are left out (and
    :func:`hand_qualify` does nothing twice). One hand that fails is logged and
    left for :func:`hands_qualify_missed`; the others go on.
    """
    cursor, _created = SweepCursor.objects.select_for_update().get_or_create(name=SWEEP)
    ids = list(
        Hand.objects.filter(pk__gt=max(cursor.last_hand_id - SWEEP_LOOKBACK, 0))
        .exclude(Exists(QualifiedHand.objects.filter(hand_id=OuterRef("pk"))))
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    for hand_id in ids:
        try:
            _qualify(hand_id=hand_id, now=now)
        except OperationalError:
            raise  # a deadlock or a lost connection: the whole sweep again
        except Exception:  # one bad hand must not hold back the room's jackpots
            log.exception("jackpots.sweep.hand_failed", hand=hand_id)
    cursor.last_hand_id = max([cursor.last_hand_id, *ids])
    cursor.swept_at = _now(now)
    cursor.save(update_fields=["last_hand_id", "swept_at"])
    return len(ids)
