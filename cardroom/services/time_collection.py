"""Time collection: a period's charges from the stacks to revenue (RK6)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.models import Transaction
from accounting.services import plan_post
from cardroom.domain import postings
from cardroom.models import SeatSession
from cardroom.services.tables import table_get_open


@transaction.atomic
def seat_time_charge(
    *,
    table_code: str,
    charges: dict[int, int],
    reference: str,
    source: str = "",
    by: User | None = None,
    now: datetime | None = None,
) -> list[SeatSession]:
    """Book a period's time collection: ``charges`` maps seats to cents (RK6).

    One ledger transaction from the seats' stacks to time-collection revenue, with
    ``reference`` naming the period (a retry of the same period books nothing new).
    Who pays is decided by the caller from the game's waiting list. Raises
    :class:`Refusal` (RK6) for a seat nobody holds or a stack that can't pay.
    """
    now = now or timezone.now()
    table = table_get_open(table_code)
    external_id = f"time:{table.code}:{reference}"
    if Transaction.objects.filter(external_id=external_id).exists():
        return []  # this period was collected already; a retry changes nothing
    sessions = {
        s.seat: s
        for s in SeatSession.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(table=table, ended_at__isnull=True, seat__in=list(charges))
    }
    plan = postings.time_collection(
        table=table.code,
        charges=charges,
        seats={n: (s.player.code, s.stack_cents) for n, s in sessions.items()},
    )
    if not plan.legs:
        return []
    for seat, amount in charges.items():
        sessions[seat].stack_cents -= amount
    plan_post(
        plan,
        posted_by=by,
        source=source if by is None else "",
        reference=reference,
        external_id=external_id,
        posted_at=now,
    )
    SeatSession.objects.bulk_update(sessions.values(), ["stack_cents"])
    return list(sessions.values())
