"""Player protection (PP2–PP4), as pure functions: who may pass which door.

A door is where a player asks the room for play or money (:class:`Door`). Each
restriction has a scope (:class:`Scope`): the whole room, cash games, or
tournaments; a door belongs to the scopes that close it. Redemptions and cash-outs
belong to none: a restriction never keeps a player's money from him (PP5).
Awards and prizes are held, not refused (PP6), so they are asked through
:func:`held` rather than :func:`refusal`.

Dates are gaming days (BI8): a player's age is counted on the gaming day of the
door (PP2), so one who turns 18 at midnight plays from the gaming day that begins
at the cut-off after it. A restriction's ``until`` is the first gaming day he is
let in again; ``None`` is for good.

>>> from datetime import date
>>> age_on(date(2008, 12, 15), date(2026, 12, 14))
17
>>> age_on(date(2008, 12, 15), date(2026, 12, 15))
18
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum


class Door(StrEnum):
    """Where a player asks for play or money (PP1–PP6)."""

    WAITLIST = "waitlist"  # joining a list, being called (WL)
    SEAT = "seat"  # sitting down, coming back (BI5, BI9)
    BUY_IN = "buy_in"  # buy-ins and top-ups (BI1, BI2)
    CHIP_PURCHASE = "chip_purchase"  # chips bought at the cage (CA2)
    TOURNAMENT = "tournament"  # entries, re-entries, rebuys, add-ons (TO)
    REDEMPTION = "redemption"  # chips cashed at the cage, cash-outs (PP5)
    AWARD = "award"  # jackpot shares, promotion awards (CA6, PP6)
    PRIZE = "prize"  # tournament prizes (TO9, PP6)


class Scope(StrEnum):
    """What a restriction closes (PP3, PP4)."""

    ROOM = "room"
    CASH = "cash"
    TOURNAMENTS = "tournaments"


class Kind(StrEnum):
    BAR = "bar"  # PP3, set by a manager
    SELF_EXCLUSION = "self_exclusion"  # PP4, asked for by the player


CASH_DOORS = frozenset(
    {Door.WAITLIST, Door.SEAT, Door.BUY_IN, Door.CHIP_PURCHASE, Door.AWARD}
)
"""The doors of the cash games, closed by a ``cash`` restriction."""
TOURNAMENT_DOORS = frozenset({Door.TOURNAMENT, Door.PRIZE})
"""The doors of the tournaments, closed by a ``tournaments`` restriction."""
OPEN_DOORS = frozenset({Door.REDEMPTION})
"""The doors nothing closes, age neither: his money is his (PP5)."""


def closes(scope: Scope, door: Door) -> bool:
    """Whether a restriction of ``scope`` closes ``door``."""
    if door in OPEN_DOORS:
        return False
    if scope == Scope.ROOM:
        return True
    if scope == Scope.CASH:
        return door in CASH_DOORS
    return door in TOURNAMENT_DOORS


def age_on(birth_date: date, day: date) -> int:
    """The player's age in whole years on ``day`` (PP2). 29 February birthdays
    come of age on 1 March in years without one."""
    years = day.year - birth_date.year
    if (day.month, day.day) < (birth_date.month, birth_date.day):
        years -= 1
    return years


def document_valid_on(expires: date | None, day: date) -> bool:
    """Whether a document that ``expires`` (None: never) is valid on ``day``
    (PP1): up to and including its last day."""
    return expires is None or expires >= day


@dataclass(frozen=True)
class Restriction:
    """A bar or a self-exclusion as the rules read it (PP3, PP4).

    ``starts`` is when it was recorded; ``until`` the first gaming day it no
    longer applies (None: for good); ``ended`` when a bar was ended early by a
    second manager (PP3); ``lapse_asked`` when the player asked for his ended
    self-exclusion to lapse (PP4).
    """

    kind: Kind
    scope: Scope
    starts: datetime
    until: date | None
    ended: datetime | None = None
    lapse_asked: datetime | None = None
    id: int | None = None


def active(
    restriction: Restriction, *, at: datetime, day: date, cooling_off: timedelta
) -> bool:
    """Whether ``restriction`` holds at ``at`` (gaming day ``day``).

    A bar holds from its start until its ``until`` gaming day or until a second
    manager ended it (PP3). A self-exclusion holds from its start, and past its
    ``until`` until the player asked for it to lapse and the cooling-off time
    after that has passed (PP4): nobody ends it early.
    """
    if at < restriction.starts:
        return False
    if restriction.kind == Kind.BAR:
        if restriction.ended is not None and restriction.ended <= at:
            return False
        return restriction.until is None or day < restriction.until
    if restriction.until is None or day < restriction.until:
        return True
    asked = restriction.lapse_asked
    return asked is None or at < asked + cooling_off


@dataclass(frozen=True)
class Refused:
    """Why a door is closed to a player: the rule, the code and what it says."""

    rule: str
    code: str
    params: dict[str, object]


def refusal(
    *,
    door: Door,
    birth_date: date | None,
    restrictions: list[Restriction],
    at: datetime,
    day: date,
    min_age: int,
    cooling_off: timedelta,
) -> Refused | None:
    """Why ``door`` is closed to the player at ``at`` (gaming day ``day``), or None.

    PP2 first (no birth date, or under ``min_age`` on the gaming day: every door
    but a redemption of chips he has), then a self-exclusion (PP4), then a bar
    (PP3), of a scope that closes the door.
    """
    if door not in OPEN_DOORS:
        if birth_date is None:
            return Refused("PP2", "under_age", {"min_age": min_age, "age": None})
        age = age_on(birth_date, day)
        if age < min_age:
            return Refused("PP2", "under_age", {"min_age": min_age, "age": age})
    holding = [
        one
        for one in restrictions
        if closes(one.scope, door)
        and active(one, at=at, day=day, cooling_off=cooling_off)
    ]
    for kind, rule, code in (
        (Kind.SELF_EXCLUSION, "PP4", "player_self_excluded"),
        (Kind.BAR, "PP3", "player_barred"),
    ):
        found = [one for one in holding if one.kind == kind]
        if found:
            until = _latest_until(found)
            return Refused(
                rule,
                code,
                {
                    "restriction": found[0].id,
                    "scope": str(found[0].scope),
                    "until": until.isoformat() if until else None,
                },
            )
    return None


def _latest_until(restrictions: list[Restriction]) -> date | None:
    """The last ``until`` of ``restrictions``; None when one is for good."""
    untils = [one.until for one in restrictions]
    if any(until is None for until in untils):
        return None
    return max(until for until in untils if until is not None)


def held(
    *,
    door: Door,
    restrictions: list[Restriction],
    at: datetime,
    day: date,
    cooling_off: timedelta,
) -> Refused | None:
    """Why an award or prize due to the player is held (PP6), or None: a
    restriction of a scope that closes ``door`` (AWARD or PRIZE) holds it."""
    found = refusal(
        door=door,
        birth_date=date.min,
        restrictions=restrictions,
        at=at,
        day=day,
        min_age=0,
        cooling_off=cooling_off,
    )
    if found is None:
        return None
    return Refused("PP6", "award_held", {**found.params, "because": found.rule})


def self_exclusion_shortest(*, day: date, min_days: int) -> date:
    """The earliest ``until`` a self-exclusion asked for on ``day`` may have (PP4)."""
    return day + timedelta(days=min_days)


def lapse_at(
    restriction: Restriction, *, asked: datetime, day: date, cooling_off: timedelta
) -> datetime | None:
    """When a self-exclusion lapses if the player asks at ``asked`` (PP4), or None
    when it can't: it is for good, or its period hasn't ended (gaming day ``day``
    before ``until``)."""
    if restriction.until is None or day < restriction.until:
        return None
    return asked + cooling_off
