"""schemathesis against the OpenAPI schema: no 5xx, every answer as documented.

DESIGN.md ("Reliability and security targets"). The schema is loaded from
``/api/schema/`` of the WSGI application, in-process, over the demo room
(``demo_room`` and ``demo_jackpots``): open tables, a funded cage with an open
shift, registered players and jackpot pools, so that generated requests reach the
services and not only the look-ups. The table in a path is T01, the demo's first
table (the ``table`` parameter is fixed), so the terminal endpoints get past their
404; unknown tables are tests/security/test_roles.py's and tests/api's business.

Every operation is called with the credentials of a caller the role table allows
(tests/security/test_roles.py: the table's terminal key for the terminal
endpoints, a manager's token, else the role that may call it) and with none. Each
answer must not be a 5xx, must have a documented status and content type, and its
body must match the schema. Generation is derandomized and bounded so the run is
the same on every machine and fits in the test suite's time.
"""

from __future__ import annotations

import io
import os

import hypothesis
import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core import signals
from django.core.management import call_command
from django.db import close_old_connections
from knox.models import AuthToken
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from cardroom.models import Table, TerminalKey
from cardroom.wsgi import application
from core.roles import Role
from tests.security.test_roles import ALLOWED

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Examples per operation and caller; a deeper run: SCHEMATHESIS_EXAMPLES=200
# SCHEMATHESIS_COVERAGE=1 (the coverage phase adds schemathesis's boundary cases).
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "5"))
COVERAGE = os.environ.get("SCHEMATHESIS_COVERAGE", "") == "1"
CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 20261129,
        "generation": {"mode": "all"},
        "phases": {
            "examples": {"enabled": True},
            "coverage": {"enabled": COVERAGE},
            "stateful": {"enabled": False},
        },
        "parameters": {"table": "T01"},
    }
)
SETTINGS = hypothesis.settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
)
# The staff roles, in the order one is picked to call an operation.
STAFF = ("manager", "cashier", "floor", "auditor", "staff")


@pytest.fixture
def wsgi_in_the_test_transaction():
    """Keep the test's database connection across WSGI requests.

    Django closes the connection at the end of each request; inside a test that
    would close the transaction the test runs in. Django's test client unhooks the
    same receivers for the same reason.
    """
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def room(db, wsgi_in_the_test_transaction) -> dict[str, str]:
    """The demo room, and an ``Authorization`` header for each of its callers."""
    call_command("demo_room", stdout=io.StringIO())
    call_command("demo_jackpots", stdout=io.StringIO())
    headers = {}
    for role in Role:
        _, token = AuthToken.objects.create(User.objects.get(username=f"demo-{role}"))
        headers[role.value] = f"Bearer {token}"
    nobody = User.objects.create_user("nobody", is_staff=True)
    headers["staff"] = f"Bearer {AuthToken.objects.create(nobody)[1]}"
    _, key = TerminalKey.objects.create_key(
        name="schemathesis", table=Table.objects.get(code="T01")
    )
    headers["terminal"] = f"Api-Key {key}"
    return headers


schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


def allowed(case) -> tuple[str, ...]:
    return ALLOWED[(case.operation.method.lower(), case.operation.path)]


def caller(case) -> str:
    """A caller the role table lets in: the terminal for its endpoints, else staff."""
    names = allowed(case)
    if "terminal" in names:
        return "terminal"
    return next((name for name in STAFF if name in names), "manager")


@SETTINGS
@schema.parametrize()
def test_with_credentials_every_answer_is_documented(case, room):
    """Staff and terminals allowed to call an operation never get a 5xx or an
    undocumented answer."""
    case.call_and_validate(headers={"Authorization": room[caller(case)]}, checks=CHECKS)


@SETTINGS
@schema.parametrize()
def test_without_credentials_every_answer_is_documented(case, room):
    """Callers with no or made-up credentials never get a 5xx or an undocumented
    answer."""
    case.call_and_validate(checks=CHECKS)
