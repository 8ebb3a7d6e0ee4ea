"""Awards held for restricted players until a manager decides (PP6)."""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.domain import cage_postings
from accounting.domain import protection as rules
from accounting.errors import conflict
from accounting.models import AwardDecision, Payable, Player, Restriction
from accounting.services.cage.days import gaming_day_of
from accounting.services.cage.protection import (
    Door,
    Settings,
    protection_settings,
    restrictions_of,
)
from accounting.services.posting import plan_post
from core.errors import SharedCode


def held_awards(*, at: datetime | None = None) -> list[tuple[Payable, Restriction]]:
    """The open awards held now, each with the restriction that holds it (PP6),
    oldest first; those a manager decided to pay are no longer held."""
    at = at or timezone.now()
    day = gaming_day_of(at)
    config = protection_settings()
    found = []
    payables = (
        Payable.objects.filter(
            status=Payable.Status.OPEN, player__restrictions__isnull=False
        )
        .exclude(decision__isnull=False)
        .select_related("player")
        .distinct()
        .order_by("created_at", "id")
    )
    for payable in payables:
        holding = _holding(payable.player, at=at, day=day, config=config)
        if holding is not None:
            found.append((payable, holding))
    return found


def _holding(
    player: Player,
    *,
    at: datetime,
    day: date,
    config: Settings,
    door: Door = Door.AWARD,
) -> Restriction | None:
    """The restriction that holds the player's awards (or prizes, ``door``) now,
    or None (PP6)."""
    held = rules.held(
        door=door,
        restrictions=restrictions_of(player),
        at=at,
        day=day,
        cooling_off=config.cooling_off,
    )
    if held is None:
        return None
    return Restriction.objects.get(pk=int(str(held.params["restriction"])))


@transaction.atomic
def held_award_decide(
    *,
    payable: Payable,
    decision: str,
    reason: str,
    by: User,
    door: Door = Door.AWARD,
) -> AwardDecision:
    """A manager's decision on an award held for a restricted player (PP6).

    ``pay``: the cage pays it to him after all (CA6 still asks his identity and
    signature). ``forfeit``: it moves out of awards payable into forfeited
    awards, a liability until it goes where the licence says, and the award is
    closed. ``door``: what it is, an award or a tournament prize. Raises 409
    ``not_held`` when the award isn't held (paid, decided,
    or its player no longer restricted).
    """
    locked = (
        Payable.objects.select_for_update().select_related("player").get(pk=payable.pk)
    )
    now = timezone.now()
    holding = None
    if locked.status == Payable.Status.OPEN and not decided(locked):
        holding = _holding(
            locked.player,
            at=now,
            day=gaming_day_of(now),
            config=protection_settings(),
            door=door,
        )
    if holding is None:
        raise conflict(SharedCode.NOT_HELD, rule="PP6", ref=locked.reference)
    booking = None
    if decision == AwardDecision.Decision.FORFEIT:
        booking = plan_post(
            cage_postings.award_forfeit_plan(cents=locked.amount_cents),
            currency=locked.currency,
            posted_by=by,
            reference=locked.reference[:120],
            memo=reason,
        )
        Payable.objects.filter(pk=locked.pk).update(
            status=Payable.Status.FORFEITED, paid_at=now
        )
    return AwardDecision.objects.create(
        payable=locked,
        decision=decision,
        held_by=holding,
        reason=reason,
        by=by,
        booking=booking,
    )


def decided(payable: Payable) -> bool:
    """Whether a manager decided on ``payable`` already (PP6)."""
    return AwardDecision.objects.filter(payable=payable).exists()
