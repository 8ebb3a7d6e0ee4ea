"""The operations of the OpenAPI schema, for tests that go through every one.

The list comes from the schema, so a new endpoint is checked the day it is added;
the public ones are named here, on purpose, one by one.
"""

from __future__ import annotations

import re

from drf_spectacular.generators import SchemaGenerator

PUBLIC = {
    ("post", "/api/v1/auth/login"),
    ("get", "/healthz"),
    ("get", "/api/v1/board"),
    ("get", "/api/v1/board/tournaments"),
    ("get", "/api/v1/jackpots/summary"),
    # A tablet redeems its one-time pairing code before it holds a key.
    ("post", "/api/v1/terminal/pair"),
}
PARAMS = {"table": "T01", "player": "P-1", "id": "1", "pk": "1", "no": "1"}
METHODS = {"get", "post", "put", "patch", "delete"}


def endpoints() -> list[tuple[str, str]]:
    """Every (method, path) of the schema, sorted."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        for method in operations:
            if method in METHODS:
                found.append((method, path))
    return sorted(found)


def concrete(path: str, **params: str) -> str:
    """The path with its parameters filled in from ``PARAMS`` (or ``params``)."""
    values = {**PARAMS, **params}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)
