"""schemathesis against the OpenAPI schema: no 5xx, every answer as documented.

DESIGN.md ("Reliability and security targets"). The schema is loaded from
``/api/schema/`` of the WSGI application, in-process, over the demo room
(``demo_room`` and ``demo_jackpots``): open tables, a funded cage with an open
shift, registered players and jackpot pools, and a tournament running at T01 and
T02 (``tournament_running``), so that generated requests reach the services and
not only the look-ups. The table in a path is T01, the demo's first
table (the ``table`` parameter is fixed), so the terminal endpoints get past their
404; unknown tables are tests/security/test_roles.py's and tests/api's business.

Every operation is called with the credentials of a caller the role table allows
(tests/security/test_roles.py: the table's terminal key for the terminal
endpoints, a manager's token, else the role that may call it) and with none. Each
answer must not be a 5xx, must have a documented status and content type, and its
body must match the schema; a request the schema forbids (an unknown field, a
number as a string or a float, a value out of bounds) must be refused
(schemathesis's negative-data rejection check; API.md "Conventions"), and a
request it allows must not be answered 400 (the positive-data acceptance check):
whatever the schema can't state is refused for what it is, never as malformed.
A request the schema allows may be answered

- 2xx: done;
- 401: no credentials, or credentials unknown, revoked or expired;
- 403: the caller acts outside its role or its table;
- 404: the path, or a number or key in the body, names nothing (an entry, a
  payout, a deal);
- 409: it conflicts with what is recorded (a hand number used, a deal signed);
- 422: a house rule refuses it (``rule`` names it), or something the schema
  can't state: fields that contradict each other (a big blind below the small
  blind, a period ending before it starts), a key that names nothing the rule
  wants (a deal's entries, a race's seats) (core.errors.Unprocessable);
- 429: too many failed logins (the lockout, API.md "Authentication").

Generation is derandomized and bounded so the run is the same on every machine
and fits in the test suite's time.
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
from django.utils import timezone
from knox.models import AuthToken
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from cardroom.models import Room, Table, TerminalKey
from config.wsgi import application
from core.roles import Role
from tests.security.test_roles import ALLOWED
from tournaments import services as tournament_services
from tournaments.models import Event, EventTable, Level, Structure

pytestmark = pytest.mark.django_db

EVENT = "demo-event"
"""The running tournament the room fixture adds: the event in every tournament
path, its entry number 1 in the entries' paths, so that generated requests reach
the tournament services and not only their 404."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
]
# A request the schema forbids (an unknown field, a number as a string or a
# float, a value out of bounds) is refused: 400 malformed, refused before its body
# is read (401, 403; 404 for a path naming nothing; 405, 406, 413, 415) or by what
# is checked before the field it breaks (409, 422). Never 2xx. 5xx is
# not_a_server_error's to report.
REFUSED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422"]
# A request the schema allows is never malformed: it is taken (2xx), or refused
# for what isn't its form (the module's docstring says which). Never 400.
ACCEPTED = ["2xx", "401", "403", "404", "409", "422", "429"]
CHECKS_CONFIG = {
    "negative_data_rejection": {"expected-statuses": REFUSED},
    "positive_data_acceptance": {"expected-statuses": ACCEPTED},
}
# The doors the negative-data check doesn't hold, by their contract: a batch of
# hands answers a malformed hand in its place (200, that hand's 400 in
# ``results``) so that the hands queued beside it book (tests/api's batch tests).
# The other checks hold them.
NEGATIVE_BY_DESIGN = {
    "POST /api/v1/tables/{table}/hands/batch": "a malformed hand is answered in"
    " its place in results, and the others book",
}


def checks_for(case) -> list:
    """CHECKS, less the negative-data check for a door in NEGATIVE_BY_DESIGN."""
    label = f"{case.operation.method.upper()} {case.operation.path}"
    if label in NEGATIVE_BY_DESIGN:
        return [check for check in CHECKS if check is not negative_data_rejection]
    return CHECKS


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
        "parameters": {"table": "T01", "event": EVENT, "number": 1},
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
    tournament_running()
    return headers


def tournament_running() -> None:
    """A tournament running at the demo's tables T01 and T02 (the demo room has
    none): six entries sold at the cage, seated, the clock started at level 1."""
    structure = Structure.objects.create(code="demo-turbo", name="Demo turbo")
    for number, blinds in enumerate([(100, 200), (200, 400), None, (300, 600)], 1):
        Level.objects.create(
            structure=structure,
            number=number,
            minutes=20 if blinds else 10,
            is_break=blinds is None,
            small_blind=blinds[0] if blinds else 0,
            big_blind=blinds[1] if blinds else 0,
        )
    room = Room.objects.order_by("pk").first() or Room.objects.create(
        code="demo", name="Demo room", time_zone="Europe/Helsinki", currency="EUR"
    )
    event = Event.objects.create(
        room=room,
        code=EVENT,
        name="Demo event",
        currency="EUR",
        structure=structure,
        starts_at=timezone.now(),
        buy_in_cents=10_000,
        fee_cents=1_000,
        starting_stack=20_000,
        late_registration_level=2,
        reentry_max=1,
        rebuy_max=1,
        rebuy_until_level=2,
        rebuy_stack_limit=20_000,
        rebuy_cents=10_000,
        rebuy_chips=20_000,
        addon_level=3,
        addon_cents=10_000,
        addon_chips=20_000,
    )
    for order, table in enumerate(["T01", "T02"], 1):
        EventTable.objects.create(event=event, table=table, break_order=order)
    cashier = User.objects.get(username="demo-cashier")
    for n in range(1, 7):
        tournament_services.entry_register(
            event=event, player=f"P-100{n}", cage="MAIN", cashier=cashier
        )
    tournament_services.clock_change(
        event_code=EVENT, action="start", by=User.objects.get(username="demo-floor")
    )


def _nul_in_a_key(value: object) -> bool:
    if isinstance(value, dict):
        return any(
            "\x00" in str(key) or _nul_in_a_key(item) for key, item in value.items()
        )
    if isinstance(value, list):
        return any(_nul_in_a_key(item) for item in value)
    return False


def keys_without_nul(schema: schemathesis.schemas.BaseSchema) -> None:
    """Send no body with a NUL character in an object's key.

    The parser refuses NUL anywhere in a body (400, API.md "Conventions"), and
    the schema says so of every text value (a pattern, core.api.schema); of the
    keys of the objects that map entries, seats or tables to values it can't,
    as OpenAPI 3.0 has no ``propertyNames``. Every other key is sent, and a key
    that names nothing must be refused for that (404, 422), never 400.
    """

    @schema.hook
    def filter_body(ctx: object, body: object) -> bool:
        return not _nul_in_a_key(body)


schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)
keys_without_nul(schema)


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
    case.call_and_validate(
        headers={"Authorization": room[caller(case)]}, checks=checks_for(case)
    )


@SETTINGS
@schema.parametrize()
def test_without_credentials_every_answer_is_documented(case, room):
    """Callers with no or made-up credentials never get a 5xx or an undocumented
    answer."""
    case.call_and_validate(checks=checks_for(case))
