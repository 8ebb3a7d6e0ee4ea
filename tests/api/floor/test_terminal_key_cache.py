"""A terminal's verified key is kept in the process, and a revocation is still
refused on the very next request (cardroom.auth)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.models import TerminalKey
from core.roles import Role
from tests.api.test_auth import assert_error_shape

from .conftest import post_hand
from .test_hands import heads_up, t01  # noqa: F401

pytestmark = pytest.mark.django_db


def second_hand():
    hand = heads_up(2)
    hand["seats"][0].update(stack=24_500, put_in=1_000)
    hand["seats"][1].update(stack=15_000, put_in=1_000)
    return hand


def test_a_verified_key_is_not_verified_again(t01, monkeypatch):  # noqa: F811
    assert t01.get("/api/v1/tables/T01").status_code == 200
    checks = []
    real = TerminalKey.is_valid
    monkeypatch.setattr(
        TerminalKey, "is_valid", lambda self, key: checks.append(key) or real(self, key)
    )
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    assert t01.get("/api/v1/tables/T01").status_code == 200
    assert checks == []


def test_a_key_revoked_is_refused_on_the_very_next_hand(
    t01,  # noqa: F811
    staff_client,
):
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    key = TerminalKey.objects.get(table__code="T01")
    manager = staff_client(Role.MANAGER, username="mona")
    assert manager.post(f"/api/v1/terminal-keys/{key.prefix}/revoke").status_code == 200
    answer = post_hand(t01, "T01", second_hand())
    assert_error_shape(answer, 401, "authentication_failed")
    assert_error_shape(t01.get("/api/v1/tables/T01"), 401, "authentication_failed")


@pytest.mark.parametrize(
    "change",
    [
        lambda key, now: setattr(key, "revoked", True),
        lambda key, now: setattr(key, "expiry_date", now - timedelta(minutes=1)),
    ],
    ids=["revoked in the admin", "expired"],
)
def test_a_key_changed_anywhere_is_refused_at_once(t01, clock, change):  # noqa: F811
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    key = TerminalKey.objects.get(table__code="T01")
    change(key, clock.now)
    key.save()
    assert_error_shape(
        post_hand(t01, "T01", second_hand()), 401, "authentication_failed"
    )
