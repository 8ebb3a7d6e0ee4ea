"""The floor sees why a player is refused (PP2–PP4), in its own language: a join
to a list refused with the door's words, a call that passes a barred player over
saying so, a called player barred since refused his seat. Nothing is changed by a
refusal."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import translation

from accounting.errors import NO_BIRTH_DATE, TEXTS, Code
from accounting.models import Player
from accounting.services.cage import gaming_day_of, protection
from cardroom.models import SeatSession
from core.roles import Role
from tests.conftest import ROOM_EVENING
from tests.integration.waitlist.conftest import (
    Clock,
    fill,
    nl12,
    open_table,
    players,
    stock_tray,
)
from waitlist import services as waitlist
from waitlist.models import Entry

__all__ = ["open_table", "players", "stock_tray"]

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]


@pytest.fixture
def clock() -> Clock:
    return Clock(ROOM_EVENING - timedelta(hours=2))


@pytest.fixture
def room(open_table, players, clock):
    """T01 with three players, six seats free."""
    open_table("T01")
    fill(clock, "T01", players[:3])
    return players


def floor_in(make_staff, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_staff("fred", Role.FLOOR))
    return client


def messages_of(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def said(language: str, message: str, **params: object) -> str:
    with translation.override(language):
        return translation.gettext(message) % params


def bar(code: str, make_staff) -> date:
    """Bar ``code`` from the room for 30 days; the day he is let in again."""
    until = gaming_day_of() + timedelta(days=30)
    protection.restriction_set(
        player=Player.objects.get(code=code),
        kind="bar",
        scope="room",
        until=until,
        reason="collusion",
        by=make_staff("mia", Role.MANAGER),
    )
    return until


def barred_said(language: str, code: str, until: date) -> str:
    return said(
        language,
        TEXTS[Code.PLAYER_BARRED],
        player=code,
        scope=said(language, "the room"),
        until=until.isoformat(),
    )


@pytest.mark.parametrize("language", ["en", "fi", "ko"])
def test_a_barred_players_join_is_refused_with_why(room, make_staff, language):
    """PP3: the join is refused with the door's words in the floor's language;
    he isn't on the list."""
    until = bar(room[6], make_staff)
    desk = floor_in(make_staff, language)
    waiting = nl12()
    answer = desk.post(
        "/floor/lists/join",
        {"once": "k-1", "player": room[6], "waiting_list": waiting.pk},
        follow=True,
    )
    assert messages_of(answer) == [barred_said(language, room[6], until)]
    assert not Entry.objects.filter(player__code=room[6]).exists()


def test_a_player_without_a_date_of_birth_is_refused_at_the_list(room, make_staff):
    """PP2, in Finnish: the refusal names the room's minimum age."""
    Player.objects.create(code="P-99", name="Ville Vailla")
    desk = floor_in(make_staff, "fi")
    answer = desk.post(
        "/floor/lists/join",
        {"once": "k-1", "player": "P-99", "waiting_list": nl12().pk},
        follow=True,
    )
    min_age = protection.protection_settings().min_age
    assert messages_of(answer) == [
        said("fi", NO_BIRTH_DATE, player="P-99", min_age=min_age)
    ]


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_call_passes_a_barred_player_over_and_says_why(room, make_staff, language):
    """PP3: the next player is called; the floor is told the barred one was
    passed over and keeps his place."""
    waiting = nl12()
    waitlist.entry_join(waiting_list=waiting, player_code=room[6])
    waitlist.entry_join(waiting_list=waiting, player_code=room[7])
    bar(room[6], make_staff)
    desk = floor_in(make_staff, language)
    answer = desk.post(f"/floor/lists/{waiting.pk}/call", follow=True)
    called = Entry.objects.get(player__code=room[7])
    said_called, said_passed = messages_of(answer)
    assert said_called == said(
        language,
        "%(p)s is called to %(t)s, seat %(s)s.",
        p=f"Player {room[7]}",
        t=called.call_table.code,
        s=called.call_seat,
    )
    assert said_passed == said(
        language,
        "%(p)s was passed over: barred (PP3). He keeps his place on the list.",
        p=f"Player {room[6]}",
    )
    assert Entry.objects.get(player__code=room[6]).status == Entry.Status.WAITING


def test_a_called_player_barred_since_is_refused_his_seat(room, make_staff):
    """PP3, in Korean: the seat is refused with the door's words; he sits
    nowhere."""
    waiting = nl12()
    waitlist.entry_join(waiting_list=waiting, player_code=room[6])
    desk = floor_in(make_staff, "ko")
    desk.post(f"/floor/lists/{waiting.pk}/call", follow=True)
    entry = Entry.objects.get(player__code=room[6])
    assert entry.status == Entry.Status.CALLED
    until = bar(room[6], make_staff)
    answer = desk.post(
        f"/floor/entries/{entry.pk}/seat",
        {"once": "k-2", "amount": "250", "method": "cash"},
        follow=True,
    )
    assert messages_of(answer) == [barred_said("ko", room[6], until)]
    assert not SeatSession.objects.filter(player__code=room[6]).exists()
