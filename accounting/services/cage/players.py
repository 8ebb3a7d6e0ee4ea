"""Registered players (BI10) and their cash transactions per gaming day (CA5)."""

from __future__ import annotations

from datetime import date, datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from accounting.domain.cage import identity_allowance
from accounting.errors import Code, conflict, invalid, refuse
from accounting.models import (
    CA5_DEFAULT_THRESHOLD_CENTS,
    Cage,
    CashTransaction,
    Player,
)
from accounting.services.cage.days import gaming_day_of
from accounting.services.cage.identity import document_record
from core.work import lock_check


def player_get(*, code: str, rule: str = "CA2") -> Player:
    """Return the registered player ``code``.

    Raises :class:`core.errors.Refusal` (``player_not_registered``, the caller's
    ``rule``: CA2 at the cage, BI10 at a table) when nobody is registered under it.
    """
    player = Player.objects.filter(code=code).first()
    if player is None:
        raise refuse(Code.PLAYER_NOT_REGISTERED, rule=rule, code=code)
    return player


@transaction.atomic
def player_register(
    *,
    code: str,
    name: str,
    nickname: str = "",
    id_verified: bool = False,
    id_document_type: str = "",
    id_document_number: str = "",
    registered_by: User | None = None,
    birth_date: date | None = None,
) -> Player:
    """Register a player under ``code`` (BI10), with or without a verified ID.

    Without ``birth_date`` every door refuses him until one is recorded (PP1,
    PP2). Raises :class:`Conflict` (409) when ``code`` is already registered, 422
    ``birth_date_future`` (PP1) for a date of birth that isn't in the past.
    """
    if Player.objects.filter(code=code).exists():
        raise conflict(Code.PLAYER_EXISTS, code=code)
    if birth_date is not None and birth_date >= gaming_day_of():
        raise refuse(Code.BIRTH_DATE_FUTURE, rule="PP1")
    now = timezone.now()
    try:
        with transaction.atomic():
            player = Player.objects.create(
                code=code,
                name=name,
                nickname=nickname,
                id_verified=id_verified,
                id_document_type=id_document_type,
                id_document_number=id_document_number,
                id_verified_at=now if id_verified else None,
                id_verified_by=registered_by if id_verified else None,
                registered_by=registered_by,
                birth_date=birth_date,
            )
    except IntegrityError as exc:
        # Another desk registered the same code a moment before us.
        raise conflict(Code.PLAYER_EXISTS, code=code) from exc
    checked = id_verified and id_document_type and id_document_number.strip()
    if checked and registered_by is not None:
        # PP1: the document checked at registration is on file like any other.
        document_record(
            player=player,
            kind=id_document_type,
            number=id_document_number,
            expires=None,
            by=registered_by,
        )
    return player


def player_identity_verify(
    *,
    player: Player,
    document_type: str,
    document_number: str,
    verified_by: User,
) -> Player:
    """Record that ``verified_by`` checked the player's identity document (CA5):
    an identity document on file (PP1), kept as
    :func:`accounting.services.cage.identity.document_record` keeps it.

    Raises :class:`core.errors.Invalid` (400) without a document type and number.
    """
    if not document_type or not document_number.strip():
        raise invalid(Code.DOCUMENT_REQUIRED)
    document = document_record(
        player=player,
        kind=document_type,
        number=document_number,
        expires=None,
        by=verified_by,
    )
    return document.player


def cash_activity_day_total(*, player: Player, gaming_day: date) -> int:
    """Return the player's cash transactions of ``gaming_day``, in cents (CA5)."""
    total = CashTransaction.objects.filter(
        player=player, gaming_day=gaming_day
    ).aggregate(s=Sum("amount_cents"))["s"]
    return total or 0


def _threshold(threshold_cents: int | None) -> int:
    if threshold_cents is not None:
        return threshold_cents
    return getattr(
        settings, "CARDROOM_IDENTITY_THRESHOLD_CENTS", CA5_DEFAULT_THRESHOLD_CENTS
    )


def cash_activity_check(
    *,
    player: Player,
    amount_cents: int,
    at: datetime | None = None,
    threshold_cents: int | None = None,
    gaming_day: date | None = None,
) -> None:
    """Refuse a cash transaction that needs a verified identity document (CA5).

    Call it inside the database transaction that books the movement (outside one,
    Django refuses the row lock): it locks the player's row until that commits, so
    two desks can't both pass the threshold.
    ``threshold_cents`` is the cage's (or room's) setting; without it, the setting
    ``CARDROOM_IDENTITY_THRESHOLD_CENTS`` or €2,000. ``gaming_day`` is the room's
    business date of ``at`` (BI8); without it, the one the settings give.

    Raises :class:`core.errors.Refusal` (rule CA5, ``identity_required``, allowed
    ``{"max": …}`` the most still possible today without an ID) when the player has
    no verified identity and the gaming day's cash total would reach the threshold.
    """
    lock_check("the player's row")
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.id_verified:
        return
    threshold = _threshold(threshold_cents)
    allowed = identity_allowance(
        day_total_cents=cash_activity_day_total(
            player=locked, gaming_day=gaming_day or gaming_day_of(at)
        ),
        threshold_cents=threshold,
        verified=False,
    )
    assert allowed is not None
    if amount_cents > allowed:
        raise refuse(
            Code.IDENTITY_REQUIRED,
            rule="CA5",
            allowed={"max": allowed},
            threshold=threshold,
            max=allowed,
        )


@transaction.atomic
def cash_activity_record(
    *,
    player: Player,
    amount_cents: int,
    kind: str,
    reference: str = "",
    at: datetime | None = None,
    cage: Cage | None = None,
    threshold_cents: int | None = None,
    gaming_day: date | None = None,
) -> CashTransaction:
    """Check (:func:`cash_activity_check`) and log a player's cash movement (CA5).

    The floor calls it for every cash buy-in at a table, the cage for purchases,
    redemptions and award payouts, before posting the money. Raises what
    :func:`cash_activity_check` raises, writing nothing.
    """
    at = at or timezone.now()
    gaming_day = gaming_day or gaming_day_of(at)
    cash_activity_check(
        player=player,
        amount_cents=amount_cents,
        at=at,
        threshold_cents=threshold_cents,
        gaming_day=gaming_day,
    )
    return CashTransaction.objects.create(
        player=player,
        gaming_day=gaming_day,
        kind=kind,
        amount_cents=amount_cents,
        reference=reference,
        cage=cage,
        at=at,
    )
