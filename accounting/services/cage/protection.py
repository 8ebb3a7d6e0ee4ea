"""Player protection (PP1–PP7): the one check every door calls, and the records.

Every service where a player asks for play or money calls :func:`door_check`
with its :class:`~accounting.domain.protection.Door` before it writes anything;
an award or a prize asks :func:`award_check` (PP6: held, not refused). The rules
themselves are pure (:mod:`accounting.domain.protection`); here they meet the
player's rows, the room's clock and its versioned settings
(:class:`~accounting.models.ProtectionRules`).

A door's refusal is kept for the daily audit: the request it refuses changes
nothing (its transaction rolls back), so the refusal is remembered for the
request (:data:`_refused`) and written once the request is answered, outside it
(:class:`accounting.middleware.RefusalLogMiddleware`).
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from psycopg import errors as pg_errors

from accounting.domain import protection as rules
from accounting.errors import (
    BARRED_FOR_GOOD,
    NO_BIRTH_DATE,
    SCOPES,
    SELF_EXCLUDED_FOR_GOOD,
    SELF_EXCLUDED_PAST_PERIOD,
    Code,
    conflict,
    missing,
    refuse,
)
from accounting.models import (
    AwardDecision,
    DoorRefusal,
    IdentityDocument,
    Payable,
    Player,
    ProtectionRules,
    Restriction,
    RestrictionEnd,
)
from accounting.services.cage.days import gaming_day_of
from core.errors import Refusal, Said

Door = rules.Door


@dataclass(frozen=True)
class Settings:
    """The player-protection settings in force (PP2, PP4)."""

    version: int
    min_age: int
    min_self_exclusion_days: int
    cooling_off_hours: int

    @property
    def cooling_off(self) -> timedelta:
        return timedelta(hours=self.cooling_off_hours)


def protection_settings() -> Settings:
    """The latest :class:`ProtectionRules` version, or the project's settings
    (``CARDROOM_MIN_AGE``, ``CARDROOM_SELF_EXCLUSION_MIN_DAYS``,
    ``CARDROOM_COOLING_OFF_HOURS``) as version 0 while none is recorded."""
    latest = ProtectionRules.objects.order_by("-version").first()
    if latest is not None:
        return Settings(
            latest.version,
            latest.min_age,
            latest.min_self_exclusion_days,
            latest.cooling_off_hours,
        )
    return Settings(
        0,
        settings.CARDROOM_MIN_AGE,
        settings.CARDROOM_SELF_EXCLUSION_MIN_DAYS,
        settings.CARDROOM_COOLING_OFF_HOURS,
    )


@transaction.atomic
def protection_settings_change(
    *,
    min_age: int,
    min_self_exclusion_days: int,
    cooling_off_hours: int,
    note: str,
    by: User,
) -> ProtectionRules:
    """Record a new version of the protection settings, in force from now.

    Two changes at once: the second is 409 ``settings_changed`` (the version it
    would have had is taken); read the settings again and retry."""
    current = protection_settings()
    try:
        with transaction.atomic():
            return _settings_create(
                current.version + 1,
                min_age=min_age,
                min_self_exclusion_days=min_self_exclusion_days,
                cooling_off_hours=cooling_off_hours,
                note=note,
                by=by,
            )
    except IntegrityError as exc:
        if not isinstance(exc.__cause__, pg_errors.UniqueViolation):
            raise
        raise conflict(Code.SETTINGS_CHANGED, version=current.version + 1) from exc


def _settings_create(
    version: int,
    *,
    min_age: int,
    min_self_exclusion_days: int,
    cooling_off_hours: int,
    note: str,
    by: User,
) -> ProtectionRules:
    return ProtectionRules.objects.create(
        version=version,
        min_age=min_age,
        min_self_exclusion_days=min_self_exclusion_days,
        cooling_off_hours=cooling_off_hours,
        note=note,
        created_by=by,
    )


def _as_rule(row: Restriction) -> rules.Restriction:
    end = restriction_end_of(row)
    return rules.Restriction(
        kind=rules.Kind(row.kind),
        scope=rules.Scope(row.scope),
        starts=row.starts,
        until=row.until,
        ended=end.effective if end and end.kind == RestrictionEnd.Kind.ENDED else None,
        lapse_asked=end.at if end and end.kind == RestrictionEnd.Kind.LAPSE else None,
        id=row.pk,
    )


def restriction_end_of(row: Restriction) -> RestrictionEnd | None:
    """How ``row`` ends: a bar ended early by a second manager (PP3), a
    self-exclusion's lapse the player asked for (PP4), or None while neither is
    recorded."""
    try:
        return row.end
    except RestrictionEnd.DoesNotExist:
        return None


def restrictions_of(player: Player) -> list[rules.Restriction]:
    """The player's restrictions as the rules read them, newest first."""
    rows = Restriction.objects.filter(player=player).select_related("end")
    return [_as_rule(row) for row in rows]


