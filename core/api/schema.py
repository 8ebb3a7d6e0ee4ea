"""The OpenAPI schema documents the refusals every operation can answer.

API.md ("Conventions"): one error shape, with 400 for malformed input, 401/403 for
authentication and roles, 404, 409 for a conflict with recorded state and 422 for a
refusal by a house rule. Views document their answers; this schema class adds, in
the error shape, the refusals that follow from the operation itself: 400 for any
(a request can always be malformed, and a body that isn't JSON is), 401 and 403
unless it is public, 404 when its path names a resource, and 404, 409 and 422 for
a staff or terminal write with a body or a resource in its path.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import AllowAny

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


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema plus the refusals of API.md in the error shape."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        for status_code in self._error_statuses(operation):
            if str(status_code) not in responses:
                responses[str(status_code)] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, str(DESCRIPTIONS[status_code])),
                    str(status_code),
                )
        return operation

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
