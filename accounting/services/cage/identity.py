"""A player's identity records (PP1, PP7): his data corrected with who, when and
why; the identity documents staff checked, and who was shown their numbers."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounting.errors import Code, refuse
from accounting.models import DocumentLookup, IdentityDocument, Player, PlayerChange
from accounting.services.cage.days import gaming_day_of


@transaction.atomic
def player_correct(
    *,
    player: Player,
    by: User,
    reason: str,
    name: str | None = None,
    nickname: str | None = None,
    birth_date: date | None = None,
) -> Player:
    """Correct a player's name, nickname or date of birth, each change recorded
    with who, when, why and the old value (PP7).

    Raises 422 ``birth_date_future`` (PP1) for a date of birth after today,
    ``nothing_changed`` (PP7) when every value is the one on file.
    """
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if birth_date is not None and birth_date >= gaming_day_of():
        raise refuse(Code.BIRTH_DATE_FUTURE, rule="PP1")
    wanted = {"name": name, "nickname": nickname, "birth_date": birth_date}
    changes = []
    for field, value in wanted.items():
        if value is None or getattr(locked, field) == value:
            continue
        old = getattr(locked, field)
        changes.append(
            PlayerChange(
                player=locked,
                field=field,
                old="" if old is None else str(old),
                new=str(value),
                reason=reason,
                by=by,
            )
        )
        setattr(locked, field, value)
    if not changes:
        raise refuse(Code.NOTHING_CHANGED, rule="PP7")
    locked.save(update_fields=[change.field for change in changes])
    PlayerChange.objects.bulk_create(changes)
    return locked


@transaction.atomic
def document_record(
    *, player: Player, kind: str, number: str, expires: date | None, by: User
) -> IdentityDocument:
    """Record an identity document ``by`` checked now (PP1); the player's
    identity is verified from then on (CA5). An expired document is refused:
    422 ``document_expired`` (PP1)."""
    if expires is not None and expires < gaming_day_of():
        raise refuse(Code.DOCUMENT_EXPIRED, rule="PP1", expires=expires.isoformat())
    locked = Player.objects.select_for_update().get(pk=player.pk)
    document = IdentityDocument.objects.create(
        player=locked, kind=kind, number=number.strip(), expires=expires, checked_by=by
    )
    locked.id_verified = True
    locked.id_document_type = kind
    locked.id_document_number = document.number
    locked.id_verified_at = timezone.now()
    locked.id_verified_by = by
    locked.save(
        update_fields=[
            "id_verified",
            "id_document_type",
            "id_document_number",
            "id_verified_at",
            "id_verified_by",
        ]
    )
    return document


@transaction.atomic
def document_number_show(
    *, document: IdentityDocument, by: User, purpose: str = ""
) -> str:
    """Return the document's number, recording that ``by`` was shown it (PP7)."""
    DocumentLookup.objects.create(document=document, by=by, purpose=purpose)
    return document.number