def restricted_now(
    player_ids: list[int], *, door: Door, at: datetime | None = None
) -> dict[int, str]:
    """Which of the players ``player_ids`` a restriction keeps from ``door`` now,
    each with its rule (PP3, PP4), in two queries: for the floor's screens, which
    show every seated player (PP5)."""
    at = at or timezone.now()
    day = gaming_day_of(at)
    config = protection_settings()
    by_player: dict[int, list[rules.Restriction]] = {}
    for row in Restriction.objects.filter(player_id__in=player_ids).select_related(
        "end"
    ):
        by_player.setdefault(row.player_id, []).append(_as_rule(row))
    found = {}
    for player, held in by_player.items():
        refused = rules.refusal(
            door=door,
            birth_date=date.min,
            restrictions=held,
            at=at,
            day=day,
            min_age=0,
            cooling_off=config.cooling_off,
        )
        if refused is not None:
            found[player] = refused.rule
    return found


def _refusal(found: rules.Refused, player: Player, config: Settings) -> Refusal:
    """The 422 of ``found``, in API.md's words (PP2, PP3, PP4)."""
    params = found.params
    if found.rule == "PP2":
        if params["age"] is None:
            return refuse(
                Code.UNDER_AGE,
                rule="PP2",
                text=NO_BIRTH_DATE,
                allowed={"min_age": config.min_age},
                player=player.code,
                min_age=config.min_age,
            )
        return refuse(
            Code.UNDER_AGE,
            rule="PP2",
            allowed={"min_age": config.min_age},
            player=player.code,
            age=params["age"],
            min_age=config.min_age,
        )
    until = params["until"]
    scope = Said(SCOPES[str(params["scope"])])
    barred = found.rule == "PP3"
    code = Code.PLAYER_BARRED if barred else Code.PLAYER_SELF_EXCLUDED
    text = None
    if until is None:
        text = BARRED_FOR_GOOD if barred else SELF_EXCLUDED_FOR_GOOD
    elif not barred and date.fromisoformat(str(until)) <= gaming_day_of():
        text = SELF_EXCLUDED_PAST_PERIOD
    return refuse(
        code,
        rule=found.rule,
        text=text,
        allowed={"until": until, "scope": params["scope"]},
        player=player.code,
        scope=scope,
        until=until,
        restriction=params["restriction"],
    )


_refused: contextvars.ContextVar[list[tuple[int, str, str, str, date]] | None] = (
    contextvars.ContextVar("protection_refused", default=None)
)


def door_check(*, player: Player, door: Door, at: datetime | None = None) -> None:
    """Refuse ``player`` at ``door`` when he is under age or restricted (PP2–PP4).

    The one check every door calls, before it writes. Raises
    :class:`core.errors.Refusal`, 422: rule PP2 ``under_age`` (no date of birth,
    or under the room's minimum age on the gaming day of ``at``), PP4
    ``player_self_excluded`` or PP3 ``player_barred`` (a restriction whose scope
    closes ``door``), with ``allowed`` saying the minimum age or the restriction's
    end. A redemption is refused to nobody, a minor neither: his chips are his (PP5).
    """
    at = at or timezone.now()
    day = gaming_day_of(at)
    config = protection_settings()
    found = rules.refusal(
        door=door,
        birth_date=player.birth_date,
        restrictions=restrictions_of(player),
        at=at,
        day=day,
        min_age=config.min_age,
        cooling_off=config.cooling_off,
    )
    if found is None:
        return
    pending = _refused.get()
    if pending is not None:
        pending.append((player.pk, str(door), found.rule, found.code, day))
    raise _refusal(found, player, config)


