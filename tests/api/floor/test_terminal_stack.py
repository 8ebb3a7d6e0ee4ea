"""A terminal's request skips the middleware it doesn't need (core/middleware.py)
and keeps what it does: security headers, its language, its request id."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory

from cardroom.models import Hand
from core.middleware import is_terminal
from tests.api.test_auth import assert_error_shape

from .conftest import post_hand
from .test_hands import heads_up, t01  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "authorization", "terminal"),
    [
        ("/api/v1/tables/T01/hands", "Api-Key abc.def", True),
        ("/api/v1/tables/T01/hands/batch", "Api-Key abc.def", True),
        ("/api/v1/tables/T01/hands", "Token abc", False),
        ("/api/v1/tables/T01/hands", "", False),
        ("/api/v1/tables", "Api-Key abc.def", False),
        ("/admin/", "Api-Key abc.def", False),
    ],
)
def test_only_a_keyed_request_to_a_tables_url_is_a_terminals(
    path, authorization, terminal
):
    request = RequestFactory().get(path, HTTP_AUTHORIZATION=authorization)
    assert is_terminal(request) is terminal


def test_a_terminals_answer_keeps_its_headers_and_language(t01):  # noqa: F811
    answer = t01.post(
        "/api/v1/tables/T01/hands",
        heads_up(game="PLO"),
        format="json",
        HTTP_ACCEPT_LANGUAGE="fi",
    )
    error = assert_error_shape(answer, 422, "wrong_game")
    assert error["rule"] == "HS9"
    assert answer["Content-Language"] == "fi"
    assert answer["X-Frame-Options"] == "DENY"
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert not answer.cookies


def test_a_terminals_refusal_is_logged_with_its_request_id(t01, caplog):  # noqa: F811
    with caplog.at_level(logging.WARNING, "django_structlog.middlewares.request"):
        t01.post(
            "/api/v1/tables/T01/hands",
            heads_up(game="PLO"),
            format="json",
            HTTP_X_REQUEST_ID="req-42",
        )
    [line] = [r.msg for r in caplog.records if isinstance(r.msg, dict)]
    assert line["event"] == "request_finished" and line["code"] == 422
    assert line["request"] == "POST /api/v1/tables/T01/hands"
    assert line["request_id"]


@pytest.mark.parametrize(
    "changes",
    [
        {"hand_no": 0},
        {"ended_at": "yesterday"},
        {"started_at": "2026-13-45T25:00:00+02:00"},
    ],
    ids=["hand 0", "no time", "no such day"],
)
def test_what_the_parser_leaves_to_the_server_is_malformed(t01, changes):  # noqa: F811
    """The engine's parser is the record's only check; the hand number's floor
    and the times' format are the service's, answered as the parser answers."""
    answer = post_hand(t01, "T01", heads_up(**changes))
    assert_error_shape(answer, 400, "malformed_hand")
    assert not Hand.objects.exists()
