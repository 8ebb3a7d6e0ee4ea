"""Helpers that lock rows refuse to run outside a database transaction."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from accounting.services.cage import cage_get, cash_activity_check, shift_open_get
from accounting.services.cage.receipts import receipt_number_take
from core.work import claim, lock_check
from waitlist.models import WaitingList
from waitlist.services._shared import locked

NOBODY = SimpleNamespace(pk=0, get_username=lambda: "nobody")

HELPERS = {
    "cage row": lambda: cage_get(code="MAIN", lock=True),
    "open shift": lambda: shift_open_get(cage=NOBODY, cashier=NOBODY),
    "receipt counter": lambda: receipt_number_take(NOBODY),
    "player (CA5)": lambda: cash_activity_check(player=NOBODY, amount_cents=1),
    "waiting lists": lambda: locked(WaitingList.objects.all()),
    "idempotency key": lambda: claim("s", "k", "f", SimpleNamespace(method="POST")),
}


@pytest.mark.parametrize("helper", HELPERS.values(), ids=HELPERS)
def test_a_lock_helper_outside_a_transaction_raises(helper):
    with pytest.raises(RuntimeError, match="inside a transaction"):
        helper()


def test_the_check_passes_inside_one(db):
    lock_check("anything")