def award_check(
    *,
    player: Player,
    door: Door = Door.AWARD,
    at: datetime | None = None,
    payable: Payable | None = None,
) -> None:
    """Refuse to pay ``player`` an award or prize (PP1, PP2, PP6).

    Under age or without a date of birth, he is refused as at any door (PP2);
    without a valid identity document on file, 422 ``document_on_file`` (PP1). A
    restriction of a scope that closes ``door`` holds what he is owed: 422
    ``award_held`` (PP6), the award staying a liability until a manager decides
    (:func:`held_award_decide`); ``payable`` a manager decided to pay is paid.
    """
    at = at or timezone.now()
    day = gaming_day_of(at)
    config = protection_settings()
    found = rules.refusal(
        door=door,
        birth_date=player.birth_date,
        restrictions=[],
        at=at,
        day=day,
        min_age=config.min_age,
        cooling_off=config.cooling_off,
    )
    if found is not None:
        raise _refusal(found, player, config)
    if not identity_on_file(player, day=day):
        raise refuse(Code.DOCUMENT_ON_FILE, rule="PP1", player=player.code)
    held = rules.held(
        door=door,
        restrictions=restrictions_of(player),
        at=at,
        day=day,
        cooling_off=config.cooling_off,
    )
    if held is not None and not _decided_to_pay(payable):
        raise refuse(
            Code.AWARD_HELD,
            rule="PP6",
            player=player.code,
            because=held.params["because"],
            allowed={"restriction": held.params["restriction"]},
        )


def _decided_to_pay(payable: Payable | None) -> bool:
    return (
        payable is not None
        and AwardDecision.objects.filter(
            payable=payable, decision=AwardDecision.Decision.PAY
        ).exists()
    )


def identity_on_file(player: Player, *, day: date) -> bool:
    """Whether an identity document checked by staff is on file and valid on
    ``day`` (PP1); a player verified before documents were kept, with none on
    file, counts as verified."""
    documents = list(
        IdentityDocument.objects.filter(player=player).values_list("expires", flat=True)
    )
    if not documents:
        return player.id_verified
    return any(rules.document_valid_on(expires, day) for expires in documents)


def award_held(*, player: Player, door: Door = Door.AWARD) -> bool:
    """Whether an award or prize due to ``player`` is held now (PP6)."""
    try:
        award_check(player=player, door=door)
    except Refusal as error:
        return error.code == Code.AWARD_HELD
    return False


def refusals_remember() -> contextvars.Token[Any]:
    """Start remembering door refusals for this request (called by
    :class:`accounting.middleware.RefusalLogMiddleware`)."""
    return _refused.set([])


def refusals_write(token: contextvars.Token[Any]) -> None:
    """Write the refusals remembered since ``token`` and stop remembering."""
    pending = _refused.get() or []
    _refused.reset(token)
    if pending:
        DoorRefusal.objects.bulk_create(
            DoorRefusal(
                player_id=player, door=door, rule=rule, code=code, gaming_day=day
            )
            for player, door, rule, code, day in pending
        )


# -- restrictions (PP3, PP4, PP5) --------------------------------------------


@transaction.atomic
def restriction_set(
    *,
    player: Player,
    kind: str,
    scope: str,
    until: date | None,
    reason: str,
    by: User,
) -> Restriction:
    """Bar a player (PP3) or record his self-exclusion (PP4), from now.

    A self-exclusion lasts at least the room's minimum: an earlier ``until`` is
    422 ``self_exclusion_too_short`` with the earliest allowed. A bar's ``until``
    is any later gaming day. The hooks in ``CARDROOM_RESTRICTION_HOOKS`` are
    called once it commits: the floor takes a seated player out at the end of
    his hand and tells his table (PP5).
    """
    day = gaming_day_of()
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if until is not None:
        _until_check(kind=kind, until=until, day=day)
    row = Restriction.objects.create(
        player=locked,
        kind=kind,
        scope=scope,
        # The doors' clock, which they compare it with: the database's would
        # start it at its transaction's start, by another clock.
        starts=timezone.now(),
        until=until,
        reason=reason,
        set_by=by,
    )
    transaction.on_commit(lambda: _restriction_hooks(row))
    return row


def _until_check(*, kind: str, until: date, day: date) -> None:
    """Refuse an end too soon: a self-exclusion's before the room's shortest
    (PP4), a bar's before tomorrow's gaming day (PP3)."""
    if kind == Restriction.Kind.SELF_EXCLUSION:
        days = protection_settings().min_self_exclusion_days
        shortest = rules.self_exclusion_shortest(day=day, min_days=days)
        if until < shortest:
            raise refuse(
                Code.SELF_EXCLUSION_TOO_SHORT,
                rule="PP4",
                allowed={"min_until": shortest.isoformat()},
                days=days,
                min=shortest.isoformat(),
            )
        return
    tomorrow = day + timedelta(days=1)
    if until < tomorrow:
        raise refuse(
            Code.UNTIL_PASSED,
            rule="PP3",
            allowed={"min_until": tomorrow.isoformat()},
            min=tomorrow.isoformat(),
        )


