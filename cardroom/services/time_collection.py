"""Time collection: a period's charges from the stacks to revenue (RK6)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting import chart
from accounting.models import Transaction
from accounting.services import Leg, transaction_post
from cardroom.models import SeatSession
from cardroom.services._shared import table_get_open
from core.api.errors import RuleViolation


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
    :class:`RuleViolation` (RK6) for a seat nobody holds or a stack that can't pay.
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
    legs: list[Leg] = []
    total = 0
    for seat, amount in sorted(charges.items()):
        session = sessions.get(seat)
        if session is None or amount <= 0 or amount > session.stack_cents:
            raise RuleViolation(
                _("Seat %(s)d can't pay %(a)d of time.") % {"s": seat, "a": amount},
                code="time_not_payable",
                rule="RK6",
                allowed={"max": session.stack_cents if session else 0},
            )
        legs.append(
            Leg(
                chart.player_stack(player=session.player.code, table=table.code), amount
            )
        )
        session.stack_cents -= amount
        total += amount
    if not legs:
        return []
    legs += [
        Leg(chart.time_revenue(), -total),
        Leg(chart.table_rake_box(table=table.code), total),
        Leg(chart.chip_float(), -total),
    ]
    transaction_post(
        kind="time_collection",
        legs=legs,
        posted_by=by,
        source=source if by is None else "",
        reference=reference,
        external_id=external_id,
        posted_at=now,
    )
    SeatSession.objects.bulk_update(sessions.values(), ["stack_cents"])
    return list(sessions.values())
