"""The deep schemathesis run: every operation, every phase, 50 examples each.

Deeper than tests/security/test_schemathesis.py, which the suite runs on every
``make test``: here schemathesis's examples, coverage (boundary and negative
cases, field by field) and fuzzing phases all run, with 50 generated examples an
operation, valid and invalid, as a manager (for every operation) and as table
T01's terminal (for the operations a terminal may call, tests/security/
test_roles.py; it is refused before reading anything elsewhere). Each answer must
not be a 5xx, must have a documented status and content type, and a body that
matches the schema; a request the schema forbids must be refused, and one it
allows must not be answered 400 (the negative-data rejection and positive-data
acceptance checks of test_schemathesis.py, with what each answer may be).
It takes a long while, so it is not part of ``make test``:

    make schemathesis-deep

(``SCHEMATHESIS_DEEP=1 pytest tests/security/test_schemathesis_deep.py``). With
``SCHEMATHESIS_REPORT=path`` it writes the counts (operations, cases, answers by
status class, 5xx) there as JSON.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator

import hypothesis
import pytest
import schemathesis

from config.wsgi import application
from tests.security.test_schemathesis import (
    CHECKS_CONFIG,
    allowed,
    checks_for,
    keys_without_nul,
)
from tests.security.test_schemathesis import room as room
from tests.security.test_schemathesis import (
    wsgi_in_the_test_transaction as wsgi_in_the_test_transaction,
)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        os.environ.get("SCHEMATHESIS_DEEP") != "1",
        reason="the deep run: make schemathesis-deep (SCHEMATHESIS_DEEP=1)",
    ),
]

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "50"))
CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 20261201,
        "generation": {"mode": "all", "max-examples": EXAMPLES},
        "phases": {
            "examples": {"enabled": True},
            "coverage": {"enabled": True},
            "fuzzing": {"enabled": True},
            "stateful": {"enabled": False},
        },
        "parameters": {"table": "T01"},
        "checks": CHECKS_CONFIG,
    }
)
SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)

schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)
keys_without_nul(schema)

COUNTS: Counter[str] = Counter()
OPERATIONS: dict[str, set[str]] = {"manager": set(), "terminal": set()}


def _write_report() -> None:
    summary = {
        "operations": {who: len(ops) for who, ops in OPERATIONS.items()},
        "cases": dict(COUNTS),
    }
    path = os.environ.get("SCHEMATHESIS_REPORT")
    if path:
        with open(path, "w") as out:
            json.dump(summary, out, indent=2, sort_keys=True)


@pytest.fixture(autouse=True)
def report() -> Iterator[None]:
    """Write the counts so far after each operation (SCHEMATHESIS_REPORT)."""
    yield
    _write_report()


def _call(case, who: str, authorization: str) -> None:
    OPERATIONS[who].add(f"{case.operation.method.upper()} {case.operation.path}")
    response = case.call(headers={"Authorization": authorization})
    COUNTS[f"{who}:cases"] += 1
    COUNTS[f"{who}:{response.status_code // 100}xx"] += 1
    case.validate_response(response, checks=checks_for(case))


@SETTINGS
@schema.parametrize()
def test_as_a_manager_every_answer_is_documented(case, room):
    _call(case, "manager", room["manager"])


@SETTINGS
@schema.parametrize()
def test_as_a_terminal_every_answer_is_documented(case, room):
    if "terminal" not in allowed(case):
        pytest.skip("a terminal is refused here before the body is read")
    _call(case, "terminal", room["terminal"])
