"""Reads for the manager's player-protection screens (PP1–PP7): a player's
identity documents and the history of his identity data, the earliest end of a
self-exclusion, and the awards held for restricted players with the managers'
decisions on them (PP6). What the cage sees too is
:mod:`staff.common.protection`.

The rules are :mod:`accounting.domain.protection`'s and the settings
:func:`accounting.services.cage.protection.protection_settings`'; here they are put
together for a page. A document's number is never read here: only
:func:`accounting.services.cage.protection.document_number_show` gives it, recording who
was shown it (PP7).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from accounting.domain.protection import self_exclusion_shortest
from accounting.models import (
    AwardDecision,
    IdentityDocument,
    Payable,
    Player,
    PlayerChange,
    Restriction,
)
from accounting.services.cage import gaming_day_of, held_awards, protection_settings
from staff.common.protection import RestrictionRow, restriction_row


def documents_of(player: Player) -> list[IdentityDocument]:
    """The player's checked documents, newest first, with who looked at their
    numbers (PP7)."""
    return list(
        IdentityDocument.objects.filter(player=player)
        .select_related("checked_by")
        .prefetch_related("lookups__by")
    )


def changes_of(player: Player) -> list[PlayerChange]:
    """The history of the player's identity data, newest first (PP7)."""
    return list(
        PlayerChange.objects.filter(player=player)
        .select_related("by")
        .order_by("-at", "-id")
    )


def self_exclusion_earliest() -> date:
    """The earliest end a self-exclusion asked for today may have (PP4)."""
    days = protection_settings().min_self_exclusion_days
    return self_exclusion_shortest(day=gaming_day_of(), min_days=days)


@dataclass(frozen=True, slots=True)
class HeldAward:
    """An award held now for a restricted player, with the restriction that
    holds it (PP6)."""

    payable: Payable
    holding: RestrictionRow


def held_award_rows() -> list[HeldAward]:
    """The awards held now, oldest first, each with the restriction holding it
    and that restriction's state (PP6)."""
    return [HeldAward(p, restriction_row(r)) for p, r in held_awards()]


def held_award_of(payable: Payable) -> HeldAward | None:
    """``payable`` as it is held now, or None when it isn't (paid, decided, or
    its player no longer restricted, PP6)."""
    return next((h for h in held_award_rows() if h.payable.pk == payable.pk), None)


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """A manager's decision on a held award (PP6), with the restriction that
    held it as ``_said.html`` says it."""

    decision: AwardDecision

    @property
    def restriction(self) -> Restriction:
        return self.decision.held_by

    @property
    def bar(self) -> bool:
        return self.decision.held_by.kind == Restriction.Kind.BAR


def award_decisions(*, limit: int = 50) -> list[DecisionRow]:
    """The latest ``limit`` decisions on held awards, newest first (PP6)."""
    rows = AwardDecision.objects.select_related(
        "payable__player", "held_by", "by"
    ).order_by("-at", "-id")
    return [DecisionRow(d) for d in rows[:limit]]
