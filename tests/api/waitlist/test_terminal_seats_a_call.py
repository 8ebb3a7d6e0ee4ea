"""The table's terminal seats the player the floor called to it (WL2, WL5): the
call ends as seated, as when the floor seats him; another table's terminal can't."""

from __future__ import annotations

from cardroom.models import SeatSession
from tests.api.waitlist.conftest import called, joined, refused, status_of
from waitlist.models import Event


def seat_call(client, table: str, entry: int, **body):
    return client.post(
        f"/api/v1/tables/{table}/calls/{entry}/seat", body, format="json"
    )


def test_the_terminal_seats_the_called_player_and_the_call_ends_seated(
    floor, small, clock
):
    entry = joined(floor, "P-5")
    called(floor, table="T01")
    clock.advance(minutes=2)
    answer = seat_call(small, "T01", entry, amount=20_000, method="cash")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["table"], body["seat"], body["stack"]) == ("T01", 3, 20_000)
    assert status_of(entry) == ("seated", "seated")
    (seated,) = Event.objects.filter(kind="seated", entry_id=entry)
    assert seated.source == "terminal:T01" and seated.by is None
    assert SeatSession.objects.get(player__code="P-5", ended_at=None).seat == 3


def test_a_retry_with_its_key_seats_him_once(floor, small, clock):
    entry = joined(floor, "P-5")
    called(floor, table="T01")
    headers = {"HTTP_IDEMPOTENCY_KEY": "seat-call-1"}
    url = f"/api/v1/tables/T01/calls/{entry}/seat"
    body = {"amount": 20_000, "method": "cash"}
    first = small.post(url, body, format="json", **headers)
    again = small.post(url, body, format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert SeatSession.objects.filter(player__code="P-5").count() == 1


def test_a_buy_in_below_the_minimum_is_refused_and_the_call_stays(floor, small, clock):
    entry = joined(floor, "P-5")
    called(floor, table="T01")
    error = refused(seat_call(small, "T01", entry, amount=100, method="cash"), "BI1")
    assert error["allowed"]["min"] == 10_000
    assert status_of(entry) == ("called", "")


def test_another_tables_call_is_not_this_tables_to_seat(
    floor, small, open_table, clock
):
    other = open_table("T02")
    entry = joined(floor, "P-5")
    called(floor, table="T01")
    assert (
        seat_call(other, "T01", entry, amount=20_000, method="cash").status_code == 403
    )
    answer = seat_call(other, "T02", entry, amount=20_000, method="cash")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    assert status_of(entry) == ("called", "")
