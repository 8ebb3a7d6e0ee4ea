"""Reads every staff screen needs: the room's facts and a player found by what
the desk or the floor typed."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q, QuerySet

from accounting.models import Player
from cardroom.models import Room


@dataclass(frozen=True, slots=True)
class RoomFacts:
    """What the screens and receipts need of the room."""

    name: str
    currency: str
    language: str
    time_zone: str = ""

    @property
    def receipt_language(self) -> str:
        """The language receipts print in: ``CARDROOM_RECEIPT_LANGUAGE``, or the
        room's language when it is empty, whatever each screen's language."""
        return settings.CARDROOM_RECEIPT_LANGUAGE or self.language


def room_facts() -> RoomFacts:
    """The room's name, currency, language and clock; the settings' before it
    exists."""
    room = Room.objects.order_by("pk").first()
    if room is None:
        return RoomFacts(
            name="",
            currency=settings.CARDROOM_CURRENCY,
            language=settings.LANGUAGE_CODE,
            time_zone=settings.TIME_ZONE,
        )
    return RoomFacts(
        name=room.name,
        currency=room.currency,
        language=room.language,
        time_zone=room.time_zone,
    )


def players_find(query: str, *, limit: int = 20) -> QuerySet[Player]:
    """Players whose id, name, nickname or identity card number matches ``query``.

    A card read at the desk gives the player's id (exact match first) or the
    number of his identity card.
    """
    query = query.strip()
    if not query:
        return Player.objects.none()
    return Player.objects.filter(
        Q(code__iexact=query)
        | Q(code__icontains=query)
        | Q(name__icontains=query)
        | Q(nickname__icontains=query)
        | Q(id_document_number__iexact=query)
    ).order_by("name", "code")[:limit]
