"""A waiting list's whole screen on the floor's staff screens, out of the admin:
its tables called from, its queue seated, declined and taken off, its latest
decisions, in the reader's language; the admin's old address sends there. And the
floor's decisions beyond the lists, ended from the floor's screens: seats locked
up, must-moves, pairs kept apart (WL1–WL10)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

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
from waitlist.models import Entry, Event, KeptApart, Lockup, MustMove

__all__ = ["open_table", "players", "stock_tray"]

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]


@pytest.fixture
def clock() -> Clock:
    """The tables open and players sit before the room clock's moment."""
    return Clock(ROOM_EVENING - timedelta(hours=2))


@pytest.fixture
def desk(make_staff) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_staff("floor-web", Role.FLOOR))
    return client


@pytest.fixture
def screen(open_table, players, clock) -> str:
    """NL 1/2's list with T01 dealing: three seats, two taken."""
    open_table("T01", seats=3)
    fill(clock, "T01", players[:2])
    return f"/floor/lists/{nl12().pk}"


def messages_of(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def test_the_floor_works_a_list_from_its_screen(desk, screen):
    """Add, call to a table, seat: each step recorded with the floor person, each
    form back on the list's screen."""
    page = desk.get(screen)
    assert page.templates[0].name == "staff/floor/list.html"
    body = page.content.decode()
    assert 'data-table="T01"' in body and "Nobody waiting." in body
    added = desk.post(
        "/floor/lists/join",
        {"once": "k-1", "player": "P-5", "waiting_list": nl12().pk, "back": "list"},
        follow=True,
    )
    assert added.redirect_chain == [(screen, 302)]
    assert messages_of(added) == ["Player P-5 is on the list."]
    called = desk.post(f"{screen}/call", {"table": "T01", "back": "list"}, follow=True)
    assert called.redirect_chain == [(screen, 302)]
    entry = Entry.objects.get(player__code="P-5")
    assert (entry.status, entry.call_table.code, entry.call_seat) == (
        "called",
        "T01",
        3,
    )
    assert messages_of(called) == ["Player P-5 is called to T01, seat 3."]
    body = called.content.decode()
    assert 'data-player="P-5"' in body and "Called to T01, seat 3" in body
    assert f'data-deadline="{int(entry.expires_at.timestamp() * 1000)}"' in body
    seated = desk.post(
        f"/floor/entries/{entry.pk}/seat",
        {"once": "k-2", "amount": "200", "method": "cash", "back": "list"},
        follow=True,
    )
    assert seated.redirect_chain == [(screen, 302)]
    assert messages_of(seated) == ["Player P-5 is seated at T01, seat 3."]
    entry.refresh_from_db()
    assert entry.status == "seated"
    assert set(Event.objects.values_list("by__username", flat=True)) == {"floor-web"}
    # The latest decisions, newest first, with who made them.
    decisions = seated.context["events"]
    assert [e.kind for e in decisions][:3] == ["seated", "called", "joined"]


def test_a_called_player_declines_and_another_is_taken_off(desk, screen):
    first = waitlist.entry_join(waiting_list=nl12(), player_code="P-5")
    second = waitlist.entry_join(waiting_list=nl12(), player_code="P-6")
    waitlist.list_call(waiting_list=nl12())
    first.refresh_from_db()
    assert first.status == "called"
    declined = desk.post(
        f"/floor/entries/{first.pk}/decline", {"once": "k-1"}, follow=True
    )
    assert declined.redirect_chain == [(screen, 302)]
    assert messages_of(declined) == ["Declined: off the list."]
    first.refresh_from_db()
    assert first.status == "removed"
    assert Event.objects.get(entry=first, kind="declined").by.username == "floor-web"
    removed = desk.post(
        f"/floor/entries/{second.pk}/remove", {"once": "k-2"}, follow=True
    )
    assert removed.redirect_chain == [(screen, 302)]
    assert messages_of(removed) == ["Removed from the list."]
    second.refresh_from_db()
    assert second.status == "removed"
    # The same form sent again is answered from its key, nothing more done.
    again = desk.post(
        f"/floor/entries/{second.pk}/remove", {"once": "k-2"}, follow=True
    )
    assert messages_of(again) == ["This form was already sent; it was booked once."]


def test_a_refusal_is_shown_with_its_rule(desk, screen):
    """P-1 plays the game: the list refuses him (WL10), on the list's screen."""
    answer = desk.post(
        "/floor/lists/join",
        {"once": "k-1", "player": "P-1", "waiting_list": nl12().pk, "back": "list"},
        follow=True,
    )
    assert answer.redirect_chain == [(screen, 302)]
    assert any(m.startswith("WL10:") for m in messages_of(answer))
    assert not Entry.objects.exists()


def test_the_screen_speaks_the_readers_language(make_staff, screen):
    waitlist.entry_join(waiting_list=nl12(), player_code="P-5")
    client = Client()
    client.force_login(make_staff("fred", Role.FLOOR))
    page = client.get(screen, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Jono" in page and "Kutsu seuraava" in page
    page = client.get(screen, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "대기열" in page and "다음 호출" in page


def test_the_admins_old_address_sends_to_the_screen(desk, screen):
    old = f"/admin/waitlist/waitinglist/{nl12().pk}/floor/"
    answer = desk.get(old)
    assert (answer.status_code, answer["Location"]) == (301, screen)
    # The admin's list of lists opens each list's screen.
    assert (
        f'href="{screen}"' in desk.get("/admin/waitlist/waitinglist/").content.decode()
    )


def test_other_roles_dont_see_the_list(make_staff, screen):
    cashier = Client()
    cashier.force_login(make_staff("cashier-web", Role.CASHIER))
    assert cashier.get(screen).status_code == 403
    manager = Client()
    manager.force_login(make_staff("mia", Role.MANAGER))
    assert manager.get(screen).status_code == 200


def test_lockups_must_moves_and_pairs_are_ended_on_the_floors_screen(
    desk, open_table, players, clock
):
    open_table("T01", seats=3)
    open_table("T02", seats=3)
    fill(clock, "T01", players[:2])
    fill(clock, "T02", players[2:4])
    lockup = waitlist.lockup_take(table_code="T01", seat=3, player_code="P-9")
    must_move = waitlist.must_move_start(table_code="T02", main_code="T01")
    page = desk.get("/floor/decisions")
    body = page.content.decode()
    assert f'data-lockup="{lockup.pk}"' in body
    assert f'data-must-move="{must_move.pk}"' in body
    assert "No pair is kept apart." in body

    released = desk.post(
        f"/floor/lockups/{lockup.pk}/release", {"once": "k-1"}, follow=True
    )
    assert messages_of(released) == ["Seat 3 released."]
    assert Lockup.objects.get().released_at is not None
    ended = desk.post(
        f"/floor/must-moves/{must_move.pk}/end", {"once": "k-2"}, follow=True
    )
    assert messages_of(ended) == ["Must-move ended."]
    assert MustMove.objects.get().ended_at is not None

    kept = desk.post(
        "/floor/pairs",
        {"once": "k-3", "player_a": "P-7", "player_b": "Player P-8", "reason": "Feud"},
        follow=True,
    )
    assert messages_of(kept) == ["Player P-7 and Player P-8 are kept apart."]
    pair = KeptApart.objects.get()
    assert {pair.player_a.code, pair.player_b.code} == {"P-7", "P-8"}
    assert pair.reason == "Feud"
    twice = desk.post(
        "/floor/pairs",
        {"once": "k-4", "player_a": "P-8", "player_b": "P-7", "reason": "Again"},
        follow=True,
    )
    assert [m[:4] for m in messages_of(twice)] == ["WL9:"]
    assert KeptApart.objects.count() == 1
    stopped = desk.post(f"/floor/pairs/{pair.pk}/end", {"once": "k-5"}, follow=True)
    assert messages_of(stopped) == ["Pair ended."]
    assert KeptApart.objects.get().ended_at is not None
    body = stopped.content.decode()
    assert "No seat is locked up." in body and "No table must move." in body
    ended_here = Event.objects.filter(
        kind__in=[
            "lockup_released",
            "must_move_ended",
            "kept_apart",
            "kept_apart_ended",
        ]
    )
    assert (
        sorted(ended_here.values_list("by__username", flat=True)) == ["floor-web"] * 4
    )
