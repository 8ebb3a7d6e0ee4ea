"""Every refusal has the documented shape."""

from __future__ import annotations

import pytest

from accounting.errors import LedgerError
from core import errors
from core.api.errors import exception_handler
from core.roles import Role

pytestmark = pytest.mark.django_db


def test_unknown_api_url_is_404_in_the_error_shape(api):
    """An unknown API path answers 404 with the error object."""
    answer = api.get("/api/v1/no-such-thing")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_unknown_table_is_404(staff_client):
    """A table that doesn't exist answers 404 in the error shape."""
    answer = staff_client(Role.FLOOR).get("/api/v1/tables/T99")
    assert answer.status_code == 404
    assert answer.json() == {
        "error": {
            "code": "not_found",
            "rule": None,
            "detail": answer.json()["error"]["detail"],
            "allowed": None,
        }
    }


def test_malformed_body_is_400(api):
    """Malformed JSON is 400 malformed_request, not 500."""
    answer = api.post(
        "/api/v1/auth/login", data="{not json", content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "malformed_request"


def test_validation_error_lists_the_fields(api):
    """A missing field is 400 invalid with the field named."""
    answer = api.post("/api/v1/auth/login", {"username": "x"}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid"
    assert "password" in error["fields"]


def test_wrong_method_is_405(api):
    """GET on a POST-only endpoint is 405 in the error shape."""
    answer = api.get("/api/v1/auth/login")
    assert answer.status_code == 405
    assert answer.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (errors.Invalid("bad", "Unreadable."), 400),
        (errors.Refusal("refused", "By a rule.", rule="CA1"), 422),
        (errors.Refusal("refused", "By no rule."), 400),
        (errors.NotFound("missing", "Nothing."), 404),
        (errors.Conflict("taken", "Recorded otherwise.", rule="CA3"), 409),
        (errors.Forbidden("not_yours", "Someone else's.", rule="CA1"), 403),
        (LedgerError("not_cents", "Amounts are integer cents."), 422),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else str(v),
)
def test_every_application_error_kind_has_its_status(error, status):
    """The one handler maps each kind of core.errors to its status and shape."""
    answer = exception_handler(error, {})
    assert answer is not None and answer.status_code == status
    assert answer.data == {
        "error": {
            "code": error.code,
            "rule": error.rule,
            "detail": error.detail,
            "allowed": None,
        }
    }
