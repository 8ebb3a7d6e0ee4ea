"""The ledger's horizon counts the caller's own transaction as ended: a day sealed
in the transaction that also wrote its last postings holds them (what it wrote
commits with the digest, or neither does)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection

from reports.leaves import ledger_horizon

pytestmark = pytest.mark.django_db


def test_the_horizon_is_above_the_callers_own_transaction():
    # A write gives the test's transaction its id; with nothing newer ended (an
    # idle server), the snapshot's xmax is that very id.
    Group.objects.create(name="horizon")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_xact_id()::text::bigint")
        (own,) = cursor.fetchone()
    assert ledger_horizon() > own