def _restriction_hooks(row: Restriction) -> None:
    for path in getattr(settings, "CARDROOM_RESTRICTION_HOOKS", []):
        import_string(path)(restriction=row)


def restriction_get(*, pk: int) -> Restriction:
    """The restriction ``pk``; 404 ``restriction_not_found``."""
    row = Restriction.objects.filter(pk=pk).select_related("player").first()
    if row is None:
        raise missing(Code.RESTRICTION_NOT_FOUND, id=pk)
    return row


@transaction.atomic
def restriction_end(
    *, restriction: Restriction, reason: str, by: User
) -> RestrictionEnd:
    """End a bar early (PP3), by another manager than who set it.

    Raises 422: ``self_exclusion_final`` (PP4) for a self-exclusion, which
    nobody ends; ``second_manager`` (PP3) when ``by`` set the bar;
    ``restriction_ended`` (PP7) when it has ended already (or lapsed).
    """
    locked = _locked(restriction)
    if locked.kind == Restriction.Kind.SELF_EXCLUSION:
        raise refuse(Code.SELF_EXCLUSION_FINAL, rule="PP4")
    _not_ended(locked)
    if locked.set_by_id == by.pk:
        raise refuse(Code.SECOND_MANAGER, rule="PP3")
    now = timezone.now()
    return RestrictionEnd.objects.create(
        restriction=locked,
        kind=RestrictionEnd.Kind.ENDED,
        effective=now,
        reason=reason,
        by=by,
    )


def _locked(restriction: Restriction) -> Restriction:
    """``restriction`` read again under its player's row lock: a restriction's
    own rows are append-only, so the app's role may not lock them (PP7)."""
    Player.objects.select_for_update().filter(pk=restriction.player_id).first()
    return Restriction.objects.get(pk=restriction.pk)


def _not_ended(locked: Restriction) -> None:
    config = protection_settings()
    now = timezone.now()
    if restriction_end_of(locked) is not None or not rules.active(
        _as_rule(locked), at=now, day=gaming_day_of(now), cooling_off=config.cooling_off
    ):
        raise conflict(Code.RESTRICTION_ENDED, rule="PP7", id=locked.pk)


@transaction.atomic
def self_exclusion_lapse(
    *, restriction: Restriction, reason: str, by: User
) -> RestrictionEnd:
    """Record the player's request that his ended self-exclusion lapse (PP4): it
    lapses after the room's cooling-off time.

    Raises 422 ``self_exclusion_final`` for a self-exclusion for good or a bar,
    ``self_exclusion_running`` while its period runs.
    """
    locked = _locked(restriction)
    if locked.kind != Restriction.Kind.SELF_EXCLUSION or locked.until is None:
        raise refuse(Code.SELF_EXCLUSION_FINAL, rule="PP4")
    if restriction_end_of(locked) is not None:
        raise conflict(Code.RESTRICTION_ENDED, rule="PP7", id=locked.pk)
    now = timezone.now()
    config = protection_settings()
    lapses = rules.lapse_at(
        _as_rule(locked),
        asked=now,
        day=gaming_day_of(now),
        cooling_off=config.cooling_off,
    )
    if lapses is None:
        raise refuse(
            Code.SELF_EXCLUSION_RUNNING,
            rule="PP4",
            allowed={"from": locked.until.isoformat()},
            until=locked.until.isoformat(),
        )
    return RestrictionEnd.objects.create(
        restriction=locked,
        kind=RestrictionEnd.Kind.LAPSE,
        effective=lapses,
        reason=reason,
        by=by,
    )


def restriction_active(row: Restriction, *, at: datetime | None = None) -> bool:
    """Whether ``row`` holds at ``at`` (now by default)."""
    at = at or timezone.now()
    config = protection_settings()
    return rules.active(
        _as_rule(row), at=at, day=gaming_day_of(at), cooling_off=config.cooling_off
    )


# The identity records (PP1, PP7), kept in accounting.services.cage.identity.
from accounting.services.cage.identity import (  # noqa: E402
    document_number_show,
    document_record,
    player_correct,
)

__all__ = [
    "Door",
    "award_check",
    "award_held",
    "document_number_show",
    "document_record",
    "door_check",
    "player_correct",
    "protection_settings",
    "protection_settings_change",
    "restricted_now",
    "restriction_active",
    "restriction_end",
    "restriction_end_of",
    "restriction_get",
    "restriction_set",
    "restrictions_of",
    "self_exclusion_lapse",
]
