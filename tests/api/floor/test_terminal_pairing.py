"""Pairing a tablet with its table: a one-time code made by a manager, redeemed
once within ten minutes for a new key of the table (API.md "Pairing a terminal")."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from cardroom.models import TerminalKey, TerminalPairing
from cardroom.services.terminal_keys import (
    PAIRING_ALPHABET,
    pairing_code_hash,
    pairing_code_normal,
)
from tests.api.test_auth import assert_error_shape

pytestmark = pytest.mark.django_db

PAIR = "/api/v1/terminal/pair"


@pytest.fixture(autouse=True)
def fresh_throttle():
    """Each test starts with no attempt counted (the throttle counts in the cache,
    by the caller's address)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def code(manager, table, clock) -> str:
    answer = manager.post("/api/v1/terminal-pairings", {"table": "T01"}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["code"]


def test_a_manager_makes_a_code_valid_ten_minutes(manager, table, clock):
    """The answer shows the code grouped, its expiry ten minutes on the room's
    clock, and the terminal page's address carrying it; the server keeps only a
    hash."""
    answer = manager.post("/api/v1/terminal-pairings", {"table": "T01"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    code = body["code"]
    assert len(code) == 9 and code[4] == "-"
    assert set(code.replace("-", "")) <= set(PAIRING_ALPHABET)
    assert body["table"] == "T01"
    pairing = TerminalPairing.objects.get(pk=body["id"])
    assert pairing.created_at == clock.now
    assert (pairing.expires_at - pairing.created_at).total_seconds() == 600
    assert body["pair_url"] == f"http://testserver/terminal/?pair={code}"
    assert code.replace("-", "") not in pairing.code_hash
    assert pairing.code_hash == pairing_code_hash(code.replace("-", ""))


def test_the_code_is_redeemed_once_for_a_key_of_the_table(code, table, api):
    """The tablet gets a key of the table, which opens the table's terminal API;
    the same code again is refused as used."""
    answer = api.post(PAIR, {"code": code}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["table"] == "T01"
    key = TerminalKey.objects.get(prefix=body["prefix"])
    assert key.table == table and not key.revoked
    assert key.name == "tablet 2026-11-29 21:00"
    pairing = TerminalPairing.objects.get()
    assert pairing.key == key and pairing.redeemed_at is not None
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Api-Key {body['key']}")
    assert tablet.get("/api/v1/tables/T01/seats").status_code == 200
    assert tablet.get("/api/v1/tables/T02/seats").status_code == 403
    again = api.post(PAIR, {"code": code}, format="json")
    assert_error_shape(again, 422, "pairing_code_used")
    assert TerminalKey.objects.filter(table=table).count() == 1


@pytest.mark.parametrize(
    "typed",
    [
        lambda c: c.lower(),
        lambda c: c.replace("-", ""),
        lambda c: f"  {c.replace('-', ' ').lower()} ",
    ],
    ids=["lower case", "no dash", "a space, spaces around"],
)
def test_the_code_is_taken_in_any_case_with_or_without_the_dash(code, api, typed):
    answer = api.post(PAIR, {"code": typed(code)}, format="json")
    assert answer.status_code == 201, answer.content


def test_an_expired_code_is_refused(code, api, clock):
    """Ten minutes after it was made the code pairs nothing."""
    clock.advance(minutes=10)
    answer = api.post(PAIR, {"code": code}, format="json")
    error = assert_error_shape(answer, 422, "pairing_code_expired")
    assert "10" in error["detail"]
    assert not TerminalKey.objects.exists()
    clock.advance(minutes=-1)
    assert api.post(PAIR, {"code": code}, format="json").status_code == 201


def test_a_wrong_code_is_refused_and_a_malformed_one_is_malformed(code, api):
    wrong = "2222-2222" if code != "2222-2222" else "3333-3333"
    assert_error_shape(
        api.post(PAIR, {"code": wrong}, format="json"), 422, "pairing_code_unknown"
    )
    for bad in ("7KQ4-M2X0", "short", "7KQ4--M2XD", 12345678):
        assert_error_shape(api.post(PAIR, {"code": bad}, format="json"), 400, "invalid")
    assert_error_shape(
        api.post(PAIR, {"code": code, "x": 1}, format="json"), 400, "invalid"
    )
    assert not TerminalKey.objects.exists()


def test_guessing_is_held_off_after_ten_attempts_a_minute(code, api, clock):
    """Ten well-formed attempts a minute by one address; then 429 with
    Retry-After, even for the right code, until the minute is over. Malformed
    bodies are refused before they count."""
    for _ in range(5):
        assert api.post(PAIR, {"code": "nope"}, format="json").status_code == 400
    for _ in range(10):
        answer = api.post(PAIR, {"code": "2222-3333"}, format="json")
        assert answer.status_code == 422
    held = api.post(PAIR, {"code": code}, format="json")
    assert_error_shape(held, 429, "throttled")
    assert int(held["Retry-After"]) > 0
    other = APIClient(REMOTE_ADDR="10.0.0.9")
    assert other.post(PAIR, {"code": "2222-3333"}, format="json").status_code == 422


def test_the_pairing_door_ignores_a_stale_key(code, api):
    """A tablet that still sends a revoked key pairs all the same."""
    api.credentials(HTTP_AUTHORIZATION="Api-Key stale.key")
    assert api.post(PAIR, {"code": code}, format="json").status_code == 201


def test_pairing_needs_a_manager(floor, table, staff_client):
    from core.roles import Role

    answer = floor.post("/api/v1/terminal-pairings", {"table": "T01"}, format="json")
    assert_error_shape(answer, 403, "permission_denied")
    auditor = staff_client(Role.AUDITOR)
    answer = auditor.post("/api/v1/terminal-pairings", {"table": "T01"}, format="json")
    assert answer.status_code == 403


def test_an_unknown_table_has_no_code(manager, db):
    answer = manager.post("/api/v1/terminal-pairings", {"table": "T99"}, format="json")
    assert_error_shape(answer, 404, "not_found")


def test_unpairing_is_revoking_the_key(code, api, manager):
    body = api.post(PAIR, {"code": code}, format="json").json()
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Api-Key {body['key']}")
    revoked = manager.post(f"/api/v1/terminal-keys/{body['prefix']}/revoke")
    assert revoked.status_code == 200
    assert tablet.get("/api/v1/tables/T01/state").status_code == 401


def test_the_database_keeps_a_pairing_redeemed_once(code, api, table):
    """A redeemed pairing can't be redeemed again or changed, nor deleted; a
    pairing redeemed without a key is refused."""
    api.post(PAIR, {"code": code}, format="json")
    pairing = TerminalPairing.objects.get()
    other, _raw = TerminalKey.objects.create_key(name="x", table=table)
    with pytest.raises(Exception, match="Cannot update"), transaction.atomic():
        TerminalPairing.objects.filter(pk=pairing.pk).update(key=other)
    with (
        pytest.raises(Exception, match=r"Cannot delete|permission denied"),
        transaction.atomic(),
    ):
        TerminalPairing.objects.filter(pk=pairing.pk).delete()
    fresh = TerminalPairing.objects.create(
        table=table,
        code_hash="x" * 64,
        created_by=pairing.created_by,
        created_at=pairing.created_at,
        expires_at=pairing.expires_at,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        TerminalPairing.objects.filter(pk=fresh.pk).update(
            redeemed_at=pairing.created_at
        )


def test_the_database_refuses_a_pairing_redeemed_after_it_expired(code, table):
    """A code pairs a tablet only before it expires: the database refuses a
    redemption at or after its expiry, whoever writes it."""
    pairing = TerminalPairing.objects.get()
    key, _raw = TerminalKey.objects.create_key(name="late", table=table)
    with (
        pytest.raises(IntegrityError, match="pairing_redeemed_before_expiry"),
        transaction.atomic(),
    ):
        TerminalPairing.objects.filter(pk=pairing.pk).update(
            redeemed_at=pairing.expires_at, key=key
        )


def test_codes_read_off_a_screen_are_normalised():
    assert pairing_code_normal("7kq4 m2xd") == "7KQ4M2XD"
    assert pairing_code_normal("7KQ4-M2X") is None
    assert pairing_code_normal("OOOO-1111") is None
