"""Staff tokens, terminal keys, roles and login lockout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from cardroom.models import TerminalKey
from core.roles import Role
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def assert_error_shape(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, answer.content
    body = answer.json()
    assert set(body) == {"error"}
    assert {"code", "rule", "detail", "allowed"} <= set(body["error"])
    assert body["error"]["code"] == code
    assert body["error"]["detail"]
    return body["error"]


def test_unauthenticated_call_is_refused(api, table):
    """A call without credentials is refused with 401 in the error shape."""
    assert_error_shape(api.get("/api/v1/tables/T01"), 401, "not_authenticated")


def test_login_returns_an_expiring_bearer_token(api, make_staff):
    """Login answers a token and its expiry; the token opens the API."""
    make_staff("anna", Role.FLOOR)
    answer = api.post(
        "/api/v1/auth/login", {"username": "anna", "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 200
    body = answer.json()
    expires = timezone.datetime.fromisoformat(body["expires_at"])
    assert timedelta(hours=11) < expires - timezone.now() <= timedelta(hours=12)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert api.post("/api/v1/auth/logout").status_code == 204
    assert_error_shape(api.get("/api/v1/tables/T01"), 401, "authentication_failed")


def test_expired_token_is_refused(api, make_staff, table):
    """A token past its expiry no longer authenticates."""
    user = make_staff("anna", Role.FLOOR)
    instance, token = AuthToken.objects.create(user, expiry=timedelta(hours=1))
    AuthToken.objects.filter(pk=instance.pk).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert_error_shape(api.get("/api/v1/tables/T01"), 401, "authentication_failed")


def test_wrong_password_is_refused(api, make_staff):
    """A wrong password gets 401 and no token."""
    make_staff("anna", Role.FLOOR)
    answer = api.post(
        "/api/v1/auth/login", {"username": "anna", "password": "nope"}, format="json"
    )
    assert_error_shape(answer, 401, "invalid_credentials")


def test_login_locks_out_after_repeated_failures(api, make_staff, settings):
    """After the failure limit even the right password is refused (django-axes)."""
    make_staff("anna", Role.FLOOR)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        answer = api.post(
            "/api/v1/auth/login", {"username": "anna", "password": "x"}, format="json"
        )
        assert answer.status_code == 401
    answer = api.post(
        "/api/v1/auth/login", {"username": "anna", "password": "x"}, format="json"
    )
    assert_error_shape(answer, 429, "locked_out")
    answer = api.post(
        "/api/v1/auth/login", {"username": "anna", "password": PASSWORD}, format="json"
    )
    assert_error_shape(answer, 429, "locked_out")


def test_staff_without_the_role_is_refused(staff_client, table):
    """A cashier may not read a table's set-up: 403 in the error shape."""
    client = staff_client(Role.CASHIER)
    assert_error_shape(client.get("/api/v1/tables/T01"), 403, "permission_denied")
    assert staff_client(Role.FLOOR).get("/api/v1/tables/T01").status_code == 200


def test_terminal_key_acts_for_its_own_table_only(terminal, table, other_table):
    """A terminal key reads its own table and is refused at another's."""
    assert terminal.get("/api/v1/tables/T01").json()["code"] == "T01"
    assert_error_shape(terminal.get("/api/v1/tables/T02"), 403, "permission_denied")


def test_terminal_key_has_no_staff_role(terminal, table):
    """A terminal key can't log out or act as staff."""
    assert terminal.post("/api/v1/auth/logout").status_code == 403


def test_revoked_or_unknown_terminal_key_is_refused(table):
    """A revoked key and a made-up key are refused with 401."""
    key_obj, key = TerminalKey.objects.create_key(name="t", table=table)
    key_obj.revoked = True
    key_obj.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    assert_error_shape(client.get("/api/v1/tables/T01"), 401, "authentication_failed")
    client.credentials(HTTP_AUTHORIZATION="Api-Key abc.def")
    assert_error_shape(client.get("/api/v1/tables/T01"), 401, "authentication_failed")


def test_terminal_key_is_stored_hashed(table):
    """The database holds no usable copy of the key."""
    key_obj, key = TerminalKey.objects.create_key(name="t", table=table)
    stored = TerminalKey.objects.filter(pk=key_obj.pk).values_list(
        "hashed_key", flat=True
    )
    assert key not in stored.get()
    assert key.split(".")[1] not in stored.get()
