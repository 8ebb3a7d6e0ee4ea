"""The floor services the waiting lists build on, called directly: opening and
closing tables, absences and the seat check that keeps barred players out (BI8, BI9,
WL3, WL7)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom import services as floor
from cardroom.models import Table
from core.api.errors import status_of
from core.errors import ApplicationError
from waitlist import services

from .conftest import STAFF, fill, nl12, sitting

pytestmark = pytest.mark.django_db


def test_a_table_opens_once_and_closes_only_empty(open_table, players, clock):
    """A table opens for the gaming day; it closes when nobody sits there (WL3)."""
    table = open_table("T01", seats=3)
    assert (table.status, table.opened_at, table.game is not None) == (
        "open",
        clock.now - timedelta(minutes=1),
        True,
    )
    with pytest.raises(ApplicationError) as error:
        open_table("T01", seats=3)
    assert (error.value.code, status_of(error.value)) == ("table_open", 409)
    fill(clock, "T01", ["P-1"])
    with pytest.raises(ApplicationError) as error:
        floor.table_close(table=table, now=clock.now)
    assert (error.value.rule, error.value.code) == ("WL3", "table_has_players")
    floor.seat_leave(
        source="floor-desk", table_code="T01", seat=1, stack=20_000, now=clock.now
    )
    closed = floor.table_close(table=table, now=clock.now)
    assert (closed.status, closed.closed_at) == ("closed", clock.now)
    with pytest.raises(ApplicationError) as error:
        services.list_call(
            source=STAFF, waiting_list=nl12(), table_code="T01", now=clock.now
        )
    assert (error.value.rule, error.value.code) == ("BI8", "table_closed")


def test_the_lists_of_a_game_open_on_first_use(open_table, clock):
    """WL1: one list per game, the same one each time it is asked for."""
    table = open_table("T01")
    assert services.list_for_game(table.game).pk == nl12().pk


def test_one_long_break_a_night_and_chips_picked_up_after_thirty_minutes(
    open_table, players, clock, make_staff
):
    """BI9: a second long break the same night is refused; more than 30 minutes
    away, the chips go to custody and the seat is free for the list."""
    open_table("T01", seats=3)
    fill(clock, "T01", ["P-1", "P-2"])
    floor.seat_away(table_code="T01", seat=1, long_break=True, now=clock.now)
    with pytest.raises(ApplicationError) as error:
        floor.seat_away(table_code="T01", seat=1, now=clock.now)
    assert error.value.code == "already_away"
    floor.seat_back(table_code="T01", seat=1, now=clock.now + timedelta(minutes=20))
    with pytest.raises(ApplicationError) as error:
        floor.seat_away(table_code="T01", seat=1, long_break=True, now=clock.now)
    assert (error.value.rule, error.value.code) == ("BI9", "long_break_used")
    floor.seat_away(table_code="T01", seat=2, now=clock.now)
    boss = make_staff("boss")
    with pytest.raises(ApplicationError) as error:
        floor.seat_pick_up(
            table_code="T01", seat=2, by=boss, now=clock.now + timedelta(minutes=30)
        )
    assert (error.value.rule, error.value.code) == ("BI9", "not_away_long_enough")
    later = clock.now + timedelta(minutes=30, seconds=1)
    session = floor.seat_pick_up(table_code="T01", seat=2, by=boss, now=later)
    assert (session.ended_at, session.left_with_cents) == (later, 20_000)
    assert sitting("P-2") is None
    services.entry_join(source=STAFF, waiting_list=nl12(), player_code="P-5", now=later)
    call = services.list_call(
        source=STAFF, waiting_list=nl12(), table_code="T01", now=later
    )
    assert call.entry is not None and call.entry.call_seat == 2


def test_a_closed_table_takes_no_lockups(open_table, clock):
    table = open_table("T01", seats=3)
    floor.table_close(table=table, now=clock.now)
    with pytest.raises(ApplicationError) as error:
        services.lockup_take(source=STAFF, table_code="T01", seat=1, now=clock.now)
    assert (error.value.rule, error.value.code) == ("BI8", "table_closed")
    assert Table.objects.get(code="T01").status == "closed"
