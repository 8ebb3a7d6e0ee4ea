"""The tournament desk at the cage says why a player's entry is refused (PP4), in
the cashier's language, and sells nothing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import translation

from accounting.errors import TEXTS, Code
from accounting.services import cage as cage_services
from accounting.services.cage import gaming_day_of, protection
from tests.integration.tournaments.conftest import (
    cage,
    cashier,
    event,
    manager,
    room,
    shift,
    structure,
)
from tournaments.models import Entry

__all__ = ["cage", "cashier", "event", "manager", "room", "shift", "structure"]

pytestmark = pytest.mark.django_db


def said(language: str, message: str, **params: object) -> str:
    with translation.override(language):
        return translation.gettext(message) % params


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_a_self_excluded_players_entry_is_refused_with_why(
    event, shift, cashier, manager, language
):
    """PP4: excluded from tournaments, he is refused an entry; the desk says so
    with the door's words, and no entry is sold."""
    player = cage_services.player_register(
        code="P-888", name="Outi Ulkona", birth_date=date(1980, 6, 1)
    )
    days = protection.protection_settings().min_self_exclusion_days
    until = gaming_day_of() + timedelta(days=days)
    protection.restriction_set(
        player=player,
        kind="self_exclusion",
        scope="tournaments",
        until=until,
        reason="asked at the desk",
        by=manager,
    )
    desk = Client(HTTP_ACCEPT_LANGUAGE=language)
    desk.force_login(cashier)
    answer = desk.post(
        f"/cage/events/{event.code}/entries",
        {"once": "k-entry", "player": "P-888", "amount": "115"},
        follow=True,
    )
    expected = said(
        language,
        TEXTS[Code.PLAYER_SELF_EXCLUDED],
        player="P-888",
        scope=said(language, "tournaments"),
        until=until.isoformat(),
    )
    assert expected in [str(m) for m in answer.context["messages"]]
    assert not Entry.objects.filter(player=player).exists()
