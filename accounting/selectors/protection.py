"""What the player-protection API reads (PP1–PP4, PP7): a player's age, his
restrictions and how they ended, the restrictions in force (the door staff's
exclusion list), his identity documents, the settings' versions.

Reads only; the writes and the door check are
:mod:`accounting.services.cage.protection`'s, and whether a restriction holds is
asked of it (:func:`restriction_active`), so the rules are read in one place. No
document's number is read here: only ``document_number_show`` gives it, recording
who was shown it (PP7).
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone

from accounting.domain.protection import age_on
from accounting.models import (
    IdentityDocument,
    Player,
    ProtectionRules,
    Restriction,
    RestrictionEnd,
)
from accounting.services.cage.days import gaming_day_of
from accounting.services.cage.protection import restriction_active

_RELATED = ("player", "set_by", "end", "end__by")


def restrictions_list(*, player: Player) -> list[Restriction]:
    """The player's restrictions, newest first, each with its end if it has one
    (PP3, PP4)."""
    return list(Restriction.objects.filter(player=player).select_related(*_RELATED))


def restrictions_in_force(
    *, player: Player | None = None, at: datetime | None = None
) -> list[Restriction]:
    """The restrictions that hold at ``at`` (now by default), of ``player`` or of
    every player, by player name: who the door staff keep out (PP3, PP4).

    A bar past its last gaming day, or ended by a second manager, is left out by
    the query; whether the rest hold is the rules' to say
    (:func:`~accounting.services.cage.protection.restriction_active`): a self-exclusion
    past its period holds until its lapse has come (PP4).
    """
    at = at or timezone.now()
    rows = (
        Restriction.objects.select_related(*_RELATED)
        .exclude(kind=Restriction.Kind.BAR, until__lte=gaming_day_of(at))
        .exclude(end__kind=RestrictionEnd.Kind.ENDED, end__effective__lte=at)
        .order_by("player__name", "player__code", "-starts", "-id")
    )
    if player is not None:
        rows = rows.filter(player=player)
    return [row for row in rows if restriction_active(row, at=at)]


def player_age(player: Player, *, day: date | None = None) -> int | None:
    """The player's age on ``day`` (today's gaming day by default), as the doors
    count it (PP2); None without a date of birth."""
    if player.birth_date is None:
        return None
    return age_on(player.birth_date, day or gaming_day_of())


def documents_of(*, player: Player) -> list[IdentityDocument]:
    """The identity documents checked for ``player``, latest first (PP1)."""
    rows = IdentityDocument.objects.filter(player=player)
    return list(rows.select_related("player", "checked_by"))


def protection_settings_versions() -> list[ProtectionRules]:
    """Every recorded version of the protection settings, latest first (PP2,
    PP4); empty while the project's defaults are in force."""
    rows = ProtectionRules.objects.select_related("created_by")
    return list(rows.order_by("-version"))
