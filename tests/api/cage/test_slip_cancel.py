"""A fill or credit not issued can be cancelled with a reason; nothing moves (CA3)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, ProgrammingError, connection, transaction

from accounting.models import TableSlip
from tests.integration.cage.helpers import snapshot

from .conftest import post

pytestmark = pytest.mark.django_db

FILL = {"cage": "MAIN", "table": "T01", "amount": 25_000}


def books() -> dict:
    """Every balance, posting and record but the slips' own states."""
    return {k: v for k, v in snapshot().items() if k != "slips"}


def test_a_floor_person_cancels_a_fill_the_cashier_then_cant_issue(
    cage, cashier, floor, open_shift
):
    slip = post(floor, "cage/fills", FILL).json()
    before = books()

    answer = post(
        floor, f"cage/fills/{slip['id']}/cancel", {"reason": "Asked twice."}, "c-1"
    )

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["status"], body["cancelled_by"]) == ("cancelled", "fred")
    assert (body["cancel_reason"], body["transaction"]) == ("Asked twice.", None)
    assert books() == before
    replay = post(
        floor, f"cage/fills/{slip['id']}/cancel", {"reason": "Asked twice."}, "c-1"
    )
    assert replay.status_code == 200 and replay.json() == body
    issue = post(cashier, f"cage/fills/{slip['id']}/issue")
    assert issue.status_code == 409
    assert issue.json()["error"]["code"] == "slip_already_cancelled"
    assert books() == before
    assert TableSlip.objects.get().status == "cancelled"


def test_an_issued_credit_is_not_cancelled(cage, cashier, floor, open_shift):
    post(floor, "cage/fills", FILL)
    fill = TableSlip.objects.get()
    assert post(cashier, f"cage/fills/{fill.pk}/issue").status_code == 200
    credit = post(floor, "cage/credits", {**FILL, "amount": 5_000}).json()
    assert post(cashier, f"cage/credits/{credit['id']}/issue").status_code == 200
    before = snapshot()
    answer = post(floor, f"cage/credits/{credit['id']}/cancel", {"reason": "Late."})
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert (error["rule"], error["code"]) == ("CA3", "slip_already_issued")
    assert snapshot() == before


def test_a_cancel_needs_a_reason_and_a_floor_person(cage, cashier, floor, open_shift):
    slip = post(floor, "cage/fills", FILL).json()
    blank = post(floor, f"cage/fills/{slip['id']}/cancel", {"reason": "  "})
    assert blank.status_code == 422
    assert blank.json()["error"]["rule"] == "CA3"
    by_cashier = post(cashier, f"cage/fills/{slip['id']}/cancel", {"reason": "x"})
    assert by_cashier.status_code == 403
    wrong_kind = post(floor, f"cage/credits/{slip['id']}/cancel", {"reason": "x"})
    assert wrong_kind.status_code == 404
    assert TableSlip.objects.get().status == "pending"


def test_the_database_keeps_a_cancelled_slip_as_it_was(cage, floor, open_shift):
    slip = post(floor, "cage/fills", FILL).json()
    post(floor, f"cage/fills/{slip['id']}/cancel", {"reason": "Not needed."})
    with (
        pytest.raises(ProgrammingError, match="Cannot update"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "UPDATE accounting_tableslip SET status = 'pending', cancelled_by_id = "
            "NULL, cancelled_at = NULL, cancel_reason = '' WHERE id = %s",
            [slip["id"]],
        )
    pending = post(floor, "cage/fills", FILL).json()
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSlip.objects.filter(pk=pending["id"]).update(status="cancelled")
