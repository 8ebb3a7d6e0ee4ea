"""A request whose database connection is lost before its commit: the backend is
ended (``pg_terminate_backend``) in the middle of the request.

A read is run once more on a new connection; a write with an ``Idempotency-Key``
is run once more by its unit of work and booked once; a write without one is
answered 503 with ``Retry-After`` in the error shape, and nothing of it is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from accounting.models import TableSlip
from accounting.services import cage
from cardroom import selectors as floor
from core.roles import Role
from tests.api.cage.conftest import cage as main_cage

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["main_cage"]

FILL = {"cage": "MAIN", "table": "T01", "amount": 25_000}


def ended_once(monkeypatch, owner: Any, name: str) -> list[int]:
    """Make ``owner.name`` end its own database backend the first time it is
    called, as a server restart would in the middle of the request; the calls
    are counted in the list returned."""
    calls: list[int] = []
    original: Callable[..., Any] = getattr(owner, name)

    def ending(*args: Any, **kwargs: Any) -> Any:
        calls.append(len(calls) + 1)
        if len(calls) == 1:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, ending)
    return calls


def test_a_read_is_run_again_on_a_new_connection(terminal, monkeypatch):
    calls = ended_once(monkeypatch, floor, "table_seats")
    answer = terminal.get("/api/v1/tables/T01/seats")
    assert answer.status_code == 200, answer.content
    assert calls == [1, 2]
    monkeypatch.undo()
    assert answer.json() == terminal.get("/api/v1/tables/T01/seats").json()


def test_a_write_with_a_key_is_run_again_and_booked_once(
    main_cage, staff_client, monkeypatch
):
    floor_person = staff_client(Role.FLOOR, username="fred")
    calls = ended_once(monkeypatch, cage, "slip_request")
    answer = floor_person.post(
        "/api/v1/cage/fills", FILL, format="json", HTTP_IDEMPOTENCY_KEY="fill-1"
    )
    assert answer.status_code == 201, answer.content
    assert calls == [1, 2]
    assert TableSlip.objects.count() == 1
    again = floor_person.post(
        "/api/v1/cage/fills", FILL, format="json", HTTP_IDEMPOTENCY_KEY="fill-1"
    )
    assert again.status_code == 201 and again.json() == answer.json()
    assert TableSlip.objects.count() == 1


def test_a_write_without_a_key_is_answered_503_and_keeps_nothing(
    main_cage, staff_client, monkeypatch
):
    floor_person = staff_client(Role.FLOOR, username="fred")
    calls = ended_once(monkeypatch, cage, "slip_request")
    answer = floor_person.post("/api/v1/cage/fills", FILL, format="json")
    assert answer.status_code == 503, answer.content
    assert answer["Retry-After"] == "1"
    error = answer.json()["error"]
    assert error["code"] == "database_unavailable"
    assert "with the same Idempotency-Key" in error["detail"]
    assert calls == [1]
    assert not TableSlip.objects.exists()
    # Sent again, it goes through.
    sent = floor_person.post("/api/v1/cage/fills", FILL, format="json")
    assert sent.status_code == 201, sent.content
    assert TableSlip.objects.count() == 1
