"""Sweeps that qualify the hands booked since the last one, and the hands whose
qualification was missed (BB1, HM1).
"""

from __future__ import annotations

from datetime import datetime

from django.db import OperationalError, transaction
from django.db.models import Exists, OuterRef

from accounting.services import retry_on_conflict
from cardroom.models import Hand, Room
from jackpots.models import (
    QualifiedHand,
    SweepCursor,
)
from jackpots.services._shared import log, now_or_current
from jackpots.services.qualification import (
    HandFailed,
    hand_qualify,
    hands_qualify_batch,
)


def _qualify_each(hand_ids: list[int], now: datetime | None) -> None:
    """Qualify the hands one at a time, each in its own savepoint: one that fails
    is logged and left for :func:`hands_qualify_missed`."""
    for hand_id in hand_ids:
        try:
            hand_qualify(hand_id=hand_id, now=now)
        except OperationalError:
            raise  # a deadlock or a lost connection: the whole sweep again
        except Exception:  # one bad hand must not hold back the room's jackpots
            log.exception("jackpots.sweep.hand_failed", hand=hand_id)


def _qualify_all(hand_ids: list[int], now: datetime | None) -> None:
    """Qualify the hands as one batch; a hand that fails is logged, put aside and
    left for :func:`hands_qualify_missed`, and the others are qualified again
    without it.

    The batch is its own savepoint, so a failure leaves nothing of it. A hand's
    failure is its own: the batch runs again without that hand, a few statements
    more and the same rows as qualifying hand by hand. A failure that names no
    hand (the batch's shared reads or writes) makes the sweep qualify its hands
    one at a time, as before the batches: slower, and no hand lost (BB1, HM1).
    Not a savepoint a hand: two statements more a hand for a failure that is rare
    would undo what the batch saves (issue 16).
    """
    todo = list(hand_ids)
    while todo:
        try:
            hands_qualify_batch(hand_ids=todo, now=now)
            return
        except OperationalError:
            raise  # a deadlock or a lost connection: the whole sweep again
        except HandFailed as failed:  # one bad hand must not hold back the others
            log.exception("jackpots.sweep.hand_failed", hand=failed.hand_id)
            todo.remove(failed.hand_id)
        except Exception:
            log.exception("jackpots.sweep.batch_failed", hands=len(todo))
            _qualify_each(todo, now)
            return


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
        hand_qualify(hand_id=hand_id)
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
    :func:`hand_qualify` does nothing twice). The hands are qualified as one batch
    (:func:`hands_qualify_batch`), in a fixed number of statements (issue 16). One
    hand that fails is logged and left for :func:`hands_qualify_missed`; the
    others go on.
    """
    cursor, _created = SweepCursor.objects.select_for_update().get_or_create(name=SWEEP)
    ids = list(
        Hand.objects.filter(pk__gt=max(cursor.last_hand_id - SWEEP_LOOKBACK, 0))
        .exclude(Exists(QualifiedHand.objects.filter(hand_id=OuterRef("pk"))))
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    _qualify_all(ids, now)
    cursor.last_hand_id = max([cursor.last_hand_id, *ids])
    cursor.swept_at = now_or_current(now)
    cursor.save(update_fields=["last_hand_id", "swept_at"])
    return len(ids)
