"""A buy-in at a table whose tray can't give the chips (CA3): said in the
room's words to the terminal, with what the tray holds, and nothing booked."""

from __future__ import annotations

import pytest
from django.utils import translation

from cardroom.errors import TEXTS, Code
from tests.api.floor.conftest import seat
from tests.api.floor.ledger import fingerprint, refused

pytestmark = pytest.mark.django_db


def test_a_buy_in_the_tray_cant_give_names_the_tray_not_an_account(
    clock, open_table, players
):
    t04 = open_table("T04", tray=5_000)
    before = fingerprint()
    answer = seat(t04, "T04", 1, "P-1", 10_000)
    error = refused(answer, 422, "CA3", "tray_short")
    assert error["allowed"] == {"max": 5_000}
    assert "table:" not in error["detail"]
    assert fingerprint() == before


def test_a_buy_in_in_chips_he_doesnt_carry_is_said_as_ca2(clock, open_table, players):
    """CA2: chips brought from the cage are his; he can't bring more than he has."""
    t04 = open_table("T04")
    before = fingerprint()
    error = refused(
        seat(t04, "T04", 1, "P-1", 10_000, method="chips"), 422, "CA2", "chips_short"
    )
    assert error["allowed"] == {"max": 0}
    assert "player:" not in error["detail"]
    assert fingerprint() == before


def test_the_tray_refusal_is_in_the_callers_language(clock, open_table, players):
    """The refusal is said in the language the terminal asks for."""
    t04 = open_table("T04", tray=5_000)
    answer = t04.post(
        "/api/v1/tables/T04/seats",
        {"seat": 1, "player": "P-1", "amount": 10_000, "method": "cash"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="fi",
    )
    error = refused(answer, 422, "CA3", "tray_short")
    with translation.override("fi"):
        expected = translation.gettext(TEXTS[Code.TRAY_SHORT]) % {
            "t": "T04",
            "held": 5_000,
            "amount": 10_000,
        }
    assert error["detail"] == expected


def test_a_record_naming_another_table_is_422_with_the_tables_code(
    clock, open_table, players
):
    """A record the schema allows that contradicts its path: 422, never 400, and
    nothing booked."""
    t04 = open_table("T04")
    assert seat(t04, "T04", 1, "P-1", 10_000).status_code == 201
    before = fingerprint()
    answer = t04.post(
        "/api/v1/tables/T04/hands",
        {"table": "T05", "hand_no": 1, "game": "NLHE", "button": 1, "seats": []},
        format="json",
    )
    error = refused(answer, 422, None, "wrong_table")
    assert error["allowed"] == {"table": "T04"}
    assert fingerprint() == before
