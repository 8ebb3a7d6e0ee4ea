"""Field types every API serializer shares: money and counts as strict integers.

API.md: "Money is an integer in the currency's minor unit (cents) … No floats and
no decimal strings anywhere in the API." DRF's ``IntegerField`` is lenient: it
reads ``"100"``, ``"100.00"`` and ``100.0`` as 100. These fields take a JSON
integer only, and bound it so that no sum the ledger makes of it overflows
PostgreSQL's ``bigint``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from django.core.validators import EmailValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

MAX_CENTS = 10**12
"""The largest amount a request may carry: €10,000,000,000.00. Balances are
``bigint`` (up to 2^63-1 cents); amounts this size can be added millions of times
over before one overflows."""

MAX_COUNT = 2**62
"""The largest id, number or count a request may carry (below ``bigint``'s top,
so that the next one still fits)."""


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: floats, strings and booleans are refused, never rounded."""

    default_error_messages = {"invalid": _("A whole number (a JSON integer).")}
    default_max_value = MAX_COUNT

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", self.default_max_value)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class CentsField(StrictIntegerField):
    """Integer cents: a JSON number without a fraction, at most :data:`MAX_CENTS`.
    Floats, strings and booleans are refused, never rounded (API.md)."""

    default_error_messages = {"invalid": _("Amounts are integer cents.")}
    default_max_value = MAX_CENTS


def _walk(
    field: Any, data: Any, path: str, known: Mapping[str, Collection[str]]
) -> list[str]:
    """The unknown keys in ``data`` read by ``field``, as dotted paths."""
    pattern = re.sub(r"\[\d+\]", "[]", path)
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if not isinstance(data, list):
            return []
        child = field.child
        return [
            name
            for i, item in enumerate(data)
            for name in _walk(child, item, f"{path}[{i}]", known)
        ]
    if not isinstance(data, Mapping):
        return []
    fields = (
        getattr(field, "fields", None)
        if isinstance(field, serializers.Serializer)
        else None
    )
    extra = known.get(pattern)
    if fields is None and extra is None:
        return []  # a free-form object nobody describes: nothing to check against
    names = set(extra or ()) | set(fields or ())
    prefix = f"{path}." if path else ""
    found = [f"{prefix}{key}" for key in data if key not in names]
    for name, sub in (fields or {}).items():
        # A read-only field is known, and its value dropped unread by DRF.
        if name in data and not sub.read_only:
            found += _walk(sub, data[name], f"{prefix}{name}", known)
    for name in set(extra or ()) - set(fields or ()):
        if name in data:
            found += _walk(None, data[name], f"{prefix}{name}", known)
    return found


def unknown_fields(
    serializer: serializers.BaseSerializer,
    data: Any,
    known: Mapping[str, Collection[str]] | None = None,
) -> list[str]:
    """Return the keys of ``data`` that ``serializer`` doesn't read, as paths
    (``"seats[2].colour"``), nested serializers and lists of them included.

    ``known`` names more keys by path pattern (``""`` the top, ``"seats[]"`` each
    item of ``seats``): what a domain parser reads beyond the serializer, and the
    keys of objects the serializer leaves free-form (a ``DictField``).
    """
    return _walk(serializer, data, "", known or {})


def refuse_unknown_fields(
    serializer: serializers.BaseSerializer,
    data: Any,
    known: Mapping[str, Collection[str]] | None = None,
) -> None:
    """Raise ``ValidationError`` (400) naming each field ``serializer`` doesn't read.

    API.md promises to change formats "only by adding fields": a field the server
    doesn't know is a client's mistake (a typo, another version), never data to
    store unread.
    """
    found = unknown_fields(serializer, data, known)
    if found:
        raise serializers.ValidationError(
            {name: [_("Unknown field.")] for name in found}
        )


WHITESPACE = (
    "\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a"
    "\\u2028\\u2029\\u202f\\u205f\\u3000"
)
"""The characters ``str.strip()`` takes off a text (``str.isspace()``), as a
regular expression's character class: what a trimmed field doesn't count."""

TEXT_PATTERN = "^[^\\u0000]+$"
"""Text a request may send: anything but NUL (U+0000), which PostgreSQL's text
can't hold. The parser refuses it anywhere in a body (400, ``core.api.parsers``);
the schema says so on every text field. The empty text, where a field takes it,
is drf-spectacular's other branch (``oneOf``: this or ``maxLength: 0``), so
this pattern leaves it out, or "" would match both."""

PARAMETER_PATTERN = "^[^\\u0000]*$"
"""A path's, a query string's or a header's text: anything but NUL, the empty
text included (``core.api.nul`` refuses a NUL there, 400)."""

FILLED_TEXT_PATTERN = f"^[^\\u0000]*[^\\u0000{WHITESPACE}][^\\u0000]*$"
"""Text that may not be blank: at least one character that isn't whitespace
(DRF trims a ``CharField`` and refuses it empty), and no NUL."""


