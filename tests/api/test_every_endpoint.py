"""Every endpoint of the schema refuses a caller without credentials (DESIGN.md).

The list of endpoints comes from the OpenAPI schema, so a new endpoint is checked
the day it is added; the public ones are named here, on purpose, one by one.
"""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PUBLIC = {
    ("post", "/api/v1/auth/login"),
    ("get", "/healthz"),
    ("get", "/api/v1/board"),
    ("get", "/api/v1/jackpots/summary"),
}
PARAMS = {"table": "T01", "player": "P-1", "id": "1", "pk": "1", "no": "1"}


def endpoints() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        for method in operations:
            if method in {"get", "post", "put", "patch", "delete"}:
                found.append((method, path))
    return sorted(found)


def concrete(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: PARAMS.get(m.group(1), "1"), path)


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
