"""The engine's codes and texts: one table (cardroom.domain.errors), every refusal
built from it, its detail translated when it is read, the English unchanged."""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest

import core.errors
from cardroom.domain import errors
from cardroom.domain.errors import TEXTS, Code, HandError, Phrase, refuse
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.phh import to_record
from cardroom.domain.settlement import settle_many

from .helpers import POLICY, hand, seat

DOMAIN = Path(errors.__file__).parent


def test_every_code_has_its_text() -> None:
    """Each code has a text of its own; a variant is keyed by a code of the table."""
    assert {key for key in TEXTS if isinstance(key, Code)} == set(Code)
    for key in TEXTS:
        if isinstance(key, tuple):
            assert isinstance(key[0], Code) and isinstance(key[1], str)


def test_the_engine_refuses_only_through_the_table() -> None:
    """No module of the engine builds a HandError of its own code and text."""
    for path in DOMAIN.glob("*.py"):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "HandError", f"{path.name}:{node.lineno}"


@pytest.fixture
def catalogue(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A language whose catalogue holds the texts put in it, as Django's does."""
    texts: dict[str, str] = {}
    monkeypatch.setattr(core.errors, "_translate", lambda t: texts.get(t, t))
    return texts


def test_the_detail_is_translated_when_read(catalogue: dict[str, str]) -> None:
    """Raised in English, read in the language active when it is read."""
    error = refuse(Code.DUPLICATE_SEAT, seat=3)
    assert error.detail == "Seat 3 is listed twice."
    catalogue[TEXTS[Code.DUPLICATE_SEAT]] = "Paikka %(seat)s on listattu kahdesti."
    assert error.detail == "Paikka 3 on listattu kahdesti."
    assert error.as_dict()["error"]["code"] == "duplicate_seat"


def test_a_batch_and_a_phrase_are_translated_with_their_message(
    catalogue: dict[str, str],
) -> None:
    """``Hand N:`` and the hand's own detail, and the words inside a message."""
    bad = hand(seat(1, 2000, "As Ad"), seat(2, 2000, "As Ks"))
    with pytest.raises(HandError) as refused:
        good = hand(seat(1, 100, "Kh Kd"), seat(2, 100, "Qh Qd"))
        settle_many([good, bad], parse_policy(POLICY))
    english = refused.value.detail
    assert (
        english == "Hand 1: As dealt more than once: a duplicate card voids the hand."
    )
    catalogue[errors.IN_BATCH] = "Jako %(index)s: %(error)s"
    catalogue[TEXTS[Code.DUPLICATE_CARD]] = "%(cards)s jaettu kahdesti."
    assert refused.value.detail == "Jako 1: As jaettu kahdesti."
    assert refused.value.as_dict()["error"]["index"] == 1
    bet = Phrase(core.errors.gettext_noop("the bet"))
    error = refuse(Code.NEGATIVE_AMOUNT, text="phh", field=bet, value=-5)
    catalogue["the bet"] = "panos"
    catalogue[TEXTS[Code.NEGATIVE_AMOUNT, "phh"]] = (
        "%(field)s ei saa olla negatiivinen (%(value)s)."
    )
    assert error.detail == "panos ei saa olla negatiivinen (-5)."


def test_a_phh_amount_names_its_player_in_words() -> None:
    """An amount that isn't whole cents names the player's stack, as it did."""
    history = {
        "variant": "NT",
        "antes": [0, 0],
        "blinds_or_straddles": [0, 0],
        "min_bet": 2,
        "starting_stacks": [100, Decimal("0.125")],
        "actions": [],
    }
    with pytest.raises(HandError) as refused:
        to_record(history, table="T1", hand_no=1, unit=100)
    assert refused.value.as_dict()["error"] == {
        "code": "inexact_amount",
        "rule": None,
        "detail": "p2's starting stack 0.125 is 12.5 cents at 100 cents a chip, not a "
        "whole number of cents; import the file with the --unit its amounts are "
        "counted in.",
        "allowed": {"unit": 100},
    }
