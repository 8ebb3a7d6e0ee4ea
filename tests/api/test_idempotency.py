"""Retries with the same Idempotency-Key write once (API.md, "Conventions")."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import Group
from django.db import connection, connections

from core.models import IdempotencyRecord
from core.roles import Role
from tests.api import idempotency_urls

URLS = "tests.api.idempotency_urls"
pytestmark = pytest.mark.urls(URLS)


def post(client, name: str, key: str | None = "k-1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post("/test/groups", {"name": name}, format="json", **headers)


@pytest.mark.django_db
def test_replay_returns_the_first_response_and_writes_once(staff_client):
    """The same key and body again: the first status and body, one row."""
    client = staff_client(Role.CASHIER)
    first, second = post(client, "night"), post(client, "night")
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Group.objects.filter(name="night").count() == 1


@pytest.mark.django_db
def test_same_key_with_another_body_is_422(staff_client):
    """The same key with another body is refused and writes nothing."""
    client = staff_client(Role.CASHIER)
    post(client, "night")
    answer = post(client, "day")
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "idempotency_key_reused"
    assert not Group.objects.filter(name="day").exists()


@pytest.mark.django_db
def test_keys_are_per_caller(staff_client):
    """Two callers using the same key string don't see each other's answers."""
    a = staff_client(Role.CASHIER, username="a")
    b = staff_client(Role.CASHIER, username="b")
    assert post(a, "from-a").json()["name"] == "from-a"
    assert post(b, "from-b").json()["name"] == "from-b"


@pytest.mark.django_db
def test_refused_request_is_not_stored_and_rolls_back(staff_client):
    """A refusal stores nothing, undoes its writes, and the key can be used again."""
    client = staff_client(Role.CASHIER)
    answer = post(client, "refuse-me")
    assert answer.status_code == 422
    assert answer.json()["error"]["rule"] == "XX1"
    assert not Group.objects.filter(name="refuse-me").exists()
    assert not IdempotencyRecord.objects.exists()
    assert post(client, "accepted").status_code == 201


@pytest.mark.django_db
def test_without_a_key_each_post_writes(staff_client):
    """No header: nothing is stored, every post runs."""
    client = staff_client(Role.CASHIER)
    assert post(client, "one", key=None).status_code == 201
    assert post(client, "two", key=None).status_code == 201
    assert not IdempotencyRecord.objects.exists()


def _wait_for_a_blocked_backend() -> None:
    """Hold the first request until another backend waits on its key's lock."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            # Activity statistics are a per-transaction snapshot unless cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.01)
    raise AssertionError("the second request never waited on the first")


@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicates_write_once(staff_client):
    """Two requests with one key at the same moment: one write, one replay."""
    client = staff_client(Role.CASHIER)
    first_in = threading.Event()

    def hold_first() -> None:
        if not first_in.is_set():
            first_in.set()
            _wait_for_a_blocked_backend()

    idempotency_urls.HOOK.append(hold_first)
    answers = []

    def send() -> None:
        try:
            answers.append(post(client, "race"))
        finally:
            connections.close_all()

    try:
        t1 = threading.Thread(target=send)
        t1.start()
        assert first_in.wait(10)
        t2 = threading.Thread(target=send)
        t2.start()
        t1.join(20)
        t2.join(20)
    finally:
        idempotency_urls.HOOK.clear()
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert Group.objects.filter(name="race").count() == 1
    assert IdempotencyRecord.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_request_retried_after_a_serialization_failure_books_once(staff_client):
    """PostgreSQL aborts the first attempt (40001) after the key was claimed and
    the row written: the unit of work runs again from the claim, and one row and
    one record stay."""
    from django.db import OperationalError
    from psycopg import errors as pg_errors

    client = staff_client(Role.CASHIER)
    attempts = []

    def abort_the_first() -> None:
        attempts.append(1)
        if len(attempts) == 1:
            Group.objects.create(name="lost")
            error = OperationalError("could not serialize access")
            error.__cause__ = pg_errors.SerializationFailure()
            raise error

    idempotency_urls.HOOK.append(abort_the_first)
    try:
        answer = post(client, "retried")
    finally:
        idempotency_urls.HOOK.clear()
    assert answer.status_code == 201, answer.content
    assert len(attempts) == 2
    written = Group.objects.filter(name__in=["lost", "retried"])
    assert list(written.values_list("name", flat=True)) == ["retried"]
    assert IdempotencyRecord.objects.count() == 1
    assert post(client, "retried")["Idempotent-Replayed"] == "true"
