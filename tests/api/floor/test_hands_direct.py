"""A terminal's plain ``POST hands`` takes the direct way (cardroom.api.terminal):
its answers are DRF's, status, error object and headers, for every outcome."""

from __future__ import annotations

import copy
import json
from unittest import mock

import pytest

from cardroom.api import terminal
from cardroom.models import Hand, TerminalKey
from core.roles import Role

from .conftest import post_hand
from .test_hands import heads_up, ledger_agrees_with_sessions, t01  # noqa: F401
from .test_terminal_key_cache import second_hand

pytestmark = pytest.mark.django_db

URL = "/api/v1/tables/T01/hands"
HEADERS = ("Content-Type", "Allow", "Vary", "WWW-Authenticate", "Content-Language")


def through_drf():
    """Every request DRF's way, as before the direct way."""
    return mock.patch.object(terminal, "direct", return_value=False)


def answered(response) -> tuple:
    return (
        response.status_code,
        response.json(),
        {h: response.headers.get(h) for h in HEADERS},
    )


def post_raw(client, body: bytes | str, **extra):
    return client.generic("POST", URL, body, content_type="application/json", **extra)


def test_a_terminal_hand_takes_the_direct_way(t01):  # noqa: F811
    with mock.patch.object(terminal, "answer", wraps=terminal.answer) as direct:
        assert post_hand(t01, "T01", heads_up()).status_code == 201
    direct.assert_called_once()


REFUSED = {
    "malformed JSON": b'{"hand_no": 2, ',
    "not an object": b"[1, 2]",
    "an unknown field": {**heads_up(2), "rabbit": 1},
    "a malformed record": {"hand_no": 2, "game": "NLHE"},
    "another game": {**heads_up(2), "game": "PLO"},
    "another table named": {**heads_up(2), "table": "T02"},
    "a conflicting repeat": {**heads_up(1), "button": 2},
    "out of order": {**heads_up(1), "hand_no": 0},
    "a seat not held": {
        **heads_up(2),
        "seats": [
            {**s, "player": "P-9"} if s["seat"] == 2 else s
            for s in heads_up(2)["seats"]
        ],
    },
    "too far ahead": {**heads_up(5_000)},
    "a NUL in a string": {**heads_up(2), "game": "NL\u0000HE"},
    "a number past bigint": b'{"hand_no": 99999999999999999999}',
}


@pytest.mark.parametrize("body", REFUSED.values(), ids=REFUSED.keys())
def test_a_refusal_is_answered_as_drf_answers_it(t01, body):  # noqa: F811
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    raw = body if isinstance(body, bytes) else json.dumps(body)
    direct = answered(post_raw(t01, raw))
    with through_drf():
        expected = answered(post_raw(t01, raw))
    assert direct == expected
    assert 400 <= direct[0] < 500
    assert Hand.objects.count() == 1


def test_a_booking_and_its_repeat_are_answered_as_drf_answers_them(t01):  # noqa: F811
    first = post_hand(t01, "T01", heads_up())
    with through_drf():
        repeat_drf = post_hand(t01, "T01", heads_up())
        second = post_hand(t01, "T01", second_hand())
    repeat = post_hand(t01, "T01", heads_up())
    again = post_hand(t01, "T01", second_hand())
    assert (first.status_code, second.status_code) == (201, 201)
    assert answered(repeat) == answered(repeat_drf)
    assert answered(again)[:2] == (200, second.json())
    assert answered(first)[2] == answered(second)[2]
    ledger_agrees_with_sessions()


def test_another_tables_key_is_forbidden_as_drf_forbids_it(
    t01,  # noqa: F811
    open_table,
):
    other = open_table("T02")
    direct = answered(post_hand(other, "T01", heads_up()))
    with through_drf():
        expected = answered(post_hand(other, "T01", heads_up()))
    assert direct == expected and direct[0] == 403
    assert not Hand.objects.exists()


@pytest.mark.parametrize("key", ["unknown", "revoked"])
def test_a_bad_key_is_refused_as_drf_refuses_it(t01, staff_client, key):  # noqa: F811
    assert post_hand(t01, "T01", heads_up()).status_code == 201
    if key == "unknown":
        t01.credentials(HTTP_AUTHORIZATION="Api-Key nope.nope")
    else:
        manager = staff_client(Role.MANAGER, username="mona")
        prefix = TerminalKey.objects.get(table__code="T01").prefix
        assert manager.post(f"/api/v1/terminal-keys/{prefix}/revoke").status_code == 200
    direct = answered(post_hand(t01, "T01", second_hand()))
    with through_drf():
        expected = answered(post_hand(t01, "T01", second_hand()))
    assert direct == expected
    assert direct[0] == 401 and direct[2]["WWW-Authenticate"] == "Api-Key"
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    "extra",
    [
        {"HTTP_ACCEPT": "text/html"},
        {"HTTP_IDEMPOTENCY_KEY": "k-1"},
        {"HTTP_ACCEPT_LANGUAGE": "fi"},
    ],
    ids=["another renderer asked", "an idempotency key", "in Finnish"],
)
def test_what_the_direct_way_leaves_to_drf_is_answered_by_drf(t01, extra):  # noqa: F811
    """A request the direct way can't answer exactly as DRF goes to DRF; a
    language is the direct way's too, and its refusals are in that language."""
    direct = terminal.direct
    seen = []
    with mock.patch.object(
        terminal, "direct", side_effect=lambda r: seen.append(direct(r)) or seen[-1]
    ):
        answer = post_hand(t01, "T01", {**heads_up(), "game": "PLO"}, **extra)
    assert answer.status_code == 422
    assert seen == [extra == {"HTTP_ACCEPT_LANGUAGE": "fi"}]
    if "HTTP_ACCEPT_LANGUAGE" in extra:
        assert answer.headers["Content-Language"] == "fi"
        with through_drf():
            expected = post_hand(t01, "T01", {**heads_up(), "game": "PLO"}, **extra)
        assert answer.json() == expected.json()


def test_a_body_the_direct_way_reads_is_the_parsers(t01):  # noqa: F811
    """Bodies beyond the plain ones (escapes, deep nesting) are read as DRF's
    parser reads them."""
    hand = copy.deepcopy(heads_up())
    hand["seats"][0]["player"] = "P-1"
    raw = json.dumps(hand).replace('"P-1"', '"\\u0050-1"')
    answer = post_raw(t01, raw)
    assert answer.status_code == 201, answer.content
    assert Hand.objects.get().record["seats"][0]["player"] == "P-1"
