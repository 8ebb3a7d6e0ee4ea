"""Row locks are only taken inside a transaction (pretix's ``lock_objects`` rule)."""

from __future__ import annotations

import pytest

from waitlist.models import Entry
from waitlist.services._shared import lock_entries, lock_lists


def test_a_lock_outside_a_transaction_is_refused_before_any_statement():
    """Outside ``transaction.atomic`` a row lock would end with its statement: the
    helpers raise at once, without touching the database (this test may not)."""
    with pytest.raises(RuntimeError, match="inside a transaction"):
        lock_lists([1, 2])
    with pytest.raises(RuntimeError, match="inside a transaction"):
        lock_entries(Entry.objects.filter(pk=1))
