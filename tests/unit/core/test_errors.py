"""Application errors are mapped to statuses at the edge, and only there."""

from __future__ import annotations

import pytest

from cardroom.domain.buyin import BuyInRefused
from cardroom.domain.errors import HandError
from core.api.errors import exception_handler
from core.errors import Conflict, Forbidden, Invalid, NotFound, Refusal


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