def text_pattern(field: Any) -> str | None:
    """The pattern the schema gives ``field`` in a request, or None.

    Every ``CharField`` that has no pattern, format or choices of its own (a
    ``RegexField``, ``SlugField``, ``EmailField`` or ``URLField`` has) is text:
    :data:`TEXT_PATTERN`, or :data:`FILLED_TEXT_PATTERN` when it refuses to be
    blank once trimmed. So a request the schema allows never holds a NUL or a
    blank where the door wants words (API.md "Conventions").
    """
    if not isinstance(field, serializers.CharField):
        return None
    if any(isinstance(v, RegexValidator | EmailValidator) for v in field.validators):
        return None
    if not field.allow_blank and field.trim_whitespace:
        return FILLED_TEXT_PATTERN
    return TEXT_PATTERN


class UniqueListField(serializers.ListField):
    """A list whose items differ (400 for one twice); the schema says so
    (``uniqueItems``, core.api.schema)."""

    default_error_messages = {"unique": _("Each item once.")}

    def to_internal_value(self, data: Any) -> list[Any]:
        items = super().to_internal_value(data)
        seen: list[Any] = []
        for item in items:
            if item in seen:
                self.fail("unique")
            seen.append(item)
        return items


def _loose(field: Any, value: Any) -> Any:
    """What ``field`` reads ``value`` as though it isn't of the field's JSON type
    (DRF's ``CharField`` takes ``5`` as ``"5"``, its ``BooleanField`` ``0``,
    ``"yes"`` and ``"true"`` as booleans): the message saying what it takes, or
    None."""
    if isinstance(field, serializers.CharField):
        if value is not None and not isinstance(value, str):
            return _("Text, as a JSON string.")
    elif isinstance(field, serializers.BooleanField):
        if value is not None and not isinstance(value, bool):
            return _("true or false, as JSON.")
    elif isinstance(field, serializers.ListField) and isinstance(value, list):
        return next(
            (found for item in value if (found := _loose(field.child, item))), None
        )
    elif isinstance(field, serializers.DictField) and isinstance(value, Mapping):
        return next(
            (found for item in value.values() if (found := _loose(field.child, item))),
            None,
        )
    return None


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses fields it doesn't declare, and text or a
    boolean that isn't one in JSON (``"reason": 0``, ``"new_version": 0``), as
    the schema says (400)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            refuse_unknown_fields(self, data)
            loose = {
                name: [found]
                for name, field in self.fields.items()
                if name in data
                and not field.read_only
                and (found := _loose(field, data[name]))
            }
            if loose:
                raise serializers.ValidationError(loose)
        return super().to_internal_value(data)


class StrictModelSerializer(StrictSerializer, serializers.ModelSerializer):
    """A model serializer that takes input as strictly as :class:`StrictSerializer`:
    fields it doesn't declare are refused (400), and the model's integer columns
    read JSON integers only (:class:`StrictIntegerField`)."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.IntegerField: StrictIntegerField,
        models.SmallIntegerField: StrictIntegerField,
        models.BigIntegerField: StrictIntegerField,
        models.PositiveIntegerField: StrictIntegerField,
        models.PositiveSmallIntegerField: StrictIntegerField,
        models.PositiveBigIntegerField: StrictIntegerField,
    }


def choice_param(
    query: Mapping[str, Any], name: str, choices: Collection[str]
) -> str | None:
    """Return the query parameter ``name`` if it is one of ``choices``, else None
    when absent; raise ``ValidationError`` (400) naming what is allowed otherwise.

    A filter with a value outside its enum would match nothing and answer 200 with
    an empty list, which reads as "none" when it means "you misspelt it". An empty
    value is outside it too (``?status=``): the schema's enum doesn't hold "".
    """
    value = query.get(name)
    if value is None:
        return None
    if value not in choices:
        raise serializers.ValidationError(
            {
                name: [
                    _("%(value)s is not one of %(choices)s.")
                    % {"value": repr(value)[:40], "choices": ", ".join(choices)}
                ]
            }
        )
    return str(value)


def refuse_empty_params(query: Mapping[str, Any], names: Collection[str]) -> None:
    """Raise ``ValidationError`` (400) naming each of the query parameters
    ``names`` given empty (``?kind=``). DRF reads an empty value in a query as
    absent, so a filter left empty answered as if none were given, though the
    schema allows no empty value (a kind, a date)."""
    empty = [name for name in names if query.get(name) == ""]
    if empty:
        raise serializers.ValidationError(
            {name: [_("Give a value, or leave the parameter out.")] for name in empty}
        )


def count_param(query: Mapping[str, Any], name: str, default: int, most: int) -> int:
    """Return the query parameter ``name`` as a count (0 or more, ASCII digits
    only), ``default`` when absent, at most ``most`` (larger ones read as ``most``);
    raise ``ValidationError`` (400) for anything else.

    As :func:`count_parameter` documents it: what the schema allows is read, what
    it forbids (``-1``, ``1.5``, ``"ten"``, ``"²"``) refused, never guessed.
    """
    raw = query.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]+", raw):
        raise serializers.ValidationError({name: [_("A whole number, 0 or more.")]})
    # More digits than any bound has: ``most`` (and no int() of 5,000 digits).
    return most if len(raw) > 30 else min(int(raw), most)


def count_parameter(name: str, description: str = "") -> OpenApiParameter:
    """The OpenAPI query parameter :func:`count_param` reads: an integer, 0 or
    more."""
    return OpenApiParameter(
        name, {"type": "integer", "minimum": 0}, description=description
    )
