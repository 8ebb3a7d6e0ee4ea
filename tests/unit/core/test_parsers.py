"""The API's JSON parser decodes a plain body by orjson and any other by the
standard library with every value checked: both ways give the same answer
(core/api/parsers.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError

from core.api import parsers


def outcome(decode: Any, raw: bytes) -> tuple[str, str]:
    """What ``decode`` makes of ``raw``: its value, types and order shown, or the
    refusal's words."""
    try:
        return "value", repr(decode(raw))
    except ParseError as error:
        return "refused", str(error.detail)


def assert_same(raw: bytes) -> None:
    assert outcome(parsers.decode, raw) == outcome(parsers._decode_checked, raw)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.integers(min_value=-(2**63) - 2, max_value=-(2**63) + 2)
    | st.integers(min_value=2**63 - 2, max_value=2**63 + 2)
    | st.floats(allow_nan=False)
    | st.text()
    | st.sampled_from(["\x00", "a\x00b", "\ud800", "x\udfffy", "ä€😀", "\\u0000"])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=40,
)


def encoded(value: Any, ascii_only: bool) -> bytes:
    # The standard library writes lone surrogates as escapes and inf as Infinity.
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@given(values, st.booleans())
def test_any_json_gives_the_same_answer_both_ways(value: Any, ascii_only: bool) -> None:
    assert_same(encoded(value, ascii_only))


@given(
    values,
    st.lists(
        st.tuples(st.integers(min_value=0), st.binary(max_size=3)),
        min_size=1,
        max_size=3,
    ),
)
def test_broken_json_gives_the_same_answer_both_ways(
    value: Any, edits: list[tuple[int, bytes]]
) -> None:
    raw = bytearray(encoded(value, False))
    for position, insert in edits:
        at = position % (len(raw) + 1)
        del raw[at : at + 1]
        raw[at:at] = insert
    assert_same(bytes(raw))


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(
    "raw",
    [
        nested(parsers.MAX_DEPTH),
        nested(parsers.MAX_DEPTH + 1),
        nested(10_000),
        b'{"a": "\\u0000"}',
        b'{"a": "\\ud800"}',
        b'{"\\u0000": 1}',
        b'{"a": 9223372036854775807}',
        b'{"a": 9223372036854775808}',
        b'{"a": -9223372036854775809}',
        b'{"a": 1e400}',
        b'{"a": -1e400}',
        b'{"a": NaN}',
        b'{"a": Infinity}',
        b'\xef\xbb\xbf{"a": 1}',
        b'{"a": "\xed\xa0\x80"}',
        b'{"a": "\xff"}',
        b"",
        b"{",
        b'{"a": 1} x',
        b'{"a": 1, "a": 2}',
    ],
)
def test_the_edges_give_the_same_answer_both_ways(raw: bytes) -> None:
    assert_same(raw)


def test_a_hand_record_takes_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.api.floor.test_hands import heads_up

    raw = json.dumps(heads_up()).encode()
    assert parsers._plain(raw)

    def not_this_way(raw: bytes) -> Any:
        raise AssertionError("a plain body went the long way")

    monkeypatch.setattr(parsers, "_decode_checked", not_this_way)
    assert parsers.decode(raw) == json.loads(raw)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": "\\u00e4"}',
        nested(parsers.MAX_DEPTH + 1),
        b"[1e5]",
        b"[1234567890123456789]",
    ],
)
def test_what_could_be_refused_takes_the_long_way(raw: bytes) -> None:
    assert not parsers._plain(raw)


@settings(max_examples=2000)
@given(
    st.lists(
        st.sampled_from([b"0", b"7", b"9", b"e", b"E", b"x", b"-", b".", b'"', b" "]),
        max_size=60,
    ).map(b"".join)
    | st.binary(max_size=60)
)
def test_a_large_number_is_found_as_the_expression_finds_it(raw: bytes) -> None:
    """19 digits in a row or a digit before an exponent, exactly as
    ``\\d{19}|\\d[eE]`` finds them in bytes."""
    expected = re.search(rb"\d{19}|\d[eE]", raw) is not None
    assert parsers._large_number(raw) is expected
