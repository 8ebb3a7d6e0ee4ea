"""The API's one parser: JSON, read within limits, malformed input answered 400.

API.md: "Never 500 for anything a client sent". What the standard library's
``json`` accepts is more than the database and the services can hold, so a body is
refused as malformed (400, in the error shape) when it

- is larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (``request_too_large``);
- isn't UTF-8, isn't JSON, or nests arrays and objects deeper than
  :data:`MAX_DEPTH` (``json`` would raise ``RecursionError`` on 10,000 levels);
- holds an integer outside PostgreSQL's ``bigint`` (-2^63 … 2^63-1), a number that
  isn't finite (``1e400``), or ``NaN``/``Infinity``;
- holds a string PostgreSQL's text can't store: a NUL character (U+0000) or a
  lone surrogate (``"\\ud800"``), which is no Unicode character and has no UTF-8.

Only JSON is parsed: the API is JSON (API.md), so form encodings are refused with
the same 400 (see ``core.api.errors``), and a money field never arrives as the
string a form would make of it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import orjson
from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from core.errors import Invalid, SharedCode, invalid

MAX_DEPTH = 32
"""Arrays and objects nest at most this deep (a hand record needs four)."""

BIGINT_MIN = -(2**63)
BIGINT_MAX = 2**63 - 1


def max_body_bytes() -> int:
    """The largest body the API reads, in bytes (Django's setting)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440)


def body_too_large(limit: int) -> Invalid:
    """The refusal of a body over ``limit`` bytes (malformed input)."""
    return invalid(SharedCode.REQUEST_TOO_LARGE, allowed={"max_bytes": limit}, n=limit)


def _bad_string(text: str) -> str | None:
    """Say what PostgreSQL's text can't hold in ``text``, or None."""
    if "\x00" in text:
        return _("Text can't hold NUL characters (U+0000).")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return _("Text can't hold lone surrogates (U+D800 to U+DFFF).")
    return None


def check_value(data: Any) -> None:
    """Raise ``ParseError`` if decoded JSON holds what the API can't store.

    Iterative, so no depth of nesting exhausts the interpreter's stack.
    """
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            problem = _bad_string(value)
            if problem:
                raise ParseError(problem)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not BIGINT_MIN <= value <= BIGINT_MAX:
                raise ParseError(
                    _("Whole numbers are from -2^63 to 2^63-1, not %(n).30s…")
                    % {"n": str(value)}
                )
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ParseError(_("Numbers are finite."))
        elif isinstance(value, Mapping | list):
            if depth > MAX_DEPTH:
                raise ParseError(
                    _("Arrays and objects nest at most %(n)d deep.") % {"n": MAX_DEPTH}
                )
            if isinstance(value, Mapping):
                for key, item in value.items():
                    problem = _bad_string(key)
                    if problem:
                        raise ParseError(problem)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)


def _refuse_constant(name: str) -> Any:
    raise ParseError(_("%(name)s is not a JSON number.") % {"name": name})


_DIGITS = bytes.maketrans(b"0123456789", b"0" * 10)
_NINETEEN_DIGITS = b"0" * 19


def _large_number(raw: bytes) -> bool:
    """Whether ``raw`` has 19 digits in a row (an integer past ``bigint`` has them,
    and so has a float too long to be finite without an exponent) or a digit
    before an exponent: the regular expression ``\\d{19}|\\d[eE]``, as searches
    of the bytes with every digit made a 0 (a tenth of the expression's time on
    a hand record)."""
    zeros = raw.translate(_DIGITS)
    return _NINETEEN_DIGITS in zeros or b"0e" in zeros or b"0E" in zeros


def _plain(raw: bytes) -> bool:
    """Whether ``raw``, if it is JSON, can hold nothing :func:`check_value` refuses,
    judged from its bytes alone.

    A NUL character or a lone surrogate can only come as a ``\\u`` escape (JSON
    refuses raw control characters, and UTF-8 has no surrogates); arrays and
    objects can't nest deeper than there are brackets; a number past ``bigint``
    or a float that isn't finite needs 19 digits in a row or an exponent. A body
    that fails any of these is not refused for it: it takes the longer way.
    """
    return (
        b"\\u" not in raw
        and raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH
        and not _large_number(raw)
    )


def decode(raw: bytes) -> Any:
    """Return the JSON in ``raw``, checked by :func:`check_value`.

    Raises ``ParseError`` (400) for anything that isn't JSON the API can store.
    A plain body (:func:`_plain`: a hand record, most requests) is decoded by
    orjson, with nothing left to check; any other body, or one orjson refuses, by
    the standard library and :func:`check_value`, which say what is wrong. Both
    ways give the same values (``tests/unit/core/test_parsers.py``).
    """
    if _plain(raw):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass  # the standard library's message below
    return _decode_checked(raw)


def _decode_checked(raw: bytes) -> Any:
    """:func:`decode` by the standard library's ``json``, every value checked."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError(_("The body is not UTF-8.")) from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise ParseError(
            _("Arrays and objects nest at most %(n)d deep.") % {"n": MAX_DEPTH}
        ) from None
    except ValueError as exc:
        raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None
    check_value(data)
    return data


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded in size and checked by :func:`check_value`."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = max_body_bytes()
        request = (parser_context or {}).get("request")
        meta = getattr(request, "META", {}) if request is not None else {}
        try:
            declared = int(meta.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            raise body_too_large(limit)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise body_too_large(limit)
        return decode(raw)
