"""One strict contract for every API door (API.md "Conventions").

A request body refuses the fields its door doesn't read and takes numbers as JSON
integers only, and the OpenAPI schema says so: ``additionalProperties: false`` on
every object a request sends, ``integer`` for every number. The doors are walked
from drf-spectacular's own list of endpoints, so a new endpoint is checked the day
it is added, and can't be looser than the old ones.
"""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import spectacular_settings
from knox.models import AuthToken
from rest_framework import serializers
from rest_framework.test import APIClient

from accounting.models import Cage, Shift
from cardroom.models import Hand, Table
from core.api.fields import StrictIntegerField, StrictSerializer
from core.roles import Role
from tests.api.floor.conftest import *  # noqa: F403 (clock, open_table, players…)
from tests.api.floor.conftest import GAMES, POLICY, post_hand, seat
from tests.api.floor.test_hands import heads_up
from tests.api.test_auth import assert_error_shape
from tests.conftest import PASSWORD
from waitlist.models import Lockup

LOOSE_NUMBERS = (serializers.FloatField, serializers.DecimalField)


def request_serializers() -> list[tuple[str, Any]]:
    """(``METHOD path``, request serializer) of every operation that takes a body."""
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    found = []
    for path, _regex, method, view in generator._get_paths_and_endpoints():
        if method not in {"POST", "PUT", "PATCH"}:
            continue
        view.request = spectacular_settings.GET_MOCK_REQUEST(method, path, view, None)
        view.schema.path, view.schema.method = path, method
        serializer = view.schema.get_request_serializer()
        if serializer is not None:
            found.append((f"{method} {path}", serializer))
    return found


def loose_fields(field: Any, where: str) -> list[str]:
    """The places under ``field`` where a request could be looser than the contract."""
    if isinstance(field, type):
        field = field()
    if getattr(field, "read_only", False):
        return []
    documented = getattr(field, "_spectacular_annotation", None)
    if isinstance(documented, serializers.BaseSerializer | type):
        # A field the schema documents as a serializer (extend_schema_field):
        # what it takes is what that serializer describes.
        return loose_fields(documented, where)
    if isinstance(field, serializers.ListSerializer):
        return loose_fields(field.child, f"{where}[]")
    if isinstance(field, serializers.ListField | serializers.DictField):
        return loose_fields(field.child, f"{where}[]")
    if isinstance(field, serializers.Serializer):
        found = []
        if not isinstance(field, StrictSerializer):
            found.append(f"{where}: {type(field).__name__} is no StrictSerializer")
        for name, child in field.fields.items():
            found += loose_fields(child, f"{where}.{name}")
        return found
    if isinstance(field, serializers.IntegerField) and not isinstance(
        field, StrictIntegerField
    ):
        return [f"{where}: IntegerField reads '1', '1.0' and 1.0 as 1"]
    if isinstance(field, LOOSE_NUMBERS):
        return [f"{where}: {type(field).__name__} is no integer"]
    return []


def test_every_request_serializer_is_strict():
    """Each door's request serializer, nested ones and list items included, is a
    StrictSerializer with StrictIntegerField (or CentsField) numbers."""
    found = []
    for operation, serializer in request_serializers():
        found += loose_fields(serializer, operation)
    assert found == []


def test_the_walk_finds_every_kind_of_loose_field():
    """The walk above finds what it looks for (else it would pass on anything)."""

    class Inner(serializers.Serializer):
        n = serializers.IntegerField()

    class Outer(StrictSerializer):
        ok = StrictIntegerField()
        inner = Inner()
        items = serializers.ListField(child=serializers.FloatField())
        out = serializers.IntegerField(read_only=True)

    assert loose_fields(Outer, "X") == [
        "X.inner: Inner is no StrictSerializer",
        "X.inner.n: IntegerField reads '1', '1.0' and 1.0 as 1",
        "X.items[]: FloatField is no integer",
    ]


