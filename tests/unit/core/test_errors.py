"""Application errors are mapped to statuses at the edge, and only there."""

from __future__ import annotations

import pytest

from cardroom.domain.buyin import BuyInRefused
from cardroom.domain.errors import HandError
from core import errors
from core.api.errors import exception_handler
from core.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refusal,
    Throttled,
    Unauthenticated,
    Unprocessable,
)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (Invalid("bad_amount", "Not cents."), 400),
        (Refusal("below_minimum", "Too little.", rule="BI1"), 422),
        (Refusal("bad_card", "No such card."), 400),
        (NotFound("not_found", "No table T99."), 404),
        (Conflict("hand_conflict", "Other content."), 409),
        (Forbidden("other_table", "Not your table."), 403),
        (HandError("duplicate_card", "Ah twice."), 400),
        (HandError("too_many_seats", "13 seats.", rule="HS1"), 422),
        (BuyInRefused("below_minimum", "BI1", "Too little.", {"min": 100}), 422),
        (Unprocessable("blinds_out_of_order", "Too small."), 422),
        (Unauthenticated("invalid_credentials", "Wrong password."), 401),
        (Throttled("locked_out", "Try later."), 429),
    ],
)
def test_each_error_answers_its_status_in_the_error_shape(error, status):
    """The handler gives each application error its status and API.md's body."""
    answer = exception_handler(error, {})
    assert answer is not None
    assert answer.status_code == status
    assert answer.data == {
        "error": {
            "code": error.code,
            "rule": error.rule,
            "detail": error.detail,
            "allowed": error.allowed,
        }
    }


def test_the_error_kinds_carry_no_http_status():
    """What a refusal is lives in core.errors; its status only at the edge."""
    for kind in vars(errors).values():
        if isinstance(kind, type) and issubclass(kind, errors.ApplicationError):
            assert not hasattr(kind, "status") and not hasattr(kind, "status_code")


def test_an_app_table_falls_back_on_the_shared_texts():
    """A shared code an app's table doesn't say is said by core's table."""
    refuse = errors.refuser({})
    error = refuse(errors.SharedCode.SEAT_EMPTY, s=3)
    assert (error.code, error.detail) == ("seat_empty", "Nobody sits in seat 3.")
