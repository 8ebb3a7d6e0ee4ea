"""Every refusal of the jackpots and the tournaments has a text, and it reads in
Finnish and Korean when the caller's language is one of them (STYLE, issue 17)."""

from __future__ import annotations

import pytest
from django.utils import translation

from core.errors import SharedCode
from jackpots import errors as jackpot_errors
from tournaments import errors as tournament_errors

TABLES = [jackpot_errors, tournament_errors]
# Passed through as the domain says them (their text is the domain's).
UNTABLED = {"bust_refused", "race_refused", "deal_refused", "payout_refused"}
# Templates with nothing to translate.
SAME = {"%(field)s: %(detail)s"}


@pytest.mark.parametrize("module", TABLES, ids=["jackpots", "tournaments"])
def test_every_code_has_a_text(module):
    keyed = {key if isinstance(key, str) else key[0] for key in module.TEXTS}
    assert {str(c) for c in module.Code} - {str(k) for k in keyed} <= UNTABLED


@pytest.mark.parametrize("language", ["fi", "ko"])
@pytest.mark.parametrize("module", TABLES, ids=["jackpots", "tournaments"])
def test_every_text_is_translated(module, language):
    with translation.override(language):
        for template in module.TEXTS.values():
            if template not in SAME:
                assert translation.gettext(template) != template, template


def test_a_refusal_reads_in_the_callers_language():
    error = tournament_errors.refuse(
        tournament_errors.Code.REGISTRATION_CLOSED, rule="TO1", level=4
    )
    with translation.override("fi"):
        finnish = error.detail
    with translation.override("ko"):
        korean = error.detail
    assert error.detail == "TO1: registration closed after level 4."
    assert "4" in finnish and finnish != error.detail
    assert "4" in korean and korean not in (error.detail, finnish)
    refused = jackpot_errors.refuse(SharedCode.FOUR_EYES, rule="BB5")
    with translation.override("fi"):
        assert refused.detail.startswith("BB5: osuman")
