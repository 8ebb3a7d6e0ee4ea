"""Every endpoint of the schema refuses a caller without credentials (DESIGN.md).

The list of endpoints comes from the OpenAPI schema (tests/endpoints.py), so a new
endpoint is checked the day it is added.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.endpoints import PUBLIC, concrete, endpoints

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("method", "path"), endpoints())
def test_no_credentials_no_access(method, path, table):
    """Without credentials every non-public endpoint answers 401 or 403."""
    if (method, path) in PUBLIC:
        pytest.skip("public by design")
    answer = getattr(APIClient(), method)(concrete(path), {}, format="json")
    assert answer.status_code in (401, 403), (method, path, answer.status_code)
    assert answer.json()["error"]["code"] in ("not_authenticated", "permission_denied")


@pytest.mark.parametrize(("method", "path"), endpoints())
def test_a_terminal_key_is_no_staff_member(method, path, terminal, other_table):
    """A table's key opens only its own table's terminal endpoints."""
    if (method, path) in PUBLIC:
        pytest.skip("public by design")
    url = concrete(path)
    own_table = url.startswith("/api/v1/tables/T01")
    answer = getattr(terminal, method)(url.replace("/T01", "/T02"), {}, format="json")
    if own_table:
        # The same endpoint for another table is refused.
        assert answer.status_code == 403, (method, path, answer.status_code)
    else:
        assert answer.status_code in (401, 403), (method, path, answer.status_code)