def _resolve(spec: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def loose_schema(
    spec: dict[str, Any], node: Any, where: str, seen: set[int], *, rule: bool = False
) -> list[str]:
    """The objects under ``node`` that allow unknown properties, and the numbers
    that aren't integers.

    A ``rule`` is a branch of ``allOf``/``anyOf``/``oneOf`` or a ``not`` that
    constrains the object around it (fields that go together, core.api.schema):
    it names some of that object's properties and defines no object of its own.
    """
    if isinstance(node, dict) and "$ref" in node:
        rule = False  # a component: an object of its own
    node = _resolve(spec, node)
    if not isinstance(node, dict) or id(node) in seen:
        return []
    seen.add(id(node))
    found = []
    kind = node.get("type")
    if "number" in (kind if isinstance(kind, list) else [kind]):
        found.append(f"{where}: a number that isn't an integer")
    if (
        "properties" in node
        and not rule
        and node.get("additionalProperties") is not False
    ):
        found.append(f"{where}: no additionalProperties: false")
    for name, child in node.get("properties", {}).items():
        found += loose_schema(spec, child, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            found += loose_schema(spec, node[key], f"{where}[]", seen)
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(key, []):
            found += loose_schema(spec, branch, where, seen, rule=True)
    if isinstance(node.get("not"), dict):
        found += loose_schema(spec, node["not"], where, seen, rule=True)
    return found


@pytest.mark.django_db
def test_the_schema_says_every_request_body_is_strict(api):
    """``/api/schema/``: every object a request body holds has
    ``additionalProperties: false``, every number is an integer."""
    spec = api.get("/api/schema/?format=json").json()
    found = []
    bodies = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                bodies += 1
                where = f"{method.upper()} {path}"
                found += loose_schema(spec, media["schema"], where, set())
    assert bodies > 40
    assert found == []


# -- doors that read more than they declared ----------------------------------------


@pytest.fixture
def t01(open_table, players, clock):
    return open_table("T01", seats=3)


def test_a_policy_with_a_field_the_engine_doesnt_read_is_refused(manager, clock):
    """``POST /api/v1/tables``: a policy's unknown field (a typo of ``cap``) was
    stored unread; the policy holds what the schema's PolicyRequest describes."""
    for policy, named in [
        ({**POLICY, "rake": {**POLICY["rake"], "kap": 300}}, "rake.kap"),
        ({**POLICY, "jackpot": None}, "jackpot"),
    ]:
        body = {"code": "T09", **GAMES["NL12"], "policy": policy}
        answer = manager.post("/api/v1/tables", body, format="json")
        error = assert_error_shape(answer, 400, "invalid")
        assert named in str(error["fields"]["policy"])
    assert not Table.objects.filter(code="T09").exists()


def test_a_lockup_takes_its_seat_as_a_json_integer_only(floor, t01):
    """``POST /api/v1/waitlist/lockups`` read ``"2"`` and ``2.0`` as seat 2."""
    for number in ("2", 2.0):
        body = {"table": "T01", "seat": number, "kind": "seat"}
        answer = floor.post("/api/v1/waitlist/lockups", body, format="json")
        error = assert_error_shape(answer, 400, "invalid")
        assert list(error["fields"]) == ["seat"]
    body = {"table": "T01", "seat": 2, "kind": "seat", "until": "tonight"}
    answer = floor.post("/api/v1/waitlist/lockups", body, format="json")
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == ["until"]
    assert not Lockup.objects.exists()


def test_a_login_with_an_unknown_field_is_refused(make_staff):
    """``POST /api/v1/auth/login`` ignored what it didn't read (``otp``)."""
    make_staff("kalle", Role.CASHIER)
    client = APIClient()
    body = {"username": "kalle", "password": PASSWORD, "otp": "123456"}
    answer = client.post("/api/v1/auth/login", body, format="json")
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == ["otp"]
    assert not AuthToken.objects.exists()


def test_a_shift_opened_with_an_unknown_field_is_refused(staff_client):
    """``POST /api/v1/cage/shifts``: a count under a misspelt name (``cips``)
    was dropped and the shift opened without it."""
    Cage.objects.create(code="MAIN", name="Main cage", currency="EUR")
    cashier = staff_client(Role.CASHIER, username="kalle")
    body = {"cage": "MAIN", "cash": 0, "chips": 0, "cips": 500_000}
    answer = cashier.post("/api/v1/cage/shifts", body, format="json")
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == ["cips"]
    assert not Shift.objects.exists()


def test_a_hand_record_refuses_the_engines_own_findings(clock, open_table, players):
    """``POST hands``: ``simple`` is what the engine finds of a hand (no dead money,
    no muck), no field of the record; a posted one was read as known and dropped."""
    t01 = open_table("T01")
    for n in (1, 2):
        assert seat(t01, "T01", n, f"P-{n}", 20_000).status_code == 201
    answer = post_hand(t01, "T01", heads_up(simple=True))
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == ["simple"]
    assert not Hand.objects.exists()
    assert post_hand(t01, "T01", heads_up()).status_code == 201


def test_an_empty_filter_is_outside_its_enum(staff_client):
    """``GET /api/v1/cage/payables?status=`` answered every payable, as if no
    filter were given; the schema's enum holds no empty value (found by the deep
    schemathesis run's negative-data check)."""
    cashier = staff_client(Role.CASHIER, username="kalle")
    answer = cashier.get("/api/v1/cage/payables?status=")
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == ["status"]
    assert cashier.get("/api/v1/cage/payables?status=open").status_code == 200


def test_an_empty_stack_review_filter_is_outside_its_enum(staff_client):
    """``GET /api/v1/stack-reviews?status=`` answered every review, unfiltered
    (found by the suite's schemathesis negative-data check)."""
    floor = staff_client(Role.FLOOR, username="fred")
    answer = floor.get("/api/v1/stack-reviews?status=")
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == ["status"]
    assert floor.get("/api/v1/stack-reviews?status=open").status_code == 200
    assert floor.get("/api/v1/stack-reviews").status_code == 200


@pytest.mark.parametrize("query", ["kind=", "day=", "kind=&day=2026-11-28"])
def test_an_empty_report_filter_is_refused(staff_client, query):
    """``GET /api/v1/reports/?kind=`` answered every report, unfiltered: DRF reads
    an empty query value as absent, and the schema holds no empty kind or date
    (found by the deep schemathesis run's negative-data check)."""
    auditor = staff_client(Role.AUDITOR, username="audrey")
    answer = auditor.get(f"/api/v1/reports/?{query}")
    name = query.split("=")[0]
    assert list(assert_error_shape(answer, 400, "invalid")["fields"]) == [name]
    assert auditor.get("/api/v1/reports/?kind=jackpot").status_code == 200


def test_text_and_booleans_arrive_as_their_json_types(staff_client, manager, clock):
    """A text field took ``0`` as ``"0"`` (DRF's CharField), a boolean ``0`` as
    false (its BooleanField), where the schema says string and boolean: a
    report's reason and new_version, a policy's rake percentage (found by the
    deep schemathesis run's negative-data check). Refused, as numbers given as
    text are; every StrictSerializer, its lists' and objects' items included."""
    auditor = staff_client(Role.AUDITOR, username="audrey")
    report = {"kind": "daily_audit", "first": "2026-11-27"}
    for loose in ({"reason": 0}, {"new_version": 0}, {"new_version": "true"}):
        answer = auditor.post("/api/v1/reports/", {**report, **loose}, format="json")
        fields = assert_error_shape(answer, 400, "invalid")["fields"]
        assert list(fields) == list(loose), loose
    policy = {**POLICY, "rake": {"scheme": "percent", "percent": 5}}
    body = {"code": "T09", **GAMES["NL12"], "policy": policy}
    answer = manager.post("/api/v1/tables", body, format="json")
    assert "percent" in str(assert_error_shape(answer, 400, "invalid")["fields"])
    assert not Table.objects.filter(code="T09").exists()

    class Texts(StrictSerializer):
        one = serializers.CharField()
        many = serializers.ListField(child=serializers.CharField())
        keyed = serializers.DictField(child=serializers.RegexField("^[a-z]+$"))
        flag = serializers.BooleanField(default=False)

    for wrong in (
        {"one": 7, "many": [], "keyed": {}},
        {"one": "a", "many": ["a", 1.5], "keyed": {}},
        {"one": "a", "many": [], "keyed": {"k": 3}},
        {"one": True, "many": [], "keyed": {}},
        {"one": "a", "many": [], "keyed": {}, "flag": 1},
        {"one": "a", "many": [], "keyed": {}, "flag": "yes"},
    ):
        texts = Texts(data=wrong)
        assert not texts.is_valid(), wrong
    right = {"one": "a", "many": ["b"], "keyed": {"k": "c"}, "flag": True}
    assert Texts(data=right).is_valid()
