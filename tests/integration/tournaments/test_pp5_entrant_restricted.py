"""PP5 in tournaments: an entrant barred while he plays is shown to the floor at
once, which disqualifies him with his counted stack (TO3)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounting.services.cage import restriction_set
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(event, cage, shift, cashier, players, floor_person):
    for p in players[:3]:
        services.entry_register(
            event=event, player=p.code, cage="MAIN", cashier=cashier
        )
    services.event_start(event=event)
    services.seats_draw(event_code=event.code, by=floor_person)
    return event


def page(event, user) -> str:
    client = Client()
    client.force_login(user)
    answer = client.get(f"/floor/events/{event.code}/", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    return answer.content.decode()


TAG = "disqualify him with his counted stack"


def test_the_floor_sees_a_barred_entrant_at_once(playing, manager, floor_person):
    assert TAG not in page(playing, floor_person)
    entry = Entry.objects.filter(event=playing).order_by("number").first()
    restriction_set(
        player=entry.player,
        kind="self_exclusion",
        scope="tournaments",
        until=None,
        reason="Asked at the desk",
        by=manager,
    )
    shown = page(playing, floor_person)
    assert f"Restricted (PP4): {TAG}" in shown
    assert shown.count(TAG) == 1
    services.entry_disqualify(
        entry=entry, by=floor_person, reason="PP4: self-excluded", stack=20_000
    )
    assert TAG not in page(playing, floor_person)


def test_a_cash_only_bar_is_not_the_tournaments_business(
    playing, manager, floor_person
):
    entry = Entry.objects.filter(event=playing).order_by("number").first()
    restriction_set(
        player=entry.player,
        kind="bar",
        scope="cash",
        until=None,
        reason="Abuse of a dealer",
        by=manager,
    )
    assert TAG not in page(playing, floor_person)
