"""Pairs of players the house keeps out of the same game (WL9)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from cardroom import services as cardroom_services
from core.errors import SharedCode
from waitlist.errors import NO_SUCH_PAIR, Code, conflict, missing, refuse
from waitlist.models import (
    Event,
    KeptApart,
)
from waitlist.services._shared import (
    record_event,
)


@transaction.atomic
def kept_apart_start(
    *,
    player_codes: tuple[str, str],
    reason: str,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> KeptApart:
    """Keep two players out of the same game from now on (WL9).

    Raises :class:`Refusal` (WL9) for one player twice or a pair kept apart
    already, and (DC2) without a reason.
    """
    now = now or timezone.now()
    a, b = sorted(
        (cardroom_services.player_require(c) for c in player_codes), key=lambda p: p.pk
    )
    if a.pk == b.pk:
        raise refuse(Code.SAME_PLAYER, rule="WL9")
    if not reason.strip():
        raise refuse(SharedCode.REASON_REQUIRED, rule="DC2")
    if KeptApart.objects.filter(player_a=a, player_b=b, ended_at__isnull=True).exists():
        raise refuse(Code.KEPT_APART_ALREADY, rule="WL9")
    pair = KeptApart.objects.create(
        player_a=a, player_b=b, reason=reason, created_at=now, created_by=by
    )
    record_event(
        Event.Kind.KEPT_APART,
        now=now,
        by=by,
        source=source,
        rule="WL9",
        reason=reason,
        details={"players": [a.code, b.code]},
        player=a,
    )
    return pair


@transaction.atomic
def kept_apart_end(
    *,
    pair_id: int,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> KeptApart:
    """Stop keeping a pair apart (WL9). Raises :class:`Conflict` when it ended."""
    now = now or timezone.now()
    pair = KeptApart.objects.select_for_update().filter(pk=pair_id).first()
    if pair is None:
        raise missing(SharedCode.NOT_FOUND, text=NO_SUCH_PAIR)
    if pair.ended_at is not None:
        raise conflict(Code.ENDED)
    pair.ended_at, pair.ended_by = now, by
    pair.save(update_fields=["ended_at", "ended_by"])
    record_event(
        Event.Kind.KEPT_APART_ENDED,
        now=now,
        by=by,
        source=source,
        rule="WL9",
        details={"players": [pair.player_a.code, pair.player_b.code]},
        player=pair.player_a,
    )
    return pair
