"""A refusal's ``detail`` is in the caller's language (Accept-Language), the room's
(LANGUAGE_CODE) when he names none, and Content-Language says which."""

from __future__ import annotations

import pytest

from tests.api.cage.test_language import refusal
from tests.api.floor.conftest import seat

from .conftest import join, key

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("fi", "WL1: P-1 on jo tällä listalla."),
        ("ko", "WL1: P-1은(는) 이미 이 명단에 있습니다."),
    ],
)
def test_a_waiting_list_refusal_answers_in_the_callers_language(
    floor, players, clock, language, text
):
    assert join(floor, "P-1").status_code == 201
    answer = floor.post(
        f"/api/v1/waitlist/lists/{key()}/join",
        {"player": "P-1"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert refusal(answer, 422, "already_listed") == (text, language)


def test_a_terminals_refusal_on_the_slim_path_is_translated_too(open_table, players):
    """The hand terminals' requests skip sessions and users, not the language."""
    terminal = open_table("T01")
    terminal.credentials(
        HTTP_AUTHORIZATION=terminal._credentials["HTTP_AUTHORIZATION"],
        HTTP_ACCEPT_LANGUAGE="fi",
    )
    answer = seat(terminal, "T01", 1, "P-404", 20_000)
    detail, said = refusal(answer, 422, "unknown_player")
    assert (detail, said) == (
        "Pelaajaa P-404 ei ole rekisteröity; rekisteröi hänet ensin.",
        "fi",
    )
