"""The OpenAPI schema documents the refusals every operation can answer.

API.md ("Conventions"): one error shape, with 400 for malformed input, 401/403 for
authentication and roles, 404, 409 for a conflict with recorded state and 422 for a
refusal by a house rule. Views document their answers; this schema class adds, in
the error shape, the refusals that follow from the operation itself: 400 for any
(a request can always be malformed, and a body that isn't JSON is), 401 and 403
unless it is public, 404 when its path names a resource, and 404, 409 and 422 for
a staff or terminal write with a body or a resource in its path.

It also says what a request body may hold (API.md "Conventions"): a
:class:`~core.api.fields.StrictSerializer` refuses the fields it doesn't declare,
so its request component has ``additionalProperties: false``, and schemathesis's
negative-data check sends it the unknown fields it must refuse
(tests/api/test_strict_contract.py walks every door). Every text field has a
pattern without NUL, non-blank where the field trims and refuses a blank
(:func:`~core.api.fields.text_pattern`), and fields that go together say how
(:func:`_alternatives`). So a request the schema allows is never answered 400:
schemathesis's positive-data check holds every door to it, and what the schema
can't state is refused with 422 (:class:`core.errors.Unprocessable`, or a house
rule's :class:`core.errors.Refusal`).

The schema is OpenAPI 3.0, where ``type: integer`` excludes ``1.0`` (in 3.1's
JSON Schema 2020-12 ``1.0`` is an integer, and the API takes JSON integers
only). 3.0 can't say what an object's keys may be (it has no ``propertyNames``):
the keys of the objects that map entries, seats or tables to values are read by
their doors, and a key that names nothing there is refused as such, never 400.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import force_instance
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from core.api.fields import (
    PARAMETER_PATTERN,
    StrictSerializer,
    UniqueListField,
    text_pattern,
)

WRITES = {"POST", "PUT", "PATCH", "DELETE"}

DESCRIPTIONS = {
    400: _(
        "Malformed input: a field, the JSON, a body that isn't JSON or is too large,"
        " a NUL character in the URL."
    ),
    401: _("No credentials, or credentials that are unknown, revoked or expired."),
    403: _("The caller acts outside its role or its table."),
    404: _("No such resource."),
    409: _("The request conflicts with recorded state."),
    422: _("A house rule refused the request; `rule` names it (RULES.md)."),
}


class ErrorSerializer(serializers.Serializer):
    """The error shape of API.md: ``{"error": {code, rule, detail, allowed}}``."""

    class Meta:
        ref_name = "Error"

    error = serializers.DictField(help_text="code, rule, detail, allowed")


class ErrorSchema(OpenApiSerializerExtension):
    """Describe :class:`ErrorSerializer` field by field (the shape is fixed)."""

    target_class = ErrorSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "error": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string", "example": "rule_violation"},
                        "rule": {
                            "type": "string",
                            "nullable": True,
                            "description": "The RULES.md ID that refused it.",
                        },
                        "detail": {"type": "string"},
                        "allowed": {
                            "type": "object",
                            "nullable": True,
                            "additionalProperties": {},
                            "description": "What was allowed, e.g. min and max.",
                        },
                        "fields": {
                            "type": "object",
                            "nullable": True,
                            "additionalProperties": {},
                            "description": "Malformed input: the messages by field.",
                        },
                    },
                    "required": ["code", "rule", "detail", "allowed"],
                }
            },
            "required": ["error"],
        }


def _values(values: list[Any]) -> dict[str, Any]:
    """One of ``values``: an ``enum`` each, under ``anyOf`` (an ``enum`` right
    under a property would be taken for a field's choices by drf-spectacular's
    enum hook and made a component)."""
    return {"anyOf": [{"enum": [value]} for value in values]}


def _one_of(name: str, values: list[Any]) -> dict[str, Any]:
    """``name`` is sent, one of ``values``."""
    return {"required": [name], "properties": {name: _values(values)}}


def _not_one_of(name: str, values: list[Any]) -> dict[str, Any]:
    """``name`` is left out, or none of ``values``."""
    return {"properties": {name: {"not": _values(values)}}}


def _absent(name: str, field: dict[str, Any]) -> dict[str, Any]:
    """``name`` is left out, or null if its schema ``field`` allows null (a
    value that isn't of its type)."""
    if field.get("nullable") and field.get("type"):
        return {"properties": {name: {"not": {"type": field["type"]}}}}
    return {"not": {"required": [name]}}


def _alternatives(meta: Any, properties: dict[str, Any]) -> dict[str, Any]:
    """What a request serializer's ``Meta`` says of fields that go together, as
    JSON Schema, each as its ``validate`` or its view refuses it (400):

    - ``any_required``: at least one of these sets of fields
      (``[["first"], ["month"]]``);
    - ``one_required``: exactly one of them (``[["cards"], ["race_order"],
      ["seed"]]``);
    - ``requires``: a field given only with others (``{"seat": ["table"]}``);
    - ``only_when``: a field given (not null) only when another has one of some
      values (``{"pool": ("destination", ["jackpot"])}``);
    - ``required_when``: a field given when another has one of some values,
      optionally meeting a schema then (``{"reason": ("new_version", [True],
      {"pattern": FILLED_TEXT_PATTERN})}``);
    - ``rules``: JSON Schema of its own, for what the words above don't say (at
      least one of some numbers above 0).

    ``properties`` are the serializer's fields' schemas.
    """
    rules: list[dict[str, Any]] = []
    sets = getattr(meta, "any_required", None)
    if sets:
        rules.append({"anyOf": [{"required": list(names)} for names in sets]})
    sets = getattr(meta, "one_required", None)
    if sets:
        rules.append({"oneOf": [{"required": list(names)} for names in sets]})
    for name, others in getattr(meta, "requires", {}).items():
        rules.append(
            {
                "anyOf": [
                    {"not": {"required": [name]}},
                    {"required": [name, *others]},
                ]
            }
        )
    for name, (other, values) in getattr(meta, "only_when", {}).items():
        absent = _absent(name, properties.get(name, {}))
        rules.append({"anyOf": [absent, _one_of(other, values)]})
    for name, (other, values, *then) in getattr(meta, "required_when", {}).items():
        given: dict[str, Any] = {"required": [name]}
        if then:
            given["properties"] = {name: then[0]}
        rules.append({"anyOf": [_not_one_of(other, values), given]})
    rules += getattr(meta, "rules", [])
    return {"allOf": rules} if rules else {}


def _say_text(field: Any, schema: dict[str, Any]) -> None:
    """Give a request's text field its pattern
    (:func:`~core.api.fields.text_pattern`); ``field`` None: a parameter's text,
    in a path, a query string or a header (:data:`~core.api.fields.
    PARAMETER_PATTERN`: the middleware refuses a NUL there, 400)."""
    pattern = PARAMETER_PATTERN if field is None else text_pattern(field)
    if (
        pattern
        and schema.get("type") == "string"
        and not {"pattern", "format", "enum"} & set(schema)
    ):
        schema["pattern"] = pattern


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema plus the refusals of API.md in the error shape."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        for parameter in operation.get("parameters", []):
            _say_text(None, parameter.get("schema", {}))
        responses = operation.setdefault("responses", {})
        for status_code in self._error_statuses(operation):
            if str(status_code) not in responses:
                responses[str(status_code)] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, str(DESCRIPTIONS[status_code])),
                    str(status_code),
                )
        return operation

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> Any:
        schema = super()._map_basic_serializer(serializer, direction)
        serializer = force_instance(serializer)
        if direction == "request" and isinstance(serializer, StrictSerializer):
            schema["additionalProperties"] = False
            meta = getattr(serializer, "Meta", None)
            schema.update(_alternatives(meta, schema.get("properties", {})))
        return schema

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction == "request" and isinstance(schema, dict):
            _say_text(field, schema)
        if isinstance(field, UniqueListField) and schema.get("type") == "array":
            schema["uniqueItems"] = True
        # A list that refuses to be empty says so (drf-spectacular leaves it out).
        lists = (serializers.ListSerializer, serializers.ListField)
        if (
            isinstance(field, lists)
            and not getattr(field, "allow_empty", True)
            and schema.get("type") == "array"
        ):
            schema["minItems"] = max(schema.get("minItems", 0), 1)
        return schema

    def _error_statuses(self, operation: dict[str, Any]) -> list[int]:
        public = any(isinstance(p, AllowAny) for p in self.view.get_permissions())
        where = {p.get("in") for p in operation.get("parameters", [])}
        # Any request can be malformed: bad JSON, a NUL character in its URL.
        statuses: set[int] = {400}
        if not public:
            statuses |= {401, 403}
        if "path" in where:
            statuses.add(404)
        refusable = "requestBody" in operation or "path" in where
        if self.method in WRITES and not public and refusable:
            statuses |= {404, 409, 422}
        return sorted(statuses)
