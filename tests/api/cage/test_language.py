"""A refusal's ``detail`` is in the caller's language (Accept-Language), the room's
(LANGUAGE_CODE) when he names none, and Content-Language says which."""

from __future__ import annotations

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db

PURCHASE = {"cage": "MAIN", "player": "P-9999", "amount": 100}

CAGE = {
    "fi": "CA2: pelaajaa P-9999 ei ole rekisteröity; rekisteröi hänet ensin.",
    "ko": "CA2: 플레이어 P-9999은(는) 등록되지 않았습니다. 먼저 등록하세요.",
    "en": "CA2: player P-9999 is not registered; register him first.",
}


def refusal(answer, status: int, code: str) -> tuple[str, str]:
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert error["code"] == code
    return error["detail"], answer["Content-Language"]


@pytest.mark.parametrize("language", ["fi", "ko", "en"])
def test_a_cage_refusal_answers_in_the_callers_language(cashier, open_shift, language):
    answer = cashier.post(
        "/api/v1/cage/purchases",
        PURCHASE,
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    detail, said = refusal(answer, 422, "player_not_registered")
    assert (detail, said) == (CAGE[language], language)


@pytest.mark.parametrize("room", ["fi", "ko"])
def test_without_accept_language_the_rooms_language_is_used(cashier, open_shift, room):
    with override_settings(LANGUAGE_CODE=room):
        answer = cashier.post("/api/v1/cage/purchases", PURCHASE, format="json")
    assert refusal(answer, 422, "player_not_registered") == (CAGE[room], room)
