"""What the cage and the manager see of a player's protection (PP1–PP4): his age
on the gaming day, his restrictions with their state and his valid identity
document at a glance, and the flags the player search marks him with.

The rules are :mod:`accounting.domain.protection`'s and the settings
:func:`accounting.services.cage.protection.protection_settings`'; here they are put
together for a page. A document's number is never read here: only
:func:`accounting.services.cage.protection.document_number_show` gives it, recording who
was shown it (PP7).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from django.utils import timezone

from accounting.domain.protection import (
    age_on,
    document_valid_on,
)
from accounting.models import (
    IdentityDocument,
    Player,
    Restriction,
    RestrictionEnd,
)
from accounting.services.cage import (
    gaming_day_of,
    protection_settings,
    restriction_active,
    restriction_end_of,
)


class State(StrEnum):
    """Where a restriction stands (PP3, PP4)."""

    IN_FORCE = "in_force"  # a bar or a self-exclusion that holds
    ENDED = "ended"  # a bar ended early by a second manager (PP3)
    OVER = "over"  # a bar whose period ran out
    PERIOD_OVER = "period_over"  # a self-exclusion past its period, no lapse asked
    LAPSING = "lapsing"  # the player asked; the cooling-off time runs (PP4)
    LAPSED = "lapsed"  # asked and cooled off


@dataclass(frozen=True, slots=True)
class RestrictionRow:
    """A restriction as the screens show it: the record, how it ended (if it
    did) and where it stands now."""

    restriction: Restriction
    end: RestrictionEnd | None
    state: State

    @property
    def active(self) -> bool:
        return self.state in (State.IN_FORCE, State.PERIOD_OVER, State.LAPSING)

    @property
    def bar(self) -> bool:
        return self.restriction.kind == Restriction.Kind.BAR

    @property
    def can_end(self) -> bool:
        """A bar in force may be ended early, by a second manager (PP3)."""
        return self.bar and self.state == State.IN_FORCE

    @property
    def can_lapse(self) -> bool:
        """A self-exclusion whose period is over may lapse at the player's
        request (PP4); one for good never does."""
        return not self.bar and self.state == State.PERIOD_OVER


def _state(row: Restriction, end: RestrictionEnd | None, now: datetime) -> State:
    active = restriction_active(row, at=now)
    if row.kind == Restriction.Kind.BAR:
        if active:
            return State.IN_FORCE
        return State.ENDED if end is not None else State.OVER
    if end is not None:
        return State.LAPSING if active else State.LAPSED
    day = gaming_day_of(now)
    if row.until is not None and day >= row.until:
        return State.PERIOD_OVER
    return State.IN_FORCE


def restriction_row(row: Restriction) -> RestrictionRow:
    """One restriction with how it ended and its state now."""
    end = restriction_end_of(row)
    return RestrictionRow(row, end, _state(row, end, timezone.now()))


def restriction_rows(player: Player) -> list[RestrictionRow]:
    """The player's restrictions, newest first, each with its state now."""
    now = timezone.now()
    rows = Restriction.objects.filter(player=player).select_related(
        "set_by", "end", "end__by"
    )
    out = []
    for row in rows:
        end = restriction_end_of(row)
        out.append(RestrictionRow(row, end, _state(row, end, now)))
    return out


@dataclass(frozen=True, slots=True)
class Glance:
    """What the cage and the manager see of a player at a glance (PP1–PP4)."""

    gaming_day: date
    min_age: int
    age: int | None
    restrictions: list[RestrictionRow]
    document: IdentityDocument | None
    last_document: IdentityDocument | None

    @property
    def refused_for_age(self) -> bool:
        """No date of birth, or under the room's minimum age today (PP2)."""
        return self.age is None or self.age < self.min_age

    @property
    def in_force(self) -> list[RestrictionRow]:
        return [row for row in self.restrictions if row.active]

    @property
    def document_expired(self) -> bool:
        return self.document is None and self.last_document is not None


def player_glance(player: Player) -> Glance:
    """The player's age on today's gaming day, his restrictions and his latest
    valid identity document (PP1–PP4)."""
    day = gaming_day_of()
    documents = list(
        IdentityDocument.objects.filter(player=player).select_related("checked_by")
    )
    valid = next((d for d in documents if document_valid_on(d.expires, day)), None)
    return Glance(
        gaming_day=day,
        min_age=protection_settings().min_age,
        age=age_on(player.birth_date, day) if player.birth_date else None,
        restrictions=restriction_rows(player),
        document=valid,
        last_document=documents[0] if documents else None,
    )


class Flag(StrEnum):
    """What the player search marks a player with."""

    NO_BIRTH_DATE = "no_birth_date"
    UNDER_AGE = "under_age"
    BARRED = "barred"
    SELF_EXCLUDED = "self_excluded"


def players_flags(players: Iterable[Player]) -> dict[int, list[Flag]]:
    """Each player's flags for a list of found players: no date of birth or under
    age (PP2), barred (PP3), self-excluded (PP4)."""
    players = list(players)
    day = gaming_day_of()
    now = timezone.now()
    min_age = protection_settings().min_age
    rows = Restriction.objects.filter(player__in=players).select_related("end")
    by_player: dict[int, list[Restriction]] = {}
    for row in rows:
        by_player.setdefault(row.player_id, []).append(row)
    flags: dict[int, list[Flag]] = {}
    for player in players:
        found: list[Flag] = []
        if player.birth_date is None:
            found.append(Flag.NO_BIRTH_DATE)
        elif age_on(player.birth_date, day) < min_age:
            found.append(Flag.UNDER_AGE)
        active = [
            r for r in by_player.get(player.pk, []) if restriction_active(r, at=now)
        ]
        if any(r.kind == Restriction.Kind.SELF_EXCLUSION for r in active):
            found.append(Flag.SELF_EXCLUDED)
        if any(r.kind == Restriction.Kind.BAR for r in active):
            found.append(Flag.BARRED)
        flags[player.pk] = found
    return flags
