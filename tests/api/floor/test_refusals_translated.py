"""A refusal answers in the caller's language (Accept-Language): the floor's texts
are templates translated when the answer is written (cardroom.errors)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

SHORT = {
    "fi": "Vajaa sisäänosto sallitaan kerran pelipäivässä, vain pot-limit-peleissä",
    "ko": "숏 바이인은 게임일당 한 번, 팟 리밋 게임에서만",
    "en": "A short buy-in is allowed once per gaming day, in pot-limit games only",
}


@pytest.mark.parametrize("language", ["fi", "ko", "en"])
def test_a_refused_short_buy_in_answers_in_the_callers_language(
    clock, open_table, players, language
):
    """BI4: the first buy-in of the day is never short, in Finnish, Korean or
    English, with the same code, rule and amounts."""
    terminal = open_table("T05", game="PLO12")
    answer = terminal.post(
        "/api/v1/tables/T05/seats",
        {"seat": 1, "player": "P-1", "amount": 5_000, "method": "cash"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 422, answer.content
    error = answer.json()["error"]
    assert (error["code"], error["rule"]) == ("short_buy_in_not_allowed", "BI4")
    assert error["allowed"] == {"min": 10_000, "max": 40_000}
    assert SHORT[language] in error["detail"]
    assert "5000" in error["detail"] and "10000" in error["detail"]
