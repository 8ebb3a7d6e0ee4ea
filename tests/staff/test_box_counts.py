"""The cage's box counts on a screen (CA4): each table's boxes counted blind,
booked once, the variance shown per box once counted, a box counted once a day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounting.models import BoxCount
from cardroom.models import Room
from tests.api.floor.conftest import (
    clock,
    manager,
    open_table,
    players,
    post_hand,
    stock_tray,
)
from tests.api.floor.test_hands import heads_up
from tests.api.floor.test_voids import t01
from tests.staff.test_cage_views import key_of, text

pytestmark = pytest.mark.django_db
__all__ = ["clock", "manager", "open_table", "players", "stock_tray", "t01"]


@pytest.fixture
def counter(t01) -> Client:
    """The cashier who filled T01's tray, his shift open at the cage."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(User.objects.get(username="tray-cashier"))
    return client


def form_key(page: str, table: str, box: str) -> str:
    row = page.split(f'data-box="{table}-{box}"', 1)[1].split("</tr>", 1)[0]
    return row.split('name="once" value="', 1)[1].split('"', 1)[0]


def test_a_box_is_counted_blind_once_and_its_variance_shown(t01, counter):
    """The rake box of T01 took €5 at the showdown; counted €4.50 it is €0.50
    short, booked once however often the form is sent; a second count of the
    same box that day is refused (CA4)."""
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    day = Room.objects.get().gaming_day(timezone.now())
    page = text(counter.get(f"/cage/boxes?day={day.isoformat()}"))
    assert 'data-box="T01-rake"' in page and 'data-box="T01-drop"' in page
    assert "€5.00" not in page  # blind: nothing recorded is shown before the count
    form = {
        "once": form_key(page, "T01", "rake"),
        "table": "T01",
        "box": "rake",
        "day": day.isoformat(),
        "T01-rake-amount": "4.50",
    }
    first = counter.post("/cage/boxes/count", form)
    second = counter.post("/cage/boxes/count", form)
    assert first.status_code == second.status_code == 302
    count = BoxCount.objects.get()
    assert (count.recorded_cents, count.counted_cents) == (500, 450)
    assert count.variance_cents == -50
    shown = text(counter.get(first["Location"]))
    row = shown.split('data-box="T01-rake"', 1)[1].split("</tr>", 1)[0]
    assert "€4.50" in row and "€5.00" in row and "-€0.50" in row
    assert "booked once" in shown


def test_a_count_that_isnt_money_or_of_no_box_is_refused_and_books_nothing(
    t01, counter
):
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    day = Room.objects.get().gaming_day(timezone.now())
    page = text(counter.get(f"/cage/boxes?day={day.isoformat()}"))
    bad = {
        "once": form_key(page, "T01", "drop"),
        "table": "T01",
        "box": "drop",
        "day": day.isoformat(),
        "T01-drop-amount": "12,34",
    }
    shown = text(counter.post("/cage/boxes/count", bad, follow=True))
    assert "12,34" in shown and not BoxCount.objects.exists()
    nobox = {**bad, "table": "T99", "once": key_of(counter.get("/cage/boxes"))}
    shown = text(counter.post("/cage/boxes/count", nobox, follow=True))
    assert "CA4: choose a box on the list." in shown
    assert not BoxCount.objects.exists()


def test_the_day_counted_is_yesterdays_by_default_and_never_tomorrow(t01, counter):
    day = Room.objects.get().gaming_day(timezone.now())
    page = text(counter.get("/cage/boxes"))
    assert f'value="{(day - timedelta(days=1)).isoformat()}"' in page
    later = text(
        counter.get(f"/cage/boxes?day={(day + timedelta(days=3)).isoformat()}")
    )
    assert f'value="{day.isoformat()}"' in later
