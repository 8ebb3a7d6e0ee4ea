"""Managers manage the terminals' keys over the API: create (the key shown once),
list (never the keys), revoke (refused at once) — API.md "Authentication"."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cardroom.models import TerminalKey
from core.models import IdempotencyRecord
from core.roles import Role
from tests.api.test_auth import assert_error_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(staff_client):
    return staff_client(Role.MANAGER, username="mia")


def terminal(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    return client


def test_a_manager_creates_lists_and_revokes_a_key(manager, table, other_table):
    created = manager.post("/api/v1/terminal-keys", {"table": "T01"}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    key, prefix = body["key"], body["prefix"]
    assert key.startswith(prefix + ".")
    assert (body["table"], body["name"], body["revoked"]) == (
        "T01",
        "terminal T01",
        False,
    )
    assert terminal(key).get("/api/v1/tables/T01").status_code == 200
    # The server keeps the hash only: no stored answer, no listing holds the key.
    assert key not in str(list(TerminalKey.objects.values()))
    assert not IdempotencyRecord.objects.exists()

    manager.post("/api/v1/terminal-keys", {"table": "T02", "name": "bar"}, "json")
    listed = manager.get("/api/v1/terminal-keys").json()
    assert {k["prefix"]: k["table"] for k in listed} == {
        prefix: "T01",
        listed[0]["prefix"]: "T02",
    }
    assert all("key" not in k for k in listed)
    assert key not in str(listed)
    only = manager.get("/api/v1/terminal-keys", {"table": "T01"}).json()
    assert [k["prefix"] for k in only] == [prefix]

    revoked = manager.post(f"/api/v1/terminal-keys/{prefix}/revoke")
    assert revoked.status_code == 200 and revoked.json()["revoked"] is True
    assert_error_shape(
        terminal(key).get("/api/v1/tables/T01"), 401, "authentication_failed"
    )
    states = manager.get("/api/v1/terminal-keys", {"state": "revoked"}).json()
    assert [k["prefix"] for k in states] == [prefix]
    again = manager.post(f"/api/v1/terminal-keys/{prefix}/revoke")
    assert_error_shape(again, 409, "key_revoked")


def test_refusals_name_what_is_wrong_and_create_nothing(manager, table):
    assert_error_shape(
        manager.post("/api/v1/terminal-keys", {"table": "T99"}, "json"),
        404,
        "not_found",
    )
    unknown = manager.post("/api/v1/terminal-keys", {"table": "T01", "x": 1}, "json")
    assert list(assert_error_shape(unknown, 400, "invalid")["fields"]) == ["x"]
    assert_error_shape(
        manager.get("/api/v1/terminal-keys", {"state": "lost"}), 400, "invalid"
    )
    assert_error_shape(
        manager.post("/api/v1/terminal-keys/NOPE/revoke"), 404, "not_found"
    )
    assert not TerminalKey.objects.exists()


@pytest.mark.parametrize("role", [Role.FLOOR, Role.CASHIER, Role.AUDITOR])
def test_other_roles_and_terminals_may_not_manage_keys(staff_client, table, role):
    _, key = TerminalKey.objects.create_key(name="T01", table=table)
    for client in (staff_client(role), terminal(key)):
        answer = client.post("/api/v1/terminal-keys", {"table": "T01"}, "json")
        assert_error_shape(answer, 403, "permission_denied")
        prefix = key.partition(".")[0]
        answer = client.post(f"/api/v1/terminal-keys/{prefix}/revoke")
        assert_error_shape(answer, 403, "permission_denied")
    assert TerminalKey.objects.count() == 1
    assert not TerminalKey.objects.get().revoked


def test_a_key_issued_by_the_api_key_library_still_verifies(table):
    """The keys issued before the project kept its own model verify as they did:
    the same columns, the same sha512 hash of ``<prefix>.<secret>``."""
    from rest_framework_api_key.crypto import KeyGenerator

    from cardroom.auth import verified_key

    key, prefix, hashed = KeyGenerator().generate()
    TerminalKey.objects.create(
        id=f"{prefix}.{hashed}",
        prefix=prefix,
        hashed_key=hashed,
        name="issued earlier",
        table=table,
    )
    assert verified_key(key).prefix == prefix
    with pytest.raises(TerminalKey.DoesNotExist):
        verified_key(f"{prefix}.not-the-secret")
    made, raw = TerminalKey.objects.create_key(name="new", table=table)
    assert KeyGenerator().verify(raw, made.hashed_key)


def test_the_admin_issues_a_key_shown_once_and_lists_it(admin_client, table):
    """The admin creates a key with the project's model: the key is shown once in
    the page's message and verifies; the list shows its prefix, never the key."""
    from cardroom.auth import verified_key

    added = admin_client.post(
        "/admin/cardroom/terminalkey/add/",
        {"name": "from the admin", "table": table.pk, "expiry_date": ""},
        follow=True,
    )
    assert added.status_code == 200
    key = TerminalKey.objects.get(name="from the admin")
    shown = [str(m) for m in added.context["messages"]]
    words = [w.rstrip(".") for m in shown for w in m.split()]
    raw = next(w for w in words if w.startswith(key.prefix + "."))
    assert verified_key(raw).pk == key.pk
    listing = admin_client.get("/admin/cardroom/terminalkey/").content.decode()
    assert key.prefix in listing and raw not in listing
