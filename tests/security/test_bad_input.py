"""NUL characters, which PostgreSQL can't store, are malformed input (400), not 500.

schemathesis found ``GET /api/v1/cage/payables?player=%00…`` answered 500; these
pin the fix (core/api/nul.py) for each place a NUL can come in.
"""

from __future__ import annotations

import pytest

from core.roles import Role
from tests.api.test_auth import assert_error_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(staff_client):
    return staff_client(Role.MANAGER, username="mia")


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/cage/payables?player=%00",
        "/api/v1/jackpots/awards?player=P-1%00",
        "/api/v1/jackpots/summary?room=%00",
        "/api/v1/players/P-1%00",
        "/api/v1/cage/payables?%00=1",
    ],
)
def test_a_nul_in_the_url_is_malformed(manager, url):
    assert_error_shape(manager.get(url), 400, "malformed_request")


def test_a_nul_in_a_header_is_malformed(manager, table):
    answer = manager.post(
        "/api/v1/tables/T01/close", HTTP_IDEMPOTENCY_KEY="retry-\x00-1"
    )
    assert_error_shape(answer, 400, "malformed_request")


def test_a_nul_anywhere_in_a_json_body_is_malformed(manager, table):
    """Also in free-form parts (a hand record's seats) that no CharField checks."""
    record = {
        "hand_no": 1,
        "game": "NLHE",
        "streets": 1,
        "seats": [{"seat": 1, "player": "P-1\u0000", "stack": 100, "put_in": 0}],
    }
    answer = manager.post("/api/v1/tables/T01/hands", record, format="json")
    assert_error_shape(answer, 400, "malformed_request")


def test_nul_free_input_goes_through(manager):
    """The check refuses NUL only: the same requests without it are answered."""
    assert manager.get("/api/v1/cage/payables?player=P-1").status_code == 200
    assert manager.get("/api/v1/players/P-1").status_code == 404
